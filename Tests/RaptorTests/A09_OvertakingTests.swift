import Testing
import TransitTesting

/// A09 — trips of one route that overtake each other.
///
///     A ──R1── B ──R1── C         2 km apart; all trips A → B → C
///
///     S1 (slow)   A 0:00   B 0:05   C 0:30
///     F1 (fast)   A 0:05   B 0:10   C 0:15      leaves later, arrives at C first
///
/// Rule: the earliest arrival, whatever the order of departures; among equal arrivals the
/// latest departure.
@Suite("A09 overtaking trips")
struct A09_OvertakingTests {
    static func network() throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("S1", route: "R1", "A 0:00, B 0:05, C 0:30")
        n.trip("F1", route: "R1", "A 0:05, B 0:10, C 0:15")
        return try n.build()
    }

    @Test func theFastTripIsFoundForTheFarStop() throws {
        // S1 reaches C at 0:30, F1 at 0:15.
        #expect(try Self.network().route("A", "C", at: "0:00") == ["A ~ R1 0:05-0:15 ~ C"])
    }

    @Test func theSlowTripIsStillFoundForTheNearStop() throws {
        // At B, S1 (0:05) is first.
        #expect(try Self.network().route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:05 ~ B"])
    }

    @Test func boardingInTheMiddle() throws {
        // From B at 0:00: S1 leaves B 0:05 → C 0:30; F1 leaves B 0:10 → C 0:15.
        #expect(try Self.network().route("B", "C", at: "0:00") == ["B ~ R1 0:10-0:15 ~ C"])
    }

    @Test func arriveByTakesTheLatestDeparture() throws {
        // Arrive at C by 0:30: S1 departs A 0:00, F1 0:05 → F1.
        #expect(try Self.network().route("A", "C", at: "0:30", arriveBy: true) == ["A ~ R1 0:05-0:15 ~ C"])
        // By 0:14: neither.
        #expect(try Self.network().route("A", "C", at: "0:14", arriveBy: true) == [])
    }

    @Test func overtakingInTheMiddleOfTheLine() throws {
        //     S2   A 0:00   B 0:20   C 0:25
        //     F2   A 0:05   B 0:10   C 0:30      F2 passes S2 before B, S2 passes it back before C.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("S2", route: "R1", "A 0:00, B 0:20, C 0:25")
        b.trip("F2", route: "R1", "A 0:05, B 0:10, C 0:30")
        let n = try b.build()
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:05-0:10 ~ B"])
        #expect(try n.route("A", "C", at: "0:00") == ["A ~ R1 0:00-0:25 ~ C"])
    }

    @Test func manyTripsOneOvertakes() throws {
        //     T1   A 0:00  C 0:20     T2   A 0:10  C 0:30     X    A 0:12  C 0:18 (express)
        //     T3   A 0:20  C 0:40
        // At 0:01: T2 (0:30) or X (0:18) → X. At 0:12:01: T3 only.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00, B 0:10, C 0:20")
        b.trip("T2", route: "R1", "A 0:10, B 0:20, C 0:30")
        b.trip("X", route: "R1", "A 0:12, B 0:15, C 0:18")
        b.trip("T3", route: "R1", "A 0:20, B 0:30, C 0:40")
        let n = try b.build()
        #expect(try n.route("A", "C", at: "0:01") == ["A ~ R1 0:12-0:18 ~ C"])
        #expect(try n.route("A", "B", at: "0:01") == ["A ~ R1 0:12-0:15 ~ B"])
        #expect(try n.route("A", "C", at: "0:12:01") == ["A ~ R1 0:20-0:40 ~ C"])
    }

    @Test func aFastTripOfTheNextServiceDayOvertakesALateOne() throws {
        //     M (Monday service)    A 24:00   B 24:05   C 27:00     (Tuesday 00:00 → 03:00)
        //     U (Tuesday service)   A  0:10   B  0:15   C  0:20     (Tuesday 00:10 → 00:20)
        // Within one service date no trip overtakes another, but across two, U overtakes M.
        // Asked Tuesday 00:00 (times print from Monday's midnight): to C, U; to B, M.
        let tuesday = testDate.adding(days: 1)
        var b = NetworkBuilder()
        b.service("TUE", from: tuesday, to: tuesday)
        b.line("A", "B", "C")
        b.trip("M", route: "R1", "A 24:00, B 24:05, C 27:00")
        b.trip("U", route: "R1", service: "TUE", "A 0:10, B 0:15, C 0:20")
        let n = try b.build()
        #expect(try n.route("A", "C", at: "0:00", on: tuesday) == ["A ~ R1 24:10-24:20 ~ C"])
        #expect(try n.route("A", "B", at: "0:00", on: tuesday) == ["A ~ R1 24:00-24:05 ~ B"])
    }
}
