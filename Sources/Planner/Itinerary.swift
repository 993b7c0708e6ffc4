import FeedNetwork
import Foundation
import Geo
import GTFSRealtime
import Raptor
import Realtime
import Streets
import Timetable
import TransitModel

/// A place at either end of a leg.
public struct ItineraryPlace: Sendable, Equatable {
    public var name: String
    /// Set when the place is a stop.
    public var stopId: String?
    public var feed: String?
    public var platformCode: String?
    public var coordinate: Coordinate
}

/// A stop passed during a ride, with its times (UTC seconds).
public struct PassedStop: Sendable, Equatable {
    public var place: ItineraryPlace
    public var arrival: Int64
    public var departure: Int64
}

/// What a ride adds to a leg.
public struct RideDetails: Sendable, Equatable {
    public var agency: String
    public var routeId: String
    public var routeShortName: String?
    public var routeLongName: String?
    public var routeColor: String?
    public var routeTextColor: String?
    public var headsign: String?
    public var tripId: String
    public var serviceDate: ServiceDate
    /// The shape the geometry follows (shapes.txt), or nil when it is drawn straight
    /// through the stops.
    public var shapeId: String?
    /// Stops between boarding and alighting, in order.
    public var intermediateStops: [PassedStop]
}

/// One step of an itinerary: what a person reads and what a map draws.
public struct ItineraryLeg: Sendable, Equatable {
    public var mode: LegMode
    public var from: ItineraryPlace
    public var to: ItineraryPlace
    /// UTC seconds since 1970.
    public var departure: Int64
    public var arrival: Int64
    public var durationSeconds: Int64 { arrival - departure }
    public var distanceMeters: Double
    /// For a change: seconds waited at the stop after walking (0 otherwise).
    public var waitSeconds: Int64
    /// What the instruction says, as data (to translate later).
    public var step: LegInstruction
    /// The sentence a person in a hurry reads (`step` in English).
    public var instruction: String { step.english }
    public var ride: RideDetails?
    /// The line the map draws, from `from` to `to`.
    public var geometry: [Coordinate]
    /// For a walk (access, egress, a change's walk, the walk-only trip): how its length was
    /// found, and along streets its path (the same as `geometry`) and its steps.
    public var walk: WalkRoute? = nil
    /// For a ride: its realtime facts when an applied TripUpdate names its trip and date
    /// (nil: none does, or the plan did not route on realtime).
    public var realtime: RideRealtime? = nil
    /// For a ride, with realtime: the alerts of its feed's message that name its agency,
    /// route, trip, or the stop where it is boarded or left, active during the ride
    /// (`RealtimeAlerts`).
    public var alerts: [RealtimeMessage.Alert] = []
    /// For a ride, with realtime: the vehicle running its trip that day, where the feed's
    /// VehiclePositions last put it (the map draws it).
    public var vehicle: RealtimeVehicle? = nil
}

/// The numbers that set itineraries apart.
public struct ItinerarySummary: Sendable, Equatable {
    public var departure: Int64
    public var arrival: Int64
    public var durationSeconds: Int64 { arrival - departure }
    public var walkMeters: Double
    public var walkSeconds: Int64
    public var rides: Int
    public var changes: Int { max(0, rides - 1) }
    public var waitingSeconds: Int64
    /// Transit modes in order of use, each once.
    public var modes: [LegMode]
}

/// A journey a rider can follow: one list of legs, from which the steps and the map are
/// both made, so the two cannot disagree.
public struct Itinerary: Sendable, Equatable {
    public var legs: [ItineraryLeg]
    public var summary: ItinerarySummary
}

extension JourneyPlanner {
    /// The itinerary of a planned journey.
    public func itinerary(_ journey: Journey, in result: PlanResult) -> Itinerary {
        itinerary(journey, in: result, walks: WalkRouteMemo())
    }

    /// As `itinerary(_:in:)`, with the walks found for other itineraries of the same
    /// result: an answer's options often share a walk (the same first stop at several
    /// departures), each a search of the streets.
    func itinerary(_ journey: Journey, in result: PlanResult, walks memo: WalkRouteMemo) -> Itinerary {
        let tt = timetable
        let snapshot = network.snapshot
        let zone = self.zone(result.timeZone)
        func stopPlace(_ s: StopIndex) -> ItineraryPlace {
            let st = snapshot.stops[s.index]
            var name = st.name
            if name.isEmpty, st.parent >= 0 { name = snapshot.stops[Int(st.parent)].name }
            return ItineraryPlace(name: name.isEmpty ? st.stopId : name, stopId: st.stopId, feed: snapshot.feedIds[Int(st.feed)],
                                  platformCode: st.platformCode, coordinate: network.coordinate(ofStop: s)!)
        }
        let origin = ItineraryPlace(name: "Origin", stopId: nil, feed: nil, platformCode: nil, coordinate: result.origin)
        let destination = ItineraryPlace(name: "Destination", stopId: nil, feed: nil, platformCode: nil, coordinate: result.destination)
        var legs: [ItineraryLeg] = []

        // A walk leg's path: along the streets where the plan walked them and both ends
        // snap (the same search as the plan's, so the same walkMeters), else the beeline
        // (also between two places at one point: no walk, 0 m).
        let graph = result.streets, wheelchair = result.wheelchair
        func stopSnap(_ s: StopIndex) -> StreetSnap? { graph == nil ? nil : network.snap(ofStop: s, wheelchair: wheelchair) }
        // Ends: a stop by its index, the origin -1, the destination -2 (the memo's keys).
        func route(_ from: ItineraryPlace, _ fromEnd: Int, _ a: StreetSnap?, _ to: ItineraryPlace, _ toEnd: Int, _ b: StreetSnap?,
                   limit: Double, meters: Double) -> WalkRoute {
            if let graph, let a, let b, a.place != b.place {
                let key = Int64(fromEnd) << 32 | (Int64(toEnd) & 0xFFFF_FFFF)
                if let r = memo.routes[key] ?? graph.route(from: a, to: b, limit: limit, wheelchair: wheelchair) {
                    memo.routes[key] = r
                    return r
                }
            }
            return WalkRoute(model: .beeline, meters: meters, walkMeters: meters, geometry: [from.coordinate, to.coordinate], steps: [])
        }
        let p = result.parameters
        if let meters = journey.walkMeters {
            let walk = route(origin, -1, result.originSnap, destination, -2, result.destinationSnap, limit: p.maxDirectWalk,
                             meters: meters)
            legs.append(walkLeg(origin, destination, journey.departure, journey.arrival, walk, wait: 0, change: false))
        }
        for (i, leg) in journey.legs.enumerated() {
            switch leg {
            case .access(let stop, let dep, let arr, let m):
                guard m > 0 else { continue }  // the origin is the stop itself
                let to = stopPlace(stop)
                let walk = route(origin, -1, result.originSnap, to, stop.index, stopSnap(stop), limit: p.maxAccessWalk, meters: m)
                legs.append(walkLeg(origin, to, dep, arr, walk, wait: 0, change: false))
            case .egress(let stop, let dep, let arr, let m):
                guard m > 0 else { continue }
                let from = stopPlace(stop)
                let walk = route(from, stop.index, stopSnap(stop), destination, -2, result.destinationSnap, limit: p.maxAccessWalk, meters: m)
                legs.append(walkLeg(from, destination, dep, arr, walk, wait: 0, change: false))
            case .transfer(let from, let to, let dep, _, let m):
                // The change lasts until the next ride leaves; the walk is part of it.
                var nextDeparture = dep
                if i + 1 < journey.legs.count, case .ride(_, _, _, _, _, let d, _) = journey.legs[i + 1] { nextDeparture = d }
                let walk = Int64((m / result.parameters.walkSpeed).rounded(.up))
                let wait = max(0, nextDeparture - dep - (from == to ? 0 : walk))
                let a = stopPlace(from), b = stopPlace(to)
                // The timetable looked for street footpaths within its radius × 1.3; one
                // not found there (a transfers.txt rule's) is walked as the beeline.
                let path = from == to ? route(a, from.index, nil, b, to.index, nil, limit: 0, meters: m)
                    : route(a, from.index, stopSnap(from), b, to.index, stopSnap(to),
                            limit: tt.footpathBeelineMeters * TimetableBuilder.streetFootpathFactor, meters: m)
                legs.append(walkLeg(a, b, dep, nextDeparture, path, wait: wait, change: true))
            case .ride(let route, let trip, let day, let fromPos, let toPos, let dep, let arr):
                let r = route.index
                let stopsStart = Int(tt.routeStopOffsets[r])
                let j = Int(trip.raw - tt.routeTripOffsets[r])
                let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
                var stops: [Coordinate] = []
                var passed: [PassedStop] = []
                var realtime = i < journey.legRealtime.count ? journey.legRealtime[i] : nil
                if let r = realtime { realtime?.skippedStopIds = r.skippedStops.map { network.snapshot.stops[$0.index].stopId } }
                for pos in fromPos.index...toPos.index {
                    let s = tt.routeStops[stopsStart + pos]
                    stops.append(network.coordinate(ofStop: s)!)
                    if pos != fromPos.index && pos != toPos.index {
                        if let realtime {
                            // The expected times, not the scheduled ones.
                            let k = pos - fromPos.index - 1
                            passed.append(PassedStop(place: stopPlace(s), arrival: realtime.passedArrivals[k],
                                                     departure: realtime.passedDepartures[k]))
                        } else {
                            passed.append(PassedStop(place: stopPlace(s), arrival: base + Int64(tt.arrival(route: r, position: pos, run: j)),
                                                     departure: base + Int64(tt.departure(route: r, position: pos, run: j))))
                        }
                    }
                }
                // The trip's shape cut between boarding and alighting, else straight lines.
                let shape = tt.shape(ofTrip: trip)
                let shaped = shape.flatMap { shapeCuts.cut(route: route, shape: $0, network: network) }?
                    .line(from: fromPos.index, to: toPos.index, stops: stops, shapes: network.shapes)
                let geometry = shaped ?? stops
                let meters = Self.lineLength(geometry)
                let src = snapshot.routes[tt.routeSourceRoute[r].index]
                let t = snapshot.trips[tt.tripSource[trip.index].index]
                let mode = LegMode(routeType: Int(src.type))
                let details = RideDetails(agency: snapshot.agencies.isEmpty ? "" : snapshot.agencies[Int(src.agency)].name,
                                          routeId: src.routeId, routeShortName: src.shortName, routeLongName: src.longName,
                                          routeColor: src.color, routeTextColor: src.textColor, headsign: t.headsign,
                                          tripId: t.tripId, serviceDate: tt.firstDay.adding(days: day),
                                          shapeId: shaped == nil ? nil : shape.map { snapshot.shapeIds[$0.index] },
                                          intermediateStops: passed)
                let from = stopPlace(tt.stop(onRoute: route, at: fromPos)), to = stopPlace(tt.stop(onRoute: route, at: toPos))
                let name = src.shortName ?? src.longName ?? src.routeId
                // The times are set below, as shown (`instructions`).
                let step = LegInstruction.ride(mode: mode, route: name, headsign: t.headsign, departure: "",
                                               from: ItineraryText.describe(from), stops: toPos.index - fromPos.index,
                                               to: ItineraryText.describe(to), arrival: "")
                legs.append(ItineraryLeg(mode: mode, from: from, to: to, departure: dep, arrival: arr, distanceMeters: meters,
                                         waitSeconds: 0, step: step, ride: details, geometry: geometry, realtime: realtime))
            }
        }
        Self.instructions(&legs, zone: zone, askedDay: Self.localDate(result.time, zone))
        var modes: [LegMode] = []
        for l in legs where l.mode != .walk && !modes.contains(l.mode) { modes.append(l.mode) }
        let walks = legs.filter { $0.mode == .walk }
        let summary = ItinerarySummary(
            departure: journey.departure, arrival: journey.arrival,
            walkMeters: walks.reduce(0) { $0 + $1.distanceMeters },
            walkSeconds: walks.reduce(0) { $0 + $1.durationSeconds - $1.waitSeconds },
            rides: journey.rides, waitingSeconds: walks.reduce(0) { $0 + $1.waitSeconds }, modes: modes)
        return Itinerary(legs: legs, summary: summary)
    }

    /// A ride's length along its line. Per segment on a sphere (equirectangular at the
    /// segment's mean latitude) rather than PROJ's geodesic: a shape has thousands of
    /// points, and a geodesic per segment made an answer on BART 40× slower than its
    /// search; over segments of tens of meters the two differ by well under 1%.
    static func lineLength(_ line: [Coordinate]) -> Double {
        let r = 6_371_008.8 * Double.pi / 180
        var total = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let k = cos((a.latitude + b.latitude) * 0.5 * Double.pi / 180)
            let dx = (b.longitude - a.longitude) * k, dy = b.latitude - a.latitude
            total += (dx * dx + dy * dy).squareRoot() * r
        }
        return total
    }

    /// A walk leg: its length the real meters of `walk` (the model's walkMeters for a
    /// beeline), its line the walk's.
    private func walkLeg(_ from: ItineraryPlace, _ to: ItineraryPlace, _ dep: Int64, _ arr: Int64, _ walk: WalkRoute,
                         wait: Int64, change: Bool) -> ItineraryLeg {
        let meters = walk.meters
        // The minutes are set below, as shown (`instructions`).
        let step: LegInstruction
        if change {
            step = from.stopId == to.stopId ? .changeWait(at: ItineraryText.describe(to), waitMinutes: 0)
                : .changeWalk(meters: meters, minutes: 0, to: ItineraryText.describe(to), waitMinutes: 0)
        } else {
            step = .walk(meters: meters, minutes: 0, to: to.stopId == nil ? nil : ItineraryText.describe(to))
        }
        return ItineraryLeg(mode: .walk, from: from, to: to, departure: dep, arrival: arr, distanceMeters: meters,
                            waitSeconds: wait, step: step, ride: nil, geometry: walk.geometry, walk: walk)
    }

    /// Sets the times and minutes in each leg's instruction as a rider is shown them
    /// (`ShownTimes`, the routing model's "Times as shown"): each time with its day when
    /// it is not `askedDay`, and walks and waits that add up to the times of the steps.
    static func instructions(_ legs: inout [ItineraryLeg], zone: TimeZone, askedDay: ServiceDate) {
        let shown = ShownTimes.journey(legs.map(\.shownLeg))
        func clock(_ t: Int64) -> String { ShownTimes.clock(t, zone, askedDay: askedDay) }
        for (i, step) in shown.steps.enumerated() {
            switch legs[i].step {
            case .ride(let mode, let route, let headsign, _, let from, let stops, let to, _):
                var departure = clock(step.start), arrival = clock(step.end)
                if let rt = legs[i].realtime {
                    departure = ShownTimes.withDelay(departure, expected: rt.expectedDeparture, scheduled: rt.scheduledDeparture, arrival: false)
                    arrival = ShownTimes.withDelay(arrival, expected: rt.expectedArrival, scheduled: rt.scheduledArrival, arrival: true)
                }
                legs[i].step = .ride(mode: mode, route: route, headsign: headsign, departure: departure, from: from,
                                     stops: stops, to: to, arrival: arrival)
            case .walk(let meters, _, let to):
                legs[i].step = .walk(meters: meters, minutes: step.walkMinutes, to: to)
            case .changeWalk(let meters, _, let to, _):
                legs[i].step = .changeWalk(meters: meters, minutes: step.walkMinutes, to: to, waitMinutes: step.waitMinutes)
            case .changeWait(let at, _):
                legs[i].step = .changeWait(at: at, waitMinutes: step.waitMinutes)
            }
        }
    }
}

/// The street walks of one plan result's itineraries, by their ends (see `itinerary`).
final class WalkRouteMemo {
    var routes: [Int64: WalkRoute] = [:]
}

extension ItineraryLeg {
    /// The leg as `ShownTimes` reads it.
    public var shownLeg: ShownTimes.Leg {
        ShownTimes.Leg(isRide: ride != nil, isChange: mode == .walk && from.stopId != nil && to.stopId != nil,
                       departure: departure, arrival: arrival, meters: distanceMeters, waitSeconds: waitSeconds)
    }
}
