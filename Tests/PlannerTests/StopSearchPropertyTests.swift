import FeedNetwork
import Foundation
import GTFS
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Properties of the stop search over every stop of real feeds: each stop is found by its
/// name, its stop_code and its stop_id; no two rows of a list read the same; the first of
/// equally good matches is the busiest place (trips calling at all stops of its name),
/// and of that place the busiest stop.
@Suite struct StopSearchPropertyTests {
    struct Feed: Sendable {
        let network: TransitNetwork
        let search: StopSearch
        /// Stops the search finds: served stops, and stations with a served platform.
        let findable: [Int]

        init(_ file: String) {
            let (snapshot, _) = try! SnapshotSink.load(path: FeedFixtures.feed(file), feedId: String(file.split(separator: "-")[0]))
            network = try! TimetableBuilder.build(snapshot)
            search = StopSearch(network: network)
            let served = network.timetable.stopsWithService()
            var findable = Set(snapshot.stops.indices.filter { served[$0] })
            for s in Array(findable) where snapshot.stops[s].parent >= 0 && snapshot.stops[Int(snapshot.stops[s].parent)].locationType == 1 {
                findable.insert(Int(snapshot.stops[s].parent))
            }
            self.findable = findable.sorted()
        }
    }

    static let files = ["bart-2018.zip", "caltrain.zip", "bydgoszcz-2020.zip", "wmata-rail-2026.zip", "vilnius-2015.zip", "sacramento-sacrt-2024.zip"]
    static let feeds: [String: Feed] = Dictionary(uniqueKeysWithValues: files.map { ($0, Feed($0)) })

    @Test("every stop is found by its own name, its stop_code and its stop_id", arguments: files)
    func everyStopFound(_ file: String) throws {
        let f = Self.feeds[file]!, stops = f.network.snapshot.stops
        var byCode = 0
        for s in f.findable {
            let st = stops[s]
            // By name: the stop itself, or the station standing for it.
            if st.name.count <= StopSearch.maxQueryCharacters && !StopSearch.words(st.name).isEmpty {
                let found = f.search.search(st.name, limit: 10_000)
                #expect(found.contains { $0.stop.index == s || $0.stop.raw == st.parent }, "\(file): \(st.name) (\(st.stopId))")
                #expect(found.first?.score == 4, "\(file): \(st.name)")
            }
            for key in [st.stopCode, st.stopId].compactMap({ $0 }) where !StopSearch.words(key).isEmpty {
                let found = f.search.search(key, limit: 10_000)
                #expect(found.contains { $0.stop.index == s && $0.score == 4 }, "\(file): \(key) finds \(st.stopId)")
                if key == st.stopCode { byCode += 1 }
            }
        }
        if file.hasPrefix("sacramento") { #expect(byCode > 2000) }
    }

    @Test("no two rows of a list read the same, for every stop name and its first word", arguments: files)
    func noIdenticalRows(_ file: String) throws {
        let f = Self.feeds[file]!, snapshot = f.network.snapshot
        var queries = Set<String>()
        for s in f.findable {
            let name = snapshot.stops[s].name
            queries.insert(name)
            if let w = StopSearch.words(name).first { queries.insert(w) }
        }
        var checked = 0, told = 0
        for q in queries.sorted() {
            let rows = f.search.search(q, limit: 50)
            let tells = f.search.distinctions(rows.map(\.stop))
            #expect(Set(rows.map(\.stop)).count == rows.count, "\(file): \(q) lists a stop twice")
            let readings = zip(rows, tells).map { snapshot.stops[$0.0.stop.index].name + " | " + ($0.1 ?? "") }
            #expect(Set(readings).count == readings.count, "\(file): \(q): \(readings)")
            checked += 1
            told += tells.compactMap { $0 }.count
        }
        #expect(checked > 20)
        if file.hasPrefix("bydgoszcz") || file.hasPrefix("vilnius") { #expect(told > 100) }
    }

    @Test("best first: score, then the place's calls, then the stop's; the default is the busiest", arguments: files)
    func busiestFirst(_ file: String) throws {
        let f = Self.feeds[file]!, snapshot = f.network.snapshot
        var queries = Set<String>()
        for s in f.findable {
            let words = StopSearch.words(snapshot.stops[s].name)
            if let w = words.first { queries.insert(w); queries.insert(String(w.prefix(3))) }
            if words.count > 1 { queries.insert(words.last!) }
        }
        var compared = 0
        for q in queries.sorted() {
            let rows = f.search.search(q, limit: 100)
            for (a, b) in zip(rows, rows.dropFirst()) {
                #expect(a.score >= b.score, "\(file): \(q)")
                if a.score == b.score {
                    // The busier place, then the busier stop of it.
                    let pa = f.search.placeCalls(a.stop), pb = f.search.placeCalls(b.stop)
                    #expect(pa >= pb, "\(file): \(q)")
                    if pa == pb && a.matchedName == b.matchedName { #expect(f.search.calls(a.stop) >= f.search.calls(b.stop), "\(file): \(q)") }
                    compared += 1
                }
            }
        }
        #expect(compared > 50)
    }

    /// The calls the search ranks by, counted again from the snapshot: trips of the
    /// typical day stopping there to board or alight.
    @Test("calls are the typical day's trips stopping there to board or alight")
    func callsCounted() throws {
        let f = Self.feeds["bydgoszcz-2020.zip"]!, tt = f.network.timetable
        // As read from the feed (the network keeps no stop times); stop indexes are the same.
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("bydgoszcz-2020.zip"), feedId: "bydgoszcz")
        #expect(snapshot.stops.map(\.stopId) == f.network.snapshot.stops.map(\.stopId))
        // The typical day: the one with the most trips running.
        var perDay = [Int](repeating: 0, count: tt.dayCount)
        for t in snapshot.trips.indices {
            let service = snapshot.services[Int(snapshot.trips[t].service)]
            for d in 0..<tt.dayCount where service.runs(on: tt.firstDay.adding(days: d)) { perDay[d] += 1 }
        }
        let day = tt.firstDay.adding(days: perDay.firstIndex(of: perDay.max()!)!)
        var count = [Int](repeating: 0, count: snapshot.stops.count)
        for t in snapshot.trips.indices where snapshot.services[Int(snapshot.trips[t].service)].runs(on: day) {
            let lo = Int(snapshot.tripStopTimes[t]), hi = Int(snapshot.tripStopTimes[t + 1])
            guard hi - lo >= 2 else { continue }
            // pickup_type and drop_off_type 1: neither boarding nor alighting, no call.
            for k in lo..<hi where snapshot.stopTimePickup[k] != 1 || snapshot.stopTimeDropOff[k] != 1 {
                count[Int(snapshot.stopTimeStop[k])] += 1
            }
        }
        let main = snapshot.stops.indices.filter { snapshot.stops[$0].name == "Dworzec Główny" }
        #expect(main.count == 6)
        for s in main { #expect(f.search.calls(StopIndex(s)) == count[s], "\(snapshot.stops[s].stopId)") }
        var differ = 0
        for s in f.findable where f.search.calls(StopIndex(s)) != count[s] { differ += 1 }
        #expect(differ == 0)
    }
}

/// Two feeds holding stops of the same names (one feed loaded twice under two ids, as a
/// server holding last year's and this year's timetable would): the feed tells them apart.
@Suite struct StopSearchTwoFeedsTests {
    @Test("the same name in two feeds: the feed first, then what tells stops of one feed apart")
    func twoFeeds() throws {
        let path = try FeedFixtures.feed("bart-2018.zip")
        let (a, _) = try SnapshotSink.load(path: path, feedId: "bart")
        let (b, _) = try SnapshotSink.load(path: path, feedId: "bart-next")
        let network = try TimetableBuilder.build(FeedSnapshot.merging([a, b]))
        let search = StopSearch(network: network), snapshot = network.snapshot
        func rows(_ q: String) -> [String] {
            let found = search.search(q, limit: 10)
            return zip(found, search.distinctions(found.map(\.stop))).map { "\(snapshot.stops[$0.0.stop.index].stopId) \($0.1 ?? "-")" }
        }
        #expect(rows("Powell St.") == ["POWL bart", "POWL bart-next"])
        #expect(rows("MacArthur") == ["MCAR bart, towards Richmond", "MCAR_S bart, towards Millbrae",
                                      "MCAR bart-next, towards Richmond", "MCAR_S bart-next, towards Millbrae"])
        #expect(rows("macarthur").count == 4 && search.search("macarthur", feed: 1).count == 2)
    }
}
