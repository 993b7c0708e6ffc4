import Foundation
import Planner
import TransitModel

/// When, in a person's words: `8:30`, `17:45`, `5:45pm`, `9am`, `tomorrow 17:45`,
/// `today 8:30`, `monday 9:00`, `now`, or ISO 8601 (`2020-04-20T08:30`, `2020-04-20 08:30`,
/// with `Z` or an offset for an instant).
///
/// A time without a date is on the feed's calendar: today (or the day named) when that is
/// inside the timetable's dates, else the same weekday at the nearest end of them, and
/// the answer says so: a timetable of 2020 asked about today plans on a day it knows,
/// not on a day it has no trips for.
public enum TimeWords {
    public enum Parsed: Sendable, Equatable {
        /// A date was given (or an instant): used as it is.
        case exact(QueryTime)
        /// A clock time on a day counted from today (`dayOffset`) or the next `weekday`
        /// (0 Monday … 6 Sunday, today included).
        case clock(dayOffset: Int, weekday: Int?, hour: Int, minute: Int)
        case now
    }

    public static func parse(_ text: String) -> Parsed? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.isEmpty { return nil }
        if t == "now" { return .now }
        if let q = QueryTime.parse(t) ?? QueryTime.parse(t.uppercased()) { return .exact(q) }
        var words = t.split(separator: " ").map(String.init)
        var dayOffset = 0, weekday: Int?
        if let first = words.first, words.count > 1 || clock(first) == nil {
            switch first {
            case "today": break
            case "tomorrow": dayOffset = 1
            default:
                guard let w = weekdayIndex(first) else { return nil }
                weekday = w
            }
            words.removeFirst()
        }
        guard words.count == 1, let (h, m) = clock(words[0]) else { return nil }
        return .clock(dayOffset: dayOffset, weekday: weekday, hour: h, minute: m)
    }

    /// "8:30", "08:30", "17:45", "5:45pm", "9am", "12pm" (noon), "12am" (midnight).
    static func clock(_ w: String) -> (Int, Int)? {
        var s = Substring(w), pm: Bool?
        if s.hasSuffix("am") { pm = false; s = s.dropLast(2) } else if s.hasSuffix("pm") { pm = true; s = s.dropLast(2) }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
              var h = Int(parts[0]), let m = parts.count == 2 ? Int(parts[1]) : 0, (0..<60).contains(m) else { return nil }
        if parts.count == 2 && parts[1].count != 2 { return nil }
        if let pm {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + (pm ? 12 : 0)
        } else if parts.count == 1 { return nil }  // "9" alone is not a time
        guard (0..<24).contains(h) else { return nil }
        return (h, m)
    }

    static func weekdayIndex(_ w: String) -> Int? {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return names.firstIndex { $0 == w || (w.count >= 3 && $0.hasPrefix(w)) }
    }

    /// The query time for `parsed` (nil: now), and a sentence when it was moved onto the
    /// timetable's dates. `now`: UTC seconds; `zone`: where the trip starts; `period`:
    /// the first and last day of the timetable (nil when unknown).
    public static func resolve(_ parsed: Parsed?, now: Int64, zone: TimeZone,
                               period: (first: ServiceDate, last: ServiceDate)?, language: Language = .en) -> (time: QueryTime, note: String?) {
        let local = JourneyPlanner.localSeconds(now, zone)
        let today = JourneyPlanner.localDate(now, zone)
        var day = today, hour = 0, minute = 0, second = 0
        switch parsed {
        case .exact(let q)?: return (q, nil)
        case nil, .now?:
            let s = ((local % 86_400) + 86_400) % 86_400
            hour = Int(s / 3600); minute = Int(s / 60 % 60); second = Int(s % 60)
        case .clock(let offset, let weekday, let h, let m)?:
            hour = h; minute = m
            day = today.adding(days: offset)
            if let weekday { day = today.adding(days: (weekday - today.weekday + 7) % 7) }
        }
        var note: String?
        if let (first, last) = period, day < first || day > last {
            let moved = day < first ? first.adding(days: (day.weekday - first.weekday + 7) % 7)
                                    : last.adding(days: -((last.weekday - day.weekday + 7) % 7))
            // A period shorter than a week may not hold that weekday: its nearest end then.
            let target = moved < first || moved > last ? (day < first ? first : last) : moved
            let key = "text.movedTo" + (day < first ? "First" : "Last") + (target.weekday == day.weekday ? "Weekday" : "Day")
            note = Catalogue.text(key, language, ["day": day.iso8601, "first": first.iso8601, "last": last.iso8601, "target": target.iso8601,
                                                  "weekday": Catalogue.text("day.\(target.weekday)", language)])
            day = target
        }
        let c = day.components
        return (.local(year: c.year, month: c.month, day: c.day, hour: hour, minute: minute, second: second), note)
    }
}
