import Geo
import Raptor
import Testing
import TransitTesting

/// A10 — walks from the origin and to the destination.
///
///             Q                     (300 m north of D)
///     A ──R1── B ──R1── C ──R1── D  2 km apart
///     P                             (300 m south of A)
///
///     R1   T1   A 0:10   B 0:15   C 0:20   D 0:25
///          T2   A 0:40   B 0:45   C 0:50   D 0:55
///
/// Rules: access and egress walks up to maxAccessWalk (1000 m walked), no slack;
/// walkSeconds = ceil(beeline × 1.3 / 1.33): 300 m → 294 s, 1000 m → ceil(977.44) = 978 s.
/// The journey leaves the origin as late as it can. The walks are the request's
/// `StopWalk`s, made here as the model says; the walk-only journey and NO_STOP_NEARBY
/// are the planner's (Tests/PlannerTests/PlannerRulesTests.swift).
@Suite("A10 access and egress")
struct A10_AccessEgressTests {
    static func network() throws -> NetworkBuilder {
        var n = NetworkBuilder()
        n.line("A", "B", "C", "D")
        n.trip("T1", route: "R1", "A 0:10, B 0:15, C 0:20, D 0:25")
        n.trip("T2", route: "R1", "A 0:40, B 0:45, C 0:50, D 0:55")
        return n
    }

    static var p: Coordinate { offset(testOrigin, north: -300) }
    static var q: Coordinate { offset(testOrigin, north: 6300) }

    @Test func theWalksAreTheModels() throws {
        // From P: A only (300 m → 390 m walked, 294 s); B is 2300 m away. To Q: D only.
        let n = try Self.network().build()
        let access = n.walks(Self.p, params { _ in })
        #expect(access.map(\.stop) == [n.stop("A")] && access.first?.seconds == 294)
        #expect(abs((access.first?.meters ?? 0) - 390) < 0.001)
        #expect(n.walks(Self.q, params { _ in }).map(\.stop) == [n.stop("D")])
    }

    @Test func walkToTheFirstStopAndFromTheLast() throws {
        // Leave P at 0:10 − 294 s = 0:05:06; ride 0:10 → 0:25; walk 294 s → Q at 0:29:54.
        let n = try Self.network().build()
        #expect(try n.route(.point(Self.p), .point(Self.q), at: "0:00")
                == ["Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
        let j = try n.search(.point(Self.p), .point(Self.q), at: utc("0:00")).first
        #expect(j?.departure == utc("0:05:06") && j?.arrival == utc("0:29:54"))
        if case .access(_, _, _, let meters) = j?.legs.first { #expect(abs(meters - 390) < 0.001) } else { Issue.record("no access leg") }
    }

    @Test func theAccessWalkNeedsNoSlack() throws {
        // Asked at 0:05:06 exactly: still T1. One second later: T2.
        let n = try Self.network().build()
        #expect(try n.route(.point(Self.p), .point(Self.q), at: "0:05:06")
                == ["Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
        #expect(try n.route(.point(Self.p), .point(Self.q), at: "0:05:07")
                == ["Walk 0:35:06-0:40 ~ A ~ R1 0:40-0:55 ~ D ~ Walk 0:55-0:59:54"])
    }

    @Test func theBestAccessStopIsNotAlwaysTheNearest() throws {
        //     Z                      2 km north of O
        //     A ·200 m· O ·····700 m····· E
        //     R1: A 0:10 → Z 0:40      R2: E 0:15 → Z 0:30
        // A: 260 m walked, ceil(195.49) = 196 s. E: 910 m walked, ceil(684.21) = 685 s;
        // A ↔ E 900 m apart is no footpath (1170 m walked). Via E: Z at 0:30, leaving O at
        // 0:15 − 685 s = 0:03:35.
        var b = NetworkBuilder()
        b.stop("A", at: offset(testOrigin, east: -200))
        b.stop("E", at: offset(testOrigin, east: 700))
        b.stop("Z", at: offset(testOrigin, north: 2000))
        b.trip("T1", route: "R1", "A 0:10, Z 0:40")
        b.trip("U1", route: "R2", "E 0:15, Z 0:30")
        let n = try b.build()
        #expect(try n.route(.point(testOrigin), "Z", at: "0:00")
                == ["Walk 0:03:35-0:15 ~ E ~ R2 0:15-0:30 ~ Z"])
        // Past 0:03:35, E's trip is lost: A's, leaving O at 0:10 − 196 s = 0:06:44.
        #expect(try n.route(.point(testOrigin), "Z", at: "0:03:36")
                == ["Walk 0:06:44-0:10 ~ A ~ R1 0:10-0:40 ~ Z"])
    }

    @Test func maxAccessWalkPerRequest() throws {
        // 1000 m south of A: 1300 m walked > 1000: no walk, so no journey (the planner
        // refuses it: NO_STOP_NEARBY).
        let n = try Self.network().build()
        let o = offset(testOrigin, north: -1000)
        #expect(n.walks(o, params { _ in }).isEmpty)
        #expect(try n.route(.point(o), "D", at: "0:00") == [])
        // maxAccessWalk 1500: 978 s to A → at A 0:16:18, T1 gone; T2 at 0:40, leaving 0:23:42.
        #expect(try n.route(.point(o), "D", at: "0:00", params { $0.maxAccessWalk = 1500 })
                == ["Walk 0:23:42-0:40 ~ A ~ R1 0:40-0:55 ~ D"])
    }

    @Test func aZeroSecondAccessAndAnEgressWalk() throws {
        // From stop A itself (a 0 s walk) to Q: no walk printed before A.
        let n = try Self.network().build()
        #expect(try n.route("A", .point(Self.q), at: "0:00")
                == ["A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
    }
}
