import Foundation
import Geo
import Planner
import TransitModel

/// A plan answer as the API's JSON says it: what the terminal planner renders. Made either
/// from the planner's answer in process (`init(_:)`, no JSON in between) or by reading a
/// server's JSON (`read`); both give the same value for the same answer (PlanJSONTests
/// check it on real feeds), so `transit plan` prints the same text either way, and its
/// steps are the API's legs by construction. Only what the text and the map need is kept.
public struct AnswerDocument: Decodable, Sendable, Equatable {
    public struct Place: Decodable, Sendable, Equatable {
        public var name: String
        public var lat: Double
        public var lon: Double
        public var stopId: String?
        public var feed: String?
        public var platformCode: String?
    }

    public struct Leg: Decodable, Sendable, Equatable {
        public var mode: String
        public var instruction: String
        public var departure: String
        public var arrival: String
        public var from: Place
        public var to: Place
        public var route: String?
        public var routeColor: String?
        public var routeTextColor: String?
        /// What the times as shown need (`ShownTimes`): the walk's meters, a change's wait.
        public var distanceMeters: Double = 0
        public var waitSeconds: Int64?
        /// A walk's model (`streets`, `beeline`), nil when the answer does not say.
        public var walkModel: String?
        /// A walk's steps along streets (empty for a beeline), nil when the answer does not say.
        public var walkSteps: [WalkStep]?
        /// A ride's realtime alerts (planned on realtime), nil when the answer does not say.
        public var alerts: [Alert]?
        /// A ride's stops between boarding and alighting (name and id), nil for a walk.
        public var intermediateStops: [PassedStop]?
        /// The `stop_id`s of those its trip passes without stopping that day (realtime `SKIPPED`).
        public var skippedStops: [String]?

        /// The names of the stops the ride passes without stopping, in order.
        public var skippedStopNames: [String] {
            guard let skipped = skippedStops, !skipped.isEmpty else { return [] }
            return (intermediateStops ?? []).filter { $0.stopId.map(skipped.contains) ?? false }.map(\.name)
        }
    }

    /// A stop a ride passes, as the text needs it.
    public struct PassedStop: Decodable, Sendable, Equatable {
        public var name: String
        public var stopId: String?
        public init(name: String, stopId: String?) { self.name = name; self.stopId = stopId }
    }

    /// A realtime alert on a ride, as the API writes it: what the terminal shows under the step.
    public struct Alert: Decodable, Sendable, Equatable {
        public var id: String
        public var header: String?
        public var description: String?
        public var url: String?
        public var effect: String?
        public init(id: String, header: String?, description: String?, url: String?, effect: String?) {
            self.id = id; self.header = header; self.description = description; self.url = url; self.effect = effect
        }
    }

    /// One step of a walk along streets, as the API writes it.
    public struct WalkStep: Decodable, Sendable, Equatable {
        public var action: String
        public var street: String?
        public var kind: String
        public var meters: Double
        public var heading: String?
        /// The sentence: "Head north on Via Torino, 120 m".
        public var instruction: String
        /// Where the step starts: longitude, latitude (as the map's positions).
        public var point: [Double]?

        public init(action: String, street: String?, kind: String, meters: Double, heading: String?, instruction: String, point: [Double]?) {
            self.action = action; self.street = street; self.kind = kind; self.meters = meters; self.heading = heading
            self.instruction = instruction; self.point = point
        }
    }

    public struct Summary: Decodable, Sendable, Equatable {
        public var departure: String
        public var arrival: String
        public var durationSeconds: Int64
        public var rides: Int
        public var changes: Int
        public var modes: [String]
        public var walkMeters: Double
        public var walkSeconds: Int64
        public var waitingSeconds: Int64
    }

    /// One GeoJSON feature of an itinerary's map: a leg's line or a pin.
    public struct Feature: Decodable, Sendable, Equatable {
        public struct Geometry: Decodable, Sendable, Equatable {
            public var type: String
            /// A LineString's positions, or a Point's one (longitude, latitude).
            public var positions: [[Double]]
            enum CodingKeys: String, CodingKey { case type, coordinates }
            init(type: String, positions: [[Double]]) { self.type = type; self.positions = positions }
            public init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                type = try c.decode(String.self, forKey: .type)
                positions = type == "Point" ? [try c.decode([Double].self, forKey: .coordinates)]
                    : try c.decode([[Double]].self, forKey: .coordinates)
            }
        }
        public struct Properties: Decodable, Sendable, Equatable {
            public var color: String
            public var legIndex: Int
            public var mode: String
            public var role: String
        }
        public var geometry: Geometry
        public var properties: Properties
    }

    public struct Map: Decodable, Sendable, Equatable { public var features: [Feature] }

    public struct Itinerary: Decodable, Sendable, Equatable {
        public var legs: [Leg]
        public var labels: [String]
        public var summary: Summary
        public var map: Map
        /// What follows it (`/v1/trips/{token}/events`); nil: the walk-only journey, or an
        /// answer made in process.
        public var tripToken: String? = nil
    }

    public struct Notice: Decodable, Sendable, Equatable { public var code: String; public var message: String }

    public struct Query: Decodable, Sendable, Equatable {
        public var time: String
        public var timeZone: String
        public var arriveBy: Bool
    }

    public var itineraries: [Itinerary]
    /// The option the rider is recommended (the least rider's cost).
    public var recommended: Int
    /// The routing model's first itinerary (absent from servers that predate the rider's filter).
    public var modelFirst: Int?
    public var notices: [Notice]
    public var query: Query
    /// The realtime messages the answer was planned on (nil: it was planned on the timetable alone).
    public var realtime: [RealtimeMessageUsed]?

    /// One feed's realtime message an answer used, as the API writes it (`PlanAnswerJSON.RealtimeUsed`).
    public struct RealtimeMessageUsed: Decodable, Sendable, Equatable {
        public var feed: String
        /// The message's header time (ISO 8601, UTC).
        public var messageTime: String?
        public var ageSeconds: Int64?
        public var tripUpdates: Int
        public var applied: Int
    }

    /// Why there is no document: the answer's error (`{"error": {"code", "message"}}`:
    /// the planner's reasons, and whatever else a server answers, such as `RATE_LIMITED`),
    /// or `BAD_ANSWER` when the bytes are no answer at all.
    public struct ReadError: Error, Sendable, Equatable {
        public var code: String
        public var message: String
        public init(code: String, message: String) { self.code = code; self.message = message }
        /// A planner's reason, as a server's JSON carries it.
        public init(_ e: PlanError, language: Language = .en) { self.init(code: e.code.rawValue, message: e.message(language)) }
    }

    /// The answer in `json`, or the error it holds.
    public static func read(_ json: [UInt8]) throws(ReadError) -> AnswerDocument {
        struct ErrorBody: Decodable { struct E: Decodable { var code: String; var message: String }; var error: E? }
        let data = Data(json)
        if let e = try? JSONDecoder().decode(ErrorBody.self, from: data), let error = e.error {
            throw ReadError(code: error.code, message: error.message)
        }
        do { return try JSONDecoder().decode(AnswerDocument.self, from: data) } catch {
            throw ReadError(code: "BAD_ANSWER", message: "the answer could not be read: \(error)")
        }
    }

    /// Itinerary `i`'s map as the planner made it (the same features, in order).
    public func map(of i: Int) -> ItineraryMap {
        ItineraryMap(features: itineraries[i].map.features.map { f in
            let c = f.geometry.positions.map { Coordinate(latitude: $0.count > 1 ? $0[1] : 0, longitude: $0.first ?? 0) }
            return ItineraryMap.Feature(geometry: f.geometry.type == "Point" ? .point(c[0]) : .lineString(c),
                                        legIndex: f.properties.legIndex, role: f.properties.role,
                                        mode: LegMode(rawValue: f.properties.mode) ?? .bus, color: f.properties.color)
        })
    }
}
