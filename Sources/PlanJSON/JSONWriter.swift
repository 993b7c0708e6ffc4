/// JSON text written straight into one UTF-8 buffer, value by value, for the answers the
/// server writes on every request (plan answers and their maps).
///
/// Written here because building a `[String: Any]` tree first and walking it
/// (`JSONText`) boxed every value, hashed and sorted every object's keys and cast every
/// value back at run time: a fifth of the server's time per plan request. This writes the
/// same text (compact, keys sorted, `/` not escaped, doubles as `JSONText` writes them)
/// in a sixth of the time; the callers write each object's keys in sorted order, which
/// debug builds check.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next key or array element needs a comma before it.
    private var comma = false
    #if DEBUG
    /// The last key of each open object (nil for an array or an object without keys yet).
    private var lastKeys: [String?] = []
    #endif

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        comma = false
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        comma = true
        #if DEBUG
        lastKeys.removeLast()
        #endif
    }

    /// `"key":` — the keys of one object must come in ascending order (as `JSONText`
    /// sorts them), so that both write the same text.
    public mutating func key(_ key: StaticString) {
        #if DEBUG
        let k = key.description
        if let last = lastKeys[lastKeys.count - 1] { assert(last < k, "JSON key \(k) written after \(last)") }
        lastKeys[lastKeys.count - 1] = k
        #endif
        if comma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        comma = false
    }

    public mutating func string(_ s: String) { separate(); JSONWriter.string(s, into: &bytes); comma = true }
    public mutating func int<I: BinaryInteger>(_ i: I) { separate(); JSONWriter.int(i, into: &bytes); comma = true }
    public mutating func double(_ d: Double) { separate(); JSONWriter.double(d, into: &bytes); comma = true }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: b ? "true".utf8 : "false".utf8); comma = true }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); comma = true }

    /// Key and value in one call.
    public mutating func field(_ k: StaticString, _ s: String) { key(k); string(s) }
    public mutating func field<I: BinaryInteger>(_ k: StaticString, _ i: I) { key(k); int(i) }
    public mutating func field(_ k: StaticString, _ d: Double) { key(k); double(d) }
    public mutating func field(_ k: StaticString, _ b: Bool) { key(k); bool(b) }
    /// Leaves the key out when the value is nil.
    public mutating func field(_ k: StaticString, ifPresent s: String?) { if let s { key(k); string(s) } }

    /// `[a,b]` for a pair of numbers (GeoJSON positions).
    public mutating func pair(_ a: Double, _ b: Double) {
        separate()
        bytes.append(UInt8(ascii: "["))
        JSONWriter.double(a, into: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONWriter.double(b, into: &bytes)
        bytes.append(UInt8(ascii: "]"))
        comma = true
    }

    /// Text already written as JSON (one value).
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); comma = true }

    @inline(__always)
    private mutating func separate() {
        if comma { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Values, shared with JSONText

    static func int<I: BinaryInteger>(_ i: I, into out: inout [UInt8]) {
        out.append(contentsOf: String(i).utf8)  // a small string for any Int64: no allocation
    }

    /// Whole numbers without a fraction (as JSONSerialization writes them), others in
    /// Swift's shortest form; NaN and infinities as null.
    static func double(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
        if d == d.rounded(), abs(d) < 1e15 {
            int(Int64(d), into: &out)
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// `s` as a JSON string, quoted and escaped.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        string(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied at once.
            var start = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                start = i + 1
                out.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: "u00".utf8)
                    out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
