import FeedNetwork
import Foundation
import Geo
import GTFS
import Planner
import Raptor
import Streets
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The router against the reference router with walks along streets (the routing model's
/// "Streets"): the real extracts imported into the test database (`StreetFixtures`), the
/// planner on `TimetableBuilder.build(…, streets:)`, the reference on `ReferenceStreets` of
/// the same tables. Seeded random queries as in `ReferenceComparisonTests`: stops and points
/// up to 900 m from one (some too far from any street: beelines), depart-at and arrive-by.
/// Porto Alegre has both models at once: 39% of EPTC's stops lie outside the extract.
/// `TRANSIT_COMPARE_STREET_QUERIES=N` runs longer.
@Suite(.serialized) struct StreetReferenceComparisonTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let region: String
        let feeds: [String]
        let date: (Int, Int, Int)
        var seed: UInt64 { 20_261_125 &+ UInt64(region.utf8.count) }
        var testDescription: String { "\(region) (\(feeds.joined(separator: " + ")) + streets)" }
    }

    static var queries: Int { Int(ProcessInfo.processInfo.environment["TRANSIT_COMPARE_STREET_QUERIES"] ?? "") ?? 120 }

    static let cases = [
        Case(region: "milan", feeds: ["milan-atm-2014"], date: (2014, 10, 21)),
        Case(region: "porto-alegre", feeds: ["porto-alegre-trensurb-2019", "porto-alegre-eptc-2019"], date: (2019, 4, 16)),
    ]

    @Test("router = reference with street walks on random queries", arguments: cases)
    func compare(_ c: Case) throws {
        let streets = try StreetFixtures.imported(c.region).tables
        let snapshot = FeedSnapshot.merging(try c.feeds.map { try SnapshotSink.load(path: FeedFixtures.sharedFeed($0), feedId: $0).0 })
        let network = try TimetableBuilder.build(snapshot, streets: streets), tt = network.timetable
        let planner = JourneyPlanner(network: network)
        let started = Date()
        let reference = ReferenceRouter(snapshot: snapshot, streets: ReferenceStreets(streets))
        let referenceSeconds = Date().timeIntervalSince(started)
        var rng = SeededRandom(seed: c.seed)
        let stops = ReferenceComparisonTests.servedStops(tt)
        try #require(!stops.isEmpty)
        let snapped = stops.filter { network.snap(ofStop: StopIndex($0)) != nil }.count
        let zone = TimeZone(identifier: snapshot.agencies[0].timezone)!
        let (y, m, d) = c.date
        var differences: [String] = []
        var answered = 0, walkOnly = 0
        for q in 0..<Self.queries {
            func place() -> (Place, ReferencePlace, String) { ReferenceComparisonTests.randomPlace(stops, snapshot, network, &rng) }
            let (from, refFrom, fromText) = place()
            let (to, refTo, toText) = place()
            let seconds = Int.random(in: 0..<(26 * 3600), using: &rng)
            let local = Int64(ServiceDate(year: y, month: m, day: d)!.daysSinceEpoch) * 86_400 + Int64(seconds)
            let t = JourneyPlanner.instant(localSeconds: local, zone: zone)
            let arriveBy = q % 2 == 1
            var mine: [Int: Int64] = [:]
            var mineWalk: Int64?
            if let result = try? planner.plan(PlanQuery(from: from, to: to, time: .instant(t), arriveBy: arriveBy, streets: true)) {
                for j in result.journeys {
                    if j.rides == 0 { mineWalk = arriveBy ? j.departure : j.arrival } else { mine[j.rides] = arriveBy ? j.departure : j.arrival }
                }
            }
            let refJourneys = arriveBy ? reference.arriveBy(from: refFrom, to: refTo, time: t)
                                       : reference.departAt(from: refFrom, to: refTo, time: t)
            var theirs: [Int: Int64] = [:]
            var theirWalk: Int64?
            for j in refJourneys {
                if j.rides == 0 { theirWalk = arriveBy ? j.departure : j.arrival } else { theirs[j.rides] = arriveBy ? j.departure : j.arrival }
            }
            if !theirs.isEmpty { answered += 1 }
            if theirWalk != nil { walkOnly += 1 }
            if mine != theirs || mineWalk != theirWalk {
                differences.append("\(arriveBy ? "arrive-by" : "depart-at") \(fromText) -> \(toText) at \(t) (local +\(seconds)s): "
                                   + "router \(mine.sorted { $0.key < $1.key }) walk \(String(describing: mineWalk)); "
                                   + "reference \(theirs.sorted { $0.key < $1.key }) walk \(String(describing: theirWalk))")
            }
        }
        print("\(c.testDescription): seed \(c.seed), \(Self.queries) queries, \(answered) with rides, \(walkOnly) walk-only, "
              + "\(snapped) of \(stops.count) stops snapped, \(differences.count) differences (reference built in "
              + "\(String(format: "%.1f", referenceSeconds)) s, all \(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
        for line in differences.prefix(10) { print("  " + line) }
        #expect(differences.isEmpty, "seed \(c.seed): \(differences.count) of \(Self.queries) queries differ; first: \(differences.first ?? "")")
        #expect(answered * 2 >= Self.queries, "only \(answered) of \(Self.queries) queries found a journey with rides")
        // Both models in play: stops along streets, and (Porto Alegre) stops walking beelines.
        #expect(snapped * 2 >= stops.count)
        if c.region == "porto-alegre" { #expect(snapped < stops.count) }
    }

    @Test("the timetable's street footpaths and stop snaps = the reference's, walking and step-free", arguments: cases)
    func footpaths(_ c: Case) throws {
        let tables = try StreetFixtures.imported(c.region).tables
        let snapshot = FeedSnapshot.merging(try c.feeds.map { try SnapshotSink.load(path: FeedFixtures.sharedFeed($0), feedId: $0).0 })
        let network = try TimetableBuilder.build(snapshot, streets: tables), tt = network.timetable
        let reference = ReferenceStreets(tables)
        let limit = tt.footpathBeelineMeters * TimetableBuilder.streetFootpathFactor
        // Step-free: the timetable takes the walking length where that walk is step-free
        // (`walkMetersNotingBarred`); the reference searches again, avoiding the barred edges.
        for wheelchair in [false, true] {
            let model = wheelchair ? "step-free" : "walking"
            let footStreet = wheelchair ? tt.footStreetStepFree : tt.footStreet
            var snaps: [ReferenceStreets.Snap?] = []
            var snapDifferences: [String] = [], walkDifferences: [String] = [], compared = 0, longer = 0
            for s in 0..<tt.stopCount {
                let mine = network.snap(ofStop: StopIndex(s), wheelchair: wheelchair)
                let theirs = tt.stopBoardable[s] ? network.coordinate(ofStop: StopIndex(s)).flatMap { reference.snap($0, wheelchair: wheelchair) } : nil
                snaps.append(theirs)
                if (mine == nil) != (theirs == nil) || mine.map({ abs($0.offset - theirs!.offset) > 0.01 }) == true {
                    snapDifferences.append("\(model) snap of stop \(snapshot.stops[s].stopId): timetable \(mine as Any), reference \(theirs as Any)")
                }
            }
            for a in 0..<tt.stopCount {
                let feet = Array(Int(tt.footOffsets[a])..<Int(tt.footOffsets[a + 1]))
                // One search from each stop to all its footpaths' ends that snap.
                let both = feet.filter { snaps[a] != nil && snaps[tt.footTarget[$0].index] != nil }
                let meters = snaps[a].map {
                    reference.walkMeters(from: $0, to: both.map { snaps[tt.footTarget[$0].index]! }, limit: limit, wheelchair: wheelchair)
                } ?? []
                // Two stops at one point are no walk apart (the model's "Walks"; the graph's own
                // walkMeters between their snaps counts both offsets).
                let theirs = Dictionary(uniqueKeysWithValues: zip(both, meters).map { f, m in
                    (f, snaps[a]!.place == snaps[tt.footTarget[f].index]!.place ? 0 : m)
                })
                for f in feet {
                    let b = tt.footTarget[f].index, mine = footStreet[f]
                    guard let found = theirs[f] else {
                        if !mine.isNaN { walkDifferences.append("\(model) \(a) -> \(b): timetable \(mine), reference: an end does not snap") }
                        continue
                    }
                    compared += 1
                    if wheelchair, mine.isFinite, mine > tt.footStreet[f] + 0.01 { longer += 1 }
                    // Meters to the centimetre, and the same walkSeconds (no ceil boundary between them).
                    let seconds = { (m: Double) in (m / RoutingParameters().walkSpeed).rounded(.up) }
                    if found.map({ abs(mine - $0) > 0.01 || seconds(mine) != seconds($0) }) ?? mine.isFinite {
                        walkDifferences.append("\(model) \(snapshot.stops[a].stopId) -> \(snapshot.stops[b].stopId): timetable \(mine), reference \(found as Any)")
                    }
                }
            }
            print("\(c.region) \(model): \(compared) street footpaths\(wheelchair ? " (\(longer) longer than walking)" : ""), \(snapDifferences.count) snaps and \(walkDifferences.count) walks differ")
            for line in (snapDifferences + walkDifferences).prefix(10) { print("  " + line) }
            #expect(snapDifferences.isEmpty && walkDifferences.isEmpty)
            #expect(compared > 100)
        }
    }
}
