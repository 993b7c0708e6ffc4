import Foundation

/// Holds an HTTP server to its OpenAPI 3.1 document, for the tests of a JSON API.
///
/// Give it the document (`/openapi.json`), then ask whether a response (status, content type
/// and body) or a request's parameters conform. Every check returns a list of problems, empty
/// when everything conforms, each saying where: `$.itineraries[0].legs[2].mode: "BUSS" is not
/// one of "WALK", "BUS", …`.
///
/// What is checked:
/// - paths: templates such as `/v1/stops/{id}` or `/v1/coverage/{feed}.geojson` (a templated
///   segment may have a literal prefix and suffix); concrete paths win over templated ones;
///   parameter values are percent-decoded, so `/v1/stops/bart%3A12TH` gives `id = bart:12TH`.
///   `servers` are not consulted: paths are matched as the document spells them.
/// - responses: the status (exact, then `4XX`-style ranges, then `default`), the content type
///   (parameters such as `charset` ignored; `type/*` and `*/*` keys allowed), that a JSON-ish
///   body (`application/json`, `application/geo+json`, `application/problem+json`, any
///   `…/…+json`) parses, and that it matches the media type's schema.
/// - request parameters: required query parameters present, unknown ones allowed, the values
///   given (strings from the URL, converted per the schema's type) valid against the schema;
///   path parameters taken from the path are checked the same way.
///
/// The schema dialect is the subset of JSON Schema 2020-12 that hand-written API documents
/// use: `$ref` (local `#…` JSON pointers with `~0`/`~1` and percent escapes; recursive refs
/// are fine), `type` (one or a list, `"null"` included), `enum`, `const`, `properties`,
/// `required`, `additionalProperties`, `patternProperties`, `minProperties`/`maxProperties`,
/// `items`, `prefixItems`, `minItems`/`maxItems`, `uniqueItems`, `minLength`/`maxLength`
/// (in code points), `pattern` (NSRegularExpression, unanchored search as in ECMA-262),
/// `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` (numbers; the OpenAPI 3.0 boolean
/// form is accepted too), `multipleOf`, `allOf`/`anyOf`/`oneOf` (exactly one)/`not`, and
/// `format` `date-time` and `date` (checked loosely by regex). Other keywords, including
/// `discriminator`, the 3.0 `nullable` and other formats, are ignored.
///
/// Numbers: a JSON boolean is never a number (JSONSerialization hands both out as NSNumber;
/// they are told apart by the boolean's Objective-C type code `c`, which holds on Darwin and
/// on Linux Foundation). A body number counts as an integer when its value has no fractional
/// part, as JSON Schema 2020-12 says, so `2.0` in a body is an integer (JSONSerialization does
/// not keep the spelling anyway) and `1.5` is not. In a query string the text is what the
/// server parses, so there an integer must be spelled as digits: `"2.0"` is not an integer.
///
/// At most `maxProblems` problems are reported (then one more line says the list was cut),
/// and schema nesting is cut at `maxDepth` levels, so a `$ref` that loops without consuming
/// data is reported instead of overflowing the stack.
public struct OpenAPIValidator: Sendable {
    /// Why a document was refused.
    public enum DocumentError: Error, Equatable, CustomStringConvertible {
        case invalidJSON(String)
        case notAnObject
        case unsupportedVersion(String?)
        case missingPaths
        case invalidPathTemplate(String)

        public var description: String {
            switch self {
            case .invalidJSON(let why): "the OpenAPI document is not valid JSON: \(why)"
            case .notAnObject: "the OpenAPI document is not a JSON object"
            case .unsupportedVersion(let v): "the OpenAPI document is version \(v.map { "\"\($0)\"" } ?? "(missing)"), expected 3.1.x"
            case .missingPaths: "the OpenAPI document has no \"paths\" object"
            case .invalidPathTemplate(let t): "the path template \"\(t)\" is malformed"
            }
        }
    }

    /// Most problems one call reports; one more line says when the list was cut.
    public var maxProblems = 20
    /// Deepest nesting of schema applications before validation gives up on a value.
    public var maxDepth = 128

    let root: JSONValue
    let templates: [PathTemplate]

    public init(document: Data) throws {
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])
        } catch {
            throw DocumentError.invalidJSON(Self.describe(error))
        }
        let root = JSONValue(any)
        guard case .object(let top) = root else { throw DocumentError.notAnObject }
        guard case .string(let version)? = top["openapi"] else {
            throw DocumentError.unsupportedVersion(top["openapi"].map { $0.rendered() })
        }
        guard version == "3.1" || version.hasPrefix("3.1.") else {
            throw DocumentError.unsupportedVersion(version)
        }
        guard case .object(let paths)? = top["paths"] else { throw DocumentError.missingPaths }
        var templates: [PathTemplate] = []
        for (key, _) in paths {
            guard let t = PathTemplate(key) else { throw DocumentError.invalidPathTemplate(key) }
            templates.append(t)
        }
        // Concrete paths before templated ones, then the most literal text first.
        templates.sort {
            ($0.parameterCount, -$0.literalLength, $0.template) < ($1.parameterCount, -$1.literalLength, $1.template)
        }
        self.root = root
        self.templates = templates
    }

    // MARK: - Paths and operations

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operation that `method` on the concrete `path` (percent-encoded as sent; a query
    /// string or a full URL is allowed and ignored beyond the path) would reach, with the
    /// template it matched and the percent-decoded path parameters. `nil` when no path matches
    /// or the matched path has no such method.
    public func operation(method: String, path: String) -> (template: String, operation: [String: Any], pathParameters: [String: String])? {
        guard let m = match(path), let op = m.operations[method.lowercased()] else { return nil }
        return (m.template, (op.anyValue as? [String: Any]) ?? [:], m.parameters)
    }

    struct PathMatch {
        var template: String
        var item: [String: JSONValue]
        var operations: [String: JSONValue]
        var parameters: [String: String]
    }

    func match(_ rawPath: String) -> PathMatch? {
        let path = Self.pathOnly(rawPath)
        guard case .object(let paths)? = root["paths"] else { return nil }
        for t in templates {
            guard let params = t.match(path) else { continue }
            let item = resolveReference(paths[t.template] ?? .null)
            guard case .object(let fields) = item else { return PathMatch(template: t.template, item: [:], operations: [:], parameters: params) }
            var ops: [String: JSONValue] = [:]
            for (k, v) in fields where Self.methods.contains(k) {
                if case .object = v { ops[k] = v }
            }
            return PathMatch(template: t.template, item: fields, operations: ops, parameters: params)
        }
        return nil
    }

    static func pathOnly(_ raw: String) -> String {
        var s = Substring(raw)
        if raw.hasPrefix("http://") || raw.hasPrefix("https://"),
           let c = URLComponents(string: raw) {
            s = Substring(c.percentEncodedPath.isEmpty ? "/" : c.percentEncodedPath)
        }
        if let q = s.firstIndex(where: { $0 == "?" || $0 == "#" }) { s = s[..<q] }
        return String(s)
    }

    /// The operation for a request, or a problem saying why there is none.
    func lookup(_ method: String, _ path: String) -> Result<(PathMatch, [String: JSONValue]), Problem> {
        let label = "\(method.uppercased()) \(Self.pathOnly(path))"
        guard let m = match(path) else {
            return .failure(Problem("\(label): no path in the document matches"))
        }
        guard case .object(let op)? = m.operations[method.lowercased()] else {
            let documented = m.operations.keys.sorted().map { $0.uppercased() }.joined(separator: ", ")
            return .failure(Problem("\(label): method \(method.uppercased()) is not documented for \(m.template) (documented: \(documented.isEmpty ? "none" : documented))"))
        }
        return .success((m, op))
    }

    struct Problem: Error { var text: String; init(_ text: String) { self.text = text } }

    // MARK: - Responses

    /// Problems with a response; empty when it conforms to the document.
    public func validateResponse(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        let (m, op): (PathMatch, [String: JSONValue])
        switch lookup(method, path) {
        case .failure(let p): return [p.text]
        case .success(let found): (m, op) = found
        }
        let label = "\(method.uppercased()) \(m.template)"

        guard case .object(let responses)? = op["responses"].map(resolveReference) else {
            return ["\(label): the operation documents no responses"]
        }
        let code = String(status)
        let range = status >= 100 && status <= 599 ? "\(status / 100)XX" : nil
        let key = responses.keys.first { $0 == code }
            ?? responses.keys.first { range != nil && $0.uppercased() == range }
            ?? responses.keys.first { $0 == "default" }
        guard let key, let response = responses[key].map(resolveReference) else {
            let documented = responses.keys.sorted().joined(separator: ", ")
            return ["\(label): status \(status) is not documented (documented: \(documented))"]
        }

        var contents: [String: JSONValue] = [:]
        if case .object(let c)? = response["content"] { contents = c }
        if contents.isEmpty {
            if !body.isEmpty {
                return ["\(label): status \(status) (response \"\(key)\") documents no content, but the body has \(body.count) bytes"]
            }
            return []
        }
        let documentedTypes = contents.keys.sorted().joined(separator: ", ")
        guard let contentType, !Self.mediaType(contentType).isEmpty else {
            return ["\(label): status \(status) has no Content-Type; documented: \(documentedTypes)"]
        }
        let actual = Self.mediaType(contentType)
        guard let mediaKey = Self.bestMediaKey(actual, in: Array(contents.keys)) else {
            return ["\(label): content type \"\(actual)\" is not documented for status \(status) (documented: \(documentedTypes))"]
        }
        guard Self.isJSONish(actual) else { return [] }  // Only JSON bodies are looked into.

        let value: JSONValue
        if body.isEmpty {
            return ["\(label): the body is empty, expected JSON (\(actual))"]
        }
        do {
            value = JSONValue(try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]))
        } catch {
            return ["\(label): the body is not valid JSON (\(actual)): \(Self.describe(error))"]
        }
        guard case .object(let media)? = contents[mediaKey].map(resolveReference),
              let schema = media["schema"] else { return [] }
        let run = SchemaRun(root: root, limit: maxProblems, maxDepth: maxDepth)
        run.validate(value, schema, path: "$", depth: 0)
        return run.finished()
    }

    /// Problems of a JSON value (`body`) against the document's schema `name`
    /// (`#/components/schemas/NAME`): for bodies the document describes inside another,
    /// such as a stream's frames.
    public func validate(_ body: Data, schema name: String) -> [String] {
        let value: JSONValue
        do { value = JSONValue(try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) } catch {
            return ["not valid JSON: \(Self.describe(error))"]
        }
        let run = SchemaRun(root: root, limit: maxProblems, maxDepth: maxDepth)
        run.validate(value, .object(["$ref": .string("#/components/schemas/\(name)")]), path: "$", depth: 0)
        return run.finished()
    }

    /// The media type without parameters, lowercased: `application/json; charset=utf-8` gives
    /// `application/json`.
    static func mediaType(_ s: String) -> String {
        let base = s.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func bestMediaKey(_ actual: String, in keys: [String]) -> String? {
        let normalized = keys.map { ($0, mediaType($0)) }
        if let exact = normalized.first(where: { $0.1 == actual }) { return exact.0 }
        let major = actual.split(separator: "/").first.map(String.init) ?? actual
        if let wild = normalized.first(where: { $0.1 == "\(major)/*" }) { return wild.0 }
        return normalized.first(where: { $0.1 == "*/*" })?.0
    }

    static func isJSONish(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType == "text/json"
    }

    // MARK: - Request parameters

    /// Problems with a request's parameters: required query parameters missing, and query or
    /// path parameter values that do not match their schemas. Unknown query parameters are
    /// allowed. `query` holds the decoded values as the server would see them.
    public func validateRequestParameters(method: String, path: String, query: [String: String]) -> [String] {
        let (m, op): (PathMatch, [String: JSONValue])
        switch lookup(method, path) {
        case .failure(let p): return [p.text]
        case .success(let found): (m, op) = found
        }
        // Path-item parameters, overridden by operation parameters of the same name and place.
        var params: [String: [String: JSONValue]] = [:]
        var order: [String] = []
        for source in [m.item["parameters"], op["parameters"]] {
            guard case .array(let list)? = source else { continue }
            for p in list {
                guard case .object(let fields) = resolveReference(p),
                      case .string(let name)? = fields["name"],
                      case .string(let place)? = fields["in"] else { continue }
                let id = "\(place)\u{0}\(name)"
                if params[id] == nil { order.append(id) }
                params[id] = fields
            }
        }

        let run = SchemaRun(root: root, limit: maxProblems, maxDepth: maxDepth)
        for id in order {
            guard let p = params[id], case .string(let name)? = p["name"], case .string(let place)? = p["in"] else { continue }
            let given: String?
            switch place {
            case "query": given = query[name]
            case "path": given = m.parameters[name]
            default: continue
            }
            let label = "\(place) parameter \"\(name)\""
            guard let raw = given else {
                if p["required"] == .bool(true) || place == "path" {
                    run.report("\(label) is required but missing")
                }
                continue
            }
            if let schema = p["schema"] {
                let explode: Bool
                if case .bool(let e)? = p["explode"] { explode = e } else { explode = place == "query" }
                let value = run.coerce(raw, schema: schema, explode: explode, depth: 0)
                run.validate(value, schema, path: label, depth: 0)
            } else if case .object(let content)? = p["content"], let entry = content.first(where: { Self.isJSONish(Self.mediaType($0.key)) }) {
                let (mediaKey, media) = (entry.key, entry.value)
                guard let json = try? JSONSerialization.jsonObject(with: Data(raw.utf8), options: [.fragmentsAllowed]) else {
                    run.report("\(label): \(JSONValue.string(raw).rendered()) is not valid JSON (\(mediaKey))")
                    continue
                }
                if case .object(let mediaFields) = resolveReference(media), let schema = mediaFields["schema"] {
                    run.validate(JSONValue(json), schema, path: label, depth: 0)
                }
            }
        }
        return run.finished()
    }

    // MARK: - Helpers

    /// Follows `$ref` chains of Reference Objects (responses, parameters, path items).
    func resolveReference(_ value: JSONValue) -> JSONValue {
        var v = value
        for _ in 0..<32 {
            guard case .string(let ref)? = v["$ref"], let target = root.resolve(pointer: ref) else { return v }
            v = target
        }
        return v
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let d = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return d }
        return ns.localizedDescription
    }
}

// MARK: - Path templates

/// A path template split into segments, each a list of literal text and parameters.
struct PathTemplate: Sendable {
    enum Part: Sendable, Equatable { case literal(String), parameter(String) }

    let template: String
    let segments: [[Part]]
    let parameterCount: Int
    let literalLength: Int

    init?(_ template: String) {
        var segments: [[Part]] = []
        var count = 0
        var literal = 0
        for seg in template.split(separator: "/", omittingEmptySubsequences: false) {
            var parts: [Part] = []
            var text = ""
            var name: String?
            for ch in seg {
                if ch == "{" {
                    guard name == nil else { return nil }
                    if !text.isEmpty { parts.append(.literal(text)); literal += text.count; text = "" }
                    name = ""
                } else if ch == "}" {
                    guard let n = name, !n.isEmpty else { return nil }
                    // Two parameters with nothing between them cannot be told apart.
                    if case .parameter? = parts.last { return nil }
                    parts.append(.parameter(n)); count += 1; name = nil
                } else if name != nil {
                    name!.append(ch)
                } else {
                    text.append(ch)
                }
            }
            guard name == nil else { return nil }
            if !text.isEmpty || parts.isEmpty { parts.append(.literal(text)); literal += text.count }
            segments.append(parts)
        }
        self.template = template
        self.segments = segments
        self.parameterCount = count
        self.literalLength = literal
    }

    /// The percent-decoded parameters when `path` (percent-encoded) matches, else nil.
    func match(_ path: String) -> [String: String]? {
        let concrete = path.split(separator: "/", omittingEmptySubsequences: false)
        guard concrete.count == segments.count else { return nil }
        var out: [String: String] = [:]
        for (parts, seg) in zip(segments, concrete) {
            guard Self.match(parts[...], seg, into: &out) else { return nil }
        }
        return out
    }

    private static func match(_ parts: ArraySlice<Part>, _ s: Substring, into out: inout [String: String]) -> Bool {
        guard let first = parts.first else { return s.isEmpty }
        switch first {
        case .literal(let text):
            guard s.hasPrefix(text) else { return false }
            return match(parts.dropFirst(), s.dropFirst(text.count), into: &out)
        case .parameter(let name):
            // A parameter takes at least one character; the shortest that lets the rest match.
            guard !s.isEmpty else { return false }
            var end = s.index(after: s.startIndex)
            while true {
                var attempt = out
                let raw = s[s.startIndex..<end]
                attempt[name] = raw.removingPercentEncoding ?? String(raw)
                if match(parts.dropFirst(), s[end...], into: &attempt) { out = attempt; return true }
                if end == s.endIndex { return false }
                end = s.index(after: end)
            }
        }
    }
}

// MARK: - JSON values

/// An immutable JSON value; numbers by value, booleans apart from numbers.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Converts what JSONSerialization produced.
    init(_ any: Any) {
        switch any {
        case is NSNull:
            self = .null
        case let s as String:
            self = .string(s)
        case let n as NSNumber:
            // JSON booleans are CFBoolean, objCType "c", on Darwin and on Linux Foundation;
            // JSON numbers are "i", "q", "Q" or "d" (checked: `1` is "i" on Linux and would
            // pass `is Bool`, so that test cannot be used).
            if String(cString: n.objCType) == "c" {
                self = .bool(n.boolValue)
            } else {
                self = .number(n.doubleValue)
            }
        case let a as [Any]:
            self = .array(a.map(JSONValue.init))
        case let d as [String: Any]:
            self = .object(d.mapValues(JSONValue.init))
        case let b as Bool:
            self = .bool(b)
        case let i as Int:
            self = .number(Double(i))
        case let d as Double:
            self = .number(d)
        default:
            self = .string(String(describing: any))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// Back to Foundation values: `Bool`, `Int` (integral numbers that fit), `Double`,
    /// `String`, `NSNull`, `[Any]`, `[String: Any]`.
    var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let d):
            if d.rounded() == d, abs(d) < 9.0e15 { return Int(d) }
            return d
        case .string(let s): return s
        case .array(let a): return a.map(\.anyValue)
        case .object(let o): return o.mapValues(\.anyValue)
        }
    }

    var isInteger: Bool {
        if case .number(let d) = self { return d.isFinite && d.rounded() == d }
        return false
    }

    /// The JSON Schema type name, `integer` for numbers without a fraction.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Resolves a local reference `#/a/b~1c` (JSON pointer in a URI fragment).
    func resolve(pointer ref: String) -> JSONValue? {
        guard ref.hasPrefix("#") else { return nil }
        let fragment = String(ref.dropFirst())
        let decoded = fragment.removingPercentEncoding ?? fragment
        if decoded.isEmpty { return self }
        guard decoded.hasPrefix("/") else { return nil }
        var current = self
        for token in decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let o):
                guard let next = o[key] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(key), a.indices.contains(i) else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    /// JSON Schema equality: numbers by value, object keys unordered.
    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        default: false
        }
    }

    /// Compact JSON text, keys sorted, cut to about `limit` characters.
    func rendered(limit: Int = 60) -> String {
        var out = ""
        render(into: &out, limit: limit)
        if out.count > limit { return String(out.prefix(limit)) + "…" }
        return out
    }

    private func render(into out: inout String, limit: Int) {
        if out.count > limit { return }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += Self.format(d)
        case .string(let s): out += Self.quote(s)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.render(into: &out, limit: limit)
                if out.count > limit { return }
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, k) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                out += Self.quote(k) + ":"
                o[k]!.render(into: &out, limit: limit)
                if out.count > limit { return }
            }
            out += "}"
        }
    }

    static func format(_ d: Double) -> String {
        if d.isFinite, d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

// MARK: - Schema validation

/// One validation: collects problems up to a limit. Not shared between threads.
final class SchemaRun {
    let root: JSONValue
    let limit: Int
    let maxDepth: Int
    private(set) var problems: [String] = []
    private(set) var truncated = false
    private let regexes: RegexCache

    init(root: JSONValue, limit: Int, maxDepth: Int, regexes: RegexCache = RegexCache()) {
        self.root = root
        self.limit = max(1, limit)
        self.maxDepth = maxDepth
        self.regexes = regexes
    }

    var isFull: Bool { problems.count >= limit }

    func report(_ text: String) {
        if problems.count < limit { problems.append(text) } else { truncated = true }
    }

    func finished() -> [String] {
        truncated ? problems + ["(stopped after \(limit) problems)"] : problems
    }

    /// A run for one branch of `anyOf`/`oneOf`/`not`, sharing compiled patterns.
    func branch(limit: Int) -> SchemaRun {
        SchemaRun(root: root, limit: limit, maxDepth: maxDepth, regexes: regexes)
    }

    static func child(_ path: String, key: String) -> String {
        var identifier = !key.isEmpty
        for (i, u) in key.unicodeScalars.enumerated() {
            let letter = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || u == "_" || u == "$"
            let digit = u >= "0" && u <= "9"
            if !(letter || (digit && i > 0)) { identifier = false; break }
        }
        return identifier ? "\(path).\(key)" : "\(path)[\(JSONValue.quote(key))]"
    }

    func validate(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) {
        if isFull { truncated = true; return }
        if depth > maxDepth {
            report("\(path): schema nesting deeper than \(maxDepth) levels (a $ref that loops?)")
            return
        }
        let s: [String: JSONValue]
        switch schema {
        case .bool(true): return
        case .bool(false):
            report("\(path): no value is allowed here (schema false)")
            return
        case .object(let o): s = o
        default: return  // Not a schema: nothing to check.
        }

        if case .string(let ref)? = s["$ref"] {
            if let target = root.resolve(pointer: ref) {
                validate(value, target, path: path, depth: depth + 1)
            } else if ref.hasPrefix("#") {
                report("\(path): cannot resolve $ref \"\(ref)\"")
            } else {
                report("\(path): unsupported $ref \"\(ref)\" (only local \"#/…\" references)")
            }
        }

        if let typeSpec = s["type"] {
            var allowed: [String] = []
            switch typeSpec {
            case .string(let t): allowed = [t]
            case .array(let ts): allowed = ts.compactMap { if case .string(let t) = $0 { t } else { nil } }
            default: break
            }
            if !allowed.isEmpty && !allowed.contains(where: { Self.matches(value, type: $0) }) {
                let expected = allowed.count == 1 ? allowed[0] : "one of " + allowed.joined(separator: ", ")
                report("\(path): expected \(expected), got \(value.typeName) \(value.rendered())")
                return  // The other keywords would only repeat the point.
            }
        }

        if case .array(let options)? = s["enum"], !options.contains(value) {
            let list = options.prefix(8).map { $0.rendered(limit: 30) }.joined(separator: ", ")
            report("\(path): \(value.rendered()) is not one of \(list)\(options.count > 8 ? ", …" : "")")
        }
        if let c = s["const"], c != value {
            report("\(path): \(value.rendered()) is not \(c.rendered())")
        }

        switch value {
        case .string(let str): checkString(str, s, path: path)
        case .number(let d): checkNumber(d, s, path: path)
        case .object(let o): checkObject(o, s, path: path, depth: depth)
        case .array(let a): checkArray(a, s, path: path, depth: depth)
        default: break
        }

        checkCombinators(value, s, path: path, depth: depth)
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
             ("array", .array), ("object", .object): true
        case ("integer", .number): value.isInteger
        default: false
        }
    }

    // MARK: Strings

    static let dateTime = #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"#
    static let date = #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"#

    func checkString(_ str: String, _ s: [String: JSONValue], path: String) {
        let length = str.unicodeScalars.count
        if let n = Self.number(s["minLength"]), Double(length) < n {
            report("\(path): \(JSONValue.string(str).rendered()) is shorter than \(JSONValue.format(n)) characters")
        }
        if let n = Self.number(s["maxLength"]), Double(length) > n {
            report("\(path): \(JSONValue.string(str).rendered()) is longer than \(JSONValue.format(n)) characters")
        }
        if case .string(let pattern)? = s["pattern"] {
            switch regexes.search(pattern, in: str) {
            case .some(false): report("\(path): \(JSONValue.string(str).rendered()) does not match pattern \(JSONValue.quote(pattern))")
            case nil: report("\(path): the schema's pattern \(JSONValue.quote(pattern)) is not a valid regular expression")
            default: break
            }
        }
        if case .string(let format)? = s["format"] {
            let regex: String? = switch format {
            case "date-time": Self.dateTime
            case "date": Self.date
            default: nil
            }
            if let regex, regexes.search(regex, in: str) == false {
                report("\(path): \(JSONValue.string(str).rendered()) is not a valid \(format)")
            }
        }
    }

    // MARK: Numbers

    static func number(_ v: JSONValue?) -> Double? {
        if case .number(let d)? = v { return d }
        return nil
    }

    func checkNumber(_ d: Double, _ s: [String: JSONValue], path: String) {
        let shown = JSONValue.format(d)
        // OpenAPI 3.0 wrote exclusiveMinimum: true next to minimum; 3.1 gives the bound itself.
        let exclusiveMinFlag = s["exclusiveMinimum"] == .bool(true)
        let exclusiveMaxFlag = s["exclusiveMaximum"] == .bool(true)
        if let m = Self.number(s["minimum"]) {
            if exclusiveMinFlag ? !(d > m) : !(d >= m) {
                report("\(path): \(shown) is less than \(exclusiveMinFlag ? "or equal to " : "")the minimum \(JSONValue.format(m))")
            }
        }
        if let m = Self.number(s["maximum"]) {
            if exclusiveMaxFlag ? !(d < m) : !(d <= m) {
                report("\(path): \(shown) is greater than \(exclusiveMaxFlag ? "or equal to " : "")the maximum \(JSONValue.format(m))")
            }
        }
        if let m = Self.number(s["exclusiveMinimum"]), !(d > m) {
            report("\(path): \(shown) is not greater than the exclusive minimum \(JSONValue.format(m))")
        }
        if let m = Self.number(s["exclusiveMaximum"]), !(d < m) {
            report("\(path): \(shown) is not less than the exclusive maximum \(JSONValue.format(m))")
        }
        if let m = Self.number(s["multipleOf"]), m > 0 {
            let q = d / m
            if !(q.isFinite && abs(q - q.rounded()) <= 1e-9 * max(1, abs(q))) {
                report("\(path): \(shown) is not a multiple of \(JSONValue.format(m))")
            }
        }
    }

    // MARK: Objects

    func checkObject(_ o: [String: JSONValue], _ s: [String: JSONValue], path: String, depth: Int) {
        if case .array(let required)? = s["required"] {
            for case .string(let name) in required where o[name] == nil {
                report("\(path): missing required property \(JSONValue.quote(name))")
            }
        }
        if let n = Self.number(s["minProperties"]), Double(o.count) < n {
            report("\(path): has \(o.count) properties, fewer than \(JSONValue.format(n))")
        }
        if let n = Self.number(s["maxProperties"]), Double(o.count) > n {
            report("\(path): has \(o.count) properties, more than \(JSONValue.format(n))")
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let p)? = s["properties"] { properties = p }
        var patterns: [(String, JSONValue)] = []
        if case .object(let p)? = s["patternProperties"] { patterns = p.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        let additional = s["additionalProperties"]
        guard !properties.isEmpty || !patterns.isEmpty || additional != nil else { return }

        for key in o.keys.sorted() {
            if isFull { truncated = true; return }
            let value = o[key]!
            let childPath = Self.child(path, key: key)
            var known = false
            if let p = properties[key] {
                known = true
                validate(value, p, path: childPath, depth: depth + 1)
            }
            for (pattern, p) in patterns where regexes.search(pattern, in: key) == true {
                known = true
                validate(value, p, path: childPath, depth: depth + 1)
            }
            guard !known, let additional else { continue }
            if additional == .bool(false) {
                report("\(childPath): property \(JSONValue.quote(key)) is not allowed (additionalProperties: false)")
            } else {
                validate(value, additional, path: childPath, depth: depth + 1)
            }
        }
    }

    // MARK: Arrays

    func checkArray(_ a: [JSONValue], _ s: [String: JSONValue], path: String, depth: Int) {
        if let n = Self.number(s["minItems"]), Double(a.count) < n {
            report("\(path): has \(a.count) items, fewer than \(JSONValue.format(n))")
        }
        if let n = Self.number(s["maxItems"]), Double(a.count) > n {
            report("\(path): has \(a.count) items, more than \(JSONValue.format(n))")
        }
        if s["uniqueItems"] == .bool(true) {
            outer: for i in a.indices {
                for j in a.indices where j > i && a[i] == a[j] {
                    report("\(path): items \(i) and \(j) are equal, but items must be unique")
                    break outer
                }
            }
        }
        var prefix: [JSONValue] = []
        if case .array(let p)? = s["prefixItems"] { prefix = p }
        var items = s["items"]
        if case .array(let p)? = items {  // The pre-2020 tuple form.
            if prefix.isEmpty { prefix = p }
            items = nil
        }
        for (i, element) in a.enumerated() {
            if isFull { truncated = true; return }
            let childPath = "\(path)[\(i)]"
            if i < prefix.count {
                validate(element, prefix[i], path: childPath, depth: depth + 1)
            } else if let items {
                if items == .bool(false) {
                    report("\(childPath): no item is allowed beyond the \(prefix.count) in prefixItems")
                } else {
                    validate(element, items, path: childPath, depth: depth + 1)
                }
            }
        }
    }

    // MARK: Combinators

    func checkCombinators(_ value: JSONValue, _ s: [String: JSONValue], path: String, depth: Int) {
        if case .array(let all)? = s["allOf"] {
            for sub in all { validate(value, sub, path: path, depth: depth + 1) }
        }
        if case .array(let any)? = s["anyOf"], !any.isEmpty {
            var failures: [[String]] = []
            for sub in any {
                let run = branch(limit: 3)
                run.validate(value, sub, path: path, depth: depth + 1)
                if run.problems.isEmpty { failures = []; break }
                failures.append(run.problems)
            }
            if !failures.isEmpty {
                report("\(path): matches none of the anyOf schemas (\(Self.summary(failures)))")
            }
        }
        if case .array(let one)? = s["oneOf"], !one.isEmpty {
            var passed: [Int] = []
            var failures: [[String]] = []
            for (i, sub) in one.enumerated() {
                let run = branch(limit: 3)
                run.validate(value, sub, path: path, depth: depth + 1)
                if run.problems.isEmpty { passed.append(i) } else { failures.append(run.problems) }
            }
            if passed.isEmpty {
                report("\(path): matches none of the oneOf schemas (\(Self.summary(failures)))")
            } else if passed.count > 1 {
                report("\(path): matches \(passed.count) of the oneOf schemas (#\(passed.map(String.init).joined(separator: ", #"))), exactly one must match")
            }
        }
        if let not = s["not"] {
            let run = branch(limit: 1)
            run.validate(value, not, path: path, depth: depth + 1)
            if run.problems.isEmpty {
                report("\(path): \(value.rendered()) must not match the \"not\" schema")
            }
        }
    }

    static func summary(_ failures: [[String]]) -> String {
        failures.enumerated().map { "#\($0.offset): \($0.element.first ?? "?")" }.joined(separator: "; ")
    }

    // MARK: Parameters

    /// Converts a parameter's text to the JSON value the schema expects: an integer only from
    /// digits, a number from a JSON-style number, a boolean from `true`/`false`, an array by
    /// splitting on commas (unless exploded); otherwise the string itself.
    func coerce(_ raw: String, schema: JSONValue, explode: Bool, depth: Int) -> JSONValue {
        let types = declaredTypes(schema, depth: 0)
        if types.contains("array") {
            let parts = explode ? [raw] : raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let itemSchema = resolvedObject(schema)?["items"] ?? .bool(true)
            return .array(parts.map { coerce($0, schema: itemSchema, explode: false, depth: depth + 1) })
        }
        if types.contains("boolean"), raw == "true" || raw == "false" { return .bool(raw == "true") }
        if types.contains("integer"), regexes.search(#"^-?[0-9]+$"#, in: raw) == true, let d = Double(raw) { return .number(d) }
        if types.contains("number"), regexes.search(#"^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, in: raw) == true,
           let d = Double(raw), d.isFinite { return .number(d) }
        if types.contains("null"), raw.isEmpty || raw == "null", !types.contains("string") { return .null }
        return .string(raw)
    }

    private func resolvedObject(_ schema: JSONValue) -> [String: JSONValue]? {
        var s = schema
        for _ in 0..<32 {
            guard case .string(let ref)? = s["$ref"], let target = root.resolve(pointer: ref) else { break }
            s = target
        }
        if case .object(let o) = s { return o }
        return nil
    }

    /// The types a schema admits, from `type`, `enum`/`const` values and the branches of
    /// `allOf`/`anyOf`/`oneOf`.
    private func declaredTypes(_ schema: JSONValue, depth: Int) -> Set<String> {
        guard depth < 16, let s = resolvedObject(schema) else { return [] }
        var out: Set<String> = []
        switch s["type"] {
        case .string(let t)?: out.insert(t)
        case .array(let ts)?: for case .string(let t) in ts { out.insert(t) }
        default: break
        }
        var values: [JSONValue] = []
        if case .array(let e)? = s["enum"] { values += e }
        if let c = s["const"] { values.append(c) }
        for v in values { out.insert(v.typeName) }
        for key in ["allOf", "anyOf", "oneOf"] {
            if case .array(let subs)? = s[key] {
                for sub in subs { out.formUnion(declaredTypes(sub, depth: depth + 1)) }
            }
        }
        return out
    }
}

/// Compiled patterns for one validation.
final class RegexCache {
    private var compiled: [String: NSRegularExpression?] = [:]

    /// Whether `pattern` matches somewhere in `text`; nil when the pattern does not compile.
    func search(_ pattern: String, in text: String) -> Bool? {
        let regex: NSRegularExpression?
        if let cached = compiled[pattern] {
            regex = cached
        } else {
            regex = try? NSRegularExpression(pattern: pattern)
            compiled[pattern] = .some(regex)
        }
        guard let regex else { return nil }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
