import Raptor
import Testing
import TransitTesting

/// A14 — parameters out of range are refused, naming the parameter.
///
///     A ──R1── B          2 km apart; R1 A 0:10 → B 0:20
///
/// Rule: `RaptorRequest` refuses a parameter out of range with a `ParameterError` that
/// names it (the planner's BAD_PARAMETER answer is in Tests/PlannerTests/PlannerRulesTests.swift).
@Suite("A14 parameters")
struct A14_ParameterTests {
    static func network() throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B")
        n.trip("T1", route: "R1", "A 0:10, B 0:20")
        return try n.build()
    }

    static func requestError(_ p: RoutingParameters) throws -> ParameterError? {
        let n = try network()
        return #expect(throws: ParameterError.self) { try n.route("A", "B", at: "0:00", p) }
    }

    @Test func walkSpeedZero() throws {
        let e = try Self.requestError(params { $0.walkSpeed = 0 })
        #expect(e?.parameter == "walkSpeed")
        #expect(e?.description.contains("walkSpeed") == true)
    }

    @Test func maxTransfersMinusOne() throws {
        let e = try Self.requestError(params { $0.maxTransfers = -1 })
        #expect(e?.parameter == "maxTransfers")
        #expect(e?.description.contains("maxTransfers") == true)
    }

    @Test(arguments: [
        ("walkSpeed", params { $0.walkSpeed = .nan }),
        ("walkSpeed", params { $0.walkSpeed = -1.33 }),
        ("walkDetourFactor", params { $0.walkDetourFactor = 0.5 }),
        ("maxAccessWalk", params { $0.maxAccessWalk = -1 }),
        ("maxTransferWalk", params { $0.maxTransferWalk = .infinity }),
        ("maxDirectWalk", params { $0.maxDirectWalk = -0.5 }),
        ("transferSlack", params { $0.transferSlack = -1 }),
        ("maxTransfers", params { $0.maxTransfers = 13 }),
    ])
    func otherValuesOutOfRange(name: String, p: RoutingParameters) throws {
        let e = try Self.requestError(p)
        #expect(e?.parameter == name, "\(e?.description ?? "no error")")
    }

    @Test func maxTransferWalkBeyondTheTimetablesFootpathRadius() throws {
        // Footpath candidates reach 1000 m beeline: 1000 × 1.3 = 1300 m walked at most.
        let e = try Self.requestError(params { $0.maxTransferWalk = 1301 })
        #expect(e?.parameter == "maxTransferWalk")
        #expect(try Self.network().route("A", "B", at: "0:00", params { $0.maxTransferWalk = 1300 })
                == ["A ~ R1 0:10-0:20 ~ B"])
    }

    @Test func aWindowOutOfRangeIsRefused() throws {
        let n = try Self.network()
        #expect((#expect(throws: ParameterError.self) { try n.route("A", "B", at: utc("0:00"), window: -1) })?.parameter == "window")
        #expect((#expect(throws: ParameterError.self) { try n.route("A", "B", at: utc("0:00"), window: 86_401) })?.parameter == "window")
    }

    @Test func valuesAtTheEdgesAreAccepted() throws {
        // maxTransfers 0 (one ride), transferSlack 0, maxAccessWalk 0 for stop-to-stop.
        let n = try Self.network()
        #expect(try n.route("A", "B", at: "0:00", params { $0.maxTransfers = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        #expect(try n.route("A", "B", at: "0:00", params { $0.transferSlack = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        #expect(try n.route("A", "B", at: "0:00", params { $0.maxAccessWalk = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        // maxAccessWalk 0 from the stops' own coordinates: each is 0 m from itself.
        #expect(try n.route(.point(n.network.coordinate(ofStop: n.stop("A"))!), .point(n.network.coordinate(ofStop: n.stop("B"))!),
                            at: "0:00", params { $0.maxAccessWalk = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
    }
}
