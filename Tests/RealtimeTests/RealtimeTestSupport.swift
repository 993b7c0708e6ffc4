import FeedNetwork
import Foundation
import GTFSRealtime
import Raptor
import Realtime
import Timetable
import TransitModel
import TransitTesting

// The overlay's rule tests: a tiny network (`NetworkBuilder`, feed "test", UTC, service on
// Monday 2020-04-20), a message made in code, `RealtimeState.build`, then the router on
// the state's timetable, each journey as one compact line with its rides named by the
// static routes they stand for.

typealias Message = RealtimeMessage
typealias Update = RealtimeMessage.TripUpdate
typealias StopUpdate = RealtimeMessage.StopTimeUpdate
typealias Event = RealtimeMessage.StopTimeEvent
typealias Descriptor = RealtimeMessage.TripDescriptor

let testDate = NetworkBuilder.testDate
/// "20200420".
let testDateText = "20200420"

/// UTC seconds of wall-clock `time` on the test date.
func utc(_ time: String, on date: ServiceDate = testDate) -> Int64 {
    Int64(date.daysSinceEpoch) * 86_400 + Int64(NetworkBuilder.clock(time))
}

/// An update of trip `id` on the test date.
func update(_ id: String, _ stops: [StopUpdate] = [], date: String? = testDateText, relationship: RealtimeMessage.TripRelationship = .scheduled,
            delay: Int32? = nil, entity: String? = nil) -> Update {
    Update(entityId: entity ?? id, trip: Descriptor(tripId: id, startDate: date, scheduleRelationship: relationship),
           stopTimeUpdates: stops, delay: delay)
}

/// A stop time update by stop id with a delay (arrival and departure alike unless given).
func at(_ stop: String, delay: Int32? = nil, arrival: Int64? = nil, departure: Int64? = nil, arrivalDelay: Int32? = nil,
        sequence: Int? = nil, _ relationship: RealtimeMessage.StopRelationship = .scheduled) -> StopUpdate {
    var a: Event? = nil, d: Event? = nil
    if let delay { a = Event(delay: delay); d = Event(delay: delay) }
    if let arrivalDelay { a = Event(delay: arrivalDelay) }
    if let arrival { a = Event(time: arrival) }
    if let departure { d = Event(time: departure) }
    return StopUpdate(stopSequence: sequence, stopId: sequence == nil ? stop : nil, arrival: a, departure: d, scheduleRelationship: relationship)
}

/// A built network with one message applied.
struct RealtimeCase {
    let network: TransitNetwork
    let state: RealtimeState
    let router: RaptorRouter
    let staticRouter: RaptorRouter

    init(_ b: NetworkBuilder, _ updates: [Update], timestamp: Int64? = utc("0:00"), incrementality: Message.Incrementality = .fullDataset) throws {
        network = try b.network()
        state = RealtimeState.build(network: network, messages: ["test": Message(timestamp: timestamp, incrementality: incrementality, tripUpdates: updates)])
        router = RaptorRouter(timetable: state.timetable)
        staticRouter = RaptorRouter(timetable: network.timetable)
    }

    var report: RealtimeFeedReport { state.reports[0] }

    func stop(_ id: String) -> StopIndex { StopIndex(network.snapshot.stops.firstIndex { $0.stopId == id }!) }

    /// Journeys from stop to stop at `time` on the test date (days D − 1, D, D + 1), on the
    /// overlay (`realtime`) or the static timetable.
    func route(_ from: String, _ to: String, at time: String, arriveBy: Bool = false, realtime: Bool = true) throws -> [String] {
        let tt = realtime ? state.timetable : network.timetable
        let d = Int(testDate.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
        let request = try RaptorRequest(arriveBy: arriveBy, time: utc(time), access: [StopWalk(stop: stop(from), seconds: 0, meters: 0)],
                                        egress: [StopWalk(stop: stop(to), seconds: 0, meters: 0)], days: [d - 1, d, d + 1],
                                        parameters: RoutingParameters(), timetable: tt)
        return (realtime ? router : staticRouter).route(request).map { j in
            let legs = j.legs.map { leg -> RaptorLeg in
                guard case .ride(let r, let t, let day, let a, let b, let dep, let arr) = leg else { return leg }
                return .ride(route: state.staticRoute(of: r), trip: state.staticTrip(of: t), day: day, from: a, to: b, departure: dep, arrival: arr)
            }
            return CompactJourney.format(rides: j.rides, departure: j.departure, arrival: j.arrival, legs: legs, network: network,
                                         zone: "UTC", reference: testDate)
        }
    }

    /// Trip `id`'s (arrival, departure) at each of its stops on the test date as the overlay
    /// runs it, "H:MM" each ("-" where it neither boards nor alights); nil: it does not run.
    func times(_ id: String) -> [String]? {
        let tt = state.timetable
        let source = network.snapshot.trips.firstIndex { $0.tripId == id }!
        let day = Int(testDate.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
        for t in 0..<tt.tripCount where tt.tripSource[t].index == source && tt.serviceRuns(tt.tripService[t], day: day) {
            var r = 0
            while Int(tt.routeTripOffsets[r + 1]) <= t { r += 1 }
            if tt.routeRemoved(r, day: day) { continue }
            let nt = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r]), j = t - Int(tt.routeTripOffsets[r])
            let start = Int(tt.routeStopOffsets[r])
            return (0..<(Int(tt.routeStopOffsets[r + 1]) - start)).map { p in
                let a = tt.arrival(route: r, position: p, run: j), d = tt.departure(route: r, position: p, run: j)
                let stop = network.snapshot.stops[tt.routeStops[start + p].index].stopId
                if !tt.runStops(j, ofRoute: r, at: p) || !tt.routeCanBoard[start + p] && !tt.routeCanAlight[start + p] { return "\(stop) -" }
                return a == d ? "\(stop) \(clock(a))" : "\(stop) \(clock(a))/\(clock(d))"
            }
        }
        return nil
    }

    func clock(_ s: Int32) -> String {
        let m = s / 60, sec = s % 60
        return sec == 0 ? "\(m / 60):\(String(format: "%02d", m % 60))" : "\(m / 60):\(String(format: "%02d", m % 60)):\(String(format: "%02d", sec))"
    }
}

/// A line A-B-C-D (2 km apart) with trips T1 (0:00, 0:10, 0:20, 0:30) and T2 (an hour later).
func lineABCD() -> NetworkBuilder {
    var b = NetworkBuilder()
    b.line("A", "B", "C", "D")
    b.trip("T1", route: "R1", direction: 0, "A 0:00, B 0:10, C 0:20, D 0:30")
    b.trip("T2", route: "R1", direction: 0, "A 1:00, B 1:10, C 1:20, D 1:30")
    return b
}
