import Geo
@testable import Streets

/// Builds `StreetTables` in code, with positions given in meters east and north of a point
/// in Milan (lengths measured as the importer does: geodesic over the points).
struct StreetBuilder {
    static let origin = Coordinate(latitude: 45.4642, longitude: 9.19)
    var tables = StreetTables()

    static func at(_ x: Double, _ y: Double) -> Coordinate {
        let north = Geodesic.destination(from: origin, azimuthDegrees: 0, meters: y)
        return Geodesic.destination(from: north, azimuthDegrees: 90, meters: x)
    }

    @discardableResult
    mutating func node(_ x: Double, _ y: Double, id: Int64? = nil) -> Int32 {
        let c = Self.at(x, y)
        tables.nodeId.append(id ?? Int64(1000 + tables.nodeCount))
        tables.nodeLatitude.append(c.latitude)
        tables.nodeLongitude.append(c.longitude)
        return Int32(tables.nodeCount - 1)
    }

    func coordinate(_ n: Int32) -> Coordinate {
        Coordinate(latitude: tables.nodeLatitude[Int(n)], longitude: tables.nodeLongitude[Int(n)])
    }

    @discardableResult
    mutating func edge(_ a: Int32, _ b: Int32, inner: [(Double, Double)] = [], name: String? = nil,
                       kind: StreetKind = .footway, flags: StreetFlags = []) -> Int32 {
        let points = [coordinate(a)] + inner.map { Self.at($0.0, $0.1) } + [coordinate(b)]
        var length = 0.0
        for i in 1..<points.count { length += Geodesic.distance(points[i - 1], points[i]) }
        tables.edgeSource.append(a)
        tables.edgeTarget.append(b)
        tables.edgeLength.append(Float(length))
        tables.edgeWay.append(Int64(tables.edgeCount + 1))
        if let name {
            if let i = tables.names.firstIndex(of: name) { tables.edgeName.append(Int32(i)) } else {
                tables.names.append(name); tables.edgeName.append(Int32(tables.names.count - 1))
            }
        } else { tables.edgeName.append(-1) }
        tables.edgeKind.append(kind)
        tables.edgeFlags.append(kind == .steps ? flags.union(.steps) : flags)
        for p in points.dropFirst().dropLast() { tables.innerLatitude.append(p.latitude); tables.innerLongitude.append(p.longitude) }
        tables.innerOffsets.append(Int32(tables.innerLatitude.count))
        return Int32(tables.edgeCount - 1)
    }

    /// A square grid of `size` × `size` nodes `spacing` meters apart, its lower left corner
    /// at (x0, y0): streets "Row k" running east and "Column k" running north.
    @discardableResult
    mutating func grid(size: Int, spacing: Double, x0: Double = 0, y0: Double = 0) -> [[Int32]] {
        var ids: [[Int32]] = []
        for r in 0..<size { ids.append((0..<size).map { c in node(x0 + Double(c) * spacing, y0 + Double(r) * spacing) }) }
        for r in 0..<size {
            for c in 0..<size {
                if c + 1 < size { edge(ids[r][c], ids[r][c + 1], name: "Row \(r)", kind: .road) }
                if r + 1 < size { edge(ids[r][c], ids[r + 1][c], name: "Column \(c)", kind: .road) }
            }
        }
        return ids
    }
}

/// A small deterministic generator (SplitMix64) for the randomized tests.
struct Mix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
