import Foundation
import Geo

/// A plan answer as the API writes it (`PlanAnswerJSON`), read back. The terminal planner
/// renders this, never the planner's own structures: its text is then the same whether it
/// planned in process or asked a server (`--server`), and its steps are the API's legs by
/// construction. Only what the text and the map need is read; the rest is ignored.
public struct AnswerDocument: Decodable, Sendable {
    public struct Place: Decodable, Sendable {
        public var name: String
        public var lat: Double
        public var lon: Double
        public var stopId: String?
        public var feed: String?
        public var platformCode: String?
    }

    public struct Leg: Decodable, Sendable {
        public var mode: String
        public var instruction: String
        public var departure: String
        public var arrival: String
        public var from: Place
        public var to: Place
        public var route: String?
        public var routeColor: String?
        public var routeTextColor: String?
    }

    public struct Summary: Decodable, Sendable {
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
    public struct Feature: Decodable, Sendable {
        public struct Geometry: Decodable, Sendable {
            public var type: String
            /// A LineString's positions, or a Point's one (longitude, latitude).
            public var positions: [[Double]]
            enum CodingKeys: String, CodingKey { case type, coordinates }
            public init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                type = try c.decode(String.self, forKey: .type)
                positions = type == "Point" ? [try c.decode([Double].self, forKey: .coordinates)]
                    : try c.decode([[Double]].self, forKey: .coordinates)
            }
        }
        public struct Properties: Decodable, Sendable {
            public var color: String
            public var legIndex: Int
            public var mode: String
            public var role: String
        }
        public var geometry: Geometry
        public var properties: Properties
    }

    public struct Map: Decodable, Sendable { public var features: [Feature] }

    public struct Itinerary: Decodable, Sendable {
        public var legs: [Leg]
        public var labels: [String]
        public var summary: Summary
        public var map: Map
    }

    public struct Notice: Decodable, Sendable { public var code: String; public var message: String }

    public struct Query: Decodable, Sendable {
        public var time: String
        public var timeZone: String
        public var arriveBy: Bool
    }

    public var itineraries: [Itinerary]
    public var recommended: Int
    public var notices: [Notice]
    public var query: Query

    /// The answer in `json`, or the error it holds (`{"error": {"code", "message"}}`).
    public static func read(_ json: [UInt8]) throws(PlanError) -> AnswerDocument {
        struct ErrorBody: Decodable { struct E: Decodable { var code: String; var message: String }; var error: E? }
        let data = Data(json)
        if let e = try? JSONDecoder().decode(ErrorBody.self, from: data), let error = e.error {
            throw PlanError(error.code, error.message)
        }
        do { return try JSONDecoder().decode(AnswerDocument.self, from: data) } catch {
            throw PlanError("BAD_ANSWER", "the answer could not be read: \(error)")
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
