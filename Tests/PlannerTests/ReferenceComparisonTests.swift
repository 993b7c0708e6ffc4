import FeedNetwork
import Foundation
import Geo
import GTFS
import Planner
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The router against an independent implementation of the routing model
/// (`TransitTesting.ReferenceRouter`, a different algorithm written from the spec alone),
/// on seeded random queries over real feeds: stops and points near stops, times across a
/// service day, depart-at and arrive-by. The bar: zero differences in the best arrival
/// (depart-at) or departure (arrive-by) for each number of rides, and in the walk-only
/// journey. `Scripts/compare.sh` runs a longer version.
@Suite(.serialized) struct ReferenceComparisonTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let date: (Int, Int, Int)
        let queries: Int
        /// Non-default parameters: (walkSpeed, maxTransferWalk, transferSlack, maxTransfers).
        var custom: (Double, Double, Int, Int)? = nil
        /// This run's fresh seed (`freshSeed`) instead of the case's fixed one.
        var fresh = false
        var seed: UInt64 { fresh ? ReferenceComparisonTests.freshSeed : 20_261_121 &+ UInt64(file.utf8.count) }
        var testDescription: String {
            (custom == nil ? file : "\(file) with other parameters")
                + (fresh ? ", fresh seed \(seed) (replay: TRANSIT_SEED=\(seed))" : "")
        }
    }

    /// The seed of this run's fresh-seed cases, beside the fixed ones: new every run (so
    /// each run asks queries no run asked before), printed in the cases' names and in any
    /// failure; `TRANSIT_SEED=N` replays run N's queries.
    static let freshSeed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["TRANSIT_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 1...999_999_999)
    }()

    /// Fresh-seed queries per feed (a few: they add new queries each run, the fixed
    /// seeds carry the bulk).
    static var freshQueries: Int {
        Int(ProcessInfo.processInfo.environment["TRANSIT_FRESH_QUERIES"] ?? "") ?? 8
    }

    static var queriesPerFeed: Int {
        Int(ProcessInfo.processInfo.environment["TRANSIT_COMPARE_QUERIES"] ?? "") ?? 250
    }

    static let cases: [Case] = [
        Case(file: "caltrain.zip", date: (2009, 3, 3), queries: queriesPerFeed),
        Case(file: "bart-2018.zip", date: (2018, 6, 5), queries: queriesPerFeed),
        Case(file: "porto-alegre-trensurb-2019.zip", date: (2019, 4, 16), queries: queriesPerFeed),
        Case(file: "google-sample.zip", date: (2007, 1, 6), queries: queriesPerFeed / 5),
        Case(file: "sacramento-sacrt-2024.zip", date: (2024, 6, 18), queries: queriesPerFeed),
        // transfers.txt at scale: 554 rows, most of them same-stop minimum times.
        Case(file: "nyc-subway-2018.zip", date: (2018, 6, 26), queries: queriesPerFeed / 5),
        Case(file: "bart-2018.zip", date: (2018, 6, 9), queries: queriesPerFeed / 2, custom: (1.0, 1200, 45, 2)),
        // Stations, entrances and platforms (wmata) and calendar_dates-only service (milan):
        // a short run here, where the reference is slow in a debug build; Scripts/compare.sh
        // runs longer ones in a release build.
        Case(file: "wmata-rail-2026.zip", date: (2026, 5, 5), queries: shortQueries),
        Case(file: "milan-atm-2014.zip", date: (2014, 10, 21), queries: shortQueries),
    ] + (ProcessInfo.processInfo.environment["TRANSIT_COMPARE_EXTRA"] == nil ? [] : [
        // Larger feeds (Scripts/compare.sh runs them): untimed stop times (eptc), wmata and
        // milan at full length, BOMs and trolleybuses (vilnius), and bydgoszcz.
        Case(file: "porto-alegre-eptc-2019.zip", date: (2019, 4, 16), queries: queriesPerFeed / 5),
        Case(file: "wmata-rail-2026.zip", date: (2026, 5, 6), queries: queriesPerFeed / 5),
        Case(file: "milan-atm-2014.zip", date: (2014, 10, 22), queries: queriesPerFeed / 5),
        Case(file: "vilnius-2015.zip", date: (2015, 9, 8), queries: queriesPerFeed / 5),
        // The benchmarks' feed (`transit bench`), on its busiest day.
        Case(file: "bydgoszcz-2020.zip", date: (2020, 5, 4), queries: queriesPerFeed / 5),
    ]) + [
        // This run's fresh seed on every feed above (default parameters, one day each).
        ("caltrain.zip", (2009, 3, 3)), ("bart-2018.zip", (2018, 6, 5)), ("porto-alegre-trensurb-2019.zip", (2019, 4, 16)),
        ("google-sample.zip", (2007, 1, 6)), ("sacramento-sacrt-2024.zip", (2024, 6, 18)), ("nyc-subway-2018.zip", (2018, 6, 26)),
        ("wmata-rail-2026.zip", (2026, 5, 5)), ("milan-atm-2014.zip", (2014, 10, 21)),
    ].map { Case(file: $0.0, date: $0.1, queries: freshQueries, fresh: true) }

    /// Queries on the feeds where the reference is slowest in a debug build (wmata, milan).
    static var shortQueries: Int {
        Int(ProcessInfo.processInfo.environment["TRANSIT_COMPARE_SHORT_QUERIES"] ?? "") ?? 60
    }

    /// A random stop (as `stop:ID`) or a point up to 900 m from one, for the planner and
    /// for the reference, and as text for messages.
    static func randomPlace(_ stops: [Int], _ snapshot: FeedSnapshot, _ network: TransitNetwork,
                            _ rng: inout SeededRandom) -> (Place, ReferencePlace, String) {
        let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
        if Bool.random(using: &rng) {
            return (.stop(feed: nil, id: snapshot.stops[s].stopId), .stop(Int32(s)), "stop:\(snapshot.stops[s].stopId)")
        }
        let p = Geodesic.destination(from: network.coordinate(ofStop: StopIndex(s))!,
                                     azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                     meters: Double.random(in: 0..<900, using: &rng))
        return (.coordinate(p), .coordinate(latitude: p.latitude, longitude: p.longitude), "\(p.latitude),\(p.longitude)")
    }

    static func feedPath(_ file: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bundled = root.appendingPathComponent("Data").appendingPathComponent(file).path
        if FileManager.default.fileExists(atPath: bundled) { return bundled }
        let shared = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data")
        return shared.appendingPathComponent("gtfs").appendingPathComponent(file).path
    }

    /// The stops where a ride can start or end: boardable, served by a route.
    static func servedStops(_ tt: Timetable) -> [Int] {
        (0..<tt.stopCount).filter { tt.stopBoardable[$0] && tt.stopRouteOffsets[$0 + 1] > tt.stopRouteOffsets[$0] }
    }

    @Test("router = reference on random queries", arguments: cases)
    func compare(_ c: Case) throws {
        let (snapshot, _) = try SnapshotSink.load(path: Self.feedPath(c.file), feedId: String(c.file.dropLast(4)))
        let network = try TimetableBuilder.build(snapshot), tt = network.timetable
        let planner = JourneyPlanner(network: network)
        var parameters = RoutingParameters()
        var referenceParameters = ReferenceParameters()
        if let (speed, transferWalk, slack, transfers) = c.custom {
            parameters.walkSpeed = speed; referenceParameters.walkSpeed = speed
            parameters.maxTransferWalk = transferWalk; referenceParameters.maxTransferWalk = transferWalk
            parameters.transferSlack = slack; referenceParameters.transferSlack = slack
            parameters.maxTransfers = transfers; referenceParameters.maxTransfers = transfers
        }
        let reference = ReferenceRouter(snapshot: snapshot, parameters: referenceParameters)
        var rng = SeededRandom(seed: c.seed)
        let started = Date()
        let stops = Self.servedStops(tt)
        try #require(!stops.isEmpty)
        let zone = TimeZone(identifier: snapshot.agencies[0].timezone)!
        let (y, m, d) = c.date
        var differences: [String] = []
        var answered = 0
        for q in 0..<c.queries {
            func place() -> (Place, ReferencePlace, String) { Self.randomPlace(stops, snapshot, network, &rng) }
            let (from, refFrom, fromText) = place()
            let (to, refTo, toText) = place()
            let seconds = Int.random(in: 0..<(26 * 3600), using: &rng)
            let local = Int64(ServiceDate(year: y, month: m, day: d)!.daysSinceEpoch) * 86_400 + Int64(seconds)
            let t = JourneyPlanner.instant(localSeconds: local, zone: zone)
            let arriveBy = q % 2 == 1
            let mine: [Int: Int64]
            var mineWalk: Int64?
            do {
                let result = try planner.plan(PlanQuery(from: from, to: to, time: .instant(t), arriveBy: arriveBy, parameters: parameters))
                var byRides: [Int: Int64] = [:]
                for j in result.journeys {
                    if j.rides == 0 { mineWalk = arriveBy ? j.departure : j.arrival; continue }
                    byRides[j.rides] = arriveBy ? j.departure : j.arrival
                }
                mine = byRides
            } catch {
                mine = [:]
            }
            let refJourneys = arriveBy ? reference.arriveBy(from: refFrom, to: refTo, time: t)
                                       : reference.departAt(from: refFrom, to: refTo, time: t)
            var theirs: [Int: Int64] = [:]
            var theirWalk: Int64?
            for j in refJourneys {
                if j.rides == 0 { theirWalk = arriveBy ? j.departure : j.arrival } else { theirs[j.rides] = arriveBy ? j.departure : j.arrival }
            }
            if !theirs.isEmpty { answered += 1 }
            if mine != theirs || mineWalk != theirWalk {
                differences.append("\(arriveBy ? "arrive-by" : "depart-at") \(fromText) -> \(toText) at \(t) (local +\(seconds)s): "
                                   + "router \(mine.sorted { $0.key < $1.key }) walk \(String(describing: mineWalk)); "
                                   + "reference \(theirs.sorted { $0.key < $1.key }) walk \(String(describing: theirWalk))")
            }
        }
        print("\(c.testDescription): seed \(c.seed), \(c.queries) queries, \(answered) with rides, \(differences.count) differences "
              + "(\(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
        for line in differences.prefix(10) { print("  " + line) }
        #expect(differences.isEmpty, "seed \(c.seed): \(differences.count) of \(c.queries) queries differ; first: \(differences.first ?? "")")
        // A comparison where nothing is ever found would prove nothing (judged on the fixed
        // seeds, known to ask enough answerable queries; a few fresh ones may all miss).
        #expect(c.fresh || answered * 2 >= c.queries, "seed \(c.seed): only \(answered) of \(c.queries) queries found a journey with rides")
    }

    /// The range search (rRAPTOR, what the planner's alternatives come from) against the
    /// reference's answers at every instant of the window. The reference's depart-at answer
    /// stays the same from `t` up to its earliest departure, so a sweep that jumps there
    /// (plus a second) sees every answer the window has; their union, without journeys
    /// that another departs no earlier than, arrives no later than and rides no more than,
    /// is the range's answer. Compared on the journeys departing inside the window (the
    /// range may also report later ones, found from its last departure).
    struct RangeCase: CustomTestStringConvertible, Sendable {
        let file: String
        let date: (Int, Int, Int)
        var fresh = false
        var testDescription: String { file + (fresh ? ", fresh seed \(freshSeed) (replay: TRANSIT_SEED=\(freshSeed))" : "") }
    }

    static let rangeCases: [RangeCase] = [
        ("caltrain.zip", (2009, 3, 3)), ("bart-2018.zip", (2018, 6, 5)), ("sacramento-sacrt-2024.zip", (2024, 6, 18)),
    ].flatMap { [RangeCase(file: $0.0, date: $0.1), RangeCase(file: $0.0, date: $0.1, fresh: true)] }

    @Test("range = reference's answers across the window", arguments: rangeCases)
    func compareRange(_ c: RangeCase) throws {
        let (file, date) = (c.file, c.date)
        let (snapshot, _) = try SnapshotSink.load(path: Self.feedPath(file), feedId: String(file.dropLast(4)))
        let network = try TimetableBuilder.build(snapshot), tt = network.timetable
        let planner = JourneyPlanner(network: network)
        let reference = ReferenceRouter(snapshot: snapshot)
        let seed = c.fresh ? Self.freshSeed : 20_261_122 &+ UInt64(file.utf8.count)
        var rng = SeededRandom(seed: seed)
        let stops = Self.servedStops(tt)
        let zone = TimeZone(identifier: snapshot.agencies[0].timezone)!
        let window: Int64 = 3600
        var differences: [String] = [], found = 0, sweeps = 0
        let queries = c.fresh ? 3 : max(6, Self.queriesPerFeed / 10)
        for _ in 0..<queries {
            func place() -> (Place, ReferencePlace, String) { Self.randomPlace(stops, snapshot, network, &rng) }
            let (from, refFrom, fromText) = place()
            let (to, refTo, toText) = place()
            let seconds = Int.random(in: (5 * 3600)..<(23 * 3600), using: &rng)
            let (y, m, d) = date
            let t0 = JourneyPlanner.instant(localSeconds: Int64(ServiceDate(year: y, month: m, day: d)!.daysSinceEpoch) * 86_400 + Int64(seconds), zone: zone)
            let end = t0 + window
            struct Key: Hashable, Comparable {
                let departure: Int64, arrival: Int64, rides: Int
                static func < (a: Key, b: Key) -> Bool { (a.departure, a.arrival, a.rides) < (b.departure, b.arrival, b.rides) }
            }
            let mine: [Key]
            do {
                let result = try planner.plan(PlanQuery(from: from, to: to, time: .instant(t0), window: Int(window)))
                mine = result.journeys.filter { $0.rides > 0 && $0.departure <= end }.map { Key(departure: $0.departure, arrival: $0.arrival, rides: $0.rides) }
            } catch {
                mine = []
            }
            var all = Set<Key>()
            var t = t0
            while t <= end {
                sweeps += 1
                let answer = reference.departAt(from: refFrom, to: refTo, time: t).filter { $0.rides > 0 }
                guard let next = answer.map(\.departure).min() else { break }
                for j in answer { all.insert(Key(departure: j.departure, arrival: j.arrival, rides: j.rides)) }
                t = next + 1
            }
            let theirs = all.filter { j in
                !all.contains { o in o != j && o.departure >= j.departure && o.arrival <= j.arrival && o.rides <= j.rides }
            }.filter { $0.departure <= end }.sorted()
            if !theirs.isEmpty { found += 1 }
            if mine.sorted() != theirs {
                differences.append("\(fromText) -> \(toText) at \(t0): router \(mine.sorted().map { "\($0.departure)-\($0.arrival)/\($0.rides)" }) "
                                   + "reference \(theirs.map { "\($0.departure)-\($0.arrival)/\($0.rides)" })")
            }
        }
        print("\(c.testDescription): seed \(seed), \(queries) range queries (\(sweeps) reference answers), \(found) with journeys, \(differences.count) differences")
        for line in differences.prefix(5) { print("  " + line) }
        #expect(differences.isEmpty, "seed \(seed): \(differences.count) of \(queries) range queries differ; first: \(differences.first ?? "")")
        #expect(c.fresh || found * 2 >= queries, "only \(found) of \(queries) range queries found a journey")
    }
}
