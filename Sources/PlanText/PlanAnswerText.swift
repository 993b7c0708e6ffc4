import Foundation
import PlanJSON
import Planner
import TransitModel

/// A plan answer as text for a terminal, read from the API's answer (`AnswerDocument`):
/// the alternatives side by side (leave, arrive, time, changes, walk, modes, what sets
/// each apart), then the numbered steps of one of them (the API's instruction sentences,
/// word for word, in the order of its legs and of its map), a summary line and any
/// notices. Every time and duration follows the routing model's "Times as shown"
/// (`ShownTimes`, the same rule the API's sentences are made with): a time off the day
/// asked carries its day, and the numbers add up as printed.
///
/// With `colour`, each ride's route name in its sentence is shown as a badge in the
/// route's colours (ANSI 24-bit); the words are the same either way, so nothing is said
/// by colour alone and a screen reader reads the same facts.
public enum PlanAnswerText {
    public static func render(_ doc: AnswerDocument, from: String, to: String, option: Int? = nil,
                              colour: Bool = false, language: Language = .en) -> String {
        var out = ""
        func line(_ s: String = "") { out += s + "\n" }
        func say(_ key: String, _ values: [String: String] = [:]) -> String { Catalogue.text(key, language, values) }
        let chosen = option ?? doc.recommended
        let q = doc.query
        let times = Times(doc, language)
        let journeys = doc.itineraries.map(times.journey)
        line(say("text.header", ["from": from, "to": to, "how": say(q.arriveBy ? "text.arriveBy" : "text.leaveAt"),
                                 "time": times.clock(times.asked), "day": day(q.time, language), "zone": q.timeZone]))
        for u in doc.realtime ?? [] { line(realtimeLine(u, times)) }
        if let gap = times.gap(doc, journeys) { line(gap) }
        if let note = times.repeatNote(journeys) { line(note) }
        // What makes the whole answer doubtful (local transit not covered at an end) is
        // read before the table, not after the steps.
        for n in doc.notices where PlanAnswerText.firstNotices.contains(n.code) { line(say("text.note", ["text": n.message])) }
        line()
        let comma = language == .en ? ", " : "、"
        var rows = [say("text.columns").components(separatedBy: "|") + [""]]
        for (i, it) in doc.itineraries.enumerated() {
            let s = it.summary, j = journeys[i]
            rows.append(["\(i + 1)", times.clock(j.start), times.clock(j.end), Words.duration(minutes: j.minutes, language),
                         s.rides == 0 ? "–" : "\(s.changes)", Words.distance(j.walkMeters, language),
                         s.modes.isEmpty ? say("text.walk") : s.modes.map { noun($0, language) }.joined(separator: comma),
                         it.labels.map { words($0, language) }.joined(separator: comma)])
        }
        // Columns by the width a terminal gives each character (a Chinese one takes two).
        let widths = (0..<rows[0].count).map { c in rows.map { TextWrap.width($0[c]) }.max()! }
        for row in rows {
            var text = "  " + row.enumerated().map { c, v in
                c == row.count - 1 ? v : v + String(repeating: " ", count: widths[c] - TextWrap.width(v))
            }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            line(text)
        }
        line()
        let it = doc.itineraries[chosen], j = journeys[chosen]
        let why = chosen == (doc.modelFirst ?? doc.recommended) ? say(q.arriveBy ? "text.latestDeparture" : "text.earliestArrival")
            : chosen == doc.recommended ? say("text.recommended") : nil
        line(say("text.steps", ["n": "\(chosen + 1)", "why": why.map { (language == .en ? " " : "") + say("text.why", ["what": $0]) } ?? ""]))
        var steps = zip(it.legs, j.steps).map { (times.clock($0.1.start), colour ? badge($0.0) : $0.0.instruction) }
        steps.append((times.clock(j.end), say("text.arrive")))
        let numberWidth = String(steps.count).count, timeWidth = steps.map { TextWrap.width($0.0) }.max()!
        // A walk along streets is still one step: its turns follow it, lettered, under its
        // sentence (a beeline walk has none).
        let subIndent = String(repeating: " ", count: 2 + numberWidth + 2 + timeWidth + 2)
        for (i, step) in steps.enumerated() {
            let n = String(repeating: " ", count: numberWidth - String(i + 1).count) + String(i + 1)
            line("  \(n). \(step.0)\(String(repeating: " ", count: timeWidth - TextWrap.width(step.0)))  \(step.1)")
            guard i < it.legs.count else { continue }
            if let walkSteps = it.legs[i].walkSteps {
                for (k, w) in walkSteps.enumerated() { line("\(subIndent)\(letters(k)). \(w.instruction)") }
            }
            // Stops a realtime ride passes without stopping that day.
            let skipped = it.legs[i].skippedStopNames
            if !skipped.isEmpty { line(subIndent + say("text.doesNotStop", ["stops": skipped.joined(separator: comma)])) }
            // A ride's realtime alerts, each its header (else its description) and link.
            for a in it.legs[i].alerts ?? [] {
                // One line of words: a producer's line breaks and double spaces are not the rider's.
                let text = (a.header ?? a.description ?? say("text.alertWithoutText", ["id": a.id]))
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                line(subIndent + say("text.alert", ["text": text]) + (a.url.map { " (\($0))" } ?? ""))
            }
        }
        line(summary(it.summary, j, language))
        for n in doc.notices where !PlanAnswerText.firstNotices.contains(n.code) { line(say("text.note", ["text": n.message])) }
        return out
    }

    /// The document's times as a rider reads them (`ShownTimes`): in the query's zone,
    /// each with its day when it is not the day asked.
    struct Times {
        let zone: TimeZone
        let askedDay: ServiceDate
        /// The time asked, at its minute.
        let asked: Int64
        let arriveBy: Bool
        let language: Language

        init(_ doc: AnswerDocument, _ language: Language = .en) {
            self.language = language
            zone = TimeZone(identifier: doc.query.timeZone) ?? TimeZone(identifier: "UTC")!
            askedDay = ServiceDate.parse(iso8601: String(doc.query.time.prefix(10))) ?? ServiceDate(daysSinceEpoch: 0)
            asked = ShownTimes.floorMinute(PlanAnswerText.instant(doc.query.time) ?? 0)
            arriveBy = doc.query.arriveBy
        }

        func clock(_ t: Int64) -> String { ShownTimes.localized(ShownTimes.clock(t, zone, askedDay: askedDay), language) }

        func journey(_ it: AnswerDocument.Itinerary) -> ShownTimes.Journey {
            ShownTimes.journey(it.legs.map { leg in
                ShownTimes.Leg(isRide: leg.mode != LegMode.walk.rawValue, isChange: leg.waitSeconds != nil,
                               departure: PlanAnswerText.instant(leg.departure) ?? 0, arrival: PlanAnswerText.instant(leg.arrival) ?? 0,
                               meters: leg.distanceMeters, waitSeconds: leg.waitSeconds ?? 0)
            })
        }

        /// "No service until 06:09 Wed: …" when the first departure (arrive-by: the last
        /// arrival) is more than an hour from the time asked: a rider must know before
        /// reading the table that the time asked has nothing near it.
        func gap(_ doc: AnswerDocument, _ journeys: [ShownTimes.Journey]) -> String? {
            let rides = zip(doc.itineraries, journeys).filter { $0.0.summary.rides > 0 }.map(\.1)
            if arriveBy {
                guard let last = rides.map(\.end).max(), (asked - last) / 60 > 60 else { return nil }
                return Catalogue.text("text.noServiceAfter", language, ["time": clock(last), "duration": Words.duration(minutes: Int((asked - last) / 60), language)])
            }
            guard let first = rides.map(\.start).min(), (first - asked) / 60 > 60 else { return nil }
            return Catalogue.text("text.noServiceUntil", language, ["time": clock(first), "duration": Words.duration(minutes: Int((first - asked) / 60), language)])
        }

        /// What `(first)` and `(second)` mean, when a time shown is in an hour the clocks repeat.
        func repeatNote(_ journeys: [ShownTimes.Journey]) -> String? {
            let shown = [asked] + journeys.flatMap { j in [j.start, j.end] + j.steps.flatMap { [$0.start, $0.end] } }
            return shown.first { ShownTimes.repeated($0, zone) != nil }.map { ShownTimes.repeatNote($0, zone, language) }
        }
    }

    /// How fresh the realtime times are: "Realtime: bart-rt's message of 10:45:21 (2 min
    /// old), 48 of 91 trip updates applied." (its age only when under a day: a recorded
    /// message replayed is as of its own time).
    static func realtimeLine(_ u: AnswerDocument.RealtimeMessageUsed, _ times: Times) -> String {
        let language = times.language
        var of = ""
        if let t = u.messageTime.flatMap(instant) {
            let clock = times.clock(ShownTimes.floorMinute(t))
            let seconds = ((t % 60) + 60) % 60
            // The clock to the second: a message's time is when it was made, not a time to be somewhere.
            var age = ""
            if let a = u.ageSeconds, (0..<86_400).contains(a) {
                age = a < 60 ? Catalogue.text("text.realtimeFresh", language)
                    : Catalogue.text("text.realtimeAge", language, ["age": Words.duration(minutes: Int(a / 60), language)])
            }
            of = Catalogue.text("text.realtimeOf", language, ["time": "\(clock.prefix(5)):\(seconds < 10 ? "0" : "")\(seconds)\(clock.dropFirst(5))",
                                                              "age": age])
        }
        return Catalogue.text("text.realtime", language, ["feed": u.feed, "of": of, "applied": "\(u.applied)", "updates": "\(u.tripUpdates)"])
    }

    /// "a" … "z", then "aa", "ab" …: a walk's sub-steps, apart from the numbered steps.
    static func letters(_ k: Int) -> String {
        var k = k, out = ""
        repeat {
            out.insert(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(k % 26))), at: out.startIndex)
            k = k / 26 - 1
        } while k >= 0
        return out
    }

    /// The walks along streets of option `option`, by leg index: each step's way (its
    /// name, else its kind's word), its length and where it starts, for the map's labels.
    public static func streetWalks(_ doc: AnswerDocument, option: Int) -> [Int: [AnswerDocument.WalkStep]] {
        var walks: [Int: [AnswerDocument.WalkStep]] = [:]
        for (i, leg) in doc.itineraries[option].legs.enumerated() where leg.walkModel == "streets" {
            if let steps = leg.walkSteps, !steps.isEmpty { walks[i] = steps }
        }
        return walks
    }

    /// UTC seconds of an ISO 8601 time with its offset ("2020-05-04T08:30:00+02:00").
    public static func instant(_ iso: String) -> Int64? {
        if case .instant(let t)? = QueryTime.parse(iso) { return t }
        return nil
    }

    /// The steps as printed, without numbers, times or colour: the API's instructions
    /// (what the tests compare with the legs).
    public static func steps(_ doc: AnswerDocument, option: Int) -> [String] { doc.itineraries[option].legs.map(\.instruction) }

    /// Notice codes printed before the table (the API lists them first too).
    static let firstNotices: Set<String> = [PlanNotice.Code.outlyingService.rawValue]

    /// "08:30" of an ISO 8601 local time with offset ("2020-05-04T08:30:00+02:00").
    public static func clock(_ iso: String) -> String { String(iso.dropFirst(11).prefix(5)) }

    /// "Monday 2020-05-04".
    public static func day(_ iso: String, _ language: Language = .en) -> String {
        let date = String(iso.prefix(10))
        guard let d = ServiceDate.parse(iso8601: date) else { return date }
        let weekday = Catalogue.text("day.\(d.weekday)", language)
        return language == .en ? "\(weekday) \(date)" : "\(date) \(weekday)"
    }

    /// What sets an option apart, in words.
    public static func words(_ label: String, _ language: Language = .en) -> String {
        if let w = Catalogue.textIfAny("label.\(label)", language) { return w }
        // A trade-off `name:value` (the routing model's "What a rider is shown").
        let parts = label.split(separator: ":", maxSplits: 1)
        if parts.count == 2, let value = Int64(parts[1]),
           let w = Catalogue.textIfAny("label.\(parts[0])", language, ["duration": Words.duration(value, language), "n": "\(value)"]) {
            return w
        }
        return label.replacingOccurrences(of: "-", with: " ")
    }

    static func noun(_ mode: String, _ language: Language = .en) -> String { LegMode(rawValue: mode)?.noun(language) ?? mode.lowercased() }

    /// The instruction with the route's name in its colours (when the route has some).
    static func badge(_ leg: AnswerDocument.Leg) -> String {
        guard let route = leg.route, !route.isEmpty, let bg = rgb(leg.routeColor) else { return leg.instruction }
        let fg = rgb(leg.routeTextColor) ?? (luminance(bg) > 0.5 ? (0, 0, 0) : (255, 255, 255))
        let needle = " \(route) "
        guard let r = leg.instruction.range(of: needle) else { return leg.instruction }
        let painted = " \u{1B}[1;38;2;\(fg.0);\(fg.1);\(fg.2);48;2;\(bg.0);\(bg.1);\(bg.2)m \(route) \u{1B}[0m "
        return leg.instruction.replacingCharacters(in: r, with: painted)
    }

    static func rgb(_ hex: String?) -> (Int, Int, Int)? {
        guard let hex, hex.count == 6, let v = Int(hex, radix: 16) else { return nil }
        return (v >> 16, (v >> 8) & 255, v & 255)
    }

    static func luminance(_ c: (Int, Int, Int)) -> Double { (0.299 * Double(c.0) + 0.587 * Double(c.1) + 0.114 * Double(c.2)) / 255 }

    /// "44 min · 1 ride, no change · walk 100 m (2 min) · waiting 4 min · metro", in the
    /// numbers of the steps as shown (`ShownTimes`): the walking and waiting are the sums
    /// of the steps', and "no walking" when no step walks.
    static func summary(_ s: AnswerDocument.Summary, _ j: ShownTimes.Journey, _ language: Language = .en) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { Catalogue.text(key, language, values) }
        var parts = [Words.duration(minutes: j.minutes, language)]
        if s.rides > 0 {
            parts.append(say("text.ridesChanges", ["rides": say("text.rides", ["n": "\(s.rides)"]),
                                                   "changes": s.changes == 0 ? say("text.noChange") : say("text.changes", ["n": "\(s.changes)"])]))
        }
        let walks = j.steps.contains(where: \.walks)
        parts.append(walks ? say("text.walkFor", ["distance": Words.distance(j.walkMeters, language), "duration": Words.duration(minutes: j.walkMinutes, language)])
                     : say("text.noWalking"))
        if s.rides > 1 { parts.append(say("text.waiting", ["duration": Words.duration(minutes: j.waitMinutes, language)])) }
        parts.append(s.modes.isEmpty ? say("text.onFoot") : s.modes.map { noun($0, language) }.joined(separator: language == .en ? ", " : "、"))
        return "  " + parts.joined(separator: " · ")
    }
}
