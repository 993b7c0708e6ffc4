import Testing
import TransitTesting

/// A12 — the Pareto set over (arrival, rides).
///
///     A ──R2── B ──R3── C          2 km apart
///      ╲──────R1───────╱           (R1 does not stop at B)
///               │
///               E                  2 km east of B (only in `threeRides`)
///
///     R1   A 0:00 → C 0:40                          1 ride, slow
///     R2   A 0:05 → B 0:10;  R3  B 0:12 → C <arr>   2 rides
///
/// Rule: for each k, the earliest arrival with at most k rides; a journey with more
/// rides is kept only when it arrives strictly earlier. The router lists them by
/// ascending rides (the planner's order, the earliest arrival first, is tested in
/// Tests/PlannerTests/PlannerRulesTests.swift).
@Suite("A12 Pareto set")
struct A12_ParetoSetTests {
    static let oneRide = "A ~ R1 0:00-0:40 ~ C"

    static func network(r3Arrival: String) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("T1", route: "R1", "A 0:00, C 0:40")
        n.trip("U1", route: "R2", "A 0:05, B 0:10")
        n.trip("V1", route: "R3", "B 0:12, C \(r3Arrival)")
        return try n.build()
    }

    @Test func aSlowOneRideAndAFasterTwoRideJourney() throws {
        let n = try Self.network(r3Arrival: "0:20")
        let twoRides = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R3 0:12-0:20 ~ C"
        // The router: ascending rides.
        #expect(try n.route("A", "C", at: "0:00") == [Self.oneRide, twoRides])
    }

    @Test func aTwoRideJourneyArrivingAtTheSameTimeIsNotReturned() throws {
        // R3 reaches C at 0:40, like R1: 2 rides for no gain.
        let n = try Self.network(r3Arrival: "0:40")
        #expect(try n.route("A", "C", at: "0:00") == [Self.oneRide])
    }

    @Test func aSlowerTwoRideJourneyIsNotReturned() throws {
        #expect(try Self.network(r3Arrival: "0:41").route("A", "C", at: "0:00") == [Self.oneRide])
    }

    @Test func maxTransfersZeroKeepsOneRide() throws {
        let n = try Self.network(r3Arrival: "0:20")
        #expect(try n.route("A", "C", at: "0:00", params { $0.maxTransfers = 0 }) == [Self.oneRide])
    }

    @Test func theTwoRideJourneyAloneWhenTheSlowOneIsGone() throws {
        // At 0:00:01 R1 has left: only the 2-ride journey.
        #expect(try Self.network(r3Arrival: "0:45").route("A", "C", at: "0:00:01")
                == ["A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R3 0:12-0:45 ~ C"])
    }

    @Test func threeRides() throws {
        //     R3   B 0:12 → C 0:30                        2 rides, C at 0:30
        //     R4   B 0:12 → E 0:15;  R5  E 0:17 → C 0:20  3 rides, C at 0:20
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.stop("E", near: "B", east: 2000)
        b.trip("T1", route: "R1", "A 0:00, C 0:40")
        b.trip("U1", route: "R2", "A 0:05, B 0:10")
        b.trip("V1", route: "R3", "B 0:12, C 0:30")
        b.trip("W1", route: "R4", "B 0:12, E 0:15")
        b.trip("X1", route: "R5", "E 0:17, C 0:20")
        let n = try b.build()
        let two = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R3 0:12-0:30 ~ C"
        let three = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R4 0:12-0:15 ~ E ~ Change 2m ~ E ~ R5 0:17-0:20 ~ C"
        #expect(try n.route("A", "C", at: "0:00") == [Self.oneRide, two, three])
        // maxTransfers 1: at most 2 rides.
        #expect(try n.route("A", "C", at: "0:00", params { $0.maxTransfers = 1 }) == [Self.oneRide, two])
        // Arrive-by 0:45: departures 0:00 (1 ride), 0:05 (2 rides, the latest); the 3-ride
        // journey departs at 0:05 too, so it is not better than the 2-ride one.
        #expect(try n.route("A", "C", at: "0:45", arriveBy: true) == [Self.oneRide, two])
    }
}
