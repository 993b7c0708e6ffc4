import Testing
import TransitModel
import TransitTesting

/// A01 — one route: board, ride, alight.
///
///     A ──R1── B ──R1── C ──R1── D          stops 2 km apart on a meridian
///      ╲                        ╱
///       ╲─────────R2───────────╱            (express, only in `noNeedlessWaiting`)
///
///     R1      A     B     C     D
///     T1    0:01  0:05  0:10  0:15
///     T2    0:11  0:15  0:20  0:25
///     T3    0:21  0:25  0:30  0:35
///     R2    0:08                0:15
///
/// Rules: boarding needs the trip's departure at or after the moment one is at the stop;
/// no slack at the origin; the earliest arrival wins, and among equal arrivals and
/// rides the latest departure is shown.
@Suite("A01 single route")
struct A01_SingleRouteTests {
    static func network(express: Bool = false) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C", "D")
        n.trip("T1", route: "R1", "A 0:01, B 0:05, C 0:10, D 0:15")
        n.trip("T2", route: "R1", "A 0:11, B 0:15, C 0:20, D 0:25")
        n.trip("T3", route: "R1", "A 0:21, B 0:25, C 0:30, D 0:35")
        if express { n.trip("X1", route: "R2", "A 0:08, D 0:15") }
        return try n.build()
    }

    @Test func boardRideAlight() throws {
        // At 0:00 the first trip is T1: A 0:01 → D 0:15.
        #expect(try Self.network().route("A", "D", at: "0:00") == ["A ~ R1 0:01-0:15 ~ D"])
    }

    @Test func boardAndAlightInTheMiddle() throws {
        // T1 passes B at 0:05 and C at 0:10.
        #expect(try Self.network().route("B", "C", at: "0:00") == ["B ~ R1 0:05-0:10 ~ C"])
    }

    @Test func journeyDepartsAtTheFirstDepartureNotAtTheQueryTime() throws {
        // Asked at 0:00, the origin is the stop: nothing happens before T1 leaves at 0:01,
        // so the journey departs 0:01 (not 0:00) and arrives 0:15.
        let journeys = try Self.network().search("A", "D", at: utc("0:00"))
        #expect(journeys.count == 1)
        #expect(journeys.first?.departure == utc("0:01"))
        #expect(journeys.first?.arrival == utc("0:15"))
        #expect(journeys.first?.rides == 1)
    }

    @Test func theEarliestTripIsTaken() throws {
        // From B at 0:05:00 exactly: T1 departs B at 0:05 ("at or after") → C 0:10.
        let n = try Self.network()
        #expect(try n.route("B", "C", at: "0:05") == ["B ~ R1 0:05-0:10 ~ C"])
        // One second later T1 is gone: T2 departs B 0:15 → C 0:20.
        #expect(try n.route("B", "C", at: "0:05:01") == ["B ~ R1 0:15-0:20 ~ C"])
    }

    @Test func laterQueriesTakeLaterTrips() throws {
        let n = try Self.network()
        // 0:11 → T2 (departs A at 0:11 itself); 0:11:01 → T3.
        #expect(try n.route("A", "D", at: "0:11") == ["A ~ R1 0:11-0:25 ~ D"])
        #expect(try n.route("A", "D", at: "0:11:01") == ["A ~ R1 0:21-0:35 ~ D"])
    }

    @Test func nothingAfterTheLastDeparture() throws {
        // T3 leaves A at 0:21; at 0:21:01 no trip is left (service S runs on 2020-04-20
        // only, so D + 1 has none either): no journey, and no error.
        #expect(try Self.network().route("A", "D", at: "0:21:01") == [])
    }

    @Test func theEveningBeforeRidesTheFirstTripOfTheDay() throws {
        // Sunday 2020-04-19 23:50: the rides considered are those of D − 1, D and D + 1
        // (D = Sunday), so Monday's T1 (0:01 → 0:15) is found.
        #expect(try Self.network().route("A", "D", at: "23:50", on: testDate.adding(days: -1)) == ["A ~ R1 0:01-0:15 ~ D"])
    }

    @Test func noNeedlessWaiting() throws {
        // T1 (A 0:01) and the express X1 (A 0:08) both reach D at 0:15 with one ride:
        // the one that departs latest is shown, X1.
        #expect(try Self.network(express: true).route("A", "D", at: "0:00") == ["A ~ R2 0:08-0:15 ~ D"])
    }

    @Test func aRouteIsNotRiddenBackwards() throws {
        // R1 only runs A → D: from D to A there is nothing.
        #expect(try Self.network().route("D", "A", at: "0:00") == [])
    }

    @Test func aLoopRoute() throws {
        //     L1   A 0:00   B 0:05   C 0:10   B 0:15   D 0:20      (B twice)
        // From B to D: boarding at B at 0:05 or 0:15 arrives at D 0:20 either way: the
        // later boarding is shown. From C back to B: 0:10 → 0:15.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("L1", route: "R1", "A 0:00, B 0:05, C 0:10, B 0:15, D 0:20")
        let n = try b.build()
        #expect(try n.route("B", "D", at: "0:00") == ["B ~ R1 0:15-0:20 ~ D"])
        #expect(try n.route("C", "B", at: "0:00") == ["C ~ R1 0:10-0:15 ~ B"])
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:05-0:10 ~ C"])
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:05 ~ B"])
    }
}
