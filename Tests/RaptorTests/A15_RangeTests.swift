import Raptor
import Testing
import TransitTesting

/// A15 — range queries: every journey departing within a window that no other journey
/// beats on departure (later), arrival (earlier) and rides (fewer); by departure.
///
///     A ──R1── B ──R1── C          stops 2 km apart
///     A ────── R2 ───── C          express
///
///     R1      A     B     C
///     T1    0:01  0:08  0:15
///     T2    0:11  0:18  0:25       dominated by X1: leaves 1 min later, arrives 5 min earlier
///     T3    0:21  0:28  0:35
///     R2      A           C
///     X1    0:12        0:20
@Suite("A15 range")
struct A15_RangeTests {
    static func network() throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("T1", route: "R1", "A 0:01, B 0:08, C 0:15")
        n.trip("T2", route: "R1", "A 0:11, B 0:18, C 0:25")
        n.trip("T3", route: "R1", "A 0:21, B 0:28, C 0:35")
        n.trip("X1", route: "R2", "A 0:12, C 0:20")
        return try n.build()
    }

    func range(_ n: TestNetwork, at time: String, minutes: Int) throws -> [String] {
        try n.route("A", "C", at: utc(time), window: Int64(minutes * 60))
    }

    @Test func everyUndominatedDepartureInTheWindow() throws {
        // Departures 0:01, 0:11, 0:12, 0:21 are in [0:00, 0:30]; T2 (0:11 → 0:25) is beaten by X1.
        #expect(try range(Self.network(), at: "0:00", minutes: 30)
                == ["A ~ R1 0:01-0:15 ~ C", "A ~ R2 0:12-0:20 ~ C", "A ~ R1 0:21-0:35 ~ C"])
    }

    @Test func theWindowBoundsDepartures() throws {
        // [0:00, 0:10]: only T1. [0:12, 0:21]: X1 and T3 (a departure at the end counts).
        #expect(try range(Self.network(), at: "0:00", minutes: 10) == ["A ~ R1 0:01-0:15 ~ C"])
        #expect(try range(Self.network(), at: "0:12", minutes: 9) == ["A ~ R2 0:12-0:20 ~ C", "A ~ R1 0:21-0:35 ~ C"])
    }

    @Test func aWindowAfterTheLastDepartureIsEmpty() throws {
        #expect(try range(Self.network(), at: "0:22", minutes: 60) == [])
    }

    @Test func aWindowWithArriveByIsRefused() throws {
        let n = try Self.network()
        let e = #expect(throws: ParameterError.self) {
            try n.route("A", "C", at: utc("0:30"), arriveBy: true, window: 600)
        }
        #expect(e?.parameter == "window")
    }
}
