import Geo
import Testing
import TransitTesting

/// A13 — stop times without times are interpolated.
///
///     A ──R1── B ──R1── C ──R1── D ──R1── E        2 km apart
///
/// Rule: t = t_prev + round((t_next − t_prev) × d / D), d and D summed over consecutive
/// stops from shape_dist_traveled where the whole span has it, else the beeline;
/// round to the nearest second, halves up; D = 0 → t_prev. A stop time with only one
/// of arrival and departure uses it for both. A trip whose first or last stop time has
/// no time is left out.
@Suite("A13 untimed stop times")
struct A13_InterpolationTests {
    @Test func boardAtAnUntimedStopHalvesRoundedUp() throws {
        //     T1   A 0:00 (dist 0)   B – (dist 1000)   C 0:01:01 (dist 2000)
        // B: 61 s × 1000 / 2000 = 30.5 → 31 s → 0:00:31.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00 dist=0, B - dist=1000, C 0:01:01 dist=2000")
        let n = try b.build()
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:00:31-0:01:01 ~ C"])
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:00:31 ~ B"])
        // Asked at 0:00:31 exactly it is still boarded; at 0:00:32 it has left.
        #expect(try n.route("B", "C", at: "0:00:31") == ["B ~ R1 0:00:31-0:01:01 ~ C"])
        #expect(try n.route("B", "C", at: "0:00:32") == [])
    }

    @Test func beelineDistancesWhenNoShapeDistance() throws {
        //     T1   A 0:00   B –   C –   D –   E 0:10        (no shape_dist_traveled)
        // Beelines 2000 m each, D = 8000: B = 600 × 1/4 = 150 s, C = 300 s, D = 450 s.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D", "E")
        b.trip("T1", route: "R1", "A 0:00, B -, C -, D -, E 0:10")
        let n = try b.build()
        #expect(try n.route("B", "E", at: "0:00") == ["B ~ R1 0:02:30-0:10 ~ E"])
        #expect(try n.route("C", "D", at: "0:00") == ["C ~ R1 0:05-0:07:30 ~ D"])
    }

    @Test func distancesAreAlongTheTripNotStraight() throws {
        //     A (0 m) → B (2 km north) → X (2 km east of B) → C (4 km north of A)
        //     T1  A 0:00   B 0:10   X –   C 0:20
        // Span B … C: d = B→X (2000 m), D = B→X + X→C (X→C ≈ 2828 m, the diagonal), so
        // X ≈ 0:10 + 600 × 2000 / 4828.4 = 0:10 + 248.5 s → 0:14:09 — not the 0:15:00 a straight B → C
        // would give. The exact second is computed from the same geodesic distances.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.stop("X", near: "B", east: 2000)
        b.trip("T1", route: "R1", "A 0:00, B 0:10, X -, C 0:20")
        let d = Geodesic.distance(b.coordinate("B"), b.coordinate("X"))
        let total = d + Geodesic.distance(b.coordinate("X"), b.coordinate("C"))
        let x = Int64(600) + Int64((600 * d / total + 0.5).rounded(.down))
        #expect(x == 849)  // 600 + round(248.53) = 849 s = 0:14:09
        let n = try b.build()
        #expect(try n.route("X", "C", at: "0:00") == ["X ~ R1 0:14:09-0:20 ~ C"])
    }

    @Test func shapeDistanceOnlyWhereTheWholeSpanHasIt() throws {
        //     T1   A 0:00 dist=0   B – dist=500   C 0:10 (no dist)
        // C has no shape_dist_traveled, so the span A … C uses beelines: 2000 / 4000 → 300 s.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00 dist=0, B - dist=500, C 0:10")
        let n = try b.build()
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:05-0:10 ~ C"])
    }

    @Test func severalUntimedStopsInARow() throws {
        //     T1   A 0:00 (0)   B – (1)   C – (2)   D 0:01 (3)      (shape distances in km)
        // B = 60 × 1/3 = 20 s, C = 40 s.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("T1", route: "R1", "A 0:00 dist=0, B - dist=1, C - dist=2, D 0:01 dist=3")
        let n = try b.build()
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:00:20-0:00:40 ~ C"])
    }

    @Test func zeroDistanceTakesThePreviousTime() throws {
        //     T1   A 0:00 dist=0   B – dist=0   C 0:10 dist=0   → D = 0: B = 0:00.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00 dist=0, B - dist=0, C 0:10 dist=0")
        let n = try b.build()
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:00-0:10 ~ C"])
    }

    @Test func onlyOneOfArrivalAndDepartureServesForBoth() throws {
        //     T1   A 0:00   B 0:04/–   C 0:10     → B departs 0:04 (its arrival).
        //     T2   A 0:00   B –/0:06   C 0:10     → B arrives 0:06 (its departure).
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00, B 0:04/-, C 0:10")
        let n1 = try b.build()
        #expect(try n1.route("B", "C", at: "0:00") == ["B ~ R1 0:04-0:10 ~ C"])
        var c = NetworkBuilder()
        c.line("A", "B", "C")
        c.trip("T2", route: "R1", "A 0:00, B -/0:06, C 0:10")
        let n2 = try c.build()
        #expect(try n2.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:06 ~ B"])
    }

    @Test func aTripWithAnUntimedEndIsLeftOut() throws {
        //     T1   A 0:00   B 0:05   C –       (last stop time untimed: left out, warned)
        //     T2   A 0:30   B 0:35   C 0:40
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00, B 0:05, C -")
        b.trip("T2", route: "R1", "A 0:30, B 0:35, C 0:40")
        let n = try b.build()
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:30-0:35 ~ B"])
        #expect(n.network.warnings.contains { $0.contains("left out") })
    }
}
