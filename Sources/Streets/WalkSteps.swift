import Geo

extension WalkGraph {
    /// A stretch of one edge walked, in walking order.
    struct Piece {
        var edge: Int
        /// Meters along the edge from its source where the piece starts and ends.
        var from: Double
        var to: Double
        /// Walked from the edge's source toward its target.
        var forward: Bool
        /// The node the piece ends at, nil where it ends at a snapped point.
        var endNode: Int32?
        /// Index into the geometry of the piece's first point.
        var pointIndex = 0
        var meters: Double { abs(to - from) }
    }

    /// The walk from `a` to `b` as the model finds it (the same search as `walkMeters`):
    /// its geometry from `a.place` to `b.place`, its steps, its real meters and its model
    /// walk meters (equal to `walkMeters(from: a, to: [b], ...)`). Nil beyond `limit`.
    public func route(from a: StreetSnap, to b: StreetSnap, limit: Double, wheelchair: Bool = false) -> WalkRoute? {
        let s = borrow()
        defer { giveBack(s) }
        s.begin()
        var wantedCount = 0
        for n in [t.edgeSource[Int(b.edge)], t.edgeTarget[Int(b.edge)]] where s.wanted[Int(n)] != s.epoch {
            s.wanted[Int(n)] = s.epoch; wantedCount += 1
        }
        run(s, seeds: seeds(a, wheelchair: wheelchair), limit: limit, wheelchair: wheelchair, wantedCount: wantedCount)
        guard let found = finish(s, from: a, to: b, wheelchair: wheelchair), found.meters <= limit else { return nil }

        var pieces: [Piece] = []
        let eb = Int(b.edge), ea = Int(a.edge)
        if found.end == .straight {
            pieces = [Piece(edge: ea, from: a.along, to: b.along, forward: b.along >= a.along, endNode: nil)]
        } else {
            // Back from the end node of b's edge to a seed, then forward.
            var node = found.end == .source ? t.edgeSource[eb] : t.edgeTarget[eb]
            var whole: [Piece] = []
            while s.pred[Int(node)] >= 0 {
                let e = Int(s.pred[Int(node)])
                let forward = t.edgeTarget[e] == node
                whole.append(Piece(edge: e, from: forward ? 0 : length(e), to: forward ? length(e) : 0, forward: forward, endNode: node))
                node = forward ? t.edgeSource[e] : t.edgeTarget[e]
            }
            let startsAtSource = node == t.edgeSource[ea] && (node != t.edgeTarget[ea]
                || s.dist[Int(node)] == a.offset + a.along * factor(ea))
            pieces.append(Piece(edge: ea, from: a.along, to: startsAtSource ? 0 : length(ea), forward: !startsAtSource, endNode: node))
            pieces += whole.reversed()
            pieces.append(Piece(edge: eb, from: found.end == .source ? 0 : length(eb), to: b.along, forward: found.end == .source,
                                endNode: nil))
        }

        var geometry: [Coordinate] = []
        func add(_ c: Coordinate) { if geometry.last != c { geometry.append(c) } }
        add(a.place); add(a.point)
        for i in pieces.indices {
            pieces[i].pointIndex = geometry.count - 1
            let p = pieces[i], e = p.edge
            let atFrom = i == 0 ? a.point : nil, atTo = i == pieces.count - 1 ? b.point : nil
            appendPoints(e, from: p.from, to: p.to, forward: p.forward, start: atFrom, end: atTo, into: add)
        }
        add(b.point); add(b.place)
        let meters = a.offset + pieces.reduce(0) { $0 + $1.meters } + b.offset
        return WalkRoute(model: .streets, meters: meters, walkMeters: found.meters, geometry: geometry,
                         steps: steps(pieces, geometry, a: a, b: b))
    }

    /// Adds the points of edge `e` between `from` and `to` meters along it, in walking
    /// order: the given start and end points where the piece is partial, else the edge's own.
    func appendPoints(_ e: Int, from: Double, to: Double, forward: Bool, start: Coordinate?, end: Coordinate?, into add: (Coordinate) -> Void) {
        let count = pointCount(e)
        let whole = start == nil && end == nil
        if whole {
            if forward { for i in 0..<count { add(coordinate(e, i)) } } else { for i in (0..<count).reversed() { add(coordinate(e, i)) } }
            return
        }
        let cum = cumulative(e)
        let scale = cum.last! > 0 ? length(e) / cum.last! : 1  // agree with the stored length
        add(start ?? coordinate(e, forward ? 0 : count - 1))
        if forward {
            for i in 0..<count where cum[i] * scale > from && cum[i] * scale < to { add(coordinate(e, i)) }
        } else {
            for i in (0..<count).reversed() where cum[i] * scale < from && cum[i] * scale > to { add(coordinate(e, i)) }
        }
        add(end ?? coordinate(e, forward ? count - 1 : 0))
    }

    /// A run of pieces read as one step.
    struct Run { var name: Int32; var kind: StreetKind; var first: Int; var last: Int; var meters: Double; var pointIndex: Int }

    /// Turn-by-turn steps: consecutive pieces of one name and kind make one step; short
    /// unnamed connectors fold into their neighbour; the turn between steps names the action.
    func steps(_ pieces: [Piece], _ geometry: [Coordinate], a: StreetSnap, b: StreetSnap) -> [WalkStep] {
        // One street under one name reads as one step whether the piece is mapped as a road,
        // a sidewalk or a pedestrian stretch (Milan's Viale Molise: road, footway, road).
        func plain(_ k: StreetKind) -> Bool { k == .road || k == .service || k == .footway || k == .pedestrian }
        func alike(_ a: Run, _ name: Int32, _ kind: StreetKind) -> Bool {
            a.name == name && (a.kind == kind || name >= 0 && plain(a.kind) && plain(kind))
        }
        var runs: [Run] = []
        for (i, p) in pieces.enumerated() {
            let name = t.edgeName[p.edge], kind = t.edgeKind[p.edge]
            if let last = runs.last, alike(last, name, kind) {
                runs[runs.count - 1].last = i; runs[runs.count - 1].meters += p.meters
            } else {
                runs.append(Run(name: name, kind: kind, first: i, last: i, meters: p.meters, pointIndex: p.pointIndex))
            }
        }
        // Fold short unnamed connectors (a snap piece, a stub to a crossing) and the nothing
        // walked of an edge snapped at its end into a neighbour.
        while runs.count > 1 {
            // Also a run under 10 m between two others ("a few steps" is no instruction to
            // follow), but steps and a crossing of 5 m or more: those a person must know of.
            // The first and last runs stay: they say which way to set off and where one arrives.
            let count = runs.count
            guard let i = runs.indices.first(where: { j in
                let r = runs[j]
                return r.meters < 1 || (r.name < 0 && r.meters < 15 && ![.steps, .crossing, .area].contains(r.kind))
                    || (j > 0 && j < count - 1 && r.meters < 10 && r.kind != .steps && !(r.kind == .crossing && r.meters >= 5))
            }) else { break }
            let r = runs.remove(at: i)
            if i > 0 {
                runs[i - 1].last = r.last; runs[i - 1].meters += r.meters
            } else {
                runs[0].first = r.first; runs[0].meters += r.meters; runs[0].pointIndex = r.pointIndex
            }
            // Neighbours that now touch and read alike become one step.
            var merged: [Run] = []
            for run in runs {
                if let last = merged.last, alike(last, run.name, run.kind) {
                    merged[merged.count - 1].last = run.last; merged[merged.count - 1].meters += run.meters
                } else { merged.append(run) }
            }
            runs = merged
        }
        guard !runs.isEmpty else { return [] }
        runs[0].meters += a.offset
        runs[runs.count - 1].meters += b.offset

        var out: [WalkStep] = []
        for (i, run) in runs.enumerated() {
            var street: String? = run.name >= 0 ? t.names[Int(run.name)] : nil
            let action: WalkStep.Action
            var heading: String?
            if i == 0 {
                action = .depart
                let from = pieces[run.first].pointIndex
                let end = runs.count > 1 ? runs[1].pointIndex : geometry.count
                let az = bearing(geometry, from: from, limit: end, forward: true)
                    ?? bearing(geometry, from: from, limit: geometry.count, forward: true)
                heading = az.map(Self.compass) ?? "north"
            } else {
                switch run.kind {
                case .steps: action = .steps
                case .crossing:
                    action = .cross
                    if street == nil { street = roadMet(pieces[run.first...run.last]) }
                case .area: action = .crossArea
                default:
                    let p = run.pointIndex
                    let end = i + 1 < runs.count ? runs[i + 1].pointIndex : geometry.count - 1
                    if let inAz = bearing(geometry, from: p, limit: runs[i - 1].pointIndex, forward: false),
                       let outAz = bearing(geometry, from: p, limit: end, forward: true) {
                        action = Self.turn(outAz - inAz)
                    } else {
                        action = .continueOn
                    }
                }
            }
            out.append(WalkStep(action: action, street: street, kind: run.kind, meters: run.meters, heading: heading,
                                pointIndex: i == 0 ? 0 : run.pointIndex))
        }
        return out
    }

    /// The name of a road met at the end of a crossing's pieces (the crossing of that road).
    func roadMet(_ pieces: ArraySlice<Piece>) -> String? {
        for p in pieces {
            guard let n = p.endNode else { continue }
            var best = Int32.max
            for k in Int(adjOffsets[Int(n)])..<Int(adjOffsets[Int(n) + 1]) {
                let e = adjEdge[k]
                if t.edgeKind[Int(e)] == .road, t.edgeName[Int(e)] >= 0 { best = min(best, e) }
            }
            if best != .max { return t.names[Int(t.edgeName[Int(best)])] }
        }
        return nil
    }

    /// The direction walked at geometry point `from`: toward a point at least 10 m ahead
    /// (`forward`) or from one 10 m behind, not passing `limit`. Degrees clockwise from north.
    func bearing(_ g: [Coordinate], from: Int, limit: Int, forward: Bool) -> Double? {
        // Not the straight bits from the places to their snapped points.
        let limit = forward ? min(limit, g.count - 2) : max(limit, 1)
        var j = from, walked = 0.0
        while walked < 10 {
            let next = forward ? j + 1 : j - 1
            guard forward ? next <= limit : next >= limit else { break }
            walked += Geodesic.distance(g[j], g[next]); j = next
        }
        guard j != from, g[j] != g[from] else { return nil }
        return forward ? Geodesic.inverse(g[from], g[j]).azimuth1 : Geodesic.inverse(g[j], g[from]).azimuth2
    }

    /// The action for a change of bearing (degrees; positive clockwise, to the right).
    static func turn(_ degrees: Double) -> WalkStep.Action {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        let m = abs(d), right = d > 0
        if m < 20 { return .continueOn }
        if m < 45 { return right ? .slightRight : .slightLeft }
        if m < 135 { return right ? .right : .left }
        if m < 170 { return right ? .sharpRight : .sharpLeft }
        return .uTurn
    }

    static func compass(_ azimuth: Double) -> String {
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        let a = (azimuth.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((a + 22.5) / 45) % 8]
    }
}
