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
    /// edges in id order, nodes merged by OpenStreetMap id across regions and names
    /// interned (both numbered in the order the edges first name them). Nil when no street
    /// version is loaded. Read in one repeatable-read transaction, so a version swapped in
    /// meanwhile is not half seen.
    ///
    /// Read as binary COPY (numbers as they are stored, the geometry as little-endian WKB):
    /// on Milan's 89,511 edges 0.065 s against 0.09 s for the text form (hex EWKB and
    /// decimal lengths parsed here), `transit bench --streets`. Reading the table in its
    /// own order (no `ORDER BY id`, the server's part 30 ms instead of 63 ms) and sorting
    /// here was slower in all (0.085 s): the server's work overlaps this parsing anyway.
    public func load(regions: [String]? = nil) throws -> StreetTables? {
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? db.execute("COMMIT") }
        try db.execute("SET LOCAL client_encoding = 'UTF8'")
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
        // The edges of one way come one after another: most names are the row before's.
        var lastName: [UInt8] = [], lastNameIndex: Int32 = -1
        for row in rows {
            t.versions[row.region] = row.version
            let count = Int(try db.scalar("SELECT count(*) FROM \(row.table)") ?? "0") ?? 0
            let n = t.edgeCount + count
            t.edgeSource.reserveCapacity(n); t.edgeTarget.reserveCapacity(n); t.edgeLength.reserveCapacity(n)
            t.edgeWay.reserveCapacity(n); t.edgeKind.reserveCapacity(n); t.edgeFlags.reserveCapacity(n)
            t.edgeName.reserveCapacity(n); t.innerOffsets.reserveCapacity(n + 1)
            nodeIndex.reserveCapacity(nodeIndex.count + count)
            try db.copyOut("""
                COPY (SELECT source, target, length_m, way_id, kind, flags, name, ST_AsBinary(geom, 'NDR') \
                FROM \(row.table) ORDER BY id) TO STDOUT (FORMAT binary)
                """) { bytes in
                var f = BinaryRow(bytes)
                guard let fields = try f.begin() else { return }  // the trailer
                guard fields == 8 else { throw StoreError(.copyFailed, "\(row.table): a row of \(fields) fields, not 8") }
                let source = try f.int64(), target = try f.int64()
                let length = try f.float8()
                let way = try f.int64()
                let kind = StreetKind(column: Int(try f.int16())) ?? .road
                let flags = StreetFlags(rawValue: UInt8(clamping: try f.int16()))
                let name = try f.field()
                let geometry = try f.field()
                guard let geometry, let (first, last) = wkbLineString(geometry, inner: &innerLat, &innerLon) else { return }
                t.edgeSource.append(node(source, first.lat, first.lon))
                t.edgeTarget.append(node(target, last.lat, last.lon))
                t.edgeLength.append(Float(length))
                t.edgeWay.append(way)
                t.edgeKind.append(kind)
                t.edgeFlags.append(flags)
                if let name {
                    if lastNameIndex >= 0, name.elementsEqual(lastName) { t.edgeName.append(lastNameIndex) } else {
                        let text = String(decoding: name, as: UTF8.self)
                        let i: Int32
                        if let known = nameIndex[text] { i = known } else {
                            i = Int32(t.names.count)
                            nameIndex[text] = i; t.names.append(text)
                        }
                        t.edgeName.append(i)
                        lastName = Array(name); lastNameIndex = i
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

/// The fields of one binary COPY row in order (big-endian numbers, each field after its
/// 32-bit length, -1 for NULL); the first row comes after the format's header.
private struct BinaryRow {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    init(_ b: UnsafeBufferPointer<UInt8>) { bytes = b }

    static let signature: [UInt8] = Array("PGCOPY\n".utf8) + [0xff, 0x0d, 0x0a, 0x00]

    private func bad() -> StoreError { StoreError(.copyFailed, "a binary COPY row ends early") }

    private mutating func take(_ n: Int) throws -> UnsafeBufferPointer<UInt8> {
        guard n >= 0, pos + n <= bytes.count else { throw bad() }
        defer { pos += n }
        return UnsafeBufferPointer(rebasing: bytes[pos..<(pos + n)])
    }

    private mutating func bigEndian(_ n: Int) throws -> UInt64 {
        var v: UInt64 = 0
        for b in try take(n) { v = v << 8 | UInt64(b) }
        return v
    }

    /// Skips the header when there is one; the row's field count, or nil for the trailer.
    mutating func begin() throws -> Int? {
        if bytes.count >= 19, bytes.starts(with: Self.signature) {
            pos = 11
            _ = try bigEndian(4)  // flags
            _ = try take(Int(try bigEndian(4)))  // header extension
            if pos == bytes.count { return nil }  // the header alone
        }
        let n = Int16(bitPattern: UInt16(try bigEndian(2)))
        return n < 0 ? nil : Int(n)
    }

    /// The next field's bytes (nil for NULL).
    mutating func field() throws -> UnsafeBufferPointer<UInt8>? {
        let n = Int32(bitPattern: UInt32(try bigEndian(4)))
        return n < 0 ? nil : try take(Int(n))
    }

    private mutating func number(_ size: Int) throws -> UInt64 {
        guard let f = try field(), f.count == size else { throw StoreError(.copyFailed, "a binary COPY field is not \(size) bytes") }
        var v: UInt64 = 0
        for b in f { v = v << 8 | UInt64(b) }
        return v
    }

    mutating func int64() throws -> Int64 { Int64(bitPattern: try number(8)) }
    mutating func int16() throws -> Int16 { Int16(bitPattern: UInt16(try number(2))) }
    mutating func float8() throws -> Double { Double(bitPattern: try number(8)) }
}

/// A little-endian WKB LineString: its first and last points, the points between appended
/// to `lat`/`lon`; nil for anything else.
private func wkbLineString(_ b: UnsafeBufferPointer<UInt8>, inner lat: inout [Double], _ lon: inout [Double])
    -> ((lat: Double, lon: Double), (lat: Double, lon: Double))? {
    @inline(__always) func word(_ at: Int, _ n: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<n { v |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        return v
    }
    guard b.count >= 9, b[0] == 1, word(1, 4) == 2 else { return nil }  // little-endian, LineString
    let n = Int(word(5, 4))
    guard n >= 2, b.count >= 9 + n * 16 else { return nil }
    func point(_ p: Int) -> (lat: Double, lon: Double) {
        (Double(bitPattern: word(9 + p * 16 + 8, 8)), Double(bitPattern: word(9 + p * 16, 8)))
    }
    for p in 1..<(n - 1) {
        let q = point(p)
        lat.append(q.lat); lon.append(q.lon)
    }
    return (point(0), point(n - 1))
}
