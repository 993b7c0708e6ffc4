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

    /// Whole minutes, rounded up: "5 min", "under a minute" for 0.
    public static func minutes(_ s: Int64) -> String {
        let m = (s + 59) / 60
        return m < 1 ? "under a minute" : "\(m) min"
    }

    /// "1 h 05 min" from an hour up, else as `minutes`.
    public static func duration(_ s: Int64) -> String {
        let m = (s + 59) / 60
        return m >= 60 ? "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min" : minutes(s)
    }
}
