import Foundation

/// JSON text from `[String: Any]` trees (coverage, stops, health, errors): keys sorted,
/// `/` not escaped, doubles in their shortest form (whole ones without a fraction, as
/// JSONSerialization writes them). Plan answers, written on every request, skip the tree:
/// `JSONWriter` writes the same text directly.
///
/// Written here because Foundation's JSONSerialization on Linux bridges every value to
/// NSNumber/NSString and took about 30 ms per plan answer (~30 KB with its map) — more
/// than the routing itself; this is a straight walk over the values into one UTF-8 buffer.
public enum JSONText {
    public static func encode(_ value: Any) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: Any, into out: inout [UInt8]) {
        // The common types first: every failed cast costs a call into the runtime. A map's
        // coordinates ([[Double]] per line, most of an answer's values) are written
        // without a cast per number: casting them to [Any] boxed each one, and JSON took
        // a quarter of the server's time per plan request.
        switch value {
        case let s as String: string(s, into: &out)
        case let b as Bool: out.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
        case let i as Int: JSONWriter.int(i, into: &out)
        case let d as Double: double(d, into: &out)
        case let d as [String: Any]:
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, v) in d.sorted(by: { $0.key < $1.key }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                string(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(v, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let line as [[Double]]:
            out.append(UInt8(ascii: "["))
            for (i, position) in line.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                doubles(position, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let position as [Double]: doubles(position, into: &out)
        case let a as [Any]:
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(v, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let i as Int64: JSONWriter.int(i, into: &out)
        case let i as Int32: JSONWriter.int(i, into: &out)
        case let f as Float: double(Double(f), into: &out)
        case let n as NSNumber:
            // From Foundation (not made by this code's callers, but handled all the same).
            // A boolean's type code is "c" (on Linux `is Bool` holds for 0 and 1 too).
            if String(cString: n.objCType) == "c" { write(n.boolValue, into: &out) } else { double(n.doubleValue, into: &out) }
        case is NSNull: out.append(contentsOf: Array("null".utf8))
        case let o as Optional<Any>:
            if let v = o { write(v, into: &out) } else { out.append(contentsOf: Array("null".utf8)) }
        default:
            string("\(value)", into: &out)
        }
    }

    static func doubles(_ list: [Double], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, d) in list.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            double(d, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    static func double(_ d: Double, into out: inout [UInt8]) { JSONWriter.double(d, into: &out) }
    static func string(_ s: String, into out: inout [UInt8]) { JSONWriter.string(s, into: &out) }
}
