import Planner
import Raptor
import Testing

/// A14 — parameters out of range are refused, naming the parameter.
///
///     A ──R1── B          2 km apart; R1 A 0:10 → B 0:20
///
/// Rule: the planner answers PlanError code BAD_PARAMETER whose message names the
/// parameter; `RaptorRequest` refuses the same with a `ParameterError`.
@Suite("A14 parameters")
struct A14_ParameterTests {
    static func network() throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B")
        n.trip("T1", route: "R1", "A 0:10, B 0:20")
        return try n.build()
    }

    static func planError(_ p: RoutingParameters) throws -> PlanError? {
        let n = try network()
        return #expect(throws: PlanError.self) { try n.plan("A", "B", at: "0:00", p) }
    }

    @Test func walkSpeedZero() throws {
        let e = try Self.planError(params { $0.walkSpeed = 0 })
        #expect(e?.code == .badParameter)
        #expect(e?.message.contains("walkSpeed") == true)
    }

    @Test func maxTransfersMinusOne() throws {
        let e = try Self.planError(params { $0.maxTransfers = -1 })
        #expect(e?.code == .badParameter)
        #expect(e?.message.contains("maxTransfers") == true)
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
        let e = try Self.planError(p)
        #expect(e?.code == .badParameter)
        #expect(e?.message.contains(name) == true, "\(e?.message ?? "no error")")
    }

    @Test func maxTransferWalkBeyondTheTimetablesFootpathRadius() throws {
        // Footpath candidates reach 1000 m beeline: 1000 × 1.3 = 1300 m walked at most.
        let e = try Self.planError(params { $0.maxTransferWalk = 1301 })
        #expect(e?.code == .badParameter)
        #expect(e?.message.contains("maxTransferWalk") == true)
        #expect(try Self.network().journeys("A", "B", at: "0:00", params { $0.maxTransferWalk = 1300 })
                == ["A ~ R1 0:10-0:20 ~ B"])
    }

    @Test func theRouterRequestRefusesToo() throws {
        let n = try Self.network()
        let e = #expect(throws: ParameterError.self) { try n.route("A", "B", at: "0:00", params { $0.walkSpeed = 0 }) }
        #expect(e?.parameter == "walkSpeed")
        let f = #expect(throws: ParameterError.self) { try n.route("A", "B", at: "0:00", params { $0.maxTransfers = -1 }) }
        #expect(f?.parameter == "maxTransfers")
    }

    @Test func valuesAtTheEdgesAreAccepted() throws {
        // maxTransfers 0 (one ride), transferSlack 0, maxAccessWalk 0 for stop-to-stop.
        let n = try Self.network()
        #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxTransfers = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        #expect(try n.journeys("A", "B", at: "0:00", params { $0.transferSlack = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxAccessWalk = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
    }
}
