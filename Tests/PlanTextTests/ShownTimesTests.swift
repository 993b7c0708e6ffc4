import FeedNetwork
import Foundation
import GTFS
import PlanJSON
import Planner
import PlanText
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The text a rider reads, checked against the answer's own instants on seeded random
/// trips over four real feeds, late evenings, nights and early mornings included (and the
/// night Warsaw's clocks go back): every time printed, read back with only what is printed
/// beside it (its day, its mark), is the instant it stands for; every duration printed is
/// arrive − leave as printed; each step lasts the minutes it says; the summary's walking
/// and waiting are the steps'. The reading here is written apart from `ShownTimes`, from
/// the printed text alone, so that a slip in the rule shows.
@Suite struct ShownTimesTests {
    static let feeds = ["bart-2018.zip", "caltrain.zip", "sacramento-sacrt-2024.zip", "bydgoszcz-2020.zip"]

    @Test("a realtime ride's delay in minutes: the scheduled time shown plus them is the expected one shown")
    func delays() {
        let t: Int64 = 1_565_200_800  // 18:00:00 UTC
        #expect(ShownTimes.withDelay("18:05", expected: t + 304, scheduled: t, arrival: false) == "18:05 (+5 min)")
        #expect(ShownTimes.withDelay("18:04", expected: t + 202, scheduled: t, arrival: true) == "18:04 (+4 min)")
        #expect(ShownTimes.withDelay("18:00", expected: t + 30, scheduled: t, arrival: false) == "18:00 (on time)")
        #expect(ShownTimes.withDelay("17:58", expected: t - 120, scheduled: t, arrival: false) == "17:58 (2 min early)")
        #expect(ShownTimes.withDelay("01:30 (second)", expected: t + 180, scheduled: t, arrival: false) == "01:30 (second, +3 min)")
        let ride = LegInstruction.ride(mode: .rail, route: "Yellow", headsign: nil, departure: "11:05 (+5 min)", from: "A", stops: 2,
                                       to: "B", arrival: "11:48 (+4 min)")
        #expect(ride.english == "Take train Yellow at 11:05 (+5 min) from A, 2 stops, get off at B (11:48, +4 min)")
    }

    @Test("every time printed is on its day, every duration adds up as printed", arguments: feeds)
    func randomTrips(_ file: String) throws {
        let feedId = String(file.dropLast(4))
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file), feedId: feedId)
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        let period = try #require(planner.servicePeriods.compactMap { $0 }.first)
        let stops = snapshot.stops.filter { $0.locationType == 0 && $0.latitude != nil && $0.longitude != nil }
        var rng = SeededRandom(seed: 20_261_125 &+ UInt64(file.utf8.count))
        var checked = 0, offDay = 0, marked = 0
        for n in 0..<50 {
            // Ends near random stops: sometimes a few meters away (a walk of a few steps).
            func end() -> String {
                let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
                let r = Bool.random(using: &rng) ? 0.00003 : Double.random(in: 0...0.005, using: &rng)
                return String(format: "%.6f,%.6f", s.latitude! + r, s.longitude! - r)
            }
            let span = Int(period.last.daysSinceEpoch - period.first.daysSinceEpoch)
            var day = period.first.adding(days: Int.random(in: 0...span, using: &rng))
            // Late evening and early morning more often than by chance.
            var hour = [Int.random(in: 0..<24, using: &rng), Int.random(in: 21..<24, using: &rng),
                        Int.random(in: 0..<6, using: &rng)][n % 3]
            // Warsaw's clocks go back at 03:00 on 2020-10-25, the timetable's last day.
            if feedId == "bydgoszcz-2020" && n % 3 == 0 { day = ServiceDate(year: 2020, month: 10, day: 25)!; hour = Int.random(in: 1...2, using: &rng) }
            let c = day.components
            let at = String(format: "%04d-%02d-%02dT%02d:%02d:00", c.year, c.month, c.day, hour, Int.random(in: 0..<60, using: &rng))
            let query = PlanQuery(from: Place.parse(end())!, to: Place.parse(end())!, time: QueryTime.parse(at)!,
                                  arriveBy: n % 4 == 3)
            guard case .itineraries(let answer) = planner.answer(query) else { continue }
            let doc = AnswerDocument(answer)
            for option in doc.itineraries.indices {
                let text = PlanAnswerText.render(doc, from: "A", to: "B", option: option)
                let reading = try Reading(doc, text: text, option: option)
                checked += 1; offDay += reading.offDay; marked += reading.marked
            }
        }
        // The random trips reached what they are here for.
        #expect(checked > 30, "\(feedId): only \(checked) answers")
        #expect(offDay > 0, "\(feedId): no time off the day asked was printed")
        if feedId == "bydgoszcz-2020" { #expect(marked > 0, "no time in the repeated hour was printed") }
    }

    /// One rendered answer read back and checked.
    struct Reading {
        var offDay = 0, marked = 0

        init(_ doc: AnswerDocument, text: String, option: Int) throws {
            let zone = TimeZone(identifier: doc.query.timeZone)!
            let askedDay = ServiceDate.parse(iso8601: String(doc.query.time.prefix(10)))!
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var counts = (offDay: 0, marked: 0)
            func fail(_ why: String) { Issue.record("\(why)\n\(text)") }
            /// The instant a printed time stands for, read from it and what it carries.
            func instant(_ printed: Substring) -> Int64? {
                let parts = printed.split(whereSeparator: { $0 == " " || $0 == "," })
                guard let hm = parts.first, hm.count == 5, let h = Int(hm.prefix(2)), let m = Int(hm.suffix(2)) else { return nil }
                var date = askedDay, mark: String?
                for p in parts.dropFirst() {
                    let w = p.trimmingCharacters(in: CharacterSet(charactersIn: "(),"))
                    if w == "first" || w == "second" { mark = w; counts.marked += 1 }
                    else if let d = ServiceDate.parse(iso8601: w) { date = d; counts.offDay += 1 }
                    else if let wd = ShownTimesTests.weekdays.firstIndex(of: w) {
                        // The nearest day with that weekday.
                        let ahead = (wd - askedDay.weekday + 7) % 7
                        date = askedDay.adding(days: ahead <= 3 ? ahead : ahead - 7); counts.offDay += 1
                    } else { return nil }
                }
                let wall = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60)
                var fits: [Int64] = []
                for probe: Int64 in [-14 * 3600, 14 * 3600] {
                    let t = wall - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall + probe))))
                    if JourneyPlanner.localSeconds(t, zone) == wall && !fits.contains(t) { fits.append(t) }
                }
                fits.sort()
                if fits.count == 2 {
                    guard let mark else { fail("\(printed): in the repeated hour, but not said which"); return fits[0] }
                    return mark == "first" ? fits[0] : fits[1]
                }
                if mark != nil { fail("\(printed): marked, but that time happens once") }
                return fits.first
            }
            let time = #"\d\d:\d\d(?: (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|\d{4}-\d\d-\d\d))?(?: \((?:first|second)\)|, (?:first|second))?"#
            func times(_ s: String) -> [(Substring, Int64)] {
                s.matches(of: try! Regex(time)).map { m in (s[m.range], instant(s[m.range]) ?? -(1 << 50)) }
            }
            func near(_ t: Int64, _ iso: String, _ what: String) {
                let u = PlanAnswerText.instant(iso)!
                if abs(t - u) > 70 { fail("\(what): printed \(Date(timeIntervalSince1970: Double(t))), the answer says \(iso)") }
            }

            // The heading: the time asked.
            let heading = times(lines[0])
            try #require(!heading.isEmpty, "no time in the heading")
            near(heading[0].1, doc.query.time, "the time asked")

            // The table: leave, arrive, and the time between them.
            let header = try #require(lines.firstIndex { $0.hasPrefix("  #  Leave") })
            var rows: [(leave: Int64, arrive: Int64)] = []
            for (i, it) in doc.itineraries.enumerated() {
                let row = lines[header + 1 + i]
                let t = times(row)
                guard t.count >= 2 else { fail("row \(i + 1): no leave and arrive"); continue }
                near(t[0].1, it.summary.departure, "row \(i + 1) leave")
                near(t[1].1, it.summary.arrival, "row \(i + 1) arrive")
                let rest = row[row.range(of: t[1].0)!.upperBound...].trimmingCharacters(in: .whitespaces)
                let shown = ShownTimesTests.minutes(atStartOf: rest)
                if shown != Int((t[1].1 - t[0].1) / 60) { fail("row \(i + 1): \(rest.prefix(12)) is not arrive − leave") }
                rows.append((t[0].1, t[1].1))
            }

            // Before the table: the first departure (the last arrival) more than an hour away.
            let rides = doc.itineraries.indices.filter { doc.itineraries[$0].summary.rides > 0 && $0 < rows.count }
            let asked = heading[0].1
            let gap = doc.query.arriveBy ? rides.map { asked - rows[$0].arrive }.min() : rides.map { rows[$0].leave - asked }.min()
            let said = lines.first { $0.hasPrefix("No service ") }
            if let gap, gap / 60 > 60 {
                guard let said else { fail("the first departure is \(gap / 60) min away, unsaid"); return }
                if times(said).first?.1 != asked + (doc.query.arriveBy ? -gap : gap) { fail("\(said): not the first departure") }
                let words = said[said.range(of: " is ")!.upperBound...]
                if ShownTimesTests.minutes(atStartOf: String(words)) != Int(gap / 60) { fail("\(said): not the gap") }
            } else if let said { fail("\(said): but the gap is \((gap ?? 0) / 60) min") }

            // The steps: each lasts the minutes it says, from the table's leave to its arrive.
            let first = try #require(lines.firstIndex { $0.hasPrefix("Steps of option") })
            var steps: [(at: Int64, text: String)] = []
            var k = first + 1
            while k < lines.count, let m = lines[k].firstMatch(of: try! Regex(#"^ +\d+\. "#)) {
                let rest = String(lines[k][m.range.upperBound...])
                let t = times(rest)
                guard let at = t.first else { fail("step without a time: \(lines[k])"); break }
                let body = rest[rest.range(of: at.0)!.upperBound...].trimmingCharacters(in: .whitespaces)
                steps.append((at.1, body))
                // Every time inside a sentence is one of the itinerary's instants.
                let legs = doc.itineraries[option].legs
                for inner in times(body) where !legs.contains(where: { l in
                    [l.departure, l.arrival].contains { abs(PlanAnswerText.instant($0)! - inner.1) <= 70 } }) {
                    fail("\(inner.0) in \"\(body)\" is no time of the itinerary")
                }
                k += 1
            }
            let summary = lines[k]
            guard steps.count >= 2, steps.last?.text == "Arrive" else { fail("no steps ending in Arrive"); return }
            if steps[0].at != rows[option].leave || steps.last!.at != rows[option].arrive { fail("the steps do not span the row") }
            var walked = 0, waited = 0, walks = false
            for (i, step) in steps.dropLast().enumerated() {
                let lasts = Int((steps[i + 1].at - step.at) / 60)
                if lasts < 0 { fail("step \(i + 1) ends before it starts") }
                let s = step.text
                func after(_ word: String) -> Int? { s.range(of: word).flatMap { ShownTimesTests.minutes(atStartOf: String(s[$0.upperBound...])) } }
                if s.hasPrefix("Take ") {
                    let t = times(s)
                    if t.count != 2 || t[0].1 != step.at || t[1].1 != steps[i + 1].at { fail("\(s): not the step's times") }
                } else if s.hasPrefix("Walk ") || s.hasPrefix("Change") {
                    // The walk's minutes are the first in brackets (a stop's name may have brackets too).
                    let walk = s.firstMatch(of: try! Regex(#"\((under a minute|\d+ h(?: \d+ min)?|\d+ min)\)"#))
                        .flatMap { ShownTimesTests.minutes(atStartOf: String(s[$0.range].dropFirst())) } ?? 0
                    let wait = after("wait ") ?? 0
                    if walk + wait != lasts { fail("\(s): \(walk) + \(wait) min, but the step lasts \(lasts) min") }
                    if s.firstMatch(of: try! Regex(#"^(Walk|Change: walk) [\d.]+ k?m "#)) != nil { walks = true }
                    walked += walk; waited += wait
                }
            }
            // The summary: the row's time, the steps' walking and waiting.
            let parts = summary.trimmingCharacters(in: .whitespaces).components(separatedBy: " · ")
            if ShownTimesTests.minutes(atStartOf: parts[0]) != Int((rows[option].arrive - rows[option].leave) / 60) {
                fail("summary \(parts[0]) is not the row's time")
            }
            if let w = parts.first(where: { $0.hasPrefix("walk ") }) {
                if !walks { fail("\(w), but no step walks") }
                let inside = w[w.range(of: "(")!.upperBound...]
                if ShownTimesTests.minutes(atStartOf: String(inside)) != walked { fail("\(w), but the steps walk \(walked) min") }
            } else if walks { fail("no walking in the summary, but a step walks") }
            if let w = parts.first(where: { $0.hasPrefix("waiting ") }),
               ShownTimesTests.minutes(atStartOf: String(w.dropFirst(8))) != waited { fail("\(w), but the steps wait \(waited) min") }
            offDay = counts.offDay; marked = counts.marked
        }
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Minutes of a duration in words at the start of `s` ("1 h 5 min", "45 min", "2 h",
    /// "under a minute").
    static func minutes(atStartOf s: String) -> Int? {
        if s.hasPrefix("under a minute") { return 0 }
        guard let m = s.firstMatch(of: try! Regex(#"^(\d+) h(?: (\d+) min)?|^(\d+) min"#)) else { return nil }
        func n(_ i: Int) -> Int? { m.output[i].substring.flatMap { Int($0) } }
        if let min = n(3) { return min }
        return (n(1) ?? 0) * 60 + (n(2) ?? 0)
    }
}
