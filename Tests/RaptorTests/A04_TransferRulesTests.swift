import Testing
import TransitTesting

/// A04 — transfers.txt rows (`from_stop_id`, `to_stop_id`, `transfer_type`, `min_transfer_time`).
///
///     Z ─────────────────── (2 km north of X)
///     ▲R2          ▲R3
///     X ┄┄┄ gap ┄┄┄ Y       X, Y: children of station S (S sits where X is)
///     ▲R1
///     A                     (2 km south of X)
///
///     R1    A 0:00 → X 0:10
///     R2    X <dep> → Z <dep> + 10 min     (a change at X itself)
///     R3    Y <dep> → Z <dep> + 10 min     (a change along the footpath X → Y)
///
/// Without rows (A02, A03): at X 120 s; X → Y 300 m apart: 294 s walk + 120 s = 414 s.
/// Rows: type 0 (or any value but 1–3) creates the footpath whatever its length; type 1
/// drops the slack; type 2 takes max(walk + slack, min_transfer_time) (at one stop:
/// max(slack, min)); type 3 forbids. A station stands for its boardable children; a row
/// naming both stops wins over one naming a station; among equals the later row wins.
@Suite("A04 transfers.txt")
struct A04_TransferRulesTests {
    typealias Row = (from: String, to: String, type: Int8, min: Int32?)

    static func network(gap: Double = 300, x: [String] = [], y: [String] = [], rows: [Row] = []) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.stop("A", at: testOrigin)
        n.stop("S", at: offset(testOrigin, north: 2000), type: 1)
        n.stop("X", at: offset(testOrigin, north: 2000), parent: "S")
        n.stop("Y", near: "X", east: gap, parent: "S")
        n.stop("Z", near: "X", north: 2000)
        n.trip("T1", route: "R1", "A 0:00, X 0:10")
        func plus10(_ dep: String) -> String { let a = clock(dep) + 600; return "\(a / 3600):\(a / 60 % 60):\(a % 60)" }
        for (i, dep) in x.enumerated() { n.trip("U\(i)", route: "R2", "X \(dep), Z \(plus10(dep))") }
        for (i, dep) in y.enumerated() { n.trip("V\(i)", route: "R3", "Y \(dep), Z \(plus10(dep))") }
        for r in rows { n.transfer(r.from, r.to, type: r.type, minTransferTime: r.min) }
        return try n.build()
    }

    static func route(_ n: TestNetwork) throws -> [String] { try n.route("A", "Z", at: "0:00") }

    // MARK: type 0

    @Test func type0CreatesALongFootpath() throws {
        // X → Y 1500 m: 1950 m walked > maxTransferWalk 500, and beyond the 1000 m footpath
        // radius: no footpath, no journey.
        #expect(try Self.route(Self.network(gap: 1500, y: ["0:36:26", "0:36:27"])) == [])
        // With a type 0 row: ceil(1950 / 1.33) = ceil(1466.17) = 1467 s, + 120 = 1587 s
        // = 26m27s → ready 0:36:27: the 0:36:26 trip is missed, the 0:36:27 one made.
        #expect(try Self.route(Self.network(gap: 1500, y: ["0:36:26", "0:36:27"], rows: [("X", "Y", 0, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 26m27s ~ Y ~ R3 0:36:27-0:46:27 ~ Z"])
    }

    @Test func anUnknownTypeIsLikeType0() throws {
        // transfer_type 5 is treated as 0.
        #expect(try Self.route(Self.network(gap: 1500, y: ["0:36:26", "0:36:27"], rows: [("X", "Y", 5, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 26m27s ~ Y ~ R3 0:36:27-0:46:27 ~ Z"])
    }

    @Test func type0OnANearPairChangesNothing() throws {
        // 300 m: 414 s with or without the row.
        #expect(try Self.route(Self.network(y: ["0:16:53", "0:16:54"], rows: [("X", "Y", 0, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:16:54-0:26:54 ~ Z"])
    }

    @Test func aRowOnlyWorksOneWay() throws {
        // A row Y → X does not create X → Y.
        #expect(try Self.route(Self.network(gap: 1500, y: ["0:36:27"], rows: [("Y", "X", 0, nil)])) == [])
    }

    // MARK: type 1

    @Test func type1AtOneStopNeedsNoSlack() throws {
        // Without a row: 0:10 + 120 s → the 0:20 trip.
        #expect(try Self.route(Self.network(x: ["0:10", "0:20"]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 2m ~ X ~ R2 0:20-0:30 ~ Z"])
        // Timed: change time 0 → the 0:10 trip, leaving as R1 arrives.
        #expect(try Self.route(Self.network(x: ["0:10", "0:20"], rows: [("X", "X", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 0s ~ X ~ R2 0:10-0:20 ~ Z"])
    }

    @Test func type1AlongAFootpathIsTheWalkOnly() throws {
        // X → Y timed: 294 s → ready 0:14:54; 0:14:53 missed.
        #expect(try Self.route(Self.network(y: ["0:14:53", "0:14:54"], rows: [("X", "Y", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 4m54s ~ Y ~ R3 0:14:54-0:24:54 ~ Z"])
        // Without it: 414 s → neither; no later trip → no journey.
        #expect(try Self.route(Self.network(y: ["0:14:53", "0:14:54"])) == [])
    }

    // MARK: type 2

    @Test func type2AtOneStop() throws {
        // max(120, 300) = 300 → 0:12 missed, 0:15 made.
        #expect(try Self.route(Self.network(x: ["0:12", "0:15"], rows: [("X", "X", 2, 300)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 5m ~ X ~ R2 0:15-0:25 ~ Z"])
        // max(120, 60) = 120 → 0:12.
        #expect(try Self.route(Self.network(x: ["0:12", "0:15"], rows: [("X", "X", 2, 60)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 2m ~ X ~ R2 0:12-0:22 ~ Z"])
        // An empty min_transfer_time counts as 0 → 120 s.
        #expect(try Self.route(Self.network(x: ["0:12", "0:15"], rows: [("X", "X", 2, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 2m ~ X ~ R2 0:12-0:22 ~ Z"])
    }

    @Test func type2AlongAFootpath() throws {
        // max(294 + 120, 600) = 600 → ready 0:20: 0:16:54 missed.
        #expect(try Self.route(Self.network(y: ["0:16:54", "0:20"], rows: [("X", "Y", 2, 600)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 10m ~ Y ~ R3 0:20-0:30 ~ Z"])
        // max(414, 100) = 414 → 0:16:54.
        #expect(try Self.route(Self.network(y: ["0:16:54", "0:20"], rows: [("X", "Y", 2, 100)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:16:54-0:26:54 ~ Z"])
    }

    @Test func type2CreatesAFootpathOverMaxTransferWalk() throws {
        // 400 m: 520 m walked > 500, but the row creates the footpath: 391 + 120 = 511 s.
        #expect(try Self.route(Self.network(gap: 400, y: ["0:18:31"])) == [])
        #expect(try Self.route(Self.network(gap: 400, y: ["0:18:31"], rows: [("X", "Y", 2, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 8m31s ~ Y ~ R3 0:18:31-0:28:31 ~ Z"])
    }

    // MARK: type 3

    @Test func type3ForbidsAlightingAndReboardingAtOneStop() throws {
        // Without the row: R2 at 0:12. With it the change at X is impossible; the only way
        // left is the footpath to Y (414 s) and R3 at 0:30.
        #expect(try Self.route(Self.network(x: ["0:12"], y: ["0:30"]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 2m ~ X ~ R2 0:12-0:22 ~ Z"])
        #expect(try Self.route(Self.network(x: ["0:12"], y: ["0:30"], rows: [("X", "X", 3, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:30-0:40 ~ Z"])
        #expect(try Self.route(Self.network(x: ["0:12"], rows: [("X", "X", 3, nil)])) == [])
    }

    @Test func type3ForbidsAFootpathOneWay() throws {
        #expect(try Self.route(Self.network(y: ["0:20"], rows: [("X", "Y", 3, nil)])) == [])
        // Y → X forbidden says nothing about X → Y.
        #expect(try Self.route(Self.network(y: ["0:20"], rows: [("Y", "X", 3, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:20-0:30 ~ Z"])
    }

    // MARK: stations, precedence

    @Test func aStationStandsForEachOfItsChildren() throws {
        // S → S type 3: X → X and X → Y both forbidden.
        #expect(try Self.route(Self.network(x: ["0:12"], y: ["0:20"], rows: [("S", "S", 3, nil)])) == [])
        // S → Y type 2, 600 s: X → Y takes 600 s.
        #expect(try Self.route(Self.network(y: ["0:16:54", "0:20"], rows: [("S", "Y", 2, 600)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 10m ~ Y ~ R3 0:20-0:30 ~ Z"])
        // S → S type 1: X → X needs 0 s, X → Y 294 s.
        #expect(try Self.route(Self.network(x: ["0:10"], rows: [("S", "S", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 0s ~ X ~ R2 0:10-0:20 ~ Z"])
        #expect(try Self.route(Self.network(y: ["0:14:54"], rows: [("S", "S", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 4m54s ~ Y ~ R3 0:14:54-0:24:54 ~ Z"])
    }

    @Test func aDirectRowBeatsAStationRow() throws {
        // X → Y named directly (600 s) wins over the later S → S (forbidden); X → X is
        // covered by S → S only, so it stays forbidden.
        let expected = ["A ~ R1 0:00-0:10 ~ X ~ Change 10m ~ Y ~ R3 0:20-0:30 ~ Z"]
        #expect(try Self.route(Self.network(x: ["0:12"], y: ["0:16:54", "0:20"],
                                           rows: [("X", "Y", 2, 600), ("S", "S", 3, nil)])) == expected)
        // The order of the rows does not matter here.
        #expect(try Self.route(Self.network(x: ["0:12"], y: ["0:16:54", "0:20"],
                                           rows: [("S", "S", 3, nil), ("X", "Y", 2, 600)])) == expected)
    }

    @Test func theLaterRowWins() throws {
        #expect(try Self.route(Self.network(y: ["0:16:54", "0:20"], rows: [("X", "Y", 3, nil), ("X", "Y", 2, 600)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 10m ~ Y ~ R3 0:20-0:30 ~ Z"])
        #expect(try Self.route(Self.network(y: ["0:16:54", "0:20"], rows: [("X", "Y", 2, 600), ("X", "Y", 3, nil)])) == [])
        // Among two station rows too.
        #expect(try Self.route(Self.network(x: ["0:10", "0:20"], rows: [("S", "S", 3, nil), ("S", "S", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 0s ~ X ~ R2 0:10-0:20 ~ Z"])
        #expect(try Self.route(Self.network(x: ["0:10", "0:20"], rows: [("S", "S", 1, nil), ("S", "S", 3, nil)])) == [])
    }

    // MARK: the same rules, searching backwards

    static func arriveBy(_ n: TestNetwork, _ time: String) throws -> [String] {
        try n.route("A", "Z", at: time, arriveBy: true)
    }

    @Test func rulesHoldForArriveBy() throws {
        // type 0, 1500 m: 1587 s → R3 at 0:36:27 reaches Z 0:46:27 ≤ 1:00.
        #expect(try Self.arriveBy(Self.network(gap: 1500, y: ["0:36:27"], rows: [("X", "Y", 0, nil)]), "1:00")
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 26m27s ~ Y ~ R3 0:36:27-0:46:27 ~ Z"])
        #expect(try Self.arriveBy(Self.network(gap: 1500, y: ["0:36:27"]), "1:00") == [])
        // type 1 at X: R2 at 0:10, as R1 arrives.
        #expect(try Self.arriveBy(Self.network(x: ["0:10"], rows: [("X", "X", 1, nil)]), "0:20")
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 0s ~ X ~ R2 0:10-0:20 ~ Z"])
        #expect(try Self.arriveBy(Self.network(x: ["0:10"]), "0:20") == [])
        // type 2 along the footpath, 600 s: R3 at 0:16:54 is too early, the 0:20 one fits.
        #expect(try Self.arriveBy(Self.network(y: ["0:16:54", "0:20"], rows: [("X", "Y", 2, 600)]), "0:40")
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 10m ~ Y ~ R3 0:20-0:30 ~ Z"])
        // type 3 one way.
        #expect(try Self.arriveBy(Self.network(y: ["0:20"], rows: [("X", "Y", 3, nil)]), "0:40") == [])
        #expect(try Self.arriveBy(Self.network(y: ["0:20"], rows: [("Y", "X", 3, nil)]), "0:40")
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:20-0:30 ~ Z"])
        // A station row.
        #expect(try Self.arriveBy(Self.network(x: ["0:12"], y: ["0:20"], rows: [("S", "S", 3, nil)]), "0:40") == [])
    }

    @Test func type1CreatesALongFootpathToo() throws {
        // X → Y 1500 m, timed: the walk alone, 1467 s = 24m27s → ready 0:34:27.
        #expect(try Self.route(Self.network(gap: 1500, y: ["0:34:26", "0:34:27"], rows: [("X", "Y", 1, nil)]))
                == ["A ~ R1 0:00-0:10 ~ X ~ Change 24m27s ~ Y ~ R3 0:34:27-0:44:27 ~ Z"])
    }

    @Test func rowsNamingAnEntranceAreIgnored() throws {
        // Entrance E (location_type 2) of station S: a row E → Y type 3 is ignored (E is not
        // S), so X → Y stays a plain 414 s footpath.
        var b = NetworkBuilder()
        b.stop("A", at: testOrigin)
        b.stop("S", at: offset(testOrigin, north: 2000), type: 1)
        b.stop("X", at: offset(testOrigin, north: 2000), parent: "S")
        b.stop("E", at: offset(testOrigin, north: 2050), type: 2, parent: "S")
        b.stop("Y", near: "X", east: 300, parent: "S")
        b.stop("Z", near: "X", north: 2000)
        b.trip("T1", route: "R1", "A 0:00, X 0:10")
        b.trip("V1", route: "R3", "Y 0:20, Z 0:30")
        b.transfer("E", "Y", type: 3)
        b.transfer("X", "E", type: 3)
        let n = try b.build()
        #expect(try n.route("A", "Z", at: "0:00") == ["A ~ R1 0:00-0:10 ~ X ~ Change 6m54s ~ Y ~ R3 0:20-0:30 ~ Z"])
    }
}
