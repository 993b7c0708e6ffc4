/// One request parameter, declared once: its name, what values it takes (range or
/// pattern), its default, its unit and what it means. The request checks, the error
/// messages, the OpenAPI document (`transit openapi`), the command line's help and the
/// fuzz checks are all made from these declarations; none repeats a range.
public struct ParameterSpec: Sendable {
    /// A unit as the API writes it after a number (`symbol`) and as a sentence does (`words`).
    public enum Unit: Sendable {
        case metersPerSecond, meters, seconds, minutes

        public var symbol: String {
            switch self {
            case .metersPerSecond: "m/s"
            case .meters: "m"
            case .seconds: "s"
            case .minutes: "minutes"
            }
        }

        public var words: String {
            switch self {
            case .metersPerSecond: "meters per second"
            case .meters: "meters"
            case .seconds: "seconds"
            case .minutes: "minutes"
            }
        }
    }

    /// What values the parameter takes.
    public enum Kind: Sendable {
        /// A whole number in the range.
        case integer(ClosedRange<Int>, default: Int?)
        /// A finite number in the range.
        case number(ClosedRange<Double>, default: Double?)
        /// `true` or `false`.
        case boolean(default: Bool)
        /// Text of `minLength` to `maxLength` Unicode scalars matching `pattern` as a whole.
        /// The pattern is JSON Schema's (ECMA-262) kept to what ICU and Python read the same
        /// way (`[0-9]`, not `\d`; no `.`), because the server checks it with ICU and the
        /// fuzzer generates from it with Python: what it matches is what the server accepts.
        case text(minLength: Int, maxLength: Int, pattern: String?)
    }

    public let name: String
    public let kind: Kind
    public let unit: Unit?
    /// What it means, a sentence fragment without the default or the range:
    /// "Walking speed in meters per second".
    public let description: String
    /// The default in words when it is not a value (`"now"`), else nil.
    public let defaultWords: String?
    /// Required by every request that takes it.
    public let required: Bool
    /// What is allowed in the API's words when the kind does not say it well (text
    /// with a pattern: "lat,lon in degrees, e.g. 37.8044,-122.2712").
    let allowedWords: String?

    public init(_ name: String, _ kind: Kind, unit: Unit? = nil, defaultWords: String? = nil, required: Bool = false,
                allowed: String? = nil, _ description: String) {
        self.name = name; self.kind = kind; self.unit = unit; self.defaultWords = defaultWords
        self.required = required; self.allowedWords = allowed; self.description = description
    }

    /// The integer range, for an integer parameter.
    public var integerRange: ClosedRange<Int> {
        guard case .integer(let r, _) = kind else { preconditionFailure("\(name) is not an integer parameter") }
        return r
    }

    /// The number range, for a number parameter.
    public var numberRange: ClosedRange<Double> {
        guard case .number(let r, _) = kind else { preconditionFailure("\(name) is not a number parameter") }
        return r
    }

    /// The integer default, for an integer parameter that has one.
    public var integerDefault: Int {
        guard case .integer(_, let d?) = kind else { preconditionFailure("\(name) has no integer default") }
        return d
    }

    /// The number default, for a number parameter that has one.
    public var numberDefault: Double {
        guard case .number(_, let d?) = kind else { preconditionFailure("\(name) has no number default") }
        return d
    }

    /// The default as the documents write it (`1.33`, `60`, `false`, `now`), or nil.
    public var defaultText: String? {
        if let defaultWords { return defaultWords }
        switch kind {
        case .integer(_, let d): return d.map(String.init)
        case .number(_, let d): return d.map(Self.plain)
        case .boolean(let d): return String(d)
        case .text: return nil
        }
    }

    /// What is allowed, as the API's errors say it: "a whole number from 1 to 20",
    /// "a number from 0.1 to 10 m/s", "true or false".
    public var allowed: String {
        if let allowedWords { return allowedWords }
        let suffix = unit.map { " \($0.symbol)" } ?? ""
        switch kind {
        case .integer(let r, _): return "a whole number from \(r.lowerBound) to \(r.upperBound)\(suffix)"
        case .number(let r, _): return "a number from \(Self.plain(r.lowerBound)) to \(Self.plain(r.upperBound))\(suffix)"
        case .boolean: return "true or false"
        case .text(_, let maxLength, _): return "text of at most \(maxLength) characters"
        }
    }

    /// The range in words, as the routing model's checks say it: "0.1 to 10 meters per
    /// second", "0 to 12"; nil for a parameter without a range.
    public var rangeWords: String? {
        let suffix = unit.map { " \($0.words)" } ?? ""
        switch kind {
        case .integer(let r, _): return "\(r.lowerBound) to \(r.upperBound)\(suffix)"
        case .number(let r, _): return "\(Self.plain(r.lowerBound)) to \(Self.plain(r.upperBound))\(suffix)"
        case .boolean, .text: return nil
        }
    }

    /// Command-line help: "Walking speed in meters per second (0.1 to 10, default 1.33)."
    public var help: String {
        var parts: [String] = []
        switch kind {
        case .integer(let r, _): parts.append("\(r.lowerBound) to \(r.upperBound)")
        case .number(let r, _): parts.append("\(Self.plain(r.lowerBound)) to \(Self.plain(r.upperBound))")
        case .boolean, .text: break
        }
        if let d = defaultText { parts.append("default \(d)") }
        return parts.isEmpty ? "\(description)." : "\(description) (\(parts.joined(separator: ", ")))."
    }

    /// A number as people write it: `1000`, not `1000.0`; `0.1`.
    public static func plain(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
