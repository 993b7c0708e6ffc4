import Raptor
import TransitModel
import Testing
import TransitTesting

/// A03 — a change along a footpath between two distinct stops.
///
///     C ┄┄ gap ┄┄ D ──R2──▶ F        D is `gap` meters due east of C (300 m or 400 m);
///     ▲                              F is 2 km north of D
///     R1
///     A                              A is 2 km south of C
///
///     R1    A 0:00 → C 0:10
///     R2    D <dep> → F <dep> + 10 min, and D 0:40 → F 0:50 (the fallback)
///
/// Rules: footpath when walkMeters = beeline × 1.3 ≤ maxTransferWalk (500);
/// walkSeconds = ceil(walkMeters / 1.33); the change takes walkSeconds + transferSlack.
///   gap 300 m: 390 m walked → ceil(293.23) = 294 s, + 120 = 414 s = 6m54s.
///   gap 400 m: 520 m walked > 500 → no footpath; with maxTransferWalk 600:
///              ceil(520 / 1.33) = ceil(390.98) = 391 s, + 120 = 511 s = 8m31s.
@Suite("A03 footpaths")
struct A03_FootpathTests {
    static func network(gap: Double, r2Departure: String) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "C")
        n.stop("D", near: "C", east: gap)
        n.stop("F", near: "D", north: 2000)
        n.trip("T1", route: "R1", "A 0:00, C 0:10")
        let arr = clock(r2Departure) + 600
        n.trip("U1", route: "R2", "D \(r2Departure), F \(arr / 3600):\(arr / 60 % 60):\(arr % 60)")
        n.trip("U2", route: "R2", "D 0:40, F 0:50")
        return try n.build()
    }

    @Test func walkSecondsPlusSlackExactly() throws {
        // Ready at D: 0:10 + 414 s = 0:16:54; the trip at 0:16:54 is made.
        #expect(try Self.network(gap: 300, r2Departure: "0:16:54").route("A", "F", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:16:54-0:26:54 ~ F"])
    }

    @Test func oneSecondShortIsMissed() throws {
        // 0:16:53 < 0:16:54: missed → the 0:40 trip.
        #expect(try Self.network(gap: 300, r2Departure: "0:16:53").route("A", "F", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:40-0:50 ~ F"])
    }

    @Test func slackIsAddedToTheWalk() throws {
        let n = try Self.network(gap: 300, r2Departure: "0:14:54")
        // transferSlack 0: the walk alone, 294 s → ready 0:14:54: made.
        #expect(try n.route("A", "F", at: "0:00", params { $0.transferSlack = 0 })
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 4m54s ~ D ~ R2 0:14:54-0:24:54 ~ F"])
        // The default 120 s: ready 0:16:54 → the 0:40 trip.
        #expect(try n.route("A", "F", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:40-0:50 ~ F"])
    }

    @Test func theFootpathLegSaysHowFarIsWalked() throws {
        // The transfer leg: from C to D, 390 m walked (300 m × 1.3), ready 414 s after alighting.
        let n = try Self.network(gap: 300, r2Departure: "0:16:54")
        let transfers = try n.search("A", "F", at: utc("0:00")).flatMap(\.legs).compactMap { leg -> (StopIndex, StopIndex, Int64, Int64, Double)? in
            if case .transfer(let from, let to, let departure, let ready, let meters) = leg { return (from, to, departure, ready, meters) }
            return nil
        }
        #expect(transfers.count == 1)
        if let t = transfers.first {
            #expect(t.0 == n.stop("C") && t.1 == n.stop("D"))
            #expect(t.2 == utc("0:10") && t.3 == utc("0:16:54"))
            #expect(abs(t.4 - 390) < 0.001)
        }
    }

    @Test func aPairOver500MetersWalkedHasNoFootpath() throws {
        // 400 m × 1.3 = 520 m > maxTransferWalk 500: D cannot be reached from C; no journey.
        #expect(try Self.network(gap: 400, r2Departure: "0:20").route("A", "F", at: "0:00") == [])
    }

    @Test func raisingMaxTransferWalkMakesItWork() throws {
        // maxTransferWalk 600 ≥ 520: the footpath takes 391 s + 120 s = 511 s → ready 0:18:31.
        let n = try Self.network(gap: 400, r2Departure: "0:18:31")
        #expect(try n.route("A", "F", at: "0:00", params { $0.maxTransferWalk = 600 })
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 8m31s ~ D ~ R2 0:18:31-0:28:31 ~ F"])
        // One second of slack more and the 0:18:31 trip is gone.
        #expect(try n.route("A", "F", at: "0:00", params { $0.maxTransferWalk = 600; $0.transferSlack = 121 })
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 8m32s ~ D ~ R2 0:40-0:50 ~ F"])
    }

    @Test func loweringMaxTransferWalkRemovesIt() throws {
        // 300 m × 1.3 = 390 m > 389: no footpath.
        #expect(try Self.network(gap: 300, r2Departure: "0:16:54")
                    .route("A", "F", at: "0:00", params { $0.maxTransferWalk = 389 }) == [])
    }

    @Test func aSlowerWalkTakesLonger() throws {
        // walkSpeed 0.9: ceil(390 / 0.9) = ceil(433.33) = 434 s, + 120 = 554 s = 9m14s → ready 0:19:14.
        let n = try Self.network(gap: 300, r2Departure: "0:19:14")
        #expect(try n.route("A", "F", at: "0:00", params { $0.walkSpeed = 0.9 })
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 9m14s ~ D ~ R2 0:19:14-0:29:14 ~ F"])
        // At the default 1.33 m/s the same trip is made with 2m20s to spare (ready 0:16:54).
        #expect(try n.route("A", "F", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:19:14-0:29:14 ~ F"])
    }

    @Test func onlyOneFootpathBetweenTwoRides() throws {
        // C ┄300 m┄ D ┄300 m┄ E (E 600 m east of C: 780 m walked > 500): walking C → D → E
        // would chain two footpaths, which the model does not allow. No journey to G.
        var b = NetworkBuilder()
        b.line("A", "C")
        b.stop("D", near: "C", east: 300)
        b.stop("E", near: "C", east: 600)
        b.stop("G", near: "E", north: 2000)
        b.trip("T1", route: "R1", "A 0:00, C 0:10")
        b.trip("U1", route: "R2", "E 0:40, G 0:50")
        let n = try b.build()
        #expect(try n.route("A", "G", at: "0:00") == [])
    }

    @Test func aStopWithoutCoordinatesUsesItsStations() throws {
        // D has no coordinates; its parent station P lies 300 m east of C: D is there too,
        // so the footpath is the 300 m one (414 s).
        var b = NetworkBuilder()
        b.line("A", "C")
        b.stop("P", at: offset(b.coordinate("C"), east: 300), type: 1)
        b.stop("D", at: nil, parent: "P")
        b.stop("F", near: "P", north: 2000)
        b.trip("T1", route: "R1", "A 0:00, C 0:10")
        b.trip("U1", route: "R2", "D 0:16:53, F 0:26:53")
        b.trip("U2", route: "R2", "D 0:16:54, F 0:26:54")
        let n = try b.build()
        #expect(try n.route("A", "F", at: "0:00")
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:16:54-0:26:54 ~ F"])
    }

    @Test func arriveByAlongAFootpath() throws {
        // Arrive at F by 0:30: R2 0:16:54 needs R1 at C by 0:16:54 − 414 s = 0:10:00: made.
        #expect(try Self.network(gap: 300, r2Departure: "0:16:54").route("A", "F", at: "0:30", arriveBy: true)
                == ["A ~ R1 0:00-0:10 ~ C ~ Change 6m54s ~ D ~ R2 0:16:54-0:26:54 ~ F"])
        // 0:16:53: 413 s, too short; the 0:40 trip arrives at 0:50, after 0:30: nothing.
        #expect(try Self.network(gap: 300, r2Departure: "0:16:53").route("A", "F", at: "0:30", arriveBy: true) == [])
        // 400 m apart: no footpath backwards either.
        #expect(try Self.network(gap: 400, r2Departure: "0:20").route("A", "F", at: "0:55", arriveBy: true) == [])
    }
}
