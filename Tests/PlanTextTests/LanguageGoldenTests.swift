import FeedNetwork
import Foundation
import GTFS
import PlanJSON
import Planner
import PlanText
import Streets
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The same trips and refusals in English and in Simplified Chinese, from one catalogue
/// (`Catalogue`), compared with `Tests/Golden/plan-languages.txt`: the terminal's table,
/// the steps (rides, walks, changes), the summary, the notices and the refusals a rider
/// can meet. The English half is also the English of the other golden files, word for word.
@Suite struct LanguageGoldenTests {
    struct Trip: Sendable { let feed: String; let from: String; let to: String; let at: String; var arriveBy = false; var modes: String?
        var wheelchair = false }

    static let trips: [Trip] = [
        // A ride between two stops; walks at both ends; arrive-by; a change.
        Trip(feed: "bart-2018.zip", from: "stop:12TH", to: "stop:SFIA", at: "2018-06-05T08:30:00"),
        Trip(feed: "bart-2018.zip", from: "37.8044,-122.2712", to: "37.7700,-122.4180", at: "2018-06-05T08:30:00"),
        Trip(feed: "bart-2018.zip", from: "37.8044,-122.2712", to: "37.7700,-122.4180", at: "2018-06-05T18:00:00", arriveBy: true),
        Trip(feed: "bart-2018.zip", from: "stop:DBRK", to: "stop:DUBL", at: "2018-06-05T10:00:00"),
        // Refusals: the same place, outside the area, no such mode, outside the dates, no stop near.
        Trip(feed: "bart-2018.zip", from: "stop:12TH", to: "stop:12TH", at: "2018-06-05T08:30:00"),
        Trip(feed: "bart-2018.zip", from: "37.8044,-122.2712", to: "48.8566,2.3522", at: "2018-06-05T08:30:00"),
        Trip(feed: "caltrain.zip", from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T08:00:00", modes: "BUS"),
        Trip(feed: "caltrain.zip", from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T08:00:00", wheelchair: true),
        Trip(feed: "wmata-rail-2026.zip", from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2031-01-07T08:15:00"),
        Trip(feed: "wmata-rail-2026.zip", from: "38.9595,-77.3580", to: "38.8480,-77.0420", at: "2026-05-05T09:00:00"),
    ]

    @Test("the answers read the same in English and Chinese, as recorded")
    func golden() throws {
        var planners: [String: JourneyPlanner] = [:]
        var text = ""
        for trip in Self.trips {
            let planner = try planners[trip.feed] ?? {
                let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(trip.feed), feedId: String(trip.feed.dropLast(4)))
                return JourneyPlanner(network: try TimetableBuilder.build(snapshot))
            }()
            planners[trip.feed] = planner
            var query = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!, arriveBy: trip.arriveBy)
            if let m = trip.modes { query.modes = try ModeFilter.parse(m) }
            query.wheelchair = trip.wheelchair
            let outcome = planner.answer(query)
            for language in Language.allCases {
                text += "$ transit plan \(trip.from) \(trip.to) \(trip.arriveBy ? "--arrive-by" : "--at") \(trip.at)"
                    + (trip.modes.map { " --modes \($0)" } ?? "") + (trip.wheelchair ? " --wheelchair" : "") + " --lang \(language.rawValue)\n"
                text += try GoldenText.text(outcome, from: trip.from, to: trip.to, planner: planner, language: language) + "\n"
            }
        }
        try GoldenText.check(text, "plan-languages.txt")
    }

    @Test("the English of every leg, walk step, notice and refusal is the catalogue's English")
    func englishIsTheCatalogues() throws {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        let query = PlanQuery(from: Place.parse("37.8044,-122.2712")!, to: Place.parse("37.7700,-122.4180")!,
                              time: QueryTime.parse("2018-06-05T08:30:00")!)
        let answer = try planner.answer(query).get()
        for option in answer.options {
            for leg in option.itinerary.legs {
                #expect(leg.step.text(.en) == leg.instruction)
                #expect(leg.step.text(.zhHans) != leg.instruction)
            }
        }
    }
}

/// Both languages whole; the language tags read as a browser, an API client and a shell give them.
@Suite struct CatalogueTests {
    @Test("every message is in every language")
    func whole() {
        for language in Language.allCases { #expect(Catalogue.missing(language).isEmpty, "\(language.rawValue) lacks \(Catalogue.missing(language))") }
    }

    /// A translation may leave out what only English grammar needs (a plural's count,
    /// "timetables of"), never use a value English does not have.
    @Test("each translation uses only the values of its English message")
    func placeholders() {
        func names(_ t: String) -> Set<String> {
            var out = Set<String>(), rest = Substring(t)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                out.insert(String(rest[rest.index(after: open)..<close].split(separator: "|").first ?? ""))
                rest = rest[rest.index(after: close)...]
            }
            return out
        }
        let en = Catalogue.messages(.en, prefixes: [""]), zh = Catalogue.messages(.zhHans, prefixes: [""])
        for (key, text) in en { #expect(names(zh[key] ?? "").isSubset(of: names(text)), "\(key)") }
    }

    @Test("language tags", arguments: [("en", Language.en), ("en-GB", .en), ("zh", .zhHans), ("zh-CN", .zhHans), ("zh-Hans-CN", .zhHans),
                                        ("zh_CN.UTF-8", .zhHans), ("ZH-hans", .zhHans), ("C.UTF-8", .en)])
    func tags(_ tag: String, _ language: Language) { #expect(Language(tag: tag) == language) }

    @Test("Accept-Language picks by weight, an unoffered language is not picked")
    func acceptLanguage() {
        #expect(Language(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8") == .zhHans)
        #expect(Language(acceptLanguage: "fr-FR, en;q=0.5, zh;q=0.7") == .zhHans)
        #expect(Language(acceptLanguage: "fr-FR, de") == nil)
        #expect(Language(acceptLanguage: "zh;q=0, en") == .en)
        #expect(Language.environment(["LANG": "zh_CN.UTF-8"]) == .zhHans)
        #expect(Language.environment(["LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"]) == .en)
        #expect(Language.environment([:]) == .en)
    }

    @Test("words in each language")
    func words() {
        #expect(Words.distance(350, .zhHans) == "350 米")
        #expect(Words.distance(1234, .zhHans) == "1.2 公里")
        #expect(Words.duration(minutes: 65, .zhHans) == "1 小时 5 分钟")
        #expect(Words.duration(minutes: 0, .zhHans) == "不到 1 分钟")
        #expect(Words.list(["a", "b", "c"], .en) == "a, b and c")
        #expect(Words.list(["a", "b", "c"], .zhHans, or: true) == "a、b或c")
        #expect(ShownTimes.localized("01:30 Fri (second, +3 min)", .zhHans) == "01:30 周五（第二次，晚 3 分钟）")
        #expect(ShownTimes.localized("08:35 (on time)", .zhHans) == "08:35（准点）")
    }
}
