import Geo
import Testing
@testable import Streets

@Suite struct WalkGraphTests {
    static func at(_ x: Double, _ y: Double) -> Coordinate { StreetBuilder.at(x, y) }

    @Test("a place snaps onto the segment (the foot of the perpendicular), not to the nearest node")
    func snapProjects() throws {
        var b = StreetBuilder()
        let ids = b.grid(size: 6, spacing: 100)
        // A bent edge off the grid: (0,500) -> (-100,500) via (-50,560).
        let bent = b.node(-100, 500)
        let bentEdge = b.edge(ids[5][0], bent, inner: [(-50, 560)], name: "Bent")
        let g = WalkGraph(b.tables)
        #expect(g.nodeCount == 37 && g.edgeCount == 61)

        // 30 m south of the middle of Row 0 between its first two nodes: the nearest node is 58 m away.
        let s = try #require(g.snap(Self.at(50, -30)))
        #expect(s.edge == 0)  // Row 0, (0,0)-(100,0)
        #expect(abs(s.offset - 30) < 0.05)
        #expect(abs(s.along - 50) < 0.05)
        #expect(Geodesic.distance(s.point, Self.at(50, 0)) < 0.05)

        // Onto the second segment of the bent edge, measured along its geometry.
        let bendPlace = Self.at(-75, 560)
        let t = try #require(g.snap(bendPlace))
        #expect(t.edge == bentEdge)
        let first = Geodesic.distance(Self.at(0, 500), Self.at(-50, 560))
        #expect(t.along > first && t.along < Double(b.tables.edgeLength[Int(bentEdge)]))
        #expect(abs(t.along - first - Geodesic.distance(Self.at(-50, 560), t.point)) < 0.01)
        #expect(abs(t.offset - Geodesic.distance(bendPlace, t.point)) < 1e-9)
        #expect(t.offset < 25)

        // Too far from everything; a tie between two edges at a node goes to the lower id.
        #expect(g.snap(Self.at(250, -150)) == nil)
        let corner = try #require(g.snap(Self.at(-30, -30)))
        #expect(corner.edge == 0 && corner.along < 0.01)
    }

    @Test("islands are never snapped to, yet stay in the graph")
    func islands() throws {
        var b = StreetBuilder()
        b.grid(size: 6, spacing: 100)  // 60 edges
        let i0 = b.node(590, 0), i1 = b.node(690, 0), i2 = b.node(690, 100)
        let island = b.edge(i0, i1, name: "Island")
        b.edge(i1, i2, name: "Island")
        let g = WalkGraph(b.tables)
        #expect(!g.isSnappable(edge: island) && g.isSnappable(edge: 0))
        // 10 m from the island, 80 m from the grid: the grid wins.
        let s = try #require(g.snap(Self.at(580, 10)))
        #expect(g.isSnappable(edge: s.edge) && abs(s.offset - Geodesic.distance(Self.at(580, 10), Self.at(500, 10))) < 0.05)
        // Only the island within reach: no snap.
        #expect(g.snap(Self.at(750, 20)) == nil)
        // The island is still walkable node to node.
        let d = g.nodeWalkMeters(from: i0, limit: 1000)
        #expect(abs((d[i2] ?? 0) - 200) < 0.1)
    }

    @Test("walks stop at the limit; the same edge may be walked straight")
    func limitAndSameEdge() throws {
        var b = StreetBuilder()
        b.grid(size: 8, spacing: 100)
        let g = WalkGraph(b.tables)
        let a = try #require(g.snap(Self.at(20, -10)))
        let far = try #require(g.snap(Self.at(700, 690)))
        let same = try #require(g.snap(Self.at(80, 5)))
        #expect(same.edge == a.edge)
        let full = try #require(g.walkMeters(from: a, to: [far], limit: 5000)[0])
        // (20,0) -> (700,0) -> (700,690), plus 10 m at the start.
        #expect(abs(full - (10 + 680 + 690)) < 0.5)
        #expect(g.walkMeters(from: a, to: [far], limit: full - 1) == [nil])
        #expect(g.walkMeters(from: a, to: [far], limit: full + 0.001)[0] == full)
        #expect(g.route(from: a, to: far, limit: full - 1) == nil)

        let straight = try #require(g.walkMeters(from: a, to: [same], limit: 200)[0])
        #expect(abs(straight - (a.offset + abs(same.along - a.along) + same.offset)) < 1e-9)
        let r = try #require(g.route(from: a, to: same, limit: 200))
        #expect(r.walkMeters == straight)
        #expect(r.geometry == [a.place, a.point, same.point, same.place])
        #expect(r.steps.count == 1 && r.steps[0].action == .depart && r.steps[0].heading == "east")
    }

    /// Two ways from (0,0) to (200,0): a direct one with 40 m of steps (or a way marked
    /// `wheelchair=no`) in the middle, and a detour 100 m north.
    static func detour(_ middle: StreetKind, flags: StreetFlags = []) -> (StreetBuilder, WalkGraph) {
        var b = StreetBuilder()
        let grid = b.grid(size: 6, spacing: 100, x0: 1000)  // something big enough to snap to
        let n0 = b.node(0, 0), n1 = b.node(80, 0), n2 = b.node(120, 0), n3 = b.node(200, 0)
        let n4 = b.node(0, 100), n5 = b.node(200, 100)
        b.edge(n0, n1, name: "West")
        b.edge(n1, n2, kind: middle, flags: flags)
        b.edge(n2, n3, name: "East")
        b.edge(n0, n4, name: "Up"); b.edge(n4, n5, name: "Top"); b.edge(n5, n3, name: "Down")
        // Joined to the grid so the whole piece may be snapped to.
        b.edge(n3, grid[0][0], name: "Link")
        return (b, WalkGraph(b.tables))
    }

    @Test("steps cost double; a wheelchair walk avoids steps and ways marked wheelchair=no")
    func stepsAndWheelchair() throws {
        let (_, g) = Self.detour(.steps)
        let a = try #require(g.snap(Self.at(5, -10)))
        let z = try #require(g.snap(Self.at(195, -10)))
        let walk = try #require(g.walkMeters(from: a, to: [z], limit: 2000)[0])
        let offsets = a.offset + z.offset
        #expect(abs(offsets - 20) < 0.01)
        #expect(abs(walk - offsets - (75 + 2 * 40 + 75)) < 0.5)
        let r = try #require(g.route(from: a, to: z, limit: 2000))
        #expect(abs(r.meters - offsets - 190) < 0.5)
        #expect(r.steps.map(\.action) == [.depart, .steps, .continueOn])
        #expect(r.steps.map(\.street) == ["West", nil, "East"])

        let chair = try #require(g.walkMeters(from: a, to: [z], limit: 2000, wheelchair: true)[0])
        #expect(abs(chair - offsets - 410) < 0.5)
        let rc = try #require(g.route(from: a, to: z, limit: 2000, wheelchair: true))
        // Back west first, round the detour, then back west along East.
        #expect(rc.steps.map(\.street) == ["West", "Up", "Top", "Down", "East"])
        #expect(rc.steps.map(\.action) == [.depart, .right, .right, .right, .right])
        #expect(rc.steps[0].heading == "west")
        #expect(g.walkMeters(from: a, to: [z], limit: 400, wheelchair: true) == [nil])

        let (_, h) = Self.detour(.footway, flags: .noWheelchair)
        let ha = try #require(h.snap(Self.at(5, -10))), hz = try #require(h.snap(Self.at(195, -10)))
        #expect(abs(try #require(h.walkMeters(from: ha, to: [hz], limit: 2000)[0]) - offsets - 190) < 0.5)
        #expect(abs(try #require(h.walkMeters(from: ha, to: [hz], limit: 2000, wheelchair: true)[0]) - offsets - 410) < 0.5)
        // A wheelchair snap never lands on a barred edge.
        let onSteps = try #require(g.snap(Self.at(100, -5)))
        #expect(g.t.edgeKind[Int(onSteps.edge)] == .steps)
        let chairSnap = try #require(g.snap(Self.at(100, -5), wheelchair: true))
        #expect(g.t.edgeKind[Int(chairSnap.edge)] != .steps && chairSnap.offset > 19)
    }

    /// The hand-made walk: east on Via Alfa, left on Via Beta, slight right on Via Gamma,
    /// a 10 m unnamed path, steps, a crossing of Corso Xi (the crossing has no name of its
    /// own), right on Via Delta.
    @Test("steps read right on a hand-made walk: turns, names, steps, a crossing named after the road")
    func stepsRead() throws {
        var b = StreetBuilder()
        let n0 = b.node(0, 0), n1 = b.node(100, 0), n2 = b.node(100, 100), n3 = b.node(140, 180)
        let n3b = b.node(140, 190), n4 = b.node(140, 230), n5 = b.node(140, 245), n8 = b.node(140, 260)
        let n9 = b.node(240, 260), n6 = b.node(60, 245), n7 = b.node(220, 245)
        b.edge(n0, n1, name: "Via Alfa", kind: .road)
        b.edge(n1, n2, name: "Via Beta", kind: .road)
        b.edge(n2, n3, name: "Via Gamma", kind: .pedestrian)
        b.edge(n3, n3b)
        b.edge(n3b, n4, kind: .steps)
        b.edge(n4, n5, kind: .crossing)
        b.edge(n5, n8, kind: .crossing)
        b.edge(n8, n9, inner: [(190, 262)], name: "Via Delta", kind: .footway)
        b.edge(n6, n5, name: "Corso Xi", kind: .road)
        b.edge(n5, n7, name: "Corso Xi", kind: .road)
        var last = n0
        for k in 1...40 { let n = b.node(0, -10 * Double(k)); b.edge(last, n, name: "Filler", kind: .road); last = n }
        let g = WalkGraph(b.tables)

        let a = try #require(g.snap(Self.at(50, -5)))
        let z = try #require(g.snap(Self.at(200, 265)))
        let r = try #require(g.route(from: a, to: z, limit: 2000))
        #expect(r.steps.map(\.action) == [.depart, .left, .slightRight, .steps, .cross, .right])
        #expect(r.steps.map(\.street) == ["Via Alfa", "Via Beta", "Via Gamma", nil, "Corso Xi", "Via Delta"])
        #expect(r.steps.map(\.kind) == [.road, .road, .pedestrian, .steps, .crossing, .footway])
        #expect(r.steps[0].heading == "east" && r.steps[0].pointIndex == 0)
        #expect(abs(r.steps[2].meters - (Geodesic.distance(Self.at(100, 100), Self.at(140, 180)) + 10)) < 0.1)
        #expect(abs(r.steps[4].meters - 30) < 0.1)
        // Each step starts at the junction where it turns.
        for (step, node) in zip(r.steps.dropFirst(), [n1, n2, n3b, n4, n8]) {
            #expect(r.geometry[step.pointIndex] == b.coordinate(node))
        }
        #expect(abs(r.steps.reduce(0) { $0 + $1.meters } - r.meters) < 1e-6)
        #expect(r.walkMeters > r.meters + 39)  // the steps counted twice
        #expect(r.geometry.first == a.place && r.geometry.last == z.place)

        // Walked the other way: the turns mirror.
        let back = try #require(g.route(from: z, to: a, limit: 2000))
        #expect(back.steps.map(\.action) == [.depart, .cross, .steps, .slightRight, .slightLeft, .right])
        #expect(back.steps[0].heading == "west")
        #expect(back.walkMeters == g.walkMeters(from: z, to: [a], limit: 2000)[0])
    }

    @Test("node(osmId:) finds nodes by OpenStreetMap id")
    func nodeById() {
        var b = StreetBuilder()
        b.node(0, 0, id: 77); b.node(10, 0, id: 5); b.node(20, 0, id: 123_456_789_012)
        let g = WalkGraph(b.tables)
        #expect(g.node(osmId: 5) == 1 && g.node(osmId: 77) == 0 && g.node(osmId: 123_456_789_012) == 2)
        #expect(g.node(osmId: 6) == nil)
        #expect(g.memoryBytes > 0)
    }
}
