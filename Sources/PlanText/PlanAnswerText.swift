import Foundation
import PlanJSON
import Planner
import TransitModel

/// A plan answer as text for a terminal, read from the API's answer (`AnswerDocument`):
/// the alternatives side by side (leave, arrive, time, changes, walk, modes, what sets
/// each apart), then the numbered steps of one of them (the API's instruction sentences,
/// word for word, in the order of its legs and of its map), a summary line and any
/// notices.
///
/// With `colour`, each ride's route name in its sentence is shown as a badge in the
/// route's colours (ANSI 24-bit); the words are the same either way, so nothing is said
/// by colour alone and a screen reader reads the same facts.
public enum PlanAnswerText {
    public static func render(_ doc: AnswerDocument, from: String, to: String, option: Int? = nil,
                              colour: Bool = false) -> String {
        var out = ""
        func line(_ s: String = "") { out += s + "\n" }
        let chosen = option ?? doc.recommended
        let q = doc.query
        line("\(from) → \(to), \(q.arriveBy ? "arrive by" : "leave at") \(clock(q.time)) on \(day(q.time)) (\(q.timeZone))")
        line()
        var rows = [["#", "Leave", "Arrive", "Time", "Changes", "Walk", "Modes", ""]]
        for (i, it) in doc.itineraries.enumerated() {
            let s = it.summary
            rows.append(["\(i + 1)", clock(s.departure), clock(s.arrival), Words.duration(s.durationSeconds),
                         s.rides == 0 ? "–" : "\(s.changes)", Words.distance(s.walkMeters),
                         s.modes.isEmpty ? "walk" : s.modes.map(noun).joined(separator: ", "),
                         it.labels.map(words).joined(separator: ", ")])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max()! }
        for row in rows {
            var text = "  " + row.enumerated().map { c, v in
                c == row.count - 1 ? v : v.padding(toLength: widths[c], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            line(text)
        }
        line()
        let it = doc.itineraries[chosen]
        line("Steps of option \(chosen + 1)" + (chosen == (doc.modelFirst ?? doc.recommended) ? " (\(q.arriveBy ? "latest departure" : "earliest arrival"))"
                                                : chosen == doc.recommended ? " (recommended)" : "") + ":")
        let numberWidth = String(it.legs.count + 1).count
        for (i, leg) in it.legs.enumerated() {
            let n = String(i + 1).padding(toLength: numberWidth, withPad: " ", startingAt: 0)
            line("  \(n). \(clock(leg.departure))  \(colour ? badge(leg) : leg.instruction)")
        }
        line("  \(String(it.legs.count + 1).padding(toLength: numberWidth, withPad: " ", startingAt: 0)). \(clock(it.summary.arrival))  Arrive")
        line(summary(it.summary))
        for n in doc.notices { line("Note: \(n.message)") }
        return out
    }

    /// The steps as printed, without numbers, times or colour: the API's instructions
    /// (what the tests compare with the legs).
    public static func steps(_ doc: AnswerDocument, option: Int) -> [String] { doc.itineraries[option].legs.map(\.instruction) }

    /// "08:30" of an ISO 8601 local time with offset ("2020-05-04T08:30:00+02:00").
    public static func clock(_ iso: String) -> String { String(iso.dropFirst(11).prefix(5)) }

    /// "Monday 2020-05-04".
    public static func day(_ iso: String) -> String {
        let date = String(iso.prefix(10))
        guard let d = ServiceDate.parse(iso8601: date) else { return date }
        return "\(weekdays[d.weekday]) \(date)"
    }

    /// By `ServiceDate.weekday` (0 is Monday).
    public static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// What sets an option apart, in words.
    public static func words(_ label: String) -> String {
        switch label {
        case "walk-only": return "on foot"
        case "earliest-arrival": return "arrives first"
        case "latest-departure": return "leaves last"
        case "fastest": return "fastest"
        case "fewest-changes": return "fewest changes"
        case "least-walking": return "least walking"
        case "earliest-departure": return "leaves first"
        case "later-departure": return "later"
        case "earlier-arrival": return "earlier"
        case "recommended": return "recommended"
        case "alternative": return "alternative"
        default: break
        }
        // A trade-off `name:value` (the routing model's "What a rider is shown").
        let parts = label.split(separator: ":", maxSplits: 1)
        if parts.count == 2, let value = Int64(parts[1]) {
            switch parts[0] {
            case "leaves-later": return "leaves \(Words.duration(value)) later"
            case "leaves-earlier": return "leaves \(Words.duration(value)) earlier"
            case "more-changes": return "\(value) more change\(value == 1 ? "" : "s")"
            case "more-waiting": return "\(Words.duration(value)) more walking and waiting"
            case "longer-ride": return "\(Words.duration(value)) longer aboard"
            default: break
            }
        }
        return label.replacingOccurrences(of: "-", with: " ")
    }

    static func noun(_ mode: String) -> String { LegMode(rawValue: mode)?.noun ?? mode.lowercased() }

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

    /// "44 min · 1 ride, no change · walk 100 m (2 min) · waiting 0 min · metro"
    public static func summary(_ s: AnswerDocument.Summary) -> String {
        var parts = [Words.duration(s.durationSeconds)]
        if s.rides > 0 {
            parts.append("\(s.rides) ride\(s.rides == 1 ? "" : "s"), "
                         + (s.changes == 0 ? "no change" : "\(s.changes) change\(s.changes == 1 ? "" : "s")"))
        }
        parts.append(s.walkMeters < 1 ? "no walking" : "walk \(Words.distance(s.walkMeters)) (\(Words.minutes(s.walkSeconds)))")
        if s.rides > 1 { parts.append("waiting \(Words.minutes(s.waitingSeconds))") }
        parts.append(s.modes.isEmpty ? "on foot" : s.modes.map(noun).joined(separator: ", "))
        return "  " + parts.joined(separator: " · ")
    }
}
