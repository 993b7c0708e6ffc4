import Geo
import Synchronization

/// One search's working arrays, one slot per node, valid where stamped with the search's
/// epoch (so nothing is cleared between searches). Used by one search at a time: borrowed
/// from the graph's pool and given back.
final class SearchScratch: @unchecked Sendable {
    let count: Int
    let dist: UnsafeMutablePointer<Double>
    let pred: UnsafeMutablePointer<Int32>
    /// `reached[n] == epoch`: `dist[n]` holds a tentative distance; `settled`: final.
    let reached: UnsafeMutablePointer<UInt32>
    let settled: UnsafeMutablePointer<UInt32>
    /// A target's end node (the search may stop once all of them are settled).
    let wanted: UnsafeMutablePointer<UInt32>
    /// 1 where the best walk found to the node takes an edge a wheelchair may not (only
    /// kept by searches that note it).
    let viaBarred: UnsafeMutablePointer<UInt8>
    /// Behind a pointer, not a stored `var`: read in hot loops without exclusivity checks.
    let epochBox: UnsafeMutablePointer<UInt32>
    var epoch: UInt32 { get { epochBox.pointee } set { epochBox.pointee = newValue } }
    var heap: [HeapEntry] = []

    struct HeapEntry { var cost: Double; var node: Int32 }

    init(nodes: Int) {
        count = nodes
        epochBox = .allocate(capacity: 1); epochBox.initialize(to: 0)
        dist = .allocate(capacity: max(1, nodes))
        pred = .allocate(capacity: max(1, nodes))
        reached = .allocate(capacity: max(1, nodes)); reached.initialize(repeating: 0, count: max(1, nodes))
        settled = .allocate(capacity: max(1, nodes)); settled.initialize(repeating: 0, count: max(1, nodes))
        wanted = .allocate(capacity: max(1, nodes)); wanted.initialize(repeating: 0, count: max(1, nodes))
        viaBarred = .allocate(capacity: max(1, nodes)); viaBarred.initialize(repeating: 0, count: max(1, nodes))
    }

    deinit {
        epochBox.deallocate(); dist.deallocate(); pred.deallocate(); reached.deallocate(); settled.deallocate(); wanted.deallocate(); viaBarred.deallocate()
    }

    func begin() {
        epoch &+= 1
        if epoch == 0 {
            reached.update(repeating: 0, count: count); settled.update(repeating: 0, count: count)
            wanted.update(repeating: 0, count: count); epoch = 1
        }
        heap.removeAll(keepingCapacity: true)
    }

    @inline(__always) func isSettled(_ n: Int32) -> Bool { settled[Int(n)] == epoch }
}

/// A binary min-heap on cost (a struct, so the search's loop uses it without the dynamic
/// exclusivity checks a captured variable would cost).
struct MinHeap {
    var items: [SearchScratch.HeapEntry] = []

    mutating func push(_ cost: Double, _ node: Int32) {
        var i = items.count
        items.append(.init(cost: cost, node: node))
        while i > 0 {
            let p = (i - 1) / 2
            if items[p].cost <= cost { break }
            items[i] = items[p]; i = p
        }
        items[i] = .init(cost: cost, node: node)
    }

    mutating func pop() -> SearchScratch.HeapEntry {
        let top = items[0], last = items.removeLast()
        let n = items.count
        if n == 0 { return top }
        var i = 0
        while true {
            var c = 2 * i + 1
            if c >= n { break }
            if c + 1 < n, items[c + 1].cost < items[c].cost { c += 1 }
            if items[c].cost >= last.cost { break }
            items[i] = items[c]; i = c
        }
        items[i] = last
        return top
    }
}

/// How a walk to a target snap ends: through one of its edge's ends or straight along the
/// edge the start lies on.
enum WalkEnd { case source, target, straight }

extension WalkGraph {
    func borrow() -> SearchScratch {
        pool.withLock { $0.popLast() } ?? SearchScratch(nodes: nodeCount)
    }

    func giveBack(_ s: SearchScratch) {
        pool.withLock { if $0.count < 16 { $0.append(s) } }
    }

    /// Dijkstra from `seeds` over the model costs, settling nodes up to `limit`; stops early
    /// once every node marked wanted (`wantedCount` of them) is settled. `noteBarred`: also
    /// keeps `viaBarred` (the seeds count as not barred).
    func run(_ s: SearchScratch, seeds: [(node: Int32, cost: Double)], limit: Double, wheelchair: Bool, wantedCount: Int,
             noteBarred: Bool = false) {
        let epoch = s.epoch
        let dist = s.dist, pred = s.pred, reached = s.reached, settled = s.settled, wanted = s.wanted, via = s.viaBarred
        var heap = MinHeap()
        swap(&heap.items, &s.heap)  // keeps its capacity, no copy
        defer { heap.items.removeAll(keepingCapacity: true); swap(&heap.items, &s.heap) }
        for seed in seeds where seed.cost <= limit {
            let n = Int(seed.node)
            if reached[n] != epoch || seed.cost < dist[n] {
                reached[n] = epoch; dist[n] = seed.cost; pred[n] = -1; via[n] = 0; heap.push(seed.cost, seed.node)
            }
        }
        var remaining = wantedCount
        let barredFlags: StreetFlags = wheelchair ? .wheelchairBarred : []
        while !heap.items.isEmpty {
            let top = heap.pop()
            let n = Int(top.node)
            if settled[n] == epoch || top.cost > dist[n] { continue }
            settled[n] = epoch
            if wanted[n] == epoch { remaining -= 1; if remaining == 0 { break } }
            for k in Int(adjOffsets[n])..<Int(adjOffsets[n + 1]) {
                let e = Int(adjEdge[k]), m = Int(adjNode[k])
                if settled[m] == epoch { continue }
                if !barredFlags.isEmpty, !t.edgeFlags[e].isDisjoint(with: barredFlags) { continue }
                let c = top.cost + Double(edgeCost[e])
                if c > limit { continue }
                if reached[m] != epoch || c < dist[m] {
                    reached[m] = epoch; dist[m] = c; pred[m] = Int32(e); heap.push(c, Int32(m))
                    if noteBarred { via[m] = via[n] | (t.edgeFlags[e].isDisjoint(with: .wheelchairBarred) ? 0 : 1) }
                }
            }
        }
    }

    /// The seeds of a walk from a snap: both ends of its edge, at the offset plus the
    /// model cost of the partial edge.
    func seeds(_ a: StreetSnap, wheelchair: Bool) -> [(node: Int32, cost: Double)] {
        let e = Int(a.edge)
        if barred(e, wheelchair: wheelchair) { return [] }
        let f = factor(e)
        return [(t.edgeSource[e], a.offset + a.along * f), (t.edgeTarget[e], a.offset + max(0, length(e) - a.along) * f)]
    }

    /// The model walk meters to `b` once the search from `a` has run: the best of its
    /// edge's two ends and, on the same edge, the straight way along it.
    func finish(_ s: SearchScratch, from a: StreetSnap, to b: StreetSnap, wheelchair: Bool) -> (meters: Double, end: WalkEnd)? {
        let e = Int(b.edge)
        if barred(e, wheelchair: wheelchair) || barred(Int(a.edge), wheelchair: wheelchair) { return nil }
        let f = factor(e)
        var best: (meters: Double, end: WalkEnd)?
        let u = t.edgeSource[e], v = t.edgeTarget[e]
        if s.isSettled(u) { best = (s.dist[Int(u)] + b.along * f + b.offset, .source) }
        if s.isSettled(v) {
            let c = s.dist[Int(v)] + max(0, length(e) - b.along) * f + b.offset
            if best == nil || c < best!.meters { best = (c, .target) }
        }
        if a.edge == b.edge {
            let c = a.offset + abs(a.along - b.along) * f + b.offset
            if best == nil || c <= best!.meters { best = (c, .straight) }
        }
        return best
    }

    /// Starts a search on `s` that may stop once both ends of every target's edge are
    /// settled: the number of those nodes.
    func begin(_ s: SearchScratch, wanting targets: [StreetSnap]) -> Int {
        s.begin()
        var wantedCount = 0
        for b in targets {
            let u = Int(t.edgeSource[Int(b.edge)]), v = Int(t.edgeTarget[Int(b.edge)])
            if s.wanted[u] != s.epoch { s.wanted[u] = s.epoch; wantedCount += 1 }
            if s.wanted[v] != s.epoch { s.wanted[v] = s.epoch; wantedCount += 1 }
        }
        return wantedCount
    }

    /// The model's walk meters from `a` to each target (steps doubled, snap offsets
    /// included), by one Dijkstra bounded by `limit`; nil where beyond it or unreachable.
    public func walkMeters(from a: StreetSnap, to targets: [StreetSnap], limit: Double, wheelchair: Bool = false) -> [Double?] {
        guard !targets.isEmpty else { return [] }
        let s = borrow()
        defer { giveBack(s) }
        let wantedCount = begin(s, wanting: targets)
        run(s, seeds: seeds(a, wheelchair: wheelchair), limit: limit, wheelchair: wheelchair, wantedCount: wantedCount)
        return targets.map { b in
            guard let r = finish(s, from: a, to: b, wheelchair: wheelchair), r.meters <= limit else { return nil }
            return r.meters
        }
    }

    /// Walking meters as `walkMeters(from:to:limit:)` (not a wheelchair walk) to each target,
    /// each with whether the walk found takes an edge a wheelchair may not (steps,
    /// `wheelchair=no`; the edges `a` and the target lie on included). Where it does not,
    /// and both ends snap alike for a wheelchair, the step-free walk is the same length (it
    /// cannot be shorter, and this one is step-free): the timetable's footpaths need a
    /// wheelchair search only for the others.
    public func walkMetersNotingBarred(from a: StreetSnap, to targets: [StreetSnap], limit: Double) -> [(meters: Double, barred: Bool)?] {
        guard !targets.isEmpty else { return [] }
        let s = borrow()
        defer { giveBack(s) }
        let wantedCount = begin(s, wanting: targets)
        run(s, seeds: seeds(a, wheelchair: false), limit: limit, wheelchair: false, wantedCount: wantedCount, noteBarred: true)
        let startBarred = barred(Int(a.edge), wheelchair: true)
        return targets.map { b in
            guard let r = finish(s, from: a, to: b, wheelchair: false), r.meters <= limit else { return nil }
            let e = Int(b.edge)
            var via = startBarred || barred(e, wheelchair: true)
            switch r.end {
            case .source: via = via || s.viaBarred[Int(t.edgeSource[e])] != 0
            case .target: via = via || s.viaBarred[Int(t.edgeTarget[e])] != 0
            case .straight: break
            }
            return (r.meters, via)
        }
    }

    /// Model walk meters from one node to every node within `limit` (no snaps, no
    /// wheelchair): for comparing with another router node to node.
    public func nodeWalkMeters(from node: Int32, limit: Double) -> [Int32: Double] {
        guard node >= 0, Int(node) < nodeCount else { return [:] }
        let s = borrow()
        defer { giveBack(s) }
        s.begin()
        run(s, seeds: [(node, 0)], limit: limit, wheelchair: false, wantedCount: -1)
        var out: [Int32: Double] = [:]
        for n in 0..<Int32(nodeCount) where s.isSettled(n) { out[n] = s.dist[Int(n)] }
        return out
    }
}
