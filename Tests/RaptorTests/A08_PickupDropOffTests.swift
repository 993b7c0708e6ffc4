import Testing
import TransitTesting

/// A08 — pickup_type and drop_off_type.
///
///     A ──R1── B ──R1── C         2 km apart
///
///     T1    A 0:00   B 0:10 <rule>   C 0:20      (the rule under test on one stop time)
///     T2    A 0:30   B 0:40          C 0:50      (no rules: the fallback)
///
/// Rules: pickup_type 1 forbids boarding at that stop time, drop_off_type 1 forbids
/// alighting; 2 and 3 (arrange with the agency or driver) are allowed.
@Suite("A08 pickup and drop-off")
struct A08_PickupDropOffTests {
    static func network(a: String = "", b: String = "", c: String = "") throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("T1", route: "R1", "A 0:00 \(a), B 0:10 \(b), C 0:20 \(c)")
        n.trip("T2", route: "R1", "A 0:30, B 0:40, C 0:50")
        return try n.build()
    }

    @Test func dropOffForbiddenInTheMiddle() throws {
        let n = try Self.network(b: "no-alight")
        // No one alights from T1 at B: T2.
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:30-0:40 ~ B"])
        // T1 still carries A → C, and still picks up at B.
        #expect(try n.route("A", "C", at: "0:00") == ["A ~ R1 0:00-0:20 ~ C"])
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:10-0:20 ~ C"])
    }

    @Test func pickupForbiddenInTheMiddle() throws {
        let n = try Self.network(b: "no-board")
        // No one boards T1 at B: T2 from B at 0:40.
        #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:40-0:50 ~ C"])
        // T1 still lets people off at B and carries A → C.
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:10 ~ B"])
        #expect(try n.route("A", "C", at: "0:00") == ["A ~ R1 0:00-0:20 ~ C"])
    }

    @Test func pickupForbiddenAtTheFirstStop() throws {
        #expect(try Self.network(a: "no-board").route("A", "C", at: "0:00") == ["A ~ R1 0:30-0:50 ~ C"])
    }

    @Test func dropOffForbiddenAtTheLastStop() throws {
        #expect(try Self.network(c: "no-alight").route("A", "C", at: "0:00") == ["A ~ R1 0:30-0:50 ~ C"])
    }

    @Test func arrangedPickupAndDropOffAreAllowed() throws {
        // Types 2 (phone the agency) and 3 (ask the driver) do not forbid anything.
        for rule in ["pickup=2 dropoff=2", "pickup=3 dropoff=3", "pickup=2 dropoff=3"] {
            let n = try Self.network(b: rule)
            #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:10 ~ B"], "\(rule)")
            #expect(try n.route("B", "C", at: "0:00") == ["B ~ R1 0:10-0:20 ~ C"], "\(rule)")
        }
    }

    @Test func aChangeOntoATripThatDoesNotPickUpThere() throws {
        // R2: D 0:00 → B 0:05 (D 2 km west of B). Changing at B onto T1 (0:10, 300 s later)
        // would be fine, but T1 does not pick up at B: T2 at 0:40.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.stop("D", near: "B", east: -2000)
        b.trip("T1", route: "R1", "A 0:00, B 0:10 no-board, C 0:20")
        b.trip("T2", route: "R1", "A 0:30, B 0:40, C 0:50")
        b.trip("U1", route: "R2", "D 0:00, B 0:05")
        let n = try b.build()
        #expect(try n.route("D", "C", at: "0:00") == ["D ~ R2 0:00-0:05 ~ B ~ Change 2m ~ B ~ R1 0:40-0:50 ~ C"])
    }

    @Test func arriveByRespectsTheRulesToo() throws {
        // Arrive at B by 0:45 without alighting from T1 at B: T2 (0:30 → 0:40).
        #expect(try Self.network(b: "no-alight").route("A", "B", at: "0:45", arriveBy: true) == ["A ~ R1 0:30-0:40 ~ B"])
        // Arrive at C by 0:55 from B when T1 does not pick up at B: T2 (0:40 → 0:50).
        #expect(try Self.network(b: "no-board").route("B", "C", at: "0:55", arriveBy: true) == ["B ~ R1 0:40-0:50 ~ C"])
        // Arrive at C by 0:25 from A: only T1 (0:00 → 0:20) fits, rules at B or not.
        #expect(try Self.network(b: "no-board no-alight").route("A", "C", at: "0:25", arriveBy: true) == ["A ~ R1 0:00-0:20 ~ C"])
    }

    @Test func aStopThatCannotBeBoardedIsPassedThrough() throws {
        // Station S (location_type 1) halfway between A and B, 2 km from each, with a child
        // platform S1 at the same place. T1 names S itself: it passes through, no one gets
        // on or off there (not even at S1). T2 names S1: it stops.
        //     T1   A 0:00   S 0:05   B 0:10           T2   A 0:30   S1 0:35   B 0:40
        var b = NetworkBuilder()
        b.line("A", "B", spacing: 4000)
        b.stop("S", at: offset(testOrigin, north: 2000), type: 1)
        b.stop("S1", at: offset(testOrigin, north: 2000), parent: "S")
        b.trip("T1", route: "R1", "A 0:00, S 0:05, B 0:10")
        b.trip("T2", route: "R1", "A 0:30, S1 0:35, B 0:40")
        let n = try b.build()
        #expect(try n.route("A", "B", at: "0:00") == ["A ~ R1 0:00-0:10 ~ B"])
        #expect(try n.route("A", "S1", at: "0:00") == ["A ~ R1 0:30-0:35 ~ S1"])
        #expect(try n.route("S1", "B", at: "0:00") == ["S1 ~ R1 0:35-0:40 ~ B"])
    }
}
