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

    /// Whether `name` is the main place of one-word query `q`: the name's words other than
    /// the one `q` takes (the same word, else the first it begins) all say "main" or are
    /// minor words, one at least saying "main". Nil when `q` takes none of them so (an
    /// abbreviation, a typo): not judged.
    static func isMainPlace(_ name: String, of q: String) -> Bool? {
        var words = StopSearch.words(name)
        guard let taken = words.firstIndex(of: q) ?? words.firstIndex(where: { $0.hasPrefix(q) }) else { return nil }
        words.remove(at: taken)
        return words.contains(where: StopSearch.mainWords.contains)
            && words.allSatisfy { StopSearch.mainWords.contains($0) || StopSearch.minorWords.contains($0) }
    }

    @Test("best first: score, then the main place of what was typed, then the place's calls, then the stop's", arguments: files)
    func busiestFirst(_ file: String) throws {
        let f = Self.feeds[file]!, snapshot = f.network.snapshot
        var queries = Set<String>()
        for s in f.findable {
            let words = StopSearch.words(snapshot.stops[s].name)
            if let w = words.first { queries.insert(w); queries.insert(String(w.prefix(3))) }
            if words.count > 1 { queries.insert(words.last!) }
        }
        var compared = 0, mainFirst = 0
        for q in queries.sorted() {
            let rows = f.search.search(q, limit: 100)
            let qw = StopSearch.words(q)
            for (a, b) in zip(rows, rows.dropFirst()) {
                #expect(a.score >= b.score, "\(file): \(q)")
                guard a.score == b.score, qw.count == 1, a.foundBy == nil, b.foundBy == nil,
                      let ma = Self.isMainPlace(a.matchedName, of: qw[0]), let mb = Self.isMainPlace(b.matchedName, of: qw[0]) else { continue }
                if ma != mb {
                    #expect(ma, "\(file): \(q): \(b.matchedName) (main) after \(a.matchedName)")
                    mainFirst += 1
                    continue
                }
                // The busier place, then the busier stop of it.
                let pa = f.search.placeCalls(a.stop), pb = f.search.placeCalls(b.stop)
                #expect(pa >= pb, "\(file): \(q): \(a.matchedName), \(b.matchedName)")
                if pa == pb && a.matchedName == b.matchedName { #expect(f.search.calls(a.stop) >= f.search.calls(b.stop), "\(file): \(q)") }
                compared += 1
            }
        }
        #expect(compared > 50)
        // Bydgoszcz's "Dworzec" puts Dworzec Główny before the busier Dworzec Wschód.
        if file.hasPrefix("bydgoszcz") { #expect(mainFirst > 0) }
    }

    /// Every stop named for an airport (`StopSearch.isAirportName`) within 3 km of an
    /// airport of the bundled table (distance computed here, on a sphere) is found by that
    /// airport's code with score 4, and the code's first result is such a stop; a stop so
    /// named farther from every airport is not found by a code.
    @Test("an airport's IATA code finds the stops named for it nearby, first", arguments: files + ["mexico-city-2018.zip", "porto-alegre-trensurb-2019.zip", "nyc-subway-2018.zip"])
    func airportCodes(_ file: String) throws {
        let f = Self.feeds[file] ?? Feed(file), stops = f.network.snapshot.stops
        let airports = Airports.bundled
        #expect(airports.codes.count > 5000)
        func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let r = 6_371_000.0, rad = Double.pi / 180
            let x = (b.1 - a.1) * rad * cos((a.0 + b.0) / 2 * rad), y = (b.0 - a.0) * rad
            return r * (x * x + y * y).squareRoot()
        }
        var found = 0, far = 0
        for s in f.findable where StopSearch.isAirportName(stops[s].name) {
            guard let lat = stops[s].latitude, let lon = stops[s].longitude else { continue }
            let near = airports.codes.indices.filter { metres((lat, lon), (airports.lats[$0], airports.lons[$0])) <= 2990 }.map { airports.codes[$0] }
            let nearish = airports.codes.indices.filter { metres((lat, lon), (airports.lats[$0], airports.lons[$0])) <= 3010 }.map { airports.codes[$0] }
            for code in near {
                let rows = f.search.search(code, feed: stops[s].feed, limit: 100)
                // The stop, or the station standing for it.
                #expect(rows.contains { ($0.stop.index == s || $0.stop.raw == stops[s].parent) && $0.score == 4 && $0.foundBy == "airport code" }, "\(file): \(code) does not find \(stops[s].name) (\(stops[s].stopId))")
                if let first = rows.first {
                    #expect(first.foundBy == "airport code" && StopSearch.isAirportName(first.matchedName), "\(file): \(code) finds \(first.matchedName) first")
                }
                found += 1
            }
            if nearish.isEmpty {
                far += 1
                // No code within reach: none names it as an airport's.
                for code in airports.codes(near: lat, lon, within: 10_000) {
                    let rows = f.search.search(code, feed: stops[s].feed, limit: 100)
                    #expect(!rows.contains { $0.stop.index == s && $0.foundBy == "airport code" }, "\(file): \(code) finds \(stops[s].name), too far")
                }
            }
        }
        let expected: [String: Int] = ["bart-2018.zip": 2, "bydgoszcz-2020.zip": 1, "wmata-rail-2026.zip": 1, "vilnius-2015.zip": 1,
                                       "sacramento-sacrt-2024.zip": 2, "porto-alegre-trensurb-2019.zip": 1]
        if let n = expected[file] { #expect(found >= n, "\(file): \(found) airport stops found by code") }
        if file.hasPrefix("nyc") { #expect(far > 0, "nyc: Sutphin Blvd - JFK Airport lies 7 km from JFK") }
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
