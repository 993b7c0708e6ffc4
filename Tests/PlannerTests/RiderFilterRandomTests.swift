import FeedNetwork
import Foundation
import GTFS
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The rider's filter and labels (docs/routing-model.md, "What a rider is shown") on
/// seeded random queries over four real feeds: every label is true by its own definition,
/// checked here from the definition (not with the planner's code), the recommended option
/// has the least cost and is never one the filter would drop, every shown option is within
/// the cost limit or kept on purpose, and the model's Pareto set is the one the model
/// computes alone.
@Suite(.serialized) struct RiderFilterRandomTests {
    static let cases: [(file: String, date: (Int, Int, Int))] = [
        ("bart-2018.zip", (2018, 6, 5)),
        ("caltrain.zip", (2009, 3, 3)),
        ("sacramento-sacrt-2024.zip", (2024, 6, 18)),
        ("bydgoszcz-2020.zip", (2020, 6, 2)),
    ]
    static let queriesPerFeed = 60

    @Test("labels true, recommended the least cost and shown, the model's answer unchanged", arguments: cases.map(\.file))
    func randomQueries(_ file: String) throws {
        let (y, m, d) = Self.cases.first { $0.file == file }!.date
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file), feedId: String(file.dropLast(4)))
        let network = try TimetableBuilder.build(snapshot)
        let planner = JourneyPlanner(network: network)
        let stops = ReferenceComparisonTests.servedStops(network.timetable)
        var rng = SeededRandom(seed: 19 &+ UInt64(file.utf8.count))
        var answers = 0, labelled = 0, tradeOffs = 0, dropped = 0, notFirst = 0, leastRatio = Double.infinity
        for q in 0..<Self.queriesPerFeed {
            let a = stops[Int.random(in: 0..<stops.count, using: &rng)], b = stops[Int.random(in: 0..<stops.count, using: &rng)]
            // Any hour, night included: that is where the filter has work to do.
            let hour = Int.random(in: 0..<24, using: &rng), minute = Int.random(in: 0..<60, using: &rng)
            let query = PlanQuery(from: .stop(feed: nil, id: snapshot.stops[a].stopId), to: .stop(feed: nil, id: snapshot.stops[b].stopId),
                                  time: .local(year: y, month: m, day: d, hour: hour, minute: minute, second: 0),
                                  arriveBy: q % 3 == 2)
            guard case .itineraries(let answer) = planner.answer(query) else { continue }
            answers += 1
            let what = "\(query.arriveBy ? "arrive-by" : "depart-at") \(snapshot.stops[a].stopId) → \(snapshot.stops[b].stopId) \(hour):\(minute)"
            // The model's Pareto set is what the model computes without the rider's filter.
            let alone = try planner.plan(query)
            func keys(_ js: [Journey]) -> [[Int64]] { js.map { [$0.departure, $0.arrival, Int64($0.rides)] } }
            #expect(keys(answer.result.journeys) == keys(alone.journeys), "\(what): the model's answer changed")
            let best = answer.options.map(\.riderCost.seconds).min()!
            for j in answer.result.journeys where !answer.options.contains(where: { $0.journey == j }) {
                dropped += 1
                let c = RiderCost(j, time: answer.result.time, arriveBy: query.arriveBy, window: answer.window)
                if c.limitedSeconds > RiderCost.limit(best: best) { leastRatio = min(leastRatio, Double(c.seconds) / Double(best)) }
            }
            if answer.recommended != answer.modelFirst { notFirst += 1 }
            let problems = Self.check(answer)
            #expect(problems.isEmpty, "\(what): \(problems.joined(separator: "; "))")
            labelled += answer.options.count
            tradeOffs += answer.options.filter { $0.labels.contains { $0.contains(":") } }.count
        }
        print("\(file): \(answers) answers, \(labelled) options, \(tradeOffs) with a trade-off, \(dropped) model journeys not shown "
              + "(the cheapest of them over the limit costs \(leastRatio) × the best), \(notFirst) recommending another than the model's first")
        #expect(answers >= Self.queriesPerFeed / 3, "only \(answers) of \(Self.queriesPerFeed) queries had an answer")
    }

    /// What is false in an answer by the model's definitions; empty when all holds.
    static func check(_ a: PlanAnswer) -> [String] {
        var problems: [String] = []
        let o = a.options, n = o.count
        let zone = TimeZone(identifier: a.result.timeZone)!
        func minute(_ t: Int64) -> Int64 { (t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))) / 60 }
        func s(_ i: Int) -> ItinerarySummary { o[i].itinerary.summary }
        func has(_ i: Int, _ l: String) -> Bool { o[i].labels.contains(l) }
        let cost = o.map(\.riderCost.seconds)
        let transit = o.indices.filter { s($0).rides > 0 }
        // Shown: within the limit of the best, or the model's first, or the walk.
        let best = cost.min()!
        for i in o.indices where i != a.modelFirst && s(i).rides > 0 {
            let gap = a.arriveBy ? a.result.time - s(i).arrival : s(i).departure - a.result.time
            let limited = cost[i] - min(gap, Int64(a.window)) / 2
            if limited > RiderCost.limit(best: best) {
                problems.append("option \(i + 1) counts \(limited) s, over the limit of \(RiderCost.limit(best: best)) s")
            }
        }
        // The cost is the model's formula on the itinerary.
        for i in o.indices {
            let aboard = o[i].itinerary.legs.filter { $0.ride != nil }.reduce(Int64(0)) { $0 + $1.durationSeconds }
            let gap = max(0, a.arriveBy ? a.result.time - s(i).arrival : s(i).departure - a.result.time)
            let expected = aboard + 2 * (s(i).durationSeconds - aboard) + 600 * Int64(s(i).changes) + gap / 2
            if cost[i] != expected { problems.append("option \(i + 1) costs \(cost[i]) s, by the formula \(expected) s") }
        }
        // Recommended: within the limit (never one the filter drops), the least cost; the
        // model's first is shown and so marked.
        let recommendedGap = a.arriveBy ? a.result.time - s(a.recommended).arrival : s(a.recommended).departure - a.result.time
        if cost[a.recommended] - min(recommendedGap, Int64(a.window)) / 2 > RiderCost.limit(best: best) {
            problems.append("the recommended option is over the limit")
        }
        if cost[a.recommended] != best { problems.append("recommended option \(a.recommended + 1) is not the least cost") }
        if !o[a.modelFirst].inModelAnswer || o[a.modelFirst].journey != a.result.journeys.first {
            problems.append("option \(a.modelFirst + 1) is marked the model's first and is not")
        }
        for i in o.indices {
            if has(i, "walk-only") != (s(i).rides == 0) { problems.append("option \(i + 1): walk-only") }
            if has(i, "recommended") != (i == a.recommended && i != a.modelFirst) { problems.append("option \(i + 1): recommended") }
            if has(i, a.arriveBy ? "latest-departure" : "earliest-arrival") != (i == a.modelFirst) {
                problems.append("option \(i + 1): the model's first label")
            }
            if !a.arriveBy && has(i, "earliest-arrival") && o.contains(where: { $0.journey.arrival < o[i].journey.arrival }) {
                problems.append("option \(i + 1): earliest-arrival but another arrives earlier")
            }
            if a.arriveBy && has(i, "latest-departure") && o.contains(where: { $0.journey.departure > o[i].journey.departure }) {
                problems.append("option \(i + 1): latest-departure but another leaves later")
            }
            if has(i, "fewest-changes") && (s(i).rides == 0 || transit.contains { s($0).rides < s(i).rides }
                                            || !transit.contains { s($0).rides > s(i).rides }) {
                problems.append("option \(i + 1): fewest-changes is false")
            }
            func meters(_ j: Int) -> Double { s(j).walkMeters.rounded() }
            if has(i, "least-walking") && (s(i).rides == 0 || transit.contains { meters($0) < meters(i) }
                                           || !transit.contains { meters($0) > meters(i) }) {
                problems.append("option \(i + 1): least-walking is false")
            }
            let dep = minute(s(i).departure), arr = minute(s(i).arrival)
            if has(i, "earliest-departure") && (a.arriveBy || transit.contains { minute(s($0).departure) < dep }
                                                || !transit.contains { minute(s($0).departure) > dep }) {
                problems.append("option \(i + 1): earliest-departure is false")
            }
            if has(i, "later-departure") && (0..<i).contains(where: { minute(s($0).departure) >= dep }) {
                problems.append("option \(i + 1): later, but an option before it leaves in the same minute or later")
            }
            if has(i, "earlier-arrival") && (i + 1..<n).contains(where: { minute(s($0).arrival) <= arr }) {
                problems.append("option \(i + 1): earlier, but an option after it arrives in the same minute or earlier")
            }
            for label in o[i].labels where label.contains(":") {
                let parts = label.split(separator: ":"), value = Int64(parts[1]) ?? 0
                let r = a.recommended
                if i == r || s(i).rides == 0 || cost[i] <= cost[r] || value <= 0 { problems.append("option \(i + 1): trade-off \(label) without cause") }
                switch parts[0] {
                case "leaves-later": if s(i).departure - s(r).departure != value { problems.append("option \(i + 1): \(label)") }
                case "leaves-earlier": if s(r).departure - s(i).departure != value { problems.append("option \(i + 1): \(label)") }
                case "more-changes": if Int64(s(i).changes - s(r).changes) != value { problems.append("option \(i + 1): \(label)") }
                case "more-waiting":
                    if o[i].riderCost.outsideSeconds - o[r].riderCost.outsideSeconds != value { problems.append("option \(i + 1): \(label)") }
                case "longer-ride":
                    if o[i].riderCost.aboardSeconds - o[r].riderCost.aboardSeconds != value { problems.append("option \(i + 1): \(label)") }
                default: problems.append("option \(i + 1): unknown trade-off \(label)")
                }
            }
            if o[i].labels.isEmpty { problems.append("option \(i + 1) has no label") }
        }
        // Fastest: the least duration of all, and only when it leaves within the window of the first.
        let w = Int64(a.window)
        let considered = a.arriveBy ? o.indices.filter { s($0).arrival >= o.map(\.journey.arrival).max()! - w }
                                    : o.indices.filter { s($0).departure <= o.map(\.journey.departure).min()! + w }
        let fastest = o.indices.filter { has($0, "fastest") }
        let shortest = o.map(\.itinerary.summary.durationSeconds).min()!
        if fastest.count > 1 { problems.append("\(fastest.count) options are fastest") }
        for f in fastest {
            if !considered.contains(f) { problems.append("option \(f + 1) is fastest but leaves too long after the first") }
            if s(f).durationSeconds != shortest { problems.append("option \(f + 1) is fastest but another is shorter") }
        }
        if fastest.isEmpty && considered.contains(where: { s($0).durationSeconds == shortest }) {
            problems.append("no option is fastest, yet the shortest leaves with the first")
        }
        return problems
    }
}
