/// A GTFS time of day: seconds since "noon minus 12 hours" of a service date.
///
/// GTFS writes it as `H:MM:SS` or `HH:MM:SS`; hours may exceed 23 (a trip that leaves at
/// 25:10:00 runs at 01:10 the next morning but belongs to the previous service date).
/// Stored as whole seconds in an `Int32`; `ServiceTime.unreachable` is the sentinel for
/// "no time", chosen far from 0, -1 and the integer limits so arithmetic on it stays safe.
public struct ServiceTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since noon minus 12 hours of the service date (may exceed 86,400).
    public var seconds: Int32

    @inlinable public init(seconds: Int32) { self.seconds = seconds }

    /// A time no trip ever reaches: about 31 years after the start of the service date.
    public static let unreachable = ServiceTime(seconds: 1_000_000_000)

    /// The largest hour this parser accepts: 4 days' worth. Real feeds stay under 48.
    public static let maxHours = 96

    @inlinable public static func < (a: ServiceTime, b: ServiceTime) -> Bool { a.seconds < b.seconds }

    /// Parses `H:MM:SS` / `HH:MM:SS` (optionally `HHH:MM:SS` up to `maxHours`) from UTF-8
    /// bytes. Leading and trailing spaces are allowed; anything else returns nil.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ServiceTime? {
        var lo = 0, hi = bytes.count
        while lo < hi && bytes[lo] == 0x20 { lo += 1 }
        while hi > lo && bytes[hi - 1] == 0x20 { hi -= 1 }
        let n = hi - lo
        guard n >= 7 && n <= 9 else { return nil }
        // Minutes and seconds are always the last five characters "MM:SS".
        let colon1 = hi - 6, colon2 = hi - 3
        guard bytes[colon1] == 0x3A && bytes[colon2] == 0x3A else { return nil }
        var hours = 0
        var i = lo
        while i < colon1 {
            let d = Int(bytes[i]) &- 0x30
            guard d >= 0 && d <= 9 else { return nil }
            hours = hours * 10 + d
            i += 1
        }
        @inline(__always) func two(_ at: Int) -> Int? {
            let d1 = Int(bytes[at]) &- 0x30, d2 = Int(bytes[at + 1]) &- 0x30
            guard d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 else { return nil }
            return d1 * 10 + d2
        }
        guard let minutes = two(colon1 + 1), let secs = two(colon2 + 1),
              minutes < 60, secs < 60, hours <= maxHours else { return nil }
        return ServiceTime(seconds: Int32(hours * 3600 + minutes * 60 + secs))
    }

    /// Parses a `String` (convenience for tests and the CLI).
    public static func parse(_ text: String) -> ServiceTime? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// `HH:MM:SS`, hours past 23 kept as they are (e.g. `25:10:00`).
    public var description: String {
        let h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60
        func pad(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(pad(h)):\(pad(m)):\(pad(s))"
    }
}
