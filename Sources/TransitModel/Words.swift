import Foundation

/// Distances and durations in words (English unless a `Language` is given) and durations, shared by the planner's sentences, the
/// terminal's text and the coverage report.
public enum Words {
    /// "350 m" (to 10 m), "1.2 km"; in Chinese "350 米", "1.2 公里".
    public static func distance(_ m: Double, _ language: Language = .en) -> String {
        if m < 995 { return Catalogue.text("words.meters", language, ["n": "\(Int((m / 10).rounded()) * 10)"]) }
        let km = String(format: "%.1f", m / 1000)
        return Catalogue.text("words.km", language, ["n": km.hasSuffix(".0") ? String(km.dropLast(2)) : km])
    }

    /// Items as a sentence lists them: "a, b and c" ("a, b or c"); in Chinese "a、b和c".
    public static func list(_ items: [String], _ language: Language = .en, or: Bool = false) -> String {
        guard items.count > 1 else { return items.joined() }
        let head = items.dropLast().joined(separator: language == .en ? ", " : "、")
        return Catalogue.text(or ? "words.or" : "words.and", language, ["a": head, "b": items.last!])
    }

    /// Seconds as whole minutes, rounded up, in the words of `duration(minutes:)`.
    public static func minutes(_ s: Int64, _ language: Language = .en) -> String { duration(minutes: Int((s + 59) / 60), language) }

    /// The same as `minutes` (a journey's length, a wait, a walk read alike).
    public static func duration(_ s: Int64, _ language: Language = .en) -> String { minutes(s, language) }

    /// Whole minutes in words: "under a minute" for 0, "45 min", and from an hour up in
    /// hours, as a person says them: "1 h", "1 h 5 min", "5 h 28 min".
    public static func duration(minutes m: Int, _ language: Language = .en) -> String {
        if m < 1 { return Catalogue.text("words.underMinute", language) }
        if m < 60 { return Catalogue.text("words.minutes", language, ["n": "\(m)"]) }
        return m % 60 == 0 ? Catalogue.text("words.hours", language, ["h": "\(m / 60)"])
            : Catalogue.text("words.hoursMinutes", language, ["h": "\(m / 60)", "m": "\(m % 60)"])
    }
}
