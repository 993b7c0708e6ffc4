import Foundation
import Geo
import Planner
import Streets
import TransitModel

extension AnswerDocument {
    /// The document the API's JSON (`PlanAnswerJSON.answerBytes`) would read back as, made
    /// straight from the planner's answer: the same strings (ISO times with the zone's
    /// offset, instructions, route names) and the same rounding (map positions to six
    /// decimals, walks to whole meters). `realtime`: the messages the answer was planned on
    /// (its rides then carry their alerts, as the JSON's `alerts`), nil when none.
    public init(_ a: PlanAnswer, realtime used: [PlanAnswerJSON.RealtimeUsed]? = nil, language: Language = .en) {
        let realtime = used != nil
        let zone = TimeZone(identifier: a.result.timeZone) ?? TimeZone(identifier: "UTC")!
        func iso(_ t: Int64) -> String { PlanAnswerJSON.iso(t, zone) }
        func place(_ p: ItineraryPlace) -> Place {
            Place(name: p.name, lat: p.coordinate.latitude, lon: p.coordinate.longitude, stopId: p.stopId, feed: p.feed,
                  platformCode: p.platformCode)
        }
        func position(_ c: Coordinate) -> [Double] { let p = ItineraryMap.position(c); return [p.longitude, p.latitude] }
        itineraries = a.options.map { o in
            let it = o.itinerary, s = it.summary
            let legs = it.legs.map { leg in
                Leg(mode: leg.mode.rawValue, instruction: leg.step.text(language), departure: iso(leg.departure),
                    arrival: iso(leg.arrival), from: place(leg.from), to: place(leg.to),
                    route: leg.ride.map { $0.routeShortName ?? $0.routeLongName ?? $0.routeId },
                    routeColor: leg.ride?.routeColor, routeTextColor: leg.ride?.routeTextColor,
                    distanceMeters: (leg.distanceMeters * 10).rounded() / 10, waitSeconds: leg.shownLeg.isChange ? leg.waitSeconds : nil,
                    walkModel: leg.walk?.model.rawValue, walkSteps: leg.walk.map { walk in
                        walk.steps.map { s in
                            WalkStep(action: s.action.rawValue, street: s.street, kind: s.kind.name, meters: (s.meters * 10).rounded() / 10,
                                     heading: s.heading, instruction: s.text(language), point: walk.start(of: s).map(position))
                        }
                    },
                    alerts: leg.ride != nil && realtime ? leg.alerts.map { a in
                        Alert(id: a.entityId, header: a.header.first?.text, description: a.description.first?.text,
                              url: a.url.first?.text, effect: a.effect)
                    } : nil,
                    intermediateStops: leg.ride?.intermediateStops.map { PassedStop(name: $0.place.name, stopId: $0.place.stopId) },
                    skippedStops: leg.realtime?.skippedStopIds)
            }
            let summary = Summary(departure: iso(s.departure), arrival: iso(s.arrival), durationSeconds: s.durationSeconds,
                                  rides: s.rides, changes: s.changes, modes: s.modes.map(\.rawValue),
                                  walkMeters: s.walkMeters.rounded(), walkSeconds: s.walkSeconds, waitingSeconds: s.waitingSeconds)
            let features = ItineraryMap(it).features.map { f in
                let geometry: Feature.Geometry
                switch f.geometry {
                case .lineString(let cs): geometry = Feature.Geometry(type: "LineString", positions: cs.map(position))
                case .point(let c): geometry = Feature.Geometry(type: "Point", positions: [position(c)])
                }
                return Feature(geometry: geometry, properties: Feature.Properties(color: f.color, legIndex: f.legIndex,
                                                                                   mode: f.mode.rawValue, role: f.role))
            }
            return Itinerary(legs: legs, labels: o.labels, summary: summary, map: Map(features: features))
        }
        recommended = a.recommended
        modelFirst = a.modelFirst
        notices = a.notices.map { Notice(code: $0.code.rawValue, message: $0.message(language)) }
        query = Query(time: iso(a.result.time), timeZone: a.result.timeZone, arriveBy: a.arriveBy)
        let utc = TimeZone(identifier: "UTC")!
        self.realtime = used?.map { u in
            RealtimeMessageUsed(feed: u.feed, messageTime: u.messageTime.map { PlanAnswerJSON.iso($0, utc) }, ageSeconds: u.ageSeconds,
                                tripUpdates: u.tripUpdates, applied: u.applied)
        }
    }
}
