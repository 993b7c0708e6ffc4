import CGEOS

/// Planar polygons in meters (a local projection), and the few GEOS operations coverage
/// needs: the union of discs, closing, hole filling, simplification, area, containment.
///
/// GEOS (Debian's libgeos-dev, C API) does the polygon work rather than clipping by hand:
/// unions of thousands of discs are its daily business. One `Geometry` kit per
/// computation and thread: a GEOS context handle is not shared between threads.
final class GeometryKit {
    let h: GEOSContextHandle_t

    init() { h = GEOS_init_r() }
    deinit { GEOS_finish_r(h) }

    /// A planar ring: closed (first = last).
    typealias Ring = [(x: Double, y: Double)]
    /// Polygons, each an exterior ring followed by its holes.
    typealias Polygons = [[Ring]]

    /// The union of discs of `radius` around `points` (GEOS buffers a multipoint as the
    /// union of its points' buffers), with `segments` segments per quarter circle.
    func discUnion(_ points: [(x: Double, y: Double)], radius: Double, segments: Int32 = 16) -> OpaquePointer {
        var geoms: [OpaquePointer?] = points.map { GEOSGeom_createPointFromXY_r(h, $0.x, $0.y) }
        let multi = geoms.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(h, Int32(GEOS_MULTIPOINT.rawValue), $0.baseAddress, UInt32(points.count))!
        }
        defer { GEOSGeom_destroy_r(h, multi) }
        return GEOSBuffer_r(h, multi, radius, segments)!
    }

    func buffer(_ g: OpaquePointer, _ width: Double, segments: Int32 = 8) -> OpaquePointer {
        GEOSBuffer_r(h, g, width, segments)!
    }

    func simplify(_ g: OpaquePointer, _ tolerance: Double) -> OpaquePointer {
        GEOSTopologyPreserveSimplify_r(h, g, tolerance)!
    }

    func destroy(_ g: OpaquePointer) { GEOSGeom_destroy_r(h, g) }

    func area(_ g: OpaquePointer) -> Double {
        var a = 0.0
        _ = GEOSArea_r(h, g, &a)
        return a
    }

    /// Polygons of a Polygon or MultiPolygon.
    func polygons(_ g: OpaquePointer) -> Polygons {
        var out: Polygons = []
        let n = GEOSGetNumGeometries_r(h, g)
        for i in 0..<max(n, 0) {
            guard let p = GEOSGetGeometryN_r(h, g, i), GEOSGeomTypeId_r(h, p) == Int32(GEOS_POLYGON.rawValue),
                  GEOSisEmpty_r(h, p) == 0 else { continue }
            var rings = [ring(GEOSGetExteriorRing_r(h, p)!)]
            for j in 0..<max(GEOSGetNumInteriorRings_r(h, p), 0) { rings.append(ring(GEOSGetInteriorRingN_r(h, p, j)!)) }
            out.append(rings)
        }
        return out
    }

    private func ring(_ r: OpaquePointer) -> Ring {
        let seq = GEOSGeom_getCoordSeq_r(h, r)!
        var size: UInt32 = 0
        _ = GEOSCoordSeq_getSize_r(h, seq, &size)
        var out: Ring = []
        out.reserveCapacity(Int(size))
        for i in 0..<size {
            var x = 0.0, y = 0.0
            _ = GEOSCoordSeq_getXY_r(h, seq, i, &x, &y)
            out.append((x, y))
        }
        return out
    }

    /// A MultiPolygon from polygons (exterior rings and holes).
    func make(_ polygons: Polygons) -> OpaquePointer {
        func linearRing(_ r: Ring) -> OpaquePointer {
            let seq = GEOSCoordSeq_create_r(h, UInt32(r.count), 2)!
            for (i, p) in r.enumerated() { _ = GEOSCoordSeq_setXY_r(h, seq, UInt32(i), p.x, p.y) }
            return GEOSGeom_createLinearRing_r(h, seq)!
        }
        var polys: [OpaquePointer?] = polygons.map { rings in
            let shell = linearRing(rings[0])
            var holes: [OpaquePointer?] = rings.dropFirst().map { linearRing($0) }
            return holes.withUnsafeMutableBufferPointer {
                GEOSGeom_createPolygon_r(h, shell, $0.baseAddress, UInt32(rings.count - 1))
            }
        }
        return polys.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(h, Int32(GEOS_MULTIPOLYGON.rawValue), $0.baseAddress, UInt32(polygons.count))!
        }
    }

    /// The same polygons without their holes.
    func fillHoles(_ g: OpaquePointer) -> OpaquePointer {
        let filled = make(polygons(g).map { [$0[0]] })
        // Filled polygons may now overlap (an island inside another's hole): union them.
        defer { destroy(filled) }
        return GEOSUnaryUnion_r(h, filled)!
    }

    func count(_ g: OpaquePointer) -> Int { Int(GEOSGetNumGeometries_r(h, g)) }

    /// Joins the polygons of `g` (holes filled) pairwise, nearest gaps first, by corridors
    /// `width` wide along the shortest line between them, until at most `limit` remain.
    /// A corridor adds little area (gap × width), where closing (buffer out and back in)
    /// fills whole bays between stations.
    func join(_ g: OpaquePointer, limit: Int, width: Double) -> OpaquePointer {
        var parts: [OpaquePointer?] = polygons(g).map { make([[$0[0]]]) }
        var gap = [[Double]](repeating: [Double](repeating: .infinity, count: parts.count), count: parts.count)
        func distance(_ a: OpaquePointer, _ b: OpaquePointer) -> Double {
            var d = 0.0
            _ = GEOSDistance_r(h, a, b, &d)
            return d
        }
        for i in parts.indices { for j in parts.indices where j > i { gap[i][j] = distance(parts[i]!, parts[j]!); gap[j][i] = gap[i][j] } }
        var alive = parts.count
        while alive > limit {
            var best = (i: -1, j: -1, d: Double.infinity)
            for i in parts.indices where parts[i] != nil {
                for j in parts.indices where j > i && parts[j] != nil && gap[i][j] < best.d { best = (i, j, gap[i][j]) }
            }
            guard best.i >= 0, let a = parts[best.i], let b = parts[best.j] else { break }
            let ends = GEOSNearestPoints_r(h, a, b)!
            let line = GEOSGeom_createLineString_r(h, ends)!
            let corridor = GEOSBuffer_r(h, line, width / 2, 2)!
            let ab = GEOSUnion_r(h, a, b)!
            let joined = GEOSUnion_r(h, ab, corridor)!
            for x in [line, corridor, ab, a, b] { destroy(x) }
            parts[best.i] = joined
            parts[best.j] = nil
            alive -= 1
            for k in parts.indices where k != best.i {
                gap[best.j][k] = .infinity; gap[k][best.j] = .infinity
                if let other = parts[k] { gap[best.i][k] = distance(joined, other); gap[k][best.i] = gap[best.i][k] }
            }
        }
        var rest = parts.compactMap { $0 }.map { Optional($0) }
        let collection = rest.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(h, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), $0.baseAddress, UInt32($0.count))!
        }
        defer { destroy(collection) }
        return GEOSUnaryUnion_r(h, collection)!
    }

    /// Whether `g` contains every point.
    func containsAll(_ g: OpaquePointer, _ points: [(x: Double, y: Double)]) -> Bool {
        guard let prepared = GEOSPrepare_r(h, g) else { return false }
        defer { GEOSPreparedGeom_destroy_r(h, prepared) }
        for p in points {
            let point = GEOSGeom_createPointFromXY_r(h, p.x, p.y)!
            defer { destroy(point) }
            if GEOSPreparedContains_r(h, prepared, point) != 1 { return false }
        }
        return true
    }
}
