import Foundation
import Planner
import PlanText
import TransitModel

/// `fuzz-time`: every reader of times and dates on the same bytes: `ServiceTime.parse`
/// (GTFS `H:MM:SS`), `ServiceDate.parse` (`YYYYMMDD`) and `parse(iso8601:)`,
/// `QueryTime.parse` (the API's ISO 8601) and `TimeWords.parse` (the terminal planner's
/// words), then `TimeWords.resolve` on what it read.
///
/// Properties: what is read is in range (hours 0–23 for a clock, ≤ `ServiceTime.maxHours`
/// for GTFS, real calendar dates in 1900–2999, UTC offsets under a day) and reads back the
/// same from its own canonical text (`description`, `iso8601`, ISO 8601 written here); the
/// byte and `String` readers agree; a time without a date resolves onto a day inside the
/// timetable's dates when it is given them.
public enum TimeCheck {
    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        func fail(_ m: String) -> FuzzFailure { FuzzFailure("fuzz-time", "\(String(decoding: input, as: UTF8.self).debugDescription): \(m)") }
        let text = String(decoding: input, as: UTF8.self)
        let bytes = input.bindMemory(to: UInt8.self)

        if let t = ServiceTime.parse(bytes) {
            guard (0...(ServiceTime.maxHours * 3600 + 3599)).contains(Int(t.seconds)) else { throw fail("ServiceTime \(t.seconds) s") }
            guard ServiceTime.parse(t.description) == t else { throw fail("ServiceTime \(t) does not read back from \(t.description)") }
        }
        if String(validating: bytes, as: UTF8.self) != nil, ServiceTime.parse(text) != ServiceTime.parse(bytes) {
            throw fail("ServiceTime.parse(String) and parse(bytes) disagree")
        }

        if let d = ServiceDate.parse(bytes) {
            try checkDate(d, fail)
            guard ServiceDate.parse(text) == d else { throw fail("ServiceDate.parse(String) and parse(bytes) disagree") }
        }
        if let d = ServiceDate.parse(iso8601: text) { try checkDate(d, fail) }

        if let q = QueryTime.parse(text) {
            try checkQueryTime(q, fail)
            if case .instant(let t) = q { try checkOffset(text, t, fail) }
        }

        if let words = TimeWords.parse(text) {
            switch words {
            case .now: break
            case .exact(let q): try checkQueryTime(q, fail)
            case .clock(let offset, let weekday, let hour, let minute):
                guard (0...1).contains(offset), weekday.map({ (0...6).contains($0) }) ?? true,
                      (0...23).contains(hour), (0...59).contains(minute) else { throw fail("TimeWords read \(words)") }
                let day = weekday.map { ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][$0] + " " }
                    ?? (offset == 1 ? "tomorrow " : "")
                let again = "\(day)\(hour):\(minute < 10 ? "0" : "")\(minute)"
                guard TimeWords.parse(again) == words else { throw fail("TimeWords read \(words), but \(again.debugDescription) as \(String(describing: TimeWords.parse(again)))") }
            }
            try checkResolve(words, inputHash(input), fail)
        }
    }

    static func checkDate(_ d: ServiceDate, _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        let (y, m, day) = d.components
        guard (1900...2999).contains(y), ServiceDate(year: y, month: m, day: day) == d else { throw fail("ServiceDate \(d) (\(y)-\(m)-\(day))") }
        guard ServiceDate.parse(d.description) == d, ServiceDate.parse(iso8601: d.iso8601) == d else {
            throw fail("ServiceDate \(d) does not read back from \(d.description) or \(d.iso8601)")
        }
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    static func checkQueryTime(_ q: QueryTime, _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        switch q {
        case .local(let y, let mo, let d, let h, let mi, let s):
            guard ServiceDate(year: y, month: mo, day: d) != nil, (0...23).contains(h), (0...59).contains(mi), (0...59).contains(s) else {
                throw fail("QueryTime read \(q): not a date and time of day")
            }
            let text = "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi)):\(two(s))"
            guard QueryTime.parse(text) == q else { throw fail("QueryTime \(q) does not read back from \(text)") }
        case .instant(let t):
            // 1900-01-01 minus a day to 2999-12-31 plus two days, the dates a local part may have.
            let lo = Int64(ServiceDate(year: 1900, month: 1, day: 1)!.daysSinceEpoch - 1) * 86_400
            let hi = Int64(ServiceDate(year: 2999, month: 12, day: 31)!.daysSinceEpoch + 2) * 86_400
            guard t >= lo && t < hi else { throw fail("QueryTime read the instant \(t), outside the years it accepts") }
            let days = (t - ((t % 86_400) + 86_400) % 86_400) / 86_400, s = Int(t - days * 86_400)
            let (y, mo, d) = ServiceDate(daysSinceEpoch: Int32(days)).components
            let text = "\(y)-\(two(mo))-\(two(d))T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))Z"
            if (1900...2999).contains(y), QueryTime.parse(text) != q {
                throw fail("QueryTime \(q) does not read back from \(text)")
            }
        }
    }

    /// An instant's UTC offset (its local part read alone, minus the instant) is under a day.
    static func checkOffset(_ text: String, _ t: Int64, _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        let utf8 = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        for n in [19, 16] where utf8.count > n {
            guard case .local(let y, let mo, let d, let h, let mi, let s)? = QueryTime.parse(String(decoding: utf8[..<n], as: UTF8.self)),
                  let day = ServiceDate(year: y, month: mo, day: d) else { continue }
            let offset = Int64(day.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + s) - t
            guard abs(offset) < 86_400 else { throw fail("QueryTime read a UTC offset of \(offset) s") }
            return
        }
    }

    /// Resolves onto a timetable period chosen from the input: before, around or after
    /// "now", long or shorter than a week.
    static func checkResolve(_ words: TimeWords.Parsed, _ h: UInt64, _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        let now: Int64 = 1_795_255_200  // Saturday 2026-11-21 10:00 UTC
        let zones = ["UTC", "America/Los_Angeles", "Europe/Warsaw", "Pacific/Kiritimati", "Australia/Lord_Howe"]
        guard let zone = TimeZone(identifier: zones[Int(h % UInt64(zones.count))]) else { return }
        let today = JourneyPlanner.localDate(now, zone)
        let start = today.adding(days: Int((h >> 8) % 4001) - 2000)
        let period = (first: start, last: start.adding(days: Int((h >> 24) % 400)))
        let (time, note) = TimeWords.resolve(words, now: now, zone: zone, period: period)
        guard case .local(let y, let mo, let d, let hour, let minute, let second) = time else {
            if case .exact = words { return }
            throw fail("resolve gave \(time) for \(words)")
        }
        guard let day = ServiceDate(year: y, month: mo, day: d), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            throw fail("resolve gave \(time)")
        }
        if case .exact = words { return }
        guard day >= period.first && day <= period.last else {
            throw fail("resolve put \(words) on \(day.iso8601), outside the timetable's dates \(period.first.iso8601) to \(period.last.iso8601) (note: \(note ?? "none"))")
        }
    }

    /// Times and dates of the sampled feeds as GTFS writes them, as ISO 8601, and in words.
    public static func seeds(_ samples: [FeedSample]) -> [[UInt8]] {
        var texts: [String] = []
        for s in samples {
            texts += s.column("stop_times.txt", "arrival_time").prefix(4)
            texts += s.column("frequencies.txt", "end_time").prefix(2)
            let dates = s.column("calendar.txt", "start_date").prefix(2) + s.column("calendar_dates.txt", "date").prefix(2)
            texts += dates
            for d in dates.compactMap({ ServiceDate.parse($0) }) { texts.append(d.iso8601) }
            if let d = dates.compactMap({ ServiceDate.parse($0) }).first, let t = s.column("stop_times.txt", "departure_time").first,
               let st = ServiceTime.parse(t), st.seconds < 86_400 {
                let hm = "\(two(Int(st.seconds) / 3600)):\(two(Int(st.seconds) / 60 % 60))"
                texts += ["\(d.iso8601)T\(hm):00", "\(d.iso8601) \(hm)", "\(d.iso8601)T\(hm):30Z", "\(d.iso8601)T\(hm)-07:00"]
            }
        }
        texts += ["8:30", "17:45", "5:45pm", "9am", "12am", "12pm", "tomorrow 17:45", "today 8:30", "monday 9:00", "Sun 9am",
                  "now", "2020-04-20T08:30", "2020-04-20 08:30", "2020-04-20T08:30:00Z", "2018-06-05T15:30:00+02:00",
                  "25:10:00", "096:00:00", " 6:00:00 ", "20180605", "2018-06-05", "20000229", "29991231"]
        return Array(Set(texts)).sorted().map { Array($0.utf8) }
    }

    public static func dictionary(_ samples: [FeedSample]) -> [String] {
        ["now", "today", "tomorrow", "monday", "sun", "am", "pm", "T", "Z", ":00", "+02:00", "-07:00", "2018-", "-06-", "20180605", " "]
    }
}
