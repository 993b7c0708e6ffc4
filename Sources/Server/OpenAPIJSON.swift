import PlanJSON

/// JSON with its keys in the order written, for generating the OpenAPI document: the same
/// declarations always give the same bytes, so the committed file can be compared.
public indirect enum OpenAPIJSON: Sendable, Equatable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    case object([(key: String, value: OpenAPIJSON)])
    case array([OpenAPIJSON])
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)

    public init(dictionaryLiteral elements: (String, OpenAPIJSON)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }
    public init(arrayLiteral elements: OpenAPIJSON...) { self = .array(elements) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    public static func == (a: OpenAPIJSON, b: OpenAPIJSON) -> Bool { a.rendered() == b.rendered() }

    /// An object with `more`'s keys after (or, when they are already there, in place of) these.
    public func merging(_ more: OpenAPIJSON) -> OpenAPIJSON {
        guard case .object(var pairs) = self, case .object(let extra) = more else { preconditionFailure("merging non-objects") }
        for (k, v) in extra {
            if let i = pairs.firstIndex(where: { $0.key == k }) { pairs[i].value = v } else { pairs.append((k, v)) }
        }
        return .object(pairs)
    }

    /// Indented by one space per level, `"key": value`, non-ASCII as it is (what Python's
    /// `json.dumps(indent=1, ensure_ascii=False)` writes; the document was first made so).
    public func rendered(_ level: Int = 0) -> String {
        let pad = String(repeating: " ", count: level + 1), end = String(repeating: " ", count: level)
        switch self {
        case .object(let pairs):
            if pairs.isEmpty { return "{}" }
            return "{\n" + pairs.map { "\(pad)\(Self.quoted($0.key)): \($0.value.rendered(level + 1))" }.joined(separator: ",\n") + "\n\(end)}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.rendered(level + 1) }.joined(separator: ",\n") + "\n\(end)]"
        case .string(let s): return Self.quoted(s)
        case .integer(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        }
    }

    /// A JSON string as the API writes every string (`JSONWriter`).
    static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }
}
