import Foundation

/// JSON text from the `[String: Any]` trees the answers are built as: keys sorted, `/`
/// not escaped, doubles in their shortest form (whole ones without a fraction, as
/// JSONSerialization writes them).
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
        case let i as Int: out.append(contentsOf: String(i).utf8)
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
        case let i as Int64: out.append(contentsOf: String(i).utf8)
        case let i as Int32: out.append(contentsOf: String(i).utf8)
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

    static func double(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: Array("null".utf8)); return }
        if d == d.rounded(), abs(d) < 1e15 {
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            out.append(contentsOf: "\(d)".utf8)
        }
    }

    static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(b)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
