import Geo
import Planner
import Testing

/// A10 — walks from the origin and to the destination, and walk-only journeys.
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
/// The journey leaves the origin as late as it can. A walk-only journey is offered when
/// walkMeters ≤ maxDirectWalk (2000 m) and leaves at T. With no stop within maxAccessWalk
/// of an end and no walk-only journey: NO_STOP_NEAR_ORIGIN / NO_STOP_NEAR_DESTINATION.
@Suite("A10 access, egress and walking")
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

    @Test func walkToTheFirstStopAndFromTheLast() throws {
        // Leave P at 0:10 − 294 s = 0:05:06; ride 0:10 → 0:25; walk 294 s → Q at 0:29:54.
        let n = try Self.network().build()
        #expect(try n.journeys(.coordinate(Self.p), .coordinate(Self.q), at: "0:00")
                == ["Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
        let j = try n.plan(.coordinate(Self.p), .coordinate(Self.q), at: "0:00").journeys.first
        #expect(j?.departure == utc("0:05:06") && j?.arrival == utc("0:29:54"))
        if case .access(_, _, _, let meters) = j?.legs.first { #expect(abs(meters - 390) < 0.001) } else { Issue.record("no access leg") }
    }

    @Test func theAccessWalkNeedsNoSlack() throws {
        // Asked at 0:05:06 exactly: still T1. One second later: T2.
        let n = try Self.network().build()
        #expect(try n.journeys(.coordinate(Self.p), .coordinate(Self.q), at: "0:05:06")
                == ["Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
        #expect(try n.journeys(.coordinate(Self.p), .coordinate(Self.q), at: "0:05:07")
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
        #expect(try n.journeys(.coordinate(testOrigin), .stop(feed: nil, id: "Z"), at: "0:00")
                == ["Walk 0:03:35-0:15 ~ E ~ R2 0:15-0:30 ~ Z"])
        // Past 0:03:35, E's trip is lost: A's, leaving O at 0:10 − 196 s = 0:06:44.
        #expect(try n.journeys(.coordinate(testOrigin), .stop(feed: nil, id: "Z"), at: "0:03:36")
                == ["Walk 0:06:44-0:10 ~ A ~ R1 0:10-0:40 ~ Z"])
    }

    @Test func walkOnlyWhereNoStopIsNear() throws {
        // 5 km west of A, no stop within reach; origin and destination 1000 m apart:
        // 1300 m walked ≤ 2000 → walk-only, leaving at T: ceil(977.44) = 978 s = 16m18s.
        let n = try Self.network().build()
        let o = offset(testOrigin, east: -5000), d = offset(o, north: 1000)
        #expect(try n.journeys(.coordinate(o), .coordinate(d), at: "0:00") == ["Walk 0:00-0:16:18"])
        let result = try n.plan(.coordinate(o), .coordinate(d), at: "0:00")
        #expect(result.journeys.first?.rides == 0)
        #expect(abs((result.journeys.first?.walkMeters ?? 0) - 1300) < 0.001)
    }

    @Test func walkOnlyBesideTransit() throws {
        // A and B 1200 m apart (1560 m walked: no access to the other, no footpath, but a
        // walk-only journey: ceil(1560 / 1.33) = ceil(1172.93) = 1173 s = 19m33s).
        //     R1   A 0:05 → B 0:10,  A 0:30 → B 0:35
        var b = NetworkBuilder()
        b.line("A", "B", spacing: 1200)
        b.trip("T1", route: "R1", "A 0:05, B 0:10")
        b.trip("T2", route: "R1", "A 0:30, B 0:35")
        let n = try b.build()
        // Earliest arrival first.
        #expect(try n.journeys("A", "B", at: "0:00") == ["A ~ R1 0:05-0:10 ~ B", "Walk 0:00-0:19:33"])
        #expect(try n.journeys("A", "B", at: "0:06") == ["Walk 0:06-0:25:33", "A ~ R1 0:30-0:35 ~ B"])
        // maxDirectWalk 1500 < 1560: no walk-only.
        #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxDirectWalk = 1500 }) == ["A ~ R1 0:05-0:10 ~ B"])
    }

    @Test func noStopNearTheOrigin() throws {
        // 5 km west of A: the nearest stop is A, 5000 m × 1.3 = 6500 m on foot.
        let n = try Self.network().build()
        let error = #expect(throws: PlanError.self) {
            try n.plan(.coordinate(offset(testOrigin, east: -5000)), .stop(feed: nil, id: "D"), at: "0:00")
        }
        #expect(error?.code == .noStopNearby)
        #expect(error?.details["end"] == .text("origin") && error?.details["nearestStopMeters"] == .number(6500))
        #expect(error?.message.contains("origin") == true)
        #expect(error?.message.contains("6500 m") == true)
    }

    @Test func noStopNearTheDestination() throws {
        // 5 km west of D: the nearest stop is D, 6500 m on foot.
        let n = try Self.network().build()
        let error = #expect(throws: PlanError.self) {
            try n.plan(.stop(feed: nil, id: "A"), .coordinate(offset(testOrigin, north: 6000, east: -5000)), at: "0:00")
        }
        #expect(error?.code == .noStopNearby)
        #expect(error?.details["end"] == .text("destination") && error?.details["nearestStopMeters"] == .number(6500))
        #expect(error?.message.contains("destination") == true)
        #expect(error?.message.contains("6500 m") == true)
    }

    @Test func maxAccessWalkPerRequest() throws {
        // 1000 m south of A: 1300 m walked > 1000 → refused.
        let n = try Self.network().build()
        let o = offset(testOrigin, north: -1000)
        let error = #expect(throws: PlanError.self) { try n.plan(.coordinate(o), .stop(feed: nil, id: "D"), at: "0:00") }
        #expect(error?.code == .noStopNearby)
        #expect(error?.details["nearestStopMeters"] == .number(1300))
        #expect(error?.message.contains("1300 m") == true)
        // maxAccessWalk 1500: 978 s to A → at A 0:16:18, T1 gone; T2 at 0:40, leaving 0:23:42.
        #expect(try n.journeys(.coordinate(o), .stop(feed: nil, id: "D"), at: "0:00", params { $0.maxAccessWalk = 1500 })
                == ["Walk 0:23:42-0:40 ~ A ~ R1 0:40-0:55 ~ D"])
    }

    @Test func aStopAsOriginStandsForItsCoordinates() throws {
        // Origin "A" given as a stop: a 0 s walk to A, and B (2 km away) is out of reach.
        let n = try Self.network().build()
        #expect(try n.journeys(.stop(feed: nil, id: "A"), .coordinate(Self.q), at: "0:00")
                == ["A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
    }
}
