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
            // Geometry as binary WKB in hex: no text parsing of coordinates.
            try db.copyOut("COPY (SELECT source, target, length_m, way_id, kind, flags, encode(ST_AsBinary(geom, 'NDR'), 'hex'), name FROM \(row.table) ORDER BY id) TO STDOUT") { bytes in
                var f = FieldCursor(bytes)
                let source = f.int(), target = f.int()
                let length = f.double()
                let way = f.int()
                let kind = StreetKind(column: Int(f.int())) ?? .road
                let flags = StreetFlags(rawValue: UInt8(clamping: f.int()))
                let points = f.wkbLineString()
                let name = f.text()
                guard points.count >= 2 else { return }
                t.edgeSource.append(node(source, points[0].lat, points[0].lon))
                t.edgeTarget.append(node(target, points[points.count - 1].lat, points[points.count - 1].lon))
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
                for p in points.dropFirst().dropLast() { t.innerLatitude.append(p.lat); t.innerLongitude.append(p.lon) }
                t.innerOffsets.append(Int32(t.innerLatitude.count))
            }
        }
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

    /// A little-endian WKB LineString in hex: its points.
    mutating func wkbLineString() -> [(lat: Double, lon: Double)] {
        let r = field()
        @inline(__always) func nibble(_ c: UInt8) -> UInt64 { UInt64(c <= 57 ? c &- 48 : (c | 0x20) &- 87) }
        @inline(__always) func word(_ at: Int, _ bytesCount: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<bytesCount {
                let i = r.lowerBound + (at + k) * 2
                v |= (nibble(bytes[i]) << 4 | nibble(bytes[i + 1])) << (8 * UInt64(k))
            }
            return v
        }
        guard r.count >= 18 else { return [] }
        let n = Int(word(5, 4))
        guard r.count >= 18 + n * 32 else { return [] }
        var out: [(lat: Double, lon: Double)] = []
        out.reserveCapacity(n)
        for p in 0..<n {
            let x = Double(bitPattern: word(9 + p * 16, 8)), y = Double(bitPattern: word(17 + p * 16, 8))
            out.append((y, x))
        }
        return out
    }
}
