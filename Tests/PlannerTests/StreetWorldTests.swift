import FeedNetwork
import Geo
import Planner
import Streets
import Testing
import Timetable
import TransitModel
import TransitTesting

// A tiny town cut by a river, for the street walks' tests (StreetPlannerTests,
// StreetFootpathTests). Meters east (x) and north (y) of `NetworkBuilder.testOrigin`:
//
//   north bank: a street grid, x 0…1000, y 700…1100, every 100 m
//   river:      y 400…700, crossed by two bridges
//                 x = 400: steps (walkMeters count them twice; no wheelchair)
//                 x = 900: a footway ramp
//   south bank: a street grid, x 0…1000, y 0…400, every 100 m
//
// Stops (all boardable): A (550, 390) and B (550, 710) face each other across the river
// (320 m beeline; 920 walkMeters over the steps, 1020 over the ramp); C (50, 390) and
// D (50, 710) too, but farther from both bridges (1320 over the steps: beyond the
// timetable's 1300 m search); F (550, -150) is 150 m from any street (it does not
// snap); X (550, -2000) and Y (550, 3000) are far from everything.
// Trips: R1 X 8:00 → A 8:10; R2 B 8:30 → Y 8:40; R3 F 9:00 → Y 9:30.
enum StreetWorld {
    static func at(_ x: Double, _ y: Double) -> Coordinate { NetworkBuilder.offset(NetworkBuilder.testOrigin, north: y, east: x) }

    /// Latitudes of the river's banks: a walk across it has a point strictly between.
    static let southBank = at(0, 400).latitude, northBank = at(0, 700).latitude

    static func network() -> NetworkBuilder {
        var b = NetworkBuilder()
        b.stop("A", at: at(550, 390)); b.stop("B", at: at(550, 710))
        b.stop("C", at: at(50, 390)); b.stop("D", at: at(50, 710))
        b.stop("F", at: at(550, -150))
        b.stop("X", at: at(550, -2000)); b.stop("Y", at: at(550, 3000))
        b.trip("t1", route: "R1", "X 8:00, A 8:10")
        b.trip("t2", route: "R2", "B 8:30, Y 8:40")
        b.trip("t3", route: "R3", "F 9:00, Y 9:30")
        return b
    }

    static func streets() -> StreetTables {
        var t = StreetTables()
        var nodes: [String: Int32] = [:]
        func node(_ x: Int, _ y: Int) -> Int32 {
            let key = "\(x),\(y)"
            if let n = nodes[key] { return n }
            let c = at(Double(x), Double(y))
            let n = Int32(t.nodeId.count)
            t.nodeId.append(Int64(1_000_000 + x * 10_000 + y)); t.nodeLatitude.append(c.latitude); t.nodeLongitude.append(c.longitude)
            nodes[key] = n
            return n
        }
        func edge(_ a: (Int, Int), _ b: (Int, Int), kind: StreetKind = .road, flags: StreetFlags = []) {
            let s = node(a.0, a.1), e = node(b.0, b.1)
            t.edgeSource.append(s); t.edgeTarget.append(e)
            t.edgeLength.append(Float(Geodesic.distance(at(Double(a.0), Double(a.1)), at(Double(b.0), Double(b.1)))))
            t.edgeWay.append(Int64(t.edgeWay.count + 1)); t.edgeName.append(-1)
            t.edgeKind.append(kind); t.edgeFlags.append(flags)
            t.innerOffsets.append(t.innerOffsets.last!)
        }
        for rows in [Array(stride(from: 0, through: 400, by: 100)), Array(stride(from: 700, through: 1100, by: 100))] {
            for y in rows { for x in stride(from: 0, to: 1000, by: 100) { edge((x, y), (x + 100, y)) } }
            for x in stride(from: 0, through: 1000, by: 100) { for y in rows.dropLast() { edge((x, y), (x, y + 100)) } }
        }
        edge((400, 400), (400, 700), kind: .steps, flags: .steps)
        edge((900, 400), (900, 700), kind: .footway)
        t.versions = ["river-town": 1]
        return t
    }

    static func build(streets: Bool = true) throws -> TransitNetwork {
        try TimetableBuilder.build(network().snapshot, streets: streets ? Self.streets() : nil)
    }

    static func stop(_ network: TransitNetwork, _ id: String) -> StopIndex {
        StopIndex(network.snapshot.stops.firstIndex { $0.stopId == id }!)
    }
}

@Suite struct StreetWorldTests {
    @Test func stopsSnapAsDrawn() throws {
        let n = try StreetWorld.build()
        let graph = try #require(n.streets)
        #expect(graph.versions == ["river-town": 1])
        for id in ["A", "B", "C", "D"] {
            let snap = try #require(n.snap(ofStop: StreetWorld.stop(n, id)), "\(id) snaps")
            #expect(abs(snap.offset - 10) < 0.5, "\(id) is 10 m from its street")
        }
        for id in ["F", "X", "Y"] { #expect(n.snap(ofStop: StreetWorld.stop(n, id)) == nil, "\(id) is too far from any street") }
        // A to B: over the steps (counted twice) unless in a wheelchair (the ramp).
        let a = n.snap(ofStop: StreetWorld.stop(n, "A"))!, b = n.snap(ofStop: StreetWorld.stop(n, "B"))!
        let walk = try #require(graph.walkMeters(from: a, to: [b], limit: 2000).first ?? nil)
        #expect(abs(walk - 920) < 5)
        let wheelchair = try #require(graph.walkMeters(from: a, to: [b], limit: 2000, wheelchair: true).first ?? nil)
        #expect(abs(wheelchair - 1020) < 5)
    }
}
