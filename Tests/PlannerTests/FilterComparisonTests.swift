import FeedNetwork
import Foundation
import Geo
import GTFS
@testable import Planner
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Ride filters (modes, wheelchair) against the reference router: random route, trip and
/// stop filters on real feeds; the reference sees them as a snapshot where boarding and
/// alighting are forbidden on rejected trips and at rejected stops (nothing shared with
/// the router's own filtering).
@Suite(.serialized) struct FilterComparisonTests {
    static let cases: [(String, (Int, Int, Int))] = [
        ("bart-2018.zip", (2018, 6, 5)),
        ("sacramento-sacrt-2024.zip", (2024, 6, 18)),
        ("caltrain.zip", (2009, 3, 3)),
    ]

    @Test("router with random ride filters = reference on the restricted feed", arguments: cases.map(\.0))
    func compare(_ file: String) throws {
        let (y, m, d) = Self.cases.first { $0.0 == file }!.1
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath(file), feedId: String(file.dropLast(4)))
        let network = try TimetableBuilder.build(snapshot), tt = network.timetable
        let planner = JourneyPlanner(network: network)
        var rng = SeededRandom(seed: 77 &+ UInt64(file.utf8.count))
        let routeOK = snapshot.routes.map { _ in Double.random(in: 0..<1, using: &rng) < 0.8 }
        let tripOK = snapshot.trips.map { _ in Double.random(in: 0..<1, using: &rng) < 0.7 }
        let stopOK = snapshot.stops.map { _ in Double.random(in: 0..<1, using: &rng) < 0.9 }
        let filter = RideFilter(routes: tt.routeSourceRoute.map { routeOK[$0.index] },
                                trips: tt.tripSource.map { tripOK[$0.index] }, stops: stopOK)
        let reference = ReferenceRouter(snapshot: snapshot.restricted(trip: { routeOK[Int(snapshot.trips[$0].route)] && tripOK[$0] },
                                                                      stop: { stopOK[$0] }))
        let stops = ReferenceComparisonTests.servedStops(tt)
        let zone = TimeZone(identifier: snapshot.agencies[0].timezone)!
        var differences: [String] = [], answered = 0
        let queries = max(20, ReferenceComparisonTests.queriesPerFeed / 3)
        for q in 0..<queries {
            let a = stops[Int.random(in: 0..<stops.count, using: &rng)], b = stops[Int.random(in: 0..<stops.count, using: &rng)]
            let seconds = Int.random(in: 5 * 3600..<23 * 3600, using: &rng)
            let t = JourneyPlanner.instant(localSeconds: Int64(ServiceDate(year: y, month: m, day: d)!.daysSinceEpoch) * 86_400
                                           + Int64(seconds), zone: zone)
            let arriveBy = q % 2 == 1
            var mine: [Int: Int64] = [:]
            let query = PlanQuery(from: .stop(feed: nil, id: snapshot.stops[a].stopId), to: .stop(feed: nil, id: snapshot.stops[b].stopId),
                                  time: .instant(t), arriveBy: arriveBy)
            if let result = try? planner.plan(query, filter: filter) {
                for j in result.journeys { mine[j.rides] = arriveBy ? j.departure : j.arrival }
            }
            var theirs: [Int: Int64] = [:]
            let ref = arriveBy ? reference.arriveBy(from: .stop(Int32(a)), to: .stop(Int32(b)), time: t)
                               : reference.departAt(from: .stop(Int32(a)), to: .stop(Int32(b)), time: t)
            for j in ref { theirs[j.rides] = arriveBy ? j.departure : j.arrival }
            if theirs.keys.contains(where: { $0 > 0 }) { answered += 1 }
            if mine != theirs {
                differences.append("\(arriveBy ? "arrive-by" : "depart-at") \(snapshot.stops[a].stopId) -> \(snapshot.stops[b].stopId) at \(t): "
                                   + "router \(mine.sorted { $0.key < $1.key }), reference \(theirs.sorted { $0.key < $1.key })")
            }
        }
        print("\(file) filtered: \(queries) queries, \(answered) with rides, \(differences.count) differences")
        #expect(differences.isEmpty, "\(differences.count) differ; first: \(differences.first ?? "")")
        #expect(answered * 3 >= queries, "only \(answered) of \(queries) found a journey with rides")
    }

    @Test("modes: only the modes asked for are ridden; wheelchair: only accessible stops and trips")
    func modesAndWheelchair() throws {
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath("sacramento-sacrt-2024.zip"), feedId: "sacrt")
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        let network = planner.network, tt = network.timetable
        var rng = SeededRandom(seed: 5)
        let stops = ReferenceComparisonTests.servedStops(tt)
        var seen = Set<LegMode>()
        for modes in [try ModeFilter.parse("TRAM"), try ModeFilter.parse("-TRAM"), try ModeFilter.parse("bus,tram")] {
            var rides = 0
            for _ in 0..<30 {
                let a = stops[Int.random(in: 0..<stops.count, using: &rng)], b = stops[Int.random(in: 0..<stops.count, using: &rng)]
                let q = PlanQuery(from: .stop(feed: nil, id: snapshot.stops[a].stopId), to: .stop(feed: nil, id: snapshot.stops[b].stopId),
                                  time: .local(year: 2024, month: 6, day: 18, hour: 8, minute: 0, second: 0), modes: modes)
                guard let answer = try? planner.answer(q).get() else { continue }
                for o in answer.options {
                    for leg in o.itinerary.legs where leg.mode != .walk {
                        #expect(modes.allowed.contains(leg.mode), "\(leg.mode) ridden with modes \(modes)")
                        seen.insert(leg.mode); rides += 1
                    }
                }
            }
            #expect(rides > 0, "nothing ridden with modes \(modes)")
        }
        #expect(seen == [.bus, .tram])
        #expect(throws: PlanError.self) { try ModeFilter.parse("HOVERCRAFT") }
        #expect(try ModeFilter.parse("-BUS").allowed.contains(.bus) == false)
        #expect(try ModeFilter.parse("metro, Train").allowed == [.subway, .rail])
    }
}
