import Raptor
import Testing
import TransitTesting

/// A02 — a change at one stop needs `transferSlack` (120 s by default).
///
///     A ──R1── B ──R2── C          stops 2 km apart on a meridian
///
///     R1    A 0:00  →  B 0:10
///     R2    B <dep> →  C <dep> + 10 min      (one trip per departure in the test)
///           B 0:30  →  C 0:40                (always there: the fallback)
///
/// Rule: after alighting at B at a = 0:10, one may board a trip that departs B at or
/// after a + transferSlack.
@Suite("A02 transfers with slack")
struct A02_TransferSlackTests {
    static func network(r2Departures: [String]) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("T1", route: "R1", "A 0:00, B 0:10")
        for (i, dep) in (r2Departures + ["0:30"]).enumerated() {
            let arr = clock(dep) + 600
            n.trip("U\(i)", route: "R2", "B \(dep), C \(arr / 3600):\(arr / 60 % 60):\(arr % 60)")
        }
        return try n.build()
    }

    @Test func changeWithExactly120Seconds() throws {
        // 0:10 + 120 s = 0:12:00 ≤ 0:12:00: made.
        #expect(try Self.network(r2Departures: ["0:12"]).route("A", "C", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:12-0:22 ~ C"])
    }

    @Test func changeWith119SecondsIsMissed() throws {
        // 0:11:59 < 0:12:00: missed; the next R2 trip leaves B at 0:30.
        #expect(try Self.network(r2Departures: ["0:11:59"]).route("A", "C", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:30-0:40 ~ C"])
    }

    @Test func smallerSlackPerRequest() throws {
        let n = try Self.network(r2Departures: ["0:11:59"])
        // transferSlack 119: 0:10 + 119 s = 0:11:59: made.
        #expect(try n.route("A", "C", at: "0:00", params { $0.transferSlack = 119 })
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 1m59s ~ B ~ R2 0:11:59-0:21:59 ~ C"])
        // transferSlack 60: 0:11:00 ≤ 0:11:59: made too.
        #expect(try n.route("A", "C", at: "0:00", params { $0.transferSlack = 60 })
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 1m ~ B ~ R2 0:11:59-0:21:59 ~ C"])
        // The default again (nothing is kept between requests): missed.
        #expect(try n.route("A", "C", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:30-0:40 ~ C"])
    }

    @Test func zeroSlackBoardsAtTheArrivalMinute() throws {
        // transferSlack 0: the R2 trip leaving B at 0:10, when R1 arrives, is made.
        #expect(try Self.network(r2Departures: ["0:10"]).route("A", "C", at: "0:00", params { $0.transferSlack = 0 })
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 0s ~ B ~ R2 0:10-0:20 ~ C"])
    }

    @Test func largerSlackPerRequest() throws {
        let n = try Self.network(r2Departures: ["0:12", "0:15"])
        // transferSlack 300: ready at 0:15:00 → 0:12 missed, 0:15 made.
        #expect(try n.route("A", "C", at: "0:00", params { $0.transferSlack = 300 })
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 5m ~ B ~ R2 0:15-0:25 ~ C"])
        // transferSlack 301: ready at 0:15:01 → only the 0:30 trip.
        #expect(try n.route("A", "C", at: "0:00", params { $0.transferSlack = 301 })
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 5m1s ~ B ~ R2 0:30-0:40 ~ C"])
    }

    @Test func slackIsNotAddedAtTheOrigin() throws {
        // Boarding the first vehicle needs no slack: from B at 0:12 the 0:12 trip is taken.
        #expect(try Self.network(r2Departures: ["0:12"]).route("B", "C", at: "0:12") == ["B ~ R2 0:12-0:22 ~ C"])
    }

    @Test func slackAtEveryChange() throws {
        // Two changes: A ─R1→ B ─R2→ C ─R3→ D, each with exactly 120 s, then one with 119 s.
        func network(r3Departure: String) throws -> TestNetwork {
            var n = NetworkBuilder()
            n.line("A", "B", "C", "D")
            n.trip("T1", route: "R1", "A 0:00, B 0:10")
            n.trip("U1", route: "R2", "B 0:12, C 0:20")
            n.trip("V1", route: "R3", "C \(r3Departure), D 0:40")
            n.trip("V2", route: "R3", "C 0:50, D 1:00")
            return try n.build()
        }
        // 0:20 + 120 s = 0:22: made.
        #expect(try network(r3Departure: "0:22").route("A", "D", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:12-0:20 ~ C ~ Change 2m ~ C ~ R3 0:22-0:40 ~ D"])
        // 0:21:59: missed → V2.
        #expect(try network(r3Departure: "0:21:59").route("A", "D", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ B ~ Change 2m ~ B ~ R2 0:12-0:20 ~ C ~ Change 2m ~ C ~ R3 0:50-1:00 ~ D"])
    }
}
