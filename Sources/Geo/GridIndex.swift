/// A static uniform-grid spatial index over planar points (e.g. the output of
/// ``LocalProjection/project(_:)-([Coordinate])``), for radius and nearest-point
/// queries. Distances are **Euclidean in the plane**, in the same unit as the
/// input points (meters for a ``LocalProjection``).
///
/// ## Layout (flat arrays, no per-cell allocations)
/// The bounding box of the indexed points is divided into
/// ``columns`` × ``rows`` square cells of side ``cellMeters``, numbered row-major
/// (`cell = row * columns + column`, `column = ⌊(x − originX) / cellMeters⌋`).
/// Point data are counting-sorted by cell into parallel arrays
/// (`ids`, `xs`, `ys`); `cellStart[c] ..< cellStart[c + 1]` is the slice holding
/// cell `c`. Because cells of one row are adjacent, the cells of a row segment
/// form one contiguous slice, so a query scans one slice per grid row.
///
/// ## Invariants
/// - `cellStart.count == columns * rows + 1`, `cellStart[0] == 0`,
///   non-decreasing, `cellStart.last == indexedCount`.
/// - Within a cell, points keep their input order (ascending index).
/// - Points with a non-finite `x` or `y` are not indexed and never returned.
/// - ``cellMeters`` ≥ the requested cell size; it is enlarged when needed so that
///   the grid has at most `max(64, 2 × indexedCount)` cells, bounding memory for
///   widely spread points.
/// - Query results are exact (not approximate): `within` returns precisely the
///   indexes `i` with `dx*dx + dy*dy <= r*r`, and `nearest` the true nearest point.
///
/// The index is immutable after construction and `Sendable`; queries do not
/// allocate except for their result array.
public struct GridIndex: Sendable {
    /// Number of points passed to `init` (valid result indexes are `0 ..< count`).
    public let count: Int
    /// Number of points actually indexed (those with finite coordinates).
    public let indexedCount: Int
    /// Effective side length of a cell, in input units (meters); ≥ the requested size.
    public let cellMeters: Double
    /// Lower-left corner (minimum x) of cell column 0.
    public let originX: Double
    /// Lower-left corner (minimum y) of cell row 0.
    public let originY: Double
    /// Number of cell columns (≥ 1).
    public let columns: Int
    /// Number of cell rows (≥ 1).
    public let rows: Int

    private let cellStart: [Int32]  // columns * rows + 1 offsets into ids/xs/ys
    private let ids: [Int32]  // original point index, sorted by cell
    private let xs: [Double]  // x of ids[k]
    private let ys: [Double]  // y of ids[k]

    /// Builds the index.
    ///
    /// - Parameters:
    ///   - points: planar points; the index of a point in this array is the value
    ///     returned by queries. At most `Int32.max` points. Points with non-finite
    ///     coordinates are skipped. The spread of the finite points must be finite.
    ///   - cellMeters: requested cell side, `> 0` and finite. A good choice is
    ///     about the typical query radius. May be enlarged (see ``cellMeters``).
    /// - Complexity: O(n + cells).
    public init(points: [(x: Double, y: Double)], cellMeters: Double) {
        precondition(cellMeters > 0 && cellMeters.isFinite, "cellMeters must be positive and finite")
        precondition(points.count <= Int(Int32.max), "GridIndex supports at most Int32.max points")

        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        var n = 0
        for p in points where p.x.isFinite && p.y.isFinite {
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
            n += 1
        }
        count = points.count
        indexedCount = n
        guard n > 0 else {
            self.cellMeters = cellMeters
            originX = 0; originY = 0; columns = 1; rows = 1
            cellStart = [0, 0]; ids = []; xs = []; ys = []
            return
        }

        let width = maxX - minX, height = maxY - minY
        precondition(width.isFinite && height.isFinite, "point spread must be finite")

        // Choose the cell size: requested size, enlarged until the cell count is bounded.
        let maxCells = Double(Swift.max(64, 2 * n))
        var cs = cellMeters
        func cellCount(_ cs: Double) -> Double { ((width / cs).rounded(.down) + 1) * ((height / cs).rounded(.down) + 1) }
        if cellCount(cs) > maxCells {
            cs = Swift.max(cs, (width * height / maxCells).squareRoot(), width / maxCells, height / maxCells)
            while cellCount(cs) > maxCells { cs *= 1.0625 }
        }
        // Using ⌊span / cs⌋ + 1 guarantees the extreme point's cell index is in range.
        let cols = Int((width / cs).rounded(.down)) + 1
        let rws = Int((height / cs).rounded(.down)) + 1
        self.cellMeters = cs
        originX = minX; originY = minY; columns = cols; rows = rws

        // Counting sort of points by cell (stable: keeps input order within a cell).
        var cellOf = [Int32](repeating: -1, count: points.count)
        var start = [Int32](repeating: 0, count: cols * rws + 1)
        for (i, p) in points.enumerated() where p.x.isFinite && p.y.isFinite {
            let cx = Swift.min(Int((p.x - minX) / cs), cols - 1)
            let cy = Swift.min(Int((p.y - minY) / cs), rws - 1)
            let c = cy * cols + cx
            cellOf[i] = Int32(c)
            start[c + 1] += 1
        }
        for c in 0..<(cols * rws) { start[c + 1] += start[c] }
        var next = start  // next free slot per cell
        var ids = [Int32](repeating: 0, count: n)
        var xs = [Double](repeating: 0, count: n)
        var ys = [Double](repeating: 0, count: n)
        for (i, p) in points.enumerated() where cellOf[i] >= 0 {
            let c = Int(cellOf[i])
            let k = Int(next[c])
            next[c] += 1
            ids[k] = Int32(i); xs[k] = p.x; ys[k] = p.y
        }
        self.cellStart = start
        self.ids = ids
        self.xs = xs
        self.ys = ys
    }

    /// Absolute tolerance that widens cell ranges so that floating-point rounding in
    /// cell arithmetic can never exclude a qualifying point (results stay exact
    /// because the final test is on the true distance).
    @inline(__always)
    private func slack(_ x: Double, _ y: Double, _ r: Double) -> Double {
        1e-9 * (Swift.abs(x) + Swift.abs(y) + Swift.abs(originX) + Swift.abs(originY) + r + cellMeters)
    }

    /// Indexes of all points whose Euclidean distance to `(x, y)` is at most
    /// `radiusMeters` (i.e. `dx*dx + dy*dy <= r*r`, boundary included).
    ///
    /// The order is unspecified (grouped by cell, ascending within a cell) but
    /// deterministic. Returns `[]` if the query is not finite or the radius is
    /// negative/NaN; an infinite radius returns every indexed point.
    public func within(x: Double, y: Double, radiusMeters: Double) -> [Int32] {
        var result: [Int32] = []
        within(x: x, y: y, radiusMeters: radiusMeters, into: &result)
        return result
    }

    /// Like ``within(x:y:radiusMeters:)`` but **appends** the indexes to `result`,
    /// so a caller can reuse one buffer across many queries (call
    /// `removeAll(keepingCapacity: true)` between them).
    public func within(x: Double, y: Double, radiusMeters r: Double, into result: inout [Int32]) {
        guard indexedCount > 0, x.isFinite, y.isFinite, r >= 0 else { return }
        let s = slack(x, y, r.isFinite ? r : 0)
        let lo = ((x - r - s - originX) / cellMeters).rounded(.down)
        let hi = ((x + r + s - originX) / cellMeters).rounded(.down)
        let bottom = ((y - r - s - originY) / cellMeters).rounded(.down)
        let top = ((y + r + s - originY) / cellMeters).rounded(.down)
        let lastCol = Double(columns - 1), lastRow = Double(rows - 1)
        // The circle's bounding box misses the grid entirely.
        guard hi >= 0, lo <= lastCol, top >= 0, bottom <= lastRow else { return }
        let c0 = Int(Swift.max(lo, 0)), c1 = Int(Swift.min(hi, lastCol))
        let r0 = Int(Swift.max(bottom, 0)), r1 = Int(Swift.min(top, lastRow))
        let r2 = r * r

        cellStart.withUnsafeBufferPointer { start in
            ids.withUnsafeBufferPointer { ids in
                xs.withUnsafeBufferPointer { xs in
                    ys.withUnsafeBufferPointer { ys in
                        for row in r0...r1 {
                            let base = row * columns
                            // Cells c0...c1 of this row are one contiguous slice.
                            for k in Int(start[base + c0])..<Int(start[base + c1 + 1]) {
                                let dx = xs[k] - x, dy = ys[k] - y
                                if dx * dx + dy * dy <= r2 { result.append(ids[k]) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Index of the indexed point closest to `(x, y)` (Euclidean), or `nil` if
    /// nothing is indexed or the query is not finite.
    ///
    /// Ties are broken in favour of the smallest index. The query may lie outside
    /// the grid. Searches rings of cells outward from the query's cell and stops
    /// as soon as no unvisited cell can hold a closer point.
    public func nearest(x: Double, y: Double) -> Int32? {
        guard indexedCount > 0, x.isFinite, y.isFinite else { return nil }
        let lastCol = columns - 1, lastRow = rows - 1
        let fx = ((x - originX) / cellMeters).rounded(.down)
        let fy = ((y - originY) / cellMeters).rounded(.down)
        let cx = Int(Swift.min(Swift.max(fx, 0), Double(lastCol)))
        let cy = Int(Swift.min(Swift.max(fy, 0), Double(lastRow)))
        let s = slack(x, y, 0)

        var best2 = Double.infinity
        var bestId = Int32.max

        return cellStart.withUnsafeBufferPointer { start in
            ids.withUnsafeBufferPointer { ids in
                xs.withUnsafeBufferPointer { xs in
                    ys.withUnsafeBufferPointer { ys in
                        // Scans the cells c0...c1 of `row` (one contiguous slice).
                        func scan(row: Int, _ c0: Int, _ c1: Int) {
                            let base = row * columns
                            for k in Int(start[base + c0])..<Int(start[base + c1 + 1]) {
                                let dx = xs[k] - x, dy = ys[k] - y
                                let d2 = dx * dx + dy * dy
                                if d2 < best2 || (d2 == best2 && ids[k] < bestId) {
                                    best2 = d2
                                    bestId = ids[k]
                                }
                            }
                        }

                        var k = 0
                        while true {
                            // Visit ring k: cells with Chebyshev distance exactly k from (cx, cy).
                            let c0 = Swift.max(cx - k, 0), c1 = Swift.min(cx + k, lastCol)
                            if cy - k >= 0 { scan(row: cy - k, c0, c1) }
                            if k > 0 && cy + k <= lastRow { scan(row: cy + k, c0, c1) }
                            if k > 0 {
                                for row in Swift.max(cy - k + 1, 0)...Swift.min(cy + k - 1, lastRow) {
                                    if cx - k >= 0 { scan(row: row, cx - k, cx - k) }
                                    if cx + k <= lastCol { scan(row: row, cx + k, cx + k) }
                                }
                            }

                            // Lower bound on the distance to any point in a not-yet-visited
                            // cell: the distance to the nearest side of the visited square
                            // that still has grid cells beyond it.
                            var bound = Double.infinity
                            if cx - k > 0 { bound = Swift.min(bound, x - (originX + Double(cx - k) * cellMeters)) }
                            if cx + k < lastCol { bound = Swift.min(bound, originX + Double(cx + k + 1) * cellMeters - x) }
                            if cy - k > 0 { bound = Swift.min(bound, y - (originY + Double(cy - k) * cellMeters)) }
                            if cy + k < lastRow { bound = Swift.min(bound, originY + Double(cy + k + 1) * cellMeters - y) }
                            if bound == .infinity { break }  // the whole grid has been visited
                            bound = Swift.max(bound - s, 0)
                            if best2 < bound * bound { break }  // strict: no tie can hide outside
                            k += 1
                        }
                        return bestId == Int32.max ? nil : bestId  // Int32.max is never a valid index
                    }
                }
            }
        }
    }
}
