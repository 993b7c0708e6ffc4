import FeedNetwork
import Foundation
import GTFS
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Stop name search on real feeds: what people type (wrong case, no accents, typos, half a
/// name) finds the stop they mean, stations stand for their platforms, and nothing a query
/// can hold breaks it.
@Suite struct StopSearchTests {
    struct Fixture: Sendable {
        let network: TransitNetwork
        var timetable: Timetable { network.timetable }
        let search: StopSearch

        init(_ path: String, _ feedId: String) {
            let (snapshot, _) = try! SnapshotSink.load(path: path, feedId: feedId)
            self.init(snapshot)
        }
        init(_ snapshot: FeedSnapshot) {
            network = try! TimetableBuilder.build(snapshot)
            search = StopSearch(network: network)
        }

        func stopId(_ m: StopMatch) -> String { network.snapshot.stops[m.stop.index].stopId }
        func ids(_ query: String, feed: Int32? = nil, limit: Int = 10) -> [String] {
            search.search(query, feed: feed, limit: limit).map(stopId)
        }
        func first(_ query: String) -> StopMatch? { search.search(query).first }
    }

    // Built once per feed: each takes a while.
    static let bart = Fixture(try! FeedFixtures.bundledFeed("bart-2018"), "bart")
    static let vilnius = Fixture(try! FeedFixtures.sharedFeed("vilnius-2015"), "vilnius")
    static let bydgoszcz = Fixture(try! FeedFixtures.sharedFeed("bydgoszcz-2020"), "bydgoszcz")
    static let milan = Fixture(try! FeedFixtures.sharedFeed("milan-atm-2014"), "milan")
    static let wmata = Fixture(try! FeedFixtures.sharedFeed("wmata-rail-2026"), "wmata")

    @Test("case, punctuation and word order")
    func caseAndPunctuation() throws {
        let f = Self.bart
        #expect(f.ids("POWELL").first == "POWL")
        #expect(f.ids("powell st").first == "POWL")
        let exact = try #require(f.first("POWELL ST"))
        #expect(f.stopId(exact) == "POWL" && exact.score == 4 && exact.matchedName == "Powell St.")
        // "St." and "St" are one word; the slash separates words.
        #expect(f.first("Powell St.")?.score == 4)
        #expect(f.first("civic center un plaza").map(f.stopId) == "CIVC")
        #expect(f.first("civic center un plaza")?.score == 4)
        // Another order: every word still found, but not the whole name as written.
        let swapped = try #require(f.first("st powell"))
        #expect(f.stopId(swapped) == "POWL" && swapped.score == 3)
        #expect(f.ids("  plaza  CIVIC ").first == "CIVC")
        #expect(Self.milan.first("MISSORI")?.matchedName == "missori m3")
    }

    @Test("accents forgiven both ways")
    func accents() throws {
        // Typed without them.
        let v = Self.vilnius
        #expect(v.first("zirmunu ziedas")?.matchedName == "Žirmūnų  žiedas")
        #expect(v.first("zirmunu ziedas")?.score == 4)
        #expect(v.first("luziai")?.matchedName == "Lūžiai")
        #expect(v.first("sajudzio kelias")?.matchedName == "Lietuvos sąjūdžio kelias")
        let b = Self.bydgoszcz
        #expect(b.first("dworzec glowny")?.matchedName == "Dworzec Główny")
        #expect(b.first("dworzec glowny")?.score == 4)
        #expect(b.first("DWORZEC GŁÓWNY")?.matchedName == "Dworzec Główny")
        #expect(b.first("czolgistow")?.matchedName == "Saperów - Czołgistów")
        #expect(b.first("saperow czołgistow")?.matchedName == "Saperów - Czołgistów")
        // Typed with accents the name does not have.
        #expect(Self.bart.ids("Pówéll Śt").first == "POWL")
        #expect(Self.milan.first("Míssöri")?.matchedName == "missori m3")
        // Letters folding does not decompose.
        #expect(StopSearch.words("Łódź Straße") == ["lodz", "strasse"])
        #expect(StopSearch.words("Øresund Æble Đakovo Þór Œuvre") == ["oresund", "aeble", "dakovo", "thor", "oeuvre"])
        #expect(StopSearch.words("L'Enfant Plaza, St.Mary's (N) — 12th") == ["lenfant", "plaza", "st", "marys", "n", "12th"])
    }

    @Test("small typos: one edit from 4 letters, two from 8, none in short words or numbers")
    func typos() throws {
        let f = Self.bart
        let powel = try #require(f.first("Powel st"))
        #expect(f.stopId(powel) == "POWL" && powel.score < 1)
        #expect(f.ids("Pwoell").first == "POWL")               // a transposition
        #expect(f.ids("Embarcardero").first == "EMBR")         // 12 letters, one inserted
        #expect(f.ids("Embracadreo").first == "EMBR")          // two transpositions
        #expect(f.ids("Ashbx").first == "ASHB")
        #expect(Self.vilnius.first("Zirmunu zeidas")?.matchedName == "Žirmūnų  žiedas")
        #expect(Self.bydgoszcz.first("Dworzce Glowny")?.matchedName == "Dworzec Główny")
        // Three letters: no typo allowed ("bax" is not "Bay"); numbers are not misspelt.
        #expect(!f.ids("bax fair", limit: 50).contains("BAYF"))
        #expect(f.ids("13th st", limit: 50).isEmpty)
        #expect(f.ids("Pwoelll", limit: 50).isEmpty)           // three edits from "powell"
    }

    @Test("the last word may be unfinished")
    func prefixes() throws {
        let f = Self.bart
        #expect(f.ids("civic").first == "CIVC")
        #expect(f.ids("civ").first == "CIVC")
        #expect(f.ids("civic cen").first == "CIVC")
        let powe = try #require(f.first("powe"))
        #expect(f.stopId(powe) == "POWL" && powe.score == 2)
        #expect(Set(f.ids("san fr")).isSuperset(of: ["SFIA", "SSAN"]))
        // A whole word that also begins longer ones: both.
        #expect(Set(f.ids("dublin pleasant")) == ["DUBL", "WDUB"])
        let pleasant = f.search.search("pleasant")
        #expect(pleasant.first.map(f.stopId) == "PHIL" && pleasant.first?.score == 3)
        #expect(Set(pleasant.dropFirst().map(f.stopId)) == ["DUBL", "WDUB"] && pleasant.dropFirst().allSatisfy { $0.score == 2 })
        // A typo in the part typed so far.
        #expect(f.ids("embracad").first == "EMBR")
        // Only the last word is read as a beginning.
        #expect(f.ids("civ center").isEmpty)
    }

    @Test("a station once, not its platforms or entrances")
    func stations() throws {
        let f = Self.wmata
        let snapshot = f.network.snapshot
        let gallery = f.search.search("Gallery", limit: 50)
        let station = try #require(snapshot.stops.firstIndex { $0.stopId == "STN_B01_F01" })
        #expect(gallery.map(\.stop) == [StopIndex(station)], "\(gallery.map(f.stopId))")
        #expect(f.first("gallery place")?.score == 4)
        // A platform the station's name does not match is found itself.
        #expect(f.ids("Gallery Place Red Line Track 2").first == "PF_B01_2")
        #expect(f.ids("metro center").first == "STN_A01_C01")
        // Nothing but stations with served platforms and served stops, over many queries.
        let served = f.timetable.stopsWithService()
        for q in ["a", "e", "st", "center", "platform", "entrance", "escalator", "line", "gallery pl", "metro"] {
            for m in f.search.search(q, limit: 500) {
                let s = snapshot.stops[m.stop.index]
                if s.locationType == 1 {
                    #expect(snapshot.stops.indices.contains { snapshot.stops[$0].parent == m.stop.raw && served[$0] }, "\(s.stopId)")
                } else {
                    #expect(s.locationType == 0 && served[m.stop.index], "\(q): \(s.stopId) is not a served stop")
                }
            }
        }
    }

    @Test("scoped to a feed")
    func feedScope() throws {
        let (bart, _) = try SnapshotSink.load(path: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let (caltrain, _) = try SnapshotSink.load(path: FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
        let f = Fixture(FeedSnapshot.merging([bart, caltrain]))
        #expect(Set(f.ids("millbrae")) == ["MLBR", "Millbrae Caltrain"])
        #expect(f.ids("millbrae", feed: 0) == ["MLBR"])
        #expect(f.ids("millbrae", feed: 1) == ["Millbrae Caltrain"])
        #expect(f.ids("millbrae", feed: 2).isEmpty)
        #expect(f.search.search("san", feed: 1, limit: 100).allSatisfy { f.network.snapshot.stops[$0.stop.index].feed == 1 })
    }

    @Test("empty and absurd queries")
    func absurd() throws {
        let f = Self.wmata
        for q in ["", "   ", "!!! ... ---", "\u{0301}\u{0301}", "\n\t"] { #expect(f.search.search(q).isEmpty, "\(q.debugDescription)") }
        #expect(f.search.search("metro", limit: 0).isEmpty)
        #expect(f.search.search("metro", limit: -5).isEmpty)
        var rng = SeededRandom(seed: 7)
        let alphabet = Array("abcdefghij klmnopqrstuvwxyzłóžū .,'-🚇漢字\u{0301}")
        let long = [String(repeating: "a", count: 10_000), String(repeating: "metro ", count: 2_000),
                    String((0..<10_000).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }),
                    String(repeating: "🚇", count: 10_000), "metro " + String(repeating: "x", count: 9_994),
                    "e" + String(repeating: "\u{0301}", count: 10_000), String(repeating: "a\u{200D}", count: 5_000)]
        let clock = ContinuousClock()
        for q in long {
            let elapsed = clock.measure { _ = f.search.search(q, limit: 1000) }
            print("10,000-character query: \(elapsed)")
        }
        // Past 100 characters nothing is read.
        #expect(f.search.search("metro center" + String(repeating: " ", count: 100) + "zzzzzz").first.map(f.stopId) == "STN_A01_C01")
    }

    /// The airports table as given (here in code, not the bundled one): a code finds the
    /// stops named for an airport within 3 km of it, and nothing else.
    @Test("an airport's code finds the stops named for it within 3 km; the table is parsed as written")
    func airportCodes() throws {
        let table = Airports(csv: "iata,lat,lon\nSFO,37.61881,-122.37542\nXXA,37.64,-122.39\nxyz,1,2\nBAD,95,0\nTOOLONG,1,2\nFAR,37.70,-122.39\n")
        #expect(table.codes.sorted() == ["FAR", "SFO", "XXA", "XYZ"])
        // SFIA lies 1.5 km from SFO, 2.7 km from XXA, 9.4 km from FAR.
        #expect(table.codes(near: 37.615966, -122.392409) == ["SFO", "XXA"])
        let search = StopSearch(network: Self.bart.network, airports: table)
        for code in ["SFO", "sfo", "XXA"] {
            let first = try #require(search.search(code).first, "\(code)")
            #expect(Self.bart.stopId(first) == "SFIA" && first.score == 4 && first.foundBy == "airport code", "\(code)")
        }
        // Too far; and a code the table lacks finds nothing, bundled table or not.
        #expect(!search.search("FAR").contains { $0.foundBy == "airport code" })
        #expect(!search.search("OAK").contains { $0.foundBy == "airport code" })
        #expect(Self.bart.first("OAK").map(Self.bart.stopId) == "OAKL")
        // Only a name that says "airport": a stop near an airport named otherwise is not found.
        let near = Airports([("MLB", 37.8045, -122.2950)])  // 0.3 km from West Oakland
        #expect(!StopSearch(network: Self.bart.network, airports: near).search("MLB").contains { $0.foundBy == "airport code" })
        #expect(StopSearch.isAirportName("Port Lotniczy") && StopSearch.isAirportName("Oro uostas") && StopSearch.isAirportName("ESTACAO AEROPORTO"))
        #expect(!StopSearch.isAirportName("Port") && !StopSearch.isAirportName("Lotnicza") && !StopSearch.isAirportName("Oro"))
    }

    /// Among equally good matches, a name whose other words all say "main" first, busier
    /// places or not; a name with another word left is not the main place.
    @Test("the main place of what was typed first: Dworzec Główny before the busier Dworzec Wschód")
    func mainPlaceFirst() throws {
        let b = Self.bydgoszcz
        let rows = b.search.search("Dworzec", limit: 40)
        #expect(rows.first?.matchedName == "Dworzec Główny")
        let wschod = try #require(rows.first { $0.matchedName == "Dworzec Wschód" })
        #expect(b.search.placeCalls(wschod.stop) > b.search.placeCalls(rows[0].stop))
        // Typed whole, each is its own first.
        #expect(b.first("Dworzec Wschód")?.matchedName == "Dworzec Wschód")
        // A typo or an unfinished word: the same rule among equals.
        #expect(b.first("Dworze")?.matchedName == "Dworzec Główny")
        #expect(b.first("Dworzex")?.matchedName == "Dworzec Główny")
    }

    @Test("best first: the exact name before a near one, scores never rise")
    func order() throws {
        let v = Self.vilnius
        let found = v.search.search("baliskes", limit: 20)
        let exact = try #require(found.firstIndex { $0.matchedName == "Bališkės" })
        let near = try #require(found.firstIndex { $0.matchedName == "Baniškės" })
        #expect(exact < near && found[exact].score == 4 && found[near].score < 1)
        for f in [Self.bart, Self.vilnius, Self.bydgoszcz, Self.milan, Self.wmata] {
            for q in ["a", "st", "centr", "via", "plac", "dworzec", "pietu", "san"] {
                let scores = f.search.search(q, limit: 100).map(\.score)
                #expect(scores == scores.sorted(by: >))
            }
        }
        // Among stops of one name, the busier first (trips calling on the typical day), then
        // by stop id.
        let snapshot = v.network.snapshot
        var checked = 0
        for name in Set(snapshot.stops.map(\.name)).sorted().prefix(300) {
            let same = v.search.search(name, limit: 100).filter { $0.matchedName == name }
            guard same.count >= 2 else { continue }
            checked += 1
            for (a, b) in zip(same, same.dropFirst()) {
                let da = v.search.calls(a.stop), db = v.search.calls(b.stop)
                #expect(da > db || (da == db && snapshot.stops[a.stop.index].stopId < snapshot.stops[b.stop.index].stopId), "\(name)")
            }
        }
        #expect(checked > 50)
    }

    @Test("every served stop is found by its own name", arguments: ["bart", "vilnius", "bydgoszcz", "milan", "wmata"])
    func everyStopFindable(_ feed: String) throws {
        let f = ["bart": Self.bart, "vilnius": Self.vilnius, "bydgoszcz": Self.bydgoszcz, "milan": Self.milan, "wmata": Self.wmata][feed]!
        let snapshot = f.network.snapshot
        let served = f.timetable.stopsWithService()
        var rng = SeededRandom(seed: 99)
        let stops = snapshot.stops.indices.filter { served[$0] }
        for _ in 0..<60 {
            let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
            let name = snapshot.stops[s].name
            let found = f.search.search(name, limit: 10_000)
            let station = snapshot.stops[s].parent
            #expect(found.contains { $0.stop == StopIndex(s) || $0.stop.raw == station }, "\(feed): \(name) (\(snapshot.stops[s].stopId))")
            // Past 100 characters a query is cut: WMATA's longest platform names are not
            // read whole.
            if name.count <= StopSearch.maxQueryCharacters { #expect(found.first?.score == 4, "\(feed): \(name)") }
        }
    }

    @Test("timing: queries on the largest stop count (printed, not asserted)")
    func timing() throws {
        let f = Fixture(try FeedFixtures.sharedFeed("mexico-city-2018"), "cdmx")
        let names = f.network.snapshot.stops.map(\.name)
        var rng = SeededRandom(seed: 11)
        var queries: [String] = []
        for i in 0..<3000 {
            let name = names[Int.random(in: 0..<names.count, using: &rng)]
            var chars = Array(name)
            switch i % 4 {
            case 0: break                                                    // the whole name
            case 1: chars = Array(chars.prefix(max(1, chars.count / 2)))     // half typed
            case 2: if chars.count > 5 { chars.swapAt(2, 3) }                // a transposition
            default: chars = Array(String(chars).lowercased().folding(options: .diacriticInsensitive, locale: nil))
            }
            queries.append(String(chars))
        }
        // The machine may be shared: each query's best of three runs.
        let clock = ContinuousClock()
        var results = 0
        var best = [Duration](repeating: .seconds(1000), count: queries.count)
        _ = f.search.search("warm up")
        for pass in 0..<3 {
            for (i, q) in queries.enumerated() {
                let elapsed = clock.measure { let r = f.search.search(q); if pass == 0 { results += r.count } }
                best[i] = min(best[i], elapsed)
            }
        }
        func micro(_ d: Duration) -> String {
            String(format: "%.1f", (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e12)
        }
        let n = queries.count / 4
        let perKind = (0..<4).map { k in stride(from: k, to: queries.count, by: 4).reduce(Duration.zero) { $0 + best[$1] } / n }
        let sorted = best.sorted()
        let slowest = best.indices.max { best[$0] < best[$1] }!
        print("stop search on \(names.count) stops: \(micro(best.reduce(.zero, +) / queries.count)) µs per query, "
              + "median \(micro(sorted[sorted.count / 2])), p99 \(micro(sorted[sorted.count * 99 / 100])) "
              + "(whole names \(micro(perKind[0])), half typed \(micro(perKind[1])), transposed \(micro(perKind[2])), "
              + "lower case without accents \(micro(perKind[3])); slowest \(micro(best[slowest])) for "
              + "\(queries[slowest].debugDescription); \(queries.count) queries, \(results) results)")
        #expect(results > 0)
    }
}
