import Foundation

/// English renderings of distances and durations, shared by the planner's sentences, the
/// terminal's text and the coverage report.
public enum Words {
    /// "350 m" (to 10 m), "1.2 km".
    public static func distance(_ m: Double) -> String {
        if m < 995 { return "\(Int((m / 10).rounded()) * 10) m" }
        let km = String(format: "%.1f", m / 1000)
        return (km.hasSuffix(".0") ? String(km.dropLast(2)) : km) + " km"
    }

    /// Seconds as whole minutes, rounded up, in the words of `duration(minutes:)`.
    public static func minutes(_ s: Int64) -> String { duration(minutes: Int((s + 59) / 60)) }

    /// The same as `minutes` (a journey's length, a wait, a walk read alike).
    public static func duration(_ s: Int64) -> String { minutes(s) }

    /// Whole minutes in words: "under a minute" for 0, "45 min", and from an hour up in
    /// hours, as a person says them: "1 h", "1 h 5 min", "5 h 28 min".
    public static func duration(minutes m: Int) -> String {
        if m < 1 { return "under a minute" }
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min"
    }
}
