import Foundation
import Streets

/// The street versions in the database (`transit import-osm`), read for the walk graph.
public struct StreetStore {
    private let db: PGConnection

    public init(db: PGConnection) { self.db = db }

    /// Region id -> current version (empty when no extract is loaded).
    public func versions() throws -> [String: Int] {
        var out: [String: Int] = [:]
        for row in try catalogue() { out[row.region] = row.version }
        return out
    }

    private func catalogue() throws -> [(region: String, version: Int, table: String)] {
        guard try db.scalar("SELECT to_regclass('streets.versions') IS NOT NULL") == "t" else { return [] }
        return try db.query("SELECT region, version, table_name FROM streets.versions ORDER BY region").map {
            ($0[0] ?? "", Int($0[1] ?? "0") ?? 0, $0[2] ?? "")
        }
    }

    /// Every current version's edges (or only those of `regions`) in one `StreetTables`:
    /// nodes merged by OpenStreetMap id across regions, names interned. Nil when no
    /// street version is loaded. Read in one repeatable-read transaction, so a version
    /// swapped in meanwhile is not half seen.
    public func load(regions: [String]? = nil) throws -> StreetTables? {
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? db.execute("COMMIT") }
        let rows = try catalogue().filter { regions?.contains($0.region) ?? true }
        guard !rows.isEmpty else { return nil }
        var t = StreetTables()
        var nodeIndex: [Int64: Int32] = [:]
        var nameIndex: [String: Int32] = [:]
        // Filled apart from `t` (two inout accesses to one captured variable would overlap).
        var innerLat: [Double] = [], innerLon: [Double] = []
        func node(_ id: Int64, _ lat: Double, _ lon: Double) -> Int32 {
            if let i = nodeIndex[id] { return i }
            let i = Int32(t.nodeId.count)
            nodeIndex[id] = i
            t.nodeId.append(id); t.nodeLatitude.append(lat); t.nodeLongitude.append(lon)
            return i
        }
        for row in rows {
            t.versions[row.region] = row.version
            let count = Int(try db.scalar("SELECT count(*) FROM \(row.table)") ?? "0") ?? 0
            t.edgeSource.reserveCapacity(t.edgeCount + count)
            // A geometry's text form is its EWKB in hex: no parsing of decimal coordinates.
            try db.copyOut("COPY (SELECT source, target, length_m, way_id, kind, flags, name, geom FROM \(row.table) ORDER BY id) TO STDOUT") { bytes in
                var f = FieldCursor(bytes)
                let source = f.int(), target = f.int()
                let length = f.double()
                let way = f.int()
                let kind = StreetKind(column: Int(f.int())) ?? .road
                let flags = StreetFlags(rawValue: UInt8(clamping: f.int()))
                let name = f.text()
                let (first, last) = f.wkbLineString(inner: &innerLat, &innerLon)
                guard let first, let last else { return }
                t.edgeSource.append(node(source, first.lat, first.lon))
                t.edgeTarget.append(node(target, last.lat, last.lon))
                t.edgeLength.append(Float(length))
                t.edgeWay.append(way)
                t.edgeKind.append(kind)
                t.edgeFlags.append(flags)
                if let name {
                    if let i = nameIndex[name] { t.edgeName.append(i) } else {
                        let i = Int32(t.names.count)
                        nameIndex[name] = i; t.names.append(name); t.edgeName.append(i)
                    }
                } else { t.edgeName.append(-1) }
                t.innerOffsets.append(Int32(innerLat.count))
            }
        }
        t.innerLatitude = innerLat
        t.innerLongitude = innerLon
        return t
    }
}

/// Reads the tab-separated fields of one COPY text row in order.
private struct FieldCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    init(_ b: UnsafeBufferPointer<UInt8>) { bytes = b }

    private mutating func field() -> Range<Int> {
        let start = pos
        while pos < bytes.count && bytes[pos] != 9 && bytes[pos] != 10 { pos += 1 }
        let r = start..<pos
        pos += 1
        return r
    }

    mutating func int() -> Int64 {
        var v: Int64 = 0, neg = false
        for i in field() { let c = bytes[i]; if c == 45 { neg = true } else { v = v * 10 + Int64(c &- 48) } }
        return neg ? -v : v
    }

    mutating func double() -> Double {
        let r = field()
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)) ?? 0
    }

    mutating func text() -> String? {
        let r = field()
        if r.count == 2 && bytes[r.lowerBound] == 92 && bytes[r.lowerBound + 1] == 78 { return nil }  // \N
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        var escaped = false
        for i in r {
            let c = bytes[i]
            if escaped {
                out.append(c == 116 ? 9 : c == 110 ? 10 : c == 114 ? 13 : c)
                escaped = false
            } else if c == 92 { escaped = true } else { out.append(c) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The next field, a little-endian (E)WKB LineString in hex: its first and last points
    /// returned, the points between appended to `lat`/`lon` (nothing for a malformed one).
    mutating func wkbLineString(inner lat: inout [Double], _ lon: inout [Double]) -> ((lat: Double, lon: Double)?, (lat: Double, lon: Double)?) {
        let r = field()
        let base = bytes.baseAddress! + r.lowerBound
        @inline(__always) func nibble(_ c: UInt8) -> UInt64 { UInt64(c <= 57 ? c &- 48 : (c | 0x20) &- 87) }
        @inline(__always) func word(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<n { v |= (nibble(base[(at + k) * 2]) << 4 | nibble(base[(at + k) * 2 + 1])) << (8 * UInt64(k)) }
            return v
        }
        guard r.count >= 18, base[0] == 48, base[1] == 49 else { return (nil, nil) }  // "01": little-endian
        let header = word(1, 4) & 0x2000_0000 != 0 ? 9 : 5  // EWKB: an SRID after the type
        let n = Int(word(header, 4))
        guard n >= 2, r.count >= (header + 4 + n * 16) * 2 else { return (nil, nil) }
        func point(_ p: Int) -> (lat: Double, lon: Double) {
            (Double(bitPattern: word(header + 12 + p * 16, 8)), Double(bitPattern: word(header + 4 + p * 16, 8)))
        }
        for p in 1..<(n - 1) {
            let q = point(p)
            lat.append(q.lat); lon.append(q.lon)
        }
        return (point(0), point(n - 1))
    }
}
