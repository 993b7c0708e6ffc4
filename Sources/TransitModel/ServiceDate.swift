/// A calendar date as GTFS writes it (`YYYYMMDD`), with no time zone: a service day.
///
/// Stored as the number of days since 1970-01-01 (proleptic Gregorian), so that date
/// arithmetic is integer arithmetic and bit sets of service days can be indexed by it.
public struct ServiceDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int32

    @inlinable public init(daysSinceEpoch: Int32) { self.daysSinceEpoch = daysSinceEpoch }

    /// Builds a date from its parts; nil when the day does not exist (e.g. 2019-02-29).
    public init?(year: Int, month: Int, day: Int) {
        guard year >= 1900 && year <= 2999, month >= 1 && month <= 12,
              day >= 1 && day <= ServiceDate.daysInMonth(year: year, month: month) else { return nil }
        self.daysSinceEpoch = Int32(ServiceDate.daysFromCivil(year: year, month: month, day: day))
    }

    @inlinable public static func < (a: ServiceDate, b: ServiceDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: days since 1970-01-01 for a Gregorian date.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The (year, month, day) of this date.
    public var components: (year: Int, month: Int, day: Int) {
        let z = Int(daysSinceEpoch) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Day of the week, 0 = Monday … 6 = Sunday (the order of calendar.txt's columns).
    public var weekday: Int { Int(((daysSinceEpoch % 7) + 7 + 3) % 7) }

    /// Parses `YYYYMMDD` from UTF-8 bytes (spaces around allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ServiceDate? {
        var lo = 0, hi = bytes.count
        while lo < hi && bytes[lo] == 0x20 { lo += 1 }
        while hi > lo && bytes[hi - 1] == 0x20 { hi -= 1 }
        guard hi - lo == 8 else { return nil }
        var v = 0
        for i in lo..<hi {
            let d = Int(bytes[i]) &- 0x30
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
        }
        return ServiceDate(year: v / 10_000, month: (v / 100) % 100, day: v % 100)
    }

    public static func parse(_ text: String) -> ServiceDate? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// Parses ISO 8601 `YYYY-MM-DD` (what `iso8601` writes; `YYYYMMDD` too).
    public static func parse(iso8601 text: String) -> ServiceDate? { parse(String(text.filter { $0 != "-" })) }

    /// ISO 8601 `YYYY-MM-DD`.
    public var iso8601: String {
        let (y, m, d) = components
        return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    /// `YYYYMMDD`, as GTFS writes it.
    public var description: String {
        let (y, m, d) = components
        return "\(y)\(m < 10 ? "0" : "")\(m)\(d < 10 ? "0" : "")\(d)"
    }

    public func adding(days: Int) -> ServiceDate { ServiceDate(daysSinceEpoch: daysSinceEpoch + Int32(days)) }
}
