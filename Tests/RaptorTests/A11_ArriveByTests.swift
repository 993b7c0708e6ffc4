import Testing
import TransitTesting

/// A11 — arrive-by: the latest departure that reaches the destination at or before T
/// (the mirror of A01 and A02); among equal departures and rides, the earliest arrival.
///
///     A ──R1── B ──R1── C ──R1── D          2 km apart
///
///     R1      A     B     C     D           (A01's network)
///     T1    0:01  0:05  0:10  0:15
///     T2    0:11  0:15  0:20  0:25
///     T3    0:21  0:25  0:30  0:35
@Suite("A11 arrive-by")
struct A11_ArriveByTests {
    static func network() throws -> TestNetwork { try A01_SingleRouteTests.network() }

    @Test func theLatestDepartureThatArrivesInTime() throws {
        // By 0:30: T2 (arrives 0:25) departs latest; T3 arrives 0:35, too late.
        #expect(try Self.network().route("A", "D", at: "0:30", arriveBy: true) == ["A ~ R1 0:11-0:25 ~ D"])
    }

    @Test func arrivingExactlyAtTIsInTime() throws {
        let n = try Self.network()
        #expect(try n.route("A", "D", at: "0:25", arriveBy: true) == ["A ~ R1 0:11-0:25 ~ D"])
        // One second earlier: T1.
        #expect(try n.route("A", "D", at: "0:24:59", arriveBy: true) == ["A ~ R1 0:01-0:15 ~ D"])
    }

    @Test func nothingArrivesBeforeTheFirstArrival() throws {
        #expect(try Self.network().route("A", "D", at: "0:14:59", arriveBy: true) == [])
    }

    @Test func theJourneyArrivesWhenTheTripDoesNotAtT() throws {
        // Arrive by 0:29 at C from B: T3 (C 0:30) is too late, T2 leaves B 0:15 and
        // reaches C at 0:20; the journey ends at 0:20, not 0:29.
        let journeys = try Self.network().search("B", "C", at: utc("0:29"), arriveBy: true)
        #expect(journeys.first?.departure == utc("0:15"))
        #expect(journeys.first?.arrival == utc("0:20"))
    }

    // MARK: slack, mirrored

    /// A ─R1→ B ─R2→ C: R2 leaves B at 0:12 and reaches C at 0:22. R1's trips reach B at
    /// 0:10:00 (leaving A 0:00:00) and at `late` (leaving A 0:00:01 … the same 10 min ride).
    static func changeNetwork(late: String) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("T1", route: "R1", "A 0:00, B 0:10")
        let dep = clock(late) - 600
        n.trip("T2", route: "R1", "A \(dep / 3600):\(dep / 60 % 60):\(dep % 60), B \(late)")
        n.trip("U1", route: "R2", "B 0:12, C 0:22")
        return try n.build()
    }

    @Test func aChangeWithExactly120Seconds() throws {
        // R1 reaching B at 0:10:00 (leaving A 0:00) makes the 0:12 with 120 s. The later one
        // reaching B at 0:10:01 (leaving A 0:00:01) would have 119 s: missed.
        #expect(try Self.changeNetwork(late: "0:10:01").route("A", "C", at: "0:30", arriveBy: true)
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:12-0:22 ~ C"])
    }

    @Test func aSmallerSlackLetsTheLaterTripThrough() throws {
        // transferSlack 119: the 0:00:01 trip (B 0:10:01) makes it.
        #expect(try Self.changeNetwork(late: "0:10:01")
                    .route("A", "C", at: "0:30", arriveBy: true, params { $0.transferSlack = 119 })
                == ["A ~ R1 0:00:01-0:10:01 ~ B ~ Change 1m59s ~ B ~ R2 0:12-0:22 ~ C"])
    }

    // MARK: ties

    @Test func theEarliestArrivalAmongEqualDepartures() throws {
        //     R1   A 0:10   B 0:15   C 0:20   D 0:30
        //     R2   A 0:10                     D 0:25   (express)
        // Both leave A at 0:10 with one ride; arrive by 0:40 → the one arriving first, R2.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("T1", route: "R1", "A 0:10, B 0:15, C 0:20, D 0:30")
        b.trip("X1", route: "R2", "A 0:10, D 0:25")
        let n = try b.build()
        #expect(try n.route("A", "D", at: "0:40", arriveBy: true) == ["A ~ R2 0:10-0:25 ~ D"])
    }

    @Test func aLaterDepartureBeatsAnEarlierArrival() throws {
        //     R1   A 0:12 → D 0:35      R2   A 0:10 → D 0:25
        // Arrive by 0:40: R1 leaves later (0:12), so it is shown although it arrives later.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("T1", route: "R1", "A 0:12, B 0:17, C 0:22, D 0:35")
        b.trip("X1", route: "R2", "A 0:10, D 0:25")
        let n = try b.build()
        #expect(try n.route("A", "D", at: "0:40", arriveBy: true) == ["A ~ R1 0:12-0:35 ~ D"])
    }

    @Test func accessAndEgressWalksBackwards() throws {
        // P 300 m south of A, Q 300 m north of D: 294 s each. Arrive at Q by 0:30: T2
        // reaches D 0:25, Q at 0:29:54 ≤ 0:30; leave P at 0:11 − 294 s = 0:06:06.
        let n = try Self.network()
        let p = offset(testOrigin, north: -300), q = offset(testOrigin, north: 6300)
        #expect(try n.route(.point(p), .point(q), at: "0:30", arriveBy: true)
                == ["Walk 0:06:06-0:11 ~ A ~ R1 0:11-0:25 ~ D ~ Walk 0:25-0:29:54"])
        // By 0:29:53: T1 (Q at 0:19:54), leaving P at 0:01 − 294 s, i.e. 3m54s before
        // Monday's midnight (Sunday 23:56:06), which prints as -0:03:54.
        #expect(try n.route(.point(p), .point(q), at: "0:29:53", arriveBy: true)
                == ["Walk -0:03:54-0:01 ~ A ~ R1 0:01-0:15 ~ D ~ Walk 0:15-0:19:54"])
    }
}
