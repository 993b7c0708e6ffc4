import FeedNetwork
import Foundation
import Timetable
import TransitModel

/// A stop found by name: what `GET /v1/stops?query=…` lists.
public struct StopMatch: Sendable, Equatable {
    /// Index into `network.snapshot.stops`: a station (location_type 1) standing for its
    /// platforms, or a stop served by routes.
    public var stop: StopIndex
    /// Higher is better: 4 the whole name, 3 every word exactly, 2 the last word begun,
    /// 1 with typos (less 0.1 per edit).
    public var score: Double
    /// The stop's name as the feed writes it.
    public var matchedName: String
    /// How it was found when not by the words of its name: "stop code", "stop id",
    /// "airport code", "initials", "without a station word", "one part of the query"; nil
    /// by its name.
    public var foundBy: String?
    public init(stop: StopIndex, score: Double, matchedName: String, foundBy: String? = nil) {
        self.stop = stop; self.score = score; self.matchedName = matchedName; self.foundBy = foundBy
    }
}

/// Stop name search over a timetable, forgiving what people get wrong when they type a
/// name: case, accents, punctuation, word order, a letter or two, and the end of the name
/// not typed yet.
///
/// Names are cut into words once, at init: each word is folded (case, diacritics, the few
/// letters Unicode does not decompose, such as ł and ø) and interned, and each distinct
/// word lists the distinct names it occurs in. A query then compares its few words with
/// the distinct words (a few thousand, short), never with every stop: exact words by
/// hash, the last word also as a prefix, longer words within a small edit distance; the
/// names holding a match for every query word are then scored.
///
/// Only what a rider can board is found: stops with routes, and stations (location_type
/// 1) whose platforms have routes. A platform whose station also matches is left out: the
/// station stands for it (WMATA's "Gallery Place" station, not its four platforms).
/// Entrances, nodes and boarding areas are never found.
///
/// Beyond names: a query that is a stop's code, its id or its name's initials finds it, and
/// an airport's IATA code finds the stops named for an airport within 3 km of it (`Airports`);
/// common abbreviations stand for their words ("So." south, "Intl" international); and
/// when nothing has every word, "Millbrae station" or "Bydgoszcz, Dworzec Główny" is
/// read without the station word, or part by part (the routing model's "Stop search").
/// Among equally good matches the main place of what was typed comes first ("Dworzec":
/// Dworzec Główny, its other words all say "main"), then the busiest (`StopImportance`).
///
/// Immutable after init: any number of searches may run at once.
public final class StopSearch: Sendable {
    /// Characters of a query read; the rest is ignored (longer than nearly every stop name,
    /// and a query of megabytes must cost no more than one of a few words).
    public static let maxQueryCharacters = 100
    /// At most this many query words count (a mask per name holds one bit per word).
    static let maxQueryWords = 64

    private let snapshot: FeedSnapshot
    private let timetable: Timetable
    private let importance: StopImportance

    // Distinct words, by word index: their folded scalars
    // (wordScalars[wordScalarOffsets[w] ..< wordScalarOffsets[w + 1]]), whether they hold a
    // digit (a number is not misspelt: "12th" must not find "16th"), and the names they
    // occur in (wordNames[wordNameOffsets[w] ..< wordNameOffsets[w + 1]]).
    private let wordIndex: [String: Int32]
    private let wordScalarOffsets: [Int32]
    private let wordScalars: [UInt32]
    private let wordHasDigit: [Bool]
    private let wordNameOffsets: [Int32]
    private let wordNames: [Int32]
    // Scalar (as wordScalars) -> the letters of its word up to it, as `letterMask`.
    private let wordPrefixMask: [UInt64]
    // Words by length: wordsByLength[lengthOffsets[l] ..< lengthOffsets[l + 1]] have l
    // characters (so a typo search reads only the lengths it can match).
    private let wordsByLength: [Int32]
    private let lengthOffsets: [Int32]
    // The same order -> the word's letters (`letterMask`): the scan reads them in sequence.
    private let lengthOrderMask: [UInt64]
    // Words in lexicographic order of their scalars: those a query word begins are a run.
    private let wordsSorted: [Int32]

    // Distinct names, by name index: the text, its words in order
    // (nameWords[nameWordOffsets[n] ..< nameWordOffsets[n + 1]]), its folded length, and
    // the stops found under it (nameStops[nameStopOffsets[n] ..< nameStopOffsets[n + 1]]).
    private let names: [String]
    private let nameWordOffsets: [Int32]
    private let nameWords: [Int32]
    private let nameLength: [Int32]
    private let nameStopOffsets: [Int32]
    private let nameStops: [Int32]

    // Stop -> the station that stands for it when both match, or -1.
    private let stopStation: [Int32]
    // Stop -> trips calling on its feed's typical day (a station: at its platforms), for
    // putting busier stops first among equally good names.
    private let stopCalls: [Int32]
    // Stop -> calls at every stop of its name in its feed (a platform: its
    // station's): a place of several poles ranks as the place, and its poles stay together.
    private let placeCalls: [Int32]
    // Stop -> index of its name in `names`, or -1 (not findable, or a name with no words).
    private let stopName: [Int32]
    // A whole query (its folded words, space-separated) -> the stops it names by code,
    // id or initials, with how (an `AliasKind`).
    private let aliases: [String: [Alias]]
    // Initials of two to six consecutive significant words of a name -> those words
    // (space-separated), each run once: "sf" -> "san francisco".
    private let runInitials: [String: [String]]
    // Stop -> its place in stop id order (ties broken without comparing strings).
    private let stopIdRank: [Int32]
    // Word -> whether it says "main" or "central" (`mainWords`), or is a minor word
    // (`minorWords`): the words a name may have beyond the query's and still be its main place.
    private let wordIsMain: [Bool]
    private let wordIsMinor: [Bool]

    /// `airports`: those whose IATA code finds the stops named for them (the bundled
    /// table, read once, unless given).
    public init(network: TransitNetwork, airports: Airports = .bundled) {
        let timetable = network.timetable
        let snapshot = network.snapshot
        self.snapshot = snapshot
        self.timetable = timetable
        let importance = StopImportance(timetable, snapshot)
        self.importance = importance
        let stops = snapshot.stops
        let n = stops.count

        // Which stops can be found: served stops, and stations with a served platform.
        let routes = timetable.routesWithService()
        let served = timetable.stopsWithService(routes: routes)
        var findable = [Bool](repeating: false, count: n)
        var station = [Int32](repeating: -1, count: n)
        var calls = importance.calls
        for s in 0..<n where served[s] {
            findable[s] = true
            let p = Int(stops[s].parent)
            if p >= 0 && stops[p].locationType == 1 {
                findable[p] = true
                station[s] = Int32(p)
                calls[p] += importance.calls[s]
            }
        }
        stopStation = station
        stopCalls = calls
        var rank = [Int32](repeating: 0, count: n)
        for (r, s) in stops.indices.sorted(by: { (stops[$0].stopId, $0) < (stops[$1].stopId, $1) }).enumerated() { rank[s] = Int32(r) }
        stopIdRank = rank

        // Distinct names and their words.
        var nameIndex: [String: Int] = [:]
        var names: [String] = [], nameStopLists: [[Int32]] = [], nameWordLists: [[Int32]] = [], nameLength: [Int32] = []
        var wordIndex: [String: Int32] = [:], wordTexts: [String] = [], wordNameLists: [[Int32]] = []
        var stopName = [Int32](repeating: -1, count: n)
        for s in 0..<n where findable[s] {
            let name = stops[s].name
            if let i = nameIndex[name] { nameStopLists[i].append(Int32(s)); stopName[s] = Int32(i); continue }
            let words = Self.words(name)
            guard !words.isEmpty else { continue }  // nothing to match (an empty name)
            let i = names.count
            stopName[s] = Int32(i)
            nameIndex[name] = i
            names.append(name)
            nameStopLists.append([Int32(s)])
            nameLength.append(Int32(words.reduce(words.count - 1) { $0 + $1.unicodeScalars.count }))
            var ids: [Int32] = []
            for w in words {
                let id: Int32
                if let existing = wordIndex[w] { id = existing } else {
                    id = Int32(wordTexts.count); wordIndex[w] = id; wordTexts.append(w); wordNameLists.append([])
                }
                ids.append(id)
                // A name holding a word twice is listed once under it.
                if wordNameLists[Int(id)].last != Int32(i) { wordNameLists[Int(id)].append(Int32(i)) }
            }
            nameWordLists.append(ids)
        }
        self.names = names
        self.nameLength = nameLength
        self.stopName = stopName
        // A place: its station's, else its name and feed (a stop of no words: itself).
        var byPlace: [Int64: Int32] = [:]
        let place = { (s: Int) -> Int64 in
            let s = station[s] >= 0 ? Int(station[s]) : s
            return stopName[s] < 0 ? -1 - Int64(s) : Int64(stopName[s]) << 20 | Int64(stops[s].feed)
        }
        for s in 0..<n where findable[s] && station[s] < 0 { byPlace[place(s), default: 0] += calls[s] }
        placeCalls = (0..<n).map { findable[$0] ? byPlace[place($0)] ?? 0 : 0 }
        aliases = Self.aliases(stops, findable: findable, names: names, nameStops: nameStopLists, airports: airports)
        runInitials = Self.runInitials(names)
        (nameWordOffsets, nameWords) = Self.flatten(nameWordLists)
        (nameStopOffsets, nameStops) = Self.flatten(nameStopLists)
        self.wordIndex = wordIndex
        (wordNameOffsets, wordNames) = Self.flatten(wordNameLists)
        let (scalarOffsets, scalars) = Self.flatten(wordTexts.map { $0.unicodeScalars.map(\.value) })
        (wordScalarOffsets, wordScalars) = (scalarOffsets, scalars)
        wordHasDigit = wordTexts.map { $0.unicodeScalars.contains(where: Self.isDigit) }
        wordIsMain = wordTexts.map { Self.mainWords.contains($0) }
        wordIsMinor = wordTexts.map { Self.minorWords.contains($0) }
        var prefixMask = [UInt64](repeating: 0, count: scalars.count)
        for w in 0..<wordTexts.count {
            var m: UInt64 = 0
            for i in Int(scalarOffsets[w])..<Int(scalarOffsets[w + 1]) {
                m |= Self.letterMask(CollectionOfOne(scalars[i])); prefixMask[i] = m
            }
        }
        wordPrefixMask = prefixMask
        let lengths = (0..<wordTexts.count).map { Int(scalarOffsets[$0 + 1] - scalarOffsets[$0]) }
        wordsByLength = (0..<wordTexts.count).sorted { (lengths[$0], $0) < (lengths[$1], $1) }.map(Int32.init)
        var lengthCount = [Int32](repeating: 0, count: (lengths.max() ?? 0) + 2)
        for l in lengths { lengthCount[l + 1] += 1 }
        for l in 1..<lengthCount.count { lengthCount[l] += lengthCount[l - 1] }
        lengthOffsets = lengthCount
        lengthOrderMask = wordsByLength.map { prefixMask[Int(scalarOffsets[Int($0) + 1]) - 1] }
        let words = wordTexts.map { $0.unicodeScalars.map(\.value) }
        wordsSorted = (0..<wordTexts.count).sorted { words[$0].lexicographicallyPrecedes(words[$1]) }.map(Int32.init)
    }

    private static func flatten<T>(_ lists: [[T]]) -> ([Int32], [T]) {
        var offsets: [Int32] = [0], flat: [T] = []
        offsets.reserveCapacity(lists.count + 1)
        for l in lists { flat += l; offsets.append(Int32(flat.count)) }
        return (offsets, flat)
    }

    // MARK: Codes, ids, initials, abbreviations

    /// How a stop was found other than by the words of its name.
    enum AliasKind: UInt8, Sendable {
        case code, id, airportCode, initials, withoutStationWord, part
        var words: String {
            switch self {
            case .code: "stop code"
            case .airportCode: "airport code"
            case .id: "stop id"
            case .initials: "initials"
            case .withoutStationWord: "without a station word"
            case .part: "one part of the query"
            }
        }
    }

    struct Alias: Sendable { var stop: Int32; var kind: AliasKind }

    /// Words that do not count in a name's initials ("San Francisco International
    /// Airport" is SFIA; "Pleasant Hill/Contra Costa Centre" PHCCC).
    public static let minorWords: Set<String> = [
        "of", "the", "and", "at", "on", "in", "for", "to", "a", "an",
        "de", "del", "la", "las", "los", "el", "y", "da", "do", "dos", "das", "e", "di", "della", "le", "les", "du", "des",
        "et", "und", "der", "die", "das", "am", "im", "von", "i", "w", "na", "z", "ir",
    ]

    /// Words a rider adds to say "the station" ("Millbrae station", "Zug, Bahnhof"); left
    /// out when no name has them.
    static let stationWords: Set<String> = [
        "station", "stn", "bahnhof", "hbf", "dworzec", "stacja", "gare", "stazione", "estacion", "stop", "stotele",
    ]

    /// Words for "airport" in stop names, folded (one word, or two in a row): a stop so
    /// named near an airport is found by the airport's IATA code.
    static let airportWords: Set<String> = [
        "airport", "aeropuerto", "aeroporto", "aeroport", "aeroporti", "flughafen", "lotnisko", "luchthaven",
        "lufthavn", "flygplats", "letiste", "havalimani", "aerodrom", "lentoasema", "repuloter", "aeroportul",
    ]
    static let airportPhrases: [[String]] = [["port", "lotniczy"], ["oro", "uostas"]]

    /// Whether a name says it is an airport (`airportWords`, `airportPhrases`).
    public static func isAirportName(_ name: String) -> Bool {
        let w = words(name)
        if w.contains(where: airportWords.contains) { return true }
        return airportPhrases.contains { p in
            w.count >= p.count && (0...(w.count - p.count)).contains { Array(w[$0..<($0 + p.count)]) == p }
        }
    }

    /// Words that say a place is the main one of its name ("Dworzec Główny", "Amsterdam
    /// Centraal", "Frankfurt Hbf"), folded.
    public static let mainWords: Set<String> = [
        "glowny", "glowna", "central", "centrale", "centraal", "centrum", "centro", "centru", "hauptbahnhof", "hbf",
        "main", "glavni", "glavna", "hlavni", "keskus",
    ]

    /// Abbreviations and the words they stand for (and a few spellings of one word), as
    /// written in stop names: either finds the other. Folded, as `words` makes them.
    static let abbreviationPairs: [(String, String)] = [
        ("st", "street"), ("st", "saint"), ("ave", "avenue"), ("av", "avenue"), ("av", "avenida"), ("blvd", "boulevard"),
        ("rd", "road"), ("dr", "drive"), ("ln", "lane"), ("pkwy", "parkway"), ("hwy", "highway"), ("sq", "square"),
        ("ctr", "center"), ("ctr", "centre"), ("center", "centre"), ("intl", "international"), ("so", "south"),
        ("stn", "station"), ("mt", "mount"), ("ft", "fort"), ("jct", "junction"), ("pl", "place"), ("pl", "plac"),
        ("al", "aleja"), ("al", "aleje"), ("ul", "ulica"), ("pr", "prospektas"), ("hosp", "hospital"),
        ("airport", "aeropuerto"), ("airport", "aeroporto"), ("airport", "aeroport"), ("airport", "flughafen"),
        ("airport", "lotnisko"),
    ]
    static let abbreviations: [String: [String]] = {
        var out: [String: [String]] = [:]
        for (a, b) in abbreviationPairs { out[a, default: []].append(b); out[b, default: []].append(a) }
        return out
    }()

    /// Initials of runs of two to six consecutive significant words of each name, and the
    /// runs they stand for.
    static func runInitials(_ names: [String]) -> [String: [String]] {
        var out: [String: Set<String>] = [:]
        for name in names {
            let w = words(name).filter { !minorWords.contains($0) && !$0.unicodeScalars.contains(where: isDigit) }
            guard w.count >= 2 else { continue }
            for start in 0..<(w.count - 1) {
                for end in (start + 2)...min(w.count, start + 6) {
                    let run = w[start..<end]
                    out[String(String.UnicodeScalarView(run.compactMap(\.unicodeScalars.first))), default: []].insert(run.joined(separator: " "))
                }
            }
        }
        return out.mapValues { $0.sorted() }
    }

    /// Whole queries naming a stop other than by its name's words: its stop_code, its
    /// stop_id, the initials of its name (three or more significant words).
    static func aliases(_ stops: [FeedSnapshot.Stop], findable: [Bool], names: [String], nameStops: [[Int32]],
                        airports: Airports) -> [String: [Alias]] {
        var out: [String: [Alias]] = [:]
        func add(_ text: String, _ stop: Int32, _ kind: AliasKind) {
            let key = words(text).joined(separator: " ")
            guard !key.isEmpty else { return }
            if out[key]?.contains(where: { $0.stop == stop }) == true { return }  // a code that is also the id: once
            out[key, default: []].append(Alias(stop: stop, kind: kind))
        }
        for s in stops.indices where findable[s] {
            if let code = stops[s].stopCode { add(code, Int32(s), .code) }
            add(stops[s].stopId, Int32(s), .id)
        }
        for (i, name) in names.enumerated() {
            let significant = words(name).filter { !minorWords.contains($0) }
            guard significant.count >= 3 else { continue }
            let initials = String(String.UnicodeScalarView(significant.compactMap(\.unicodeScalars.first)))
            for s in nameStops[i] { add(initials, s, .initials) }
        }
        // Airport codes: a stop named for an airport, within reach of one.
        for (i, name) in names.enumerated() where isAirportName(name) {
            for s in nameStops[i] {
                guard let lat = stops[Int(s)].latitude, let lon = stops[Int(s)].longitude else { continue }
                for code in airports.codes(near: lat, lon) { add(code, s, .airportCode) }
            }
        }
        return out
    }

    // MARK: Words

    /// Letters case and diacritic folding leaves alone: they are letters of their own in
    /// Unicode, not a base letter plus a mark, but people type them as these.
    static let plainLetters: [Unicode.Scalar: String] = [
        "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ß": "ss", "ẞ": "ss",
        "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h", "Ħ": "h",
        "ŧ": "t", "Ŧ": "t", "ŀ": "l", "Ŀ": "l", "ŉ": "n", "ĸ": "k",
    ]
    /// Marks inside a word that join its parts ("L'Enfant" is one word, "lenfant").
    static let joiners: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}"]

    /// A text's words, folded: lower case, no diacritics, plain letters for ł, ø, ß, …;
    /// anything but letters and digits separates words ("St." is "st").
    public static func words(_ text: String) -> [String] {
        // ASCII text (most names of most feeds) is its own folding but for case, which the
        // loop below lowers: Foundation's folding took a third of the stop search's build
        // (all shared feeds: 0.12 of 0.35 s).
        let folded = text.utf8.allSatisfy({ $0 < 0x80 }) ? text
            : text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out: [String] = []
        var word = String.UnicodeScalarView()
        for u in folded.unicodeScalars {
            // ASCII, nearly every character of most feeds, without Unicode property lookups.
            if u.isASCII {
                switch u.value {
                case 0x61...0x7A, 0x30...0x39: word.append(u)
                case 0x41...0x5A: word.append(Unicode.Scalar(UInt8(u.value + 32)))
                case 0x27, 0x60: continue
                default: if !word.isEmpty { out.append(String(word)); word = String.UnicodeScalarView() }
                }
                continue
            }
            if let plain = plainLetters[u] { word.append(contentsOf: plain.unicodeScalars); continue }
            if joiners.contains(u) { continue }
            switch u.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                // Folding lowers case, but leaves a few letters it does not know as upper case.
                if u.properties.changesWhenLowercased {
                    word.append(contentsOf: u.properties.lowercaseMapping.unicodeScalars)
                } else {
                    word.append(u)
                }
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue  // a mark folding did not remove belongs to its letter
            default:
                if !word.isEmpty { out.append(String(word)); word = String.UnicodeScalarView() }
            }
        }
        if !word.isEmpty { out.append(String(word)) }
        return out
    }

    /// Edits a query word of `length` characters may differ by: none under 4 (too many
    /// short words are one letter apart), one up to 7, two from 8.
    static func allowedEdits(_ length: Int) -> Int { length >= 8 ? 2 : length >= 4 ? 1 : 0 }

    // MARK: Search

    /// How a query word matched a name's word, lower is better: exact, the start of it
    /// (the last query word only), then 1 + the number of edits; `none` no match.
    private typealias Quality = UInt8
    private static let exact: Quality = 0, prefix: Quality = 1, none: Quality = .max

    /// Stops whose name matches every word of `query`, best first (see `StopMatch.score`;
    /// among equals the busier place (`placeCalls`), the shorter name, the busier stop
    /// (`calls`), the stop id).
    /// `feed`: only that feed's stops. An empty query finds nothing.
    public func search(_ query: String, feed: Int32? = nil, limit: Int = 10) -> [StopMatch] {
        guard limit > 0 else { return [] }
        // Characters, and scalars too: one character may hold any number of marks.
        let head = String(String(String.UnicodeScalarView(query.unicodeScalars.prefix(4 * Self.maxQueryCharacters))).prefix(Self.maxQueryCharacters))
        let q = Array(Self.words(head).prefix(Self.maxQueryWords))
        guard !q.isEmpty, !names.isEmpty else { return [] }
        var found = hits(q, feed: feed)
        if found.isEmpty { found = fallback(q, head, feed: feed) }
        return ranked(found, limit: limit)
    }

    /// Stops whose name has every word of `q`, and those `q` names by code, id or initials.
    private func hits(_ q: [String], feed: Int32?) -> [Hit] {
        var found = nameHits(q, feed: feed)
        guard let named = aliases[q.joined(separator: " ")] else { return found }
        var at: [Int32: Int] = [:]
        for (i, f) in found.enumerated() { at[f.stop] = i }
        for a in named {
            if let feed, snapshot.stops[Int(a.stop)].feed != feed { continue }
            if let i = at[a.stop] {
                if found[i].score < 4 { found[i].score = 4; found[i].via = a.kind }
            } else {
                at[a.stop] = found.count
                found.append((a.stop, 4, stopName[Int(a.stop)], a.kind, false))
            }
        }
        return found
    }

    /// When no stop has every word: a word no name has read as initials ("SF airport",
    /// `initialsExpanded`); else the query without its station words ("Millbrae
    /// station"), else each comma-separated part on its own ("Bydgoszcz, Dworzec Główny"),
    /// these two scored 3/8 of what the shorter query scores, below any match of every word.
    private func fallback(_ q: [String], _ head: String, feed: Int32?) -> [Hit] {
        func scaled(_ hits: [Hit], _ via: AliasKind) -> [Hit] { hits.map { ($0.stop, $0.score * 3 / 8, $0.name, via, $0.main) } }
        let expanded = initialsExpanded(q, feed: feed)
        if !expanded.isEmpty { return expanded }
        let plain = q.filter { !Self.stationWords.contains($0) }
        if !plain.isEmpty && plain.count < q.count {
            let found = hits(plain, feed: feed)
            if !found.isEmpty { return scaled(found, .withoutStationWord) }
        }
        let parts = head.split(separator: ",").map { Array(Self.words(String($0)).prefix(Self.maxQueryWords)) }.filter { !$0.isEmpty }
        guard parts.count > 1 else { return [] }
        var best: [Int32: Hit] = [:], order: [Int32] = []
        for part in parts {
            var found = hits(part, feed: feed)
            let rest = part.filter { !Self.stationWords.contains($0) }
            if found.isEmpty && !rest.isEmpty && rest.count < part.count { found = hits(rest, feed: feed) }
            for h in scaled(found, .part) {
                if let b = best[h.stop] { if h.score > b.score { best[h.stop] = h } } else { best[h.stop] = h; order.append(h.stop) }
            }
        }
        return order.map { best[$0]! }
    }

    /// Query words no name has, read as the initials of words of a name ("SF airport":
    /// San Francisco International Airport): each such word replaced by the words it
    /// stands for (at most 8 readings of the whole query), scored as typed out but at
    /// most 3 (the name was not typed whole).
    private func initialsExpanded(_ q: [String], feed: Int32?) -> [Hit] {
        var readings: [[String]] = [[]]
        var expanded = false
        for w in q {
            let known = wordIndex[w] != nil || (Self.abbreviations[w] ?? []).contains { wordIndex[$0] != nil }
            if !known, let runs = runInitials[w] {
                expanded = true
                readings = readings.flatMap { r in runs.map { r + $0.split(separator: " ").map(String.init) } }.prefix(8).map { $0 }
            } else {
                readings = readings.map { $0 + [w] }
            }
        }
        guard expanded else { return [] }
        var best: [Int32: Hit] = [:], order: [Int32] = []
        for r in readings {
            for h in hits(Array(r.prefix(Self.maxQueryWords)), feed: feed) {
                let hit: Hit = (h.stop, min(h.score, 3), h.name, .initials, h.main)
                if let b = best[h.stop] { if hit.score > b.score { best[h.stop] = hit } } else { best[h.stop] = hit; order.append(h.stop) }
            }
        }
        return order.map { best[$0]! }
    }

    /// Stops whose name matches every word of `q`, unordered.
    private func nameHits(_ q: [String], feed: Int32?) -> [Hit] {

        // Per query word: how well it matches each distinct word (dense: a byte per word is
        // cheaper than hashing), and the list of those it matches.
        var quality: [[Quality]] = []
        var matched: [[Int32]] = []
        let longestWord = q.map(\.unicodeScalars.count).max()!
        // Three columns of the distance table, for the longest query word.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * (longestWord + 2)) { cells in
            wordScalars.withUnsafeBufferPointer { scalars in
                for (i, text) in q.enumerated() {
                    var row = [Quality](repeating: Self.none, count: wordHasDigit.count)
                    var list: [Int32] = []
                    wordMatches(text, last: i == q.count - 1, &row, &list, scalars, cells.baseAddress!)
                    if list.isEmpty { break }  // a word nothing has: no name has them all
                    quality.append(row)
                    matched.append(list)
                }
            }
        }
        guard matched.count == q.count else { return [] }

        // Names holding a match for every query word (one bit per word).
        let full: UInt64 = q.count == 64 ? ~0 : (1 << UInt64(q.count)) - 1
        var mask = [UInt64](repeating: 0, count: names.count)
        var candidates: [Int32] = []
        for (i, list) in matched.enumerated() {
            let bit: UInt64 = 1 << UInt64(i)
            for w in list {
                for k in Int(wordNameOffsets[Int(w)])..<Int(wordNameOffsets[Int(w) + 1]) {
                    let name = Int(wordNames[k])
                    if i == 0 && mask[name] == 0 { candidates.append(Int32(name)) }
                    mask[name] |= bit
                }
            }
        }

        // Score each candidate name; its stops take its score.
        var found: [Hit] = []
        var used: [Bool] = []
        for name in candidates where mask[Int(name)] == full {
            guard let (score, main) = score(name: Int(name), quality, &used) else { continue }
            for k in Int(nameStopOffsets[Int(name)])..<Int(nameStopOffsets[Int(name) + 1]) {
                let s = nameStops[k]
                if let feed, snapshot.stops[Int(s)].feed != feed { continue }
                found.append((s, score, name, nil, main))
            }
        }
        return found
    }

    /// The best `limit` of `found`, best first: a platform whose station is found too
    /// left to the station; then by score, the main place of what was typed, the place's calls, name length (a place's
    /// stops together), the stop's calls, stop id.
    private func ranked(_ found: [Hit], limit: Int) -> [StopMatch] {
        var found = found
        // A platform whose station matches too is the station's: list the station once.
        if found.contains(where: { stopStation[Int($0.stop)] >= 0 }) {
            var matchedStop = [Bool](repeating: false, count: stopStation.count)
            for f in found { matchedStop[Int(f.stop)] = true }
            found.removeAll { stopStation[Int($0.stop)] >= 0 && matchedStop[Int(stopStation[Int($0.stop)])] }
        }

        // Best first. A short prefix can match thousands of stops: keep the best `limit` as
        // they come (one comparison with the worst kept, mostly) rather than sort them all.
        func better(_ a: Hit, _ b: Hit) -> Bool {
            if a.score != b.score { return a.score > b.score }
            // The main place of what was typed ("Dworzec": Dworzec Główny) before the others.
            if a.main != b.main { return a.main }
            let pa = placeCalls[Int(a.stop)], pb = placeCalls[Int(b.stop)]
            if pa != pb { return pa > pb }
            // Places equally busy: the shorter name, and a place's stops together.
            let la = a.name >= 0 ? nameLength[Int(a.name)] : 0, lb = b.name >= 0 ? nameLength[Int(b.name)] : 0
            if la != lb { return la < lb }
            if a.name != b.name { return a.name < b.name }
            let fa = snapshot.stops[Int(a.stop)].feed, fb = snapshot.stops[Int(b.stop)].feed
            if fa != fb { return fa < fb }
            let da = stopCalls[Int(a.stop)], db = stopCalls[Int(b.stop)]
            if da != db { return da > db }
            return stopIdRank[Int(a.stop)] < stopIdRank[Int(b.stop)]
        }
        var best: [Hit]
        if limit >= 64 || found.count <= 4 * limit {
            best = Array(found.sorted(by: better).prefix(limit))
        } else {
            best = []
            best.reserveCapacity(limit + 1)
            for hit in found where best.count < limit || better(hit, best[best.count - 1]) {
                var i = best.count
                while i > 0 && better(hit, best[i - 1]) { i -= 1 }
                best.insert(hit, at: i)
                if best.count > limit { best.removeLast() }
            }
        }
        return best.map {
            StopMatch(stop: StopIndex(raw: $0.stop), score: $0.score,
                      matchedName: $0.name >= 0 ? names[Int($0.name)] : snapshot.stops[Int($0.stop)].name, foundBy: $0.via?.words)
        }
    }

    /// A stop found: its score, the index of its name (-1: none with words), how when not by name.
    /// `main`: the name's words the query did not take all say "main" (`mainWords`, minor
    /// words aside), and one at least: the main place of what was typed.
    private typealias Hit = (stop: Int32, score: Double, name: Int32, via: AliasKind?, main: Bool)

    // MARK: Importance and distinctions

    /// Trips calling at `stop` on its feed's typical day (a station: at its platforms):
    /// what orders equally good matches (`StopImportance`).
    public func calls(_ stop: StopIndex) -> Int { Int(stopCalls[stop.index]) }

    /// Trips calling at all stops of `stop`'s name in its feed (a platform: its station's;
    /// 0 for a stop the search never finds): the first key of "more important" among
    /// equally good matches, before the stop's own `calls`.
    public func placeCalls(_ stop: StopIndex) -> Int { Int(placeCalls[stop.index]) }

    /// For each of `stops` (a result list), what tells it apart from the others of the
    /// same name in the list ("towards Fordon", "platform 2", "caltrain"), or nil when no
    /// other has its name: no two rows then read the same.
    public func distinctions(_ stops: [StopIndex]) -> [String?] {
        StopDistinction.distinctions(stops.map(\.index), timetable, snapshot, importance)
    }

    /// Fills `row` for one query word: the word itself; for the last query word, every
    /// word it begins (people type names from the start); and, if it is long enough and
    /// has no digit, the words (for the last, the beginnings of words) a few edits away.
    private func wordMatches(_ text: String, last: Bool, _ row: inout [Quality], _ list: inout [Int32],
                             _ scalars: UnsafeBufferPointer<UInt32>, _ cells: UnsafeMutablePointer<Int32>) {
        if let w = wordIndex[text] { row[Int(w)] = Self.exact; list.append(w) }
        for other in Self.abbreviations[text] ?? [] {
            if let w = wordIndex[other], row[Int(w)] == Self.none { row[Int(w)] = Self.exact; list.append(w) }
        }
        let q = text.unicodeScalars.map(\.value)
        let L = q.count
        if last {
            // The run of words that sort from q on and begin with it.
            var lo = 0, hi = wordsSorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if compare(Int(wordsSorted[mid]), q) < 0 { lo = mid + 1 } else { hi = mid }
            }
            while lo < wordsSorted.count {
                let w = Int(wordsSorted[lo]), order = compare(w, q)
                if order == 1 { break }
                if order == 2 && row[w] == Self.none { row[w] = Self.prefix; list.append(Int32(w)) }
                lo += 1
            }
        }
        let k = text.unicodeScalars.contains(where: Self.isDigit) ? 0 : Self.allowedEdits(L)
        guard k > 0 else { return }
        // Whole word: lengths within k. Last query word: any word at least L - k long,
        // whose beginning (L - k … L + k characters) is within k.
        let longest = lengthOffsets.count - 2
        let shortest = L - k, widest = last ? longest : min(longest, L + k)
        guard shortest <= widest else { return }
        let qMask = Self.letterMask(q)
        // Local copies: the loop reads them without going through self.
        let byLength = wordsByLength, orderMask = lengthOrderMask, offsets = wordScalarOffsets
        let hasDigit = wordHasDigit, prefixMask = wordPrefixMask
        q.withUnsafeBufferPointer { q in
            for x in Int(lengthOffsets[shortest])..<Int(lengthOffsets[widest + 1]) {
                // Filters that rule out most words before any distance is computed. Each
                // letter of one missing from the other costs an edit (the whole word's
                // letters first: read in sequence, and a superset of any beginning's).
                let fullMask = orderMask[x]
                if !Self.atMost(qMask & ~fullMask, k) { continue }
                if !last && !Self.atMost(fullMask & ~qMask, k) { continue }
                let w = Int(byLength[x])
                guard row[w] == Self.none, !hasDigit[w] else { continue }
                let start = Int(offsets[w]), length = Int(offsets[w + 1]) - start
                let columns = last ? min(length, L + k) : length
                if columns < length && !Self.atMost(qMask & ~prefixMask[start + columns - 1], k) { continue }
                // Within k edits one of q's first k + 1 letters is kept or swapped with a
                // neighbour (a substitution or a deletion costs an edit per letter, a
                // transposition one per two), at most k places from where it was.
                var kept = false
                for i in 0...k where !kept {
                    for j in max(0, i - k)...min(columns - 1, i + k) where scalars[start + j] == q[i] { kept = true; break }
                }
                if !kept { continue }
                let d = Self.distances(q, scalars, start, columns, k, cells)
                let best = last ? min(d.whole, d.prefix) : d.whole
                if best <= k { row[w] = Quality(1 + best); list.append(Int32(w)) }
            }
        }
    }

    /// Word `w` against `q` in lexicographic order: -1 before, 0 equal, 1 after without
    /// beginning with q, 2 longer and beginning with q.
    private func compare(_ w: Int, _ q: [UInt32]) -> Int {
        let start = Int(wordScalarOffsets[w]), length = Int(wordScalarOffsets[w + 1]) - start
        var i = 0
        while i < length && i < q.count {
            let a = wordScalars[start + i], b = q[i]
            if a != b { return a < b ? -1 : 1 }
            i += 1
        }
        if length == q.count { return 0 }
        return length < q.count ? -1 : 2
    }

    /// A digit, in any script: a word holding one is a number or a code, not misspelt.
    static func isDigit(_ u: Unicode.Scalar) -> Bool {
        u.isASCII ? (0x30...0x39).contains(u.value) : u.properties.numericType != nil
    }

    /// Whether `bits` has at most `k` bits set (k is 1 or 2: cheaper than a population count
    /// done in software, as it is without a CPU flag for it).
    @inline(__always)
    static func atMost(_ bits: UInt64, _ k: Int) -> Bool {
        var b = bits
        for _ in 0..<k { b &= b &- 1 }
        return b == 0
    }

    /// The letters of a word as a bit set (by scalar value mod 64: a collision only lets
    /// more words through to the distance).
    static func letterMask<S: Sequence>(_ scalars: S) -> UInt64 where S.Element == UInt32 {
        scalars.reduce(0) { $0 | 1 << UInt64($1 & 63) }
    }

    /// A candidate name's score, or nil when its words cannot take every query word (each
    /// query word needs a word of its own: "st st" does not match "Powell St.").
    /// Also whether the words the query left are all words for "main" (minor words aside),
    /// one at least.
    private func score(name: Int, _ quality: [[Quality]], _ used: inout [Bool]) -> (Double, Bool)? {
        let start = Int(nameWordOffsets[name]), count = Int(nameWordOffsets[name + 1]) - start
        used.removeAll(keepingCapacity: true)
        used.append(contentsOf: repeatElement(false, count: count))
        var worst: Quality = Self.exact, edits = 0, inPlace = quality.count == count
        // Greedy: each query word takes the best free word of the name, the first among equals.
        for (i, row) in quality.enumerated() {
            var best = -1, bestQuality = Self.none
            for p in 0..<count where !used[p] {
                let qp = row[Int(nameWords[start + p])]
                if qp < bestQuality { best = p; bestQuality = qp }
            }
            guard best >= 0 else { return nil }
            used[best] = true
            worst = max(worst, bestQuality)
            if bestQuality > Self.prefix { edits += Int(bestQuality) - 1 }
            if best != i || bestQuality != Self.exact { inPlace = false }
        }
        var main = false
        for p in 0..<count where !used[p] {
            let w = Int(nameWords[start + p])
            if wordIsMain[w] { main = true } else if !wordIsMinor[w] { main = false; break }
        }
        if inPlace { return (4, main) }                    // the whole name, word for word
        if worst == Self.exact { return (3, main) }        // every word, in another order or among others
        if worst == Self.prefix { return (2, main) }       // the last word begun
        return (1 - min(0.9, 0.1 * Double(edits)), main)  // with typos
    }

    /// Damerau-Levenshtein distance, optimal string alignment variant (a transposition of
    /// two neighbours is one edit, as when typing fast), bounded by `k`: only cells within
    /// k of the diagonal are computed (the others exceed k anyway), and it stops once two
    /// columns exceed k. `cells` holds three columns of q.count + 2.
    ///
    /// Returns the distance from `q` to `word[start ..< start + columns]` (`whole`) and the
    /// least to any of its beginnings of q.count - k … q.count + k characters (`prefix`);
    /// any value above `k` only means "more than k".
    static func distances(_ q: UnsafeBufferPointer<UInt32>, _ word: UnsafeBufferPointer<UInt32>, _ start: Int, _ columns: Int,
                          _ k: Int, _ c: UnsafeMutablePointer<Int32>) -> (whole: Int, prefix: Int) {
        let L = q.count, height = L + 2
        let far = Int32(k + 1)
        // Columns j - 2, j - 1 and j live at (j % 3) * height; cells beyond the band hold `far`.
        c.update(repeating: far, count: 3 * height)
        for i in 0...min(L, k) { c[i] = Int32(i) }
        var prefixBest = Int.max, whole = Int.max
        var lastMin = Int32(0)
        var j = 1
        while j <= columns {
            let cur = (j % 3) * height, prev = ((j - 1) % 3) * height, prev2 = ((j + 1) % 3) * height
            let ch = word[start + j - 1], before = j > 1 ? word[start + j - 2] : 0
            let lo = max(1, j - k), hi = min(L, j + k)
            c[cur + lo - 1] = lo == 1 ? Int32(j) : far
            if hi + 1 <= L { c[cur + hi + 1] = far }
            var columnMin = lo == 1 ? Int32(j) : far
            if lo <= hi {
                for i in lo...hi {
                    let cost: Int32 = q[i - 1] == ch ? 0 : 1
                    var v = min(c[prev + i] + 1, c[cur + i - 1] + 1, c[prev + i - 1] + cost)
                    if i > 1 && j > 1 && q[i - 1] == before && q[i - 2] == ch { v = min(v, c[prev2 + i - 2] + 1) }
                    v = min(v, far)
                    c[cur + i] = v
                    columnMin = min(columnMin, v)
                }
            }
            if j >= L - k && j <= L + k { prefixBest = min(prefixBest, Int(c[cur + L])) }
            if j == columns && abs(L - j) <= k { whole = Int(c[cur + L]) }
            // Two columns beyond k: no later cell gets back within k.
            if columnMin > k && lastMin > k { break }
            lastMin = columnMin
            j += 1
        }
        return (whole, prefixBest)
    }
}
