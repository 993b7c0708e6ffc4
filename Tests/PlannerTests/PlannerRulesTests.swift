import Geo
import Planner
import Raptor
import Testing
import TransitModel
import TransitTesting

// The planner's rules around the router, moved here from the router's feature tests
// (Tests/RaptorTests/A01…A15) when those went down a layer to `RaptorRouter` itself:
// what a `PlanQuery` adds to a `RaptorRequest` — places (a stop stands for its
// coordinates), local times read in a time zone (DST gaps and repeated hours), the
// walk-only journey, NO_STOP_NEARBY and BAD_PARAMETER, and the planner's order (the
// earliest arrival first). Each suite keeps the network and the name of the A-file it
// came from; the router's side of each rule stays there.

private let testDate = Rules.testDate
private let testOrigin = Rules.testOrigin
private func utc(_ time: String, on date: ServiceDate = Rules.testDate) -> Int64 { Rules.utc(time, on: date) }
private func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate { Rules.offset(c, north: north, east: east) }
private func params(_ change: (inout RoutingParameters) -> Void) -> RoutingParameters { Rules.params(change) }

@Suite("Planner rules")
struct PlannerRulesTests {
    /// A01's network: A ──R1── B ──R1── C ──R1── D, 2 km apart; T1 A 0:01 → D 0:15,
    /// T2 A 0:11 → D 0:25, T3 A 0:21 → D 0:35.
    @Suite("A01 single route, through the planner")
    struct A01_SingleRoute {
        static func network() throws -> PlannerNetwork {
            var n = NetworkBuilder()
            n.line("A", "B", "C", "D")
            n.trip("T1", route: "R1", "A 0:01, B 0:05, C 0:10, D 0:15")
            n.trip("T2", route: "R1", "A 0:11, B 0:15, C 0:20, D 0:25")
            n.trip("T3", route: "R1", "A 0:21, B 0:25, C 0:30, D 0:35")
            return try n.planner()
        }

        @Test func aLocalTimeInAUTCFeedIsThatInstant() throws {
            // Local 0:00 in a feed whose agency is in UTC is 0:00 UTC; the journey departs
            // at T1's 0:01, not at the query time.
            let result = try Self.network().plan("A", "D", at: "0:00")
            #expect(result.time == utc("0:00"))
            #expect(result.journeys.count == 1)
            #expect(result.journeys.first?.departure == utc("0:01"))
            #expect(result.journeys.first?.arrival == utc("0:15"))
            #expect(result.journeys.first?.rides == 1)
        }
    }

    /// A05's network: A ──R1── B; M1 (Monday's service) A 24:30 → B 24:40.
    @Suite("A05 past midnight, through the planner")
    struct A05_PastMidnight {
        @Test func theLocalDateOfTheQueryPicksTheServiceDates() throws {
            // Local Tuesday 00:20 (UTC): D = Tuesday, D − 1 = Monday → M1 at Tuesday 00:30.
            let monday = testDate, tuesday = testDate.adding(days: 1)
            var b = NetworkBuilder()
            b.service("MON", from: monday, to: monday)
            b.line("A", "B")
            b.trip("M1", route: "R1", service: "MON", "A 24:30, B 24:40")
            let n = try b.planner()
            #expect(try n.journeys("A", "B", at: "0:20", on: tuesday) == ["A ~ R1 24:30-24:40 ~ B"])
            let result = try n.plan("A", "B", at: "0:20", on: tuesday)
            #expect(result.time == utc("0:20", on: tuesday))
            #expect(result.journeys.first?.departure == utc("0:30", on: tuesday))
            #expect(result.journeys.first?.arrival == utc("0:40", on: tuesday))
        }
    }

    /// A06's network, agency time zone Europe/Berlin: A ──R1── B, 2 km apart.
    ///
    ///     Sunday 2020-03-29 (spring forward at 01:00 UTC; noon − 12 h = 22:00 UTC on the 28th)
    ///     R1    A          B            A (UTC)       B (UTC)      A (local)
    ///     T0    01:30:00 → 01:50:00     28th 23:30 →  23:50        00:30 CET
    ///     T1    03:20:00 → 03:50:00     29th 01:20 →  01:50        03:20 CEST
    ///     T2    03:40:00 → 04:10:00     29th 01:40 →  02:10        03:40 CEST
    ///
    /// Rules: a local query time is read in the zone of the first agency of the feed whose
    /// stop is nearest the origin; in the gap (02:00–03:00 does not exist) and in the
    /// repeated hour the offset before the change applies; an instant needs no zone.
    @Suite("A06 daylight saving time, local query times")
    struct A06_DaylightSaving {
        static let springDay = ServiceDate(year: 2020, month: 3, day: 29)!
        static let autumnDay = ServiceDate(year: 2020, month: 10, day: 25)!

        static func utcOn(_ date: ServiceDate, _ time: String) -> Int64 { utc(time, on: date) }

        static func springNetwork() throws -> PlannerNetwork {
            var n = NetworkBuilder(timezone: "Europe/Berlin", serviceDate: springDay)
            n.line("A", "B")
            n.trip("T0", route: "R1", "A 01:30:00, B 01:50:00")
            n.trip("T1", route: "R1", "A 03:20:00, B 03:50:00")
            n.trip("T2", route: "R1", "A 03:40:00, B 04:10:00")
            return try n.planner()
        }

        @Test func timesAfterTheChangeAreSummerTime() throws {
            // Local 03:00 (CEST, the first valid minute) = 01:00 UTC → T1: 01:20 → 01:50 UTC.
            let result = try Self.springNetwork().plan("A", "B", at: "3:00", on: Self.springDay)
            #expect(result.timeZone == "Europe/Berlin")
            #expect(result.time == Self.utcOn(Self.springDay, "1:00"))
            #expect(result.journeys.first?.departure == Self.utcOn(Self.springDay, "1:20"))
            #expect(result.journeys.first?.arrival == Self.utcOn(Self.springDay, "1:50"))
            #expect(try Self.springNetwork().journeys("A", "B", at: "3:00", on: Self.springDay, reference: Self.springDay)
                    == ["A ~ R1 3:20-3:50 ~ B"])
        }

        @Test func aQueryTimeInTheGapUsesTheOffsetBeforeTheChange() throws {
            // Local 02:30 does not exist; +01:00 applies → 01:30 UTC. T1 (01:20 UTC) has left,
            // T2 (01:40 UTC = 03:40 CEST) is taken. (With +02:00 it would be 00:30 UTC and T1.)
            let n = try Self.springNetwork()
            let result = try n.plan("A", "B", at: "2:30", on: Self.springDay)
            #expect(result.time == Self.utcOn(Self.springDay, "1:30"))
            #expect(try n.journeys("A", "B", at: "2:30", on: Self.springDay, reference: Self.springDay)
                    == ["A ~ R1 3:40-4:10 ~ B"])
        }

        @Test func localMidnightIsTheEveningBeforeInUTC() throws {
            // Local 00:00 on the 29th (CET) = 23:00 UTC on the 28th: T0 (23:30 UTC) is taken;
            // local 00:31: T0 has left, T1 next.
            let n = try Self.springNetwork()
            let result = try n.plan("A", "B", at: "0:00", on: Self.springDay)
            #expect(result.time == Self.utcOn(Self.springDay.adding(days: -1), "23:00"))
            #expect(result.journeys.first?.departure == Self.utcOn(Self.springDay.adding(days: -1), "23:30"))
            #expect(try n.journeys("A", "B", at: "0:00", on: Self.springDay, reference: Self.springDay)
                    == ["A ~ R1 0:30-0:50 ~ B"])
            #expect(try n.journeys("A", "B", at: "0:31", on: Self.springDay, reference: Self.springDay)
                    == ["A ~ R1 3:20-3:50 ~ B"])
        }

        @Test func anInstantQueryNeedsNoTimeZone() throws {
            // 01:20 UTC given as an instant: T1 exactly.
            let n = try Self.springNetwork()
            let result = try n.planner.plan(PlanQuery(from: .stop(feed: nil, id: "A"), to: .stop(feed: nil, id: "B"),
                                                      time: .instant(Self.utcOn(Self.springDay, "1:20"))))
            #expect(result.journeys.map { n.format($0, zone: result.timeZone, reference: Self.springDay) }
                    == ["A ~ R1 3:20-3:50 ~ B"])
        }

        @Test func aRepeatedHourUsesTheOffsetBeforeTheChange() throws {
            // Sunday 2020-10-25, fall back: at 01:00 UTC, 03:00 CEST becomes 02:00 CET.
            //     E1  A 01:40:00 → B 01:50:00   = 00:40 → 00:50 UTC = 02:40 → 02:50 CEST (first 02:xx)
            //     E2  A 02:40:00 → B 02:50:00   = 01:40 → 01:50 UTC = 02:40 → 02:50 CET (second 02:xx)
            // Local 02:30 happens twice; +02:00 (before the change) applies → 00:30 UTC → E1.
            var b = NetworkBuilder(timezone: "Europe/Berlin", serviceDate: Self.autumnDay)
            b.line("A", "B")
            b.trip("E1", route: "R1", "A 01:40:00, B 01:50:00")
            b.trip("E2", route: "R1", "A 02:40:00, B 02:50:00")
            let n = try b.planner()
            let result = try n.plan("A", "B", at: "2:30", on: Self.autumnDay)
            #expect(result.time == Self.utcOn(Self.autumnDay, "0:30"))
            #expect(result.journeys.first?.departure == Self.utcOn(Self.autumnDay, "0:40"))
            #expect(try n.journeys("A", "B", at: "2:30", on: Self.autumnDay, reference: Self.autumnDay)
                    == ["A ~ R1 2:40-2:50 ~ B"])
            // 00:41 UTC as an instant (still 02:41 CEST): E1 gone, E2 at 01:40 UTC.
            let later = try n.planner.plan(PlanQuery(from: .stop(feed: nil, id: "A"), to: .stop(feed: nil, id: "B"),
                                                     time: .instant(Self.utcOn(Self.autumnDay, "0:41"))))
            #expect(later.journeys.first?.departure == Self.utcOn(Self.autumnDay, "1:40"))
        }

        @Test func theQueryZoneIsTheFeedsFirstAgencys() throws {
            // Agencies AG (UTC, the feed's first: the query's zone) and BE (Europe/Berlin):
            //     R1 (AG)   A 10:00 → B 10:10       10:00 → 10:10 UTC
            //     R2 (BE)   A 11:00 → B 11:10       09:00 → 09:10 UTC
            // Asked at local 08:30, read in UTC: R2 first, printed in UTC.
            var b = NetworkBuilder()
            b.agency("BE", timezone: "Europe/Berlin")
            b.line("A", "B")
            b.route("R2", agency: "BE")
            b.trip("T1", route: "R1", "A 10:00, B 10:10")
            b.trip("T2", route: "R2", "A 11:00, B 11:10")
            let n = try b.planner()
            let result = try n.plan("A", "B", at: "8:30")
            #expect(result.timeZone == "UTC")
            #expect(try n.journeys("A", "B", at: "8:30") == ["A ~ R2 9:00-9:10 ~ B"])
            #expect(try n.journeys("A", "B", at: "9:00:01") == ["A ~ R1 10:00-10:10 ~ B"])
        }

        @Test func arriveByALocalTimeOnTheSpringDay() throws {
            // Arrive by local 04:00 (02:00 UTC): T1 arrives 01:50 UTC, T2 02:10 UTC → T1.
            #expect(try Self.springNetwork().journeys("A", "B", at: "4:00", on: Self.springDay, arriveBy: true,
                                                      reference: Self.springDay) == ["A ~ R1 3:20-3:50 ~ B"])
            // Arrive by local 02:30 (in the gap: +01:00 → 01:30 UTC): T0 (23:50 UTC) only.
            #expect(try Self.springNetwork().journeys("A", "B", at: "2:30", on: Self.springDay, arriveBy: true,
                                                      reference: Self.springDay) == ["A ~ R1 0:30-0:50 ~ B"])
        }
    }

    /// A10's network:
    ///
    ///             Q                     (300 m north of D)
    ///     A ──R1── B ──R1── C ──R1── D  2 km apart
    ///     P                             (300 m south of A)
    ///
    ///     R1   T1   A 0:10   B 0:15   C 0:20   D 0:25
    ///          T2   A 0:40   B 0:45   C 0:50   D 0:55
    ///
    /// Rules: a walk-only journey is offered when walkMeters ≤ maxDirectWalk (2000 m) and
    /// leaves at T; with no stop within maxAccessWalk of an end and no walk-only journey:
    /// NO_STOP_NEARBY, saying which end and how far the nearest stop is on foot; a stop
    /// given as an end stands for its coordinates.
    @Suite("A10 walking, through the planner")
    struct A10_AccessEgress {
        static func network() throws -> PlannerNetwork {
            var n = NetworkBuilder()
            n.line("A", "B", "C", "D")
            n.trip("T1", route: "R1", "A 0:10, B 0:15, C 0:20, D 0:25")
            n.trip("T2", route: "R1", "A 0:40, B 0:45, C 0:50, D 0:55")
            return try n.planner()
        }

        static var q: Coordinate { offset(testOrigin, north: 6300) }

        @Test func walkOnlyWhereNoStopIsNear() throws {
            // 5 km west of A, no stop within reach; origin and destination 1000 m apart:
            // 1300 m walked ≤ 2000 → walk-only, leaving at T: ceil(977.44) = 978 s = 16m18s.
            let n = try Self.network()
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
            let n = try b.planner()
            // Earliest arrival first.
            #expect(try n.journeys("A", "B", at: "0:00") == ["A ~ R1 0:05-0:10 ~ B", "Walk 0:00-0:19:33"])
            #expect(try n.journeys("A", "B", at: "0:06") == ["Walk 0:06-0:25:33", "A ~ R1 0:30-0:35 ~ B"])
            // maxDirectWalk 1500 < 1560: no walk-only.
            #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxDirectWalk = 1500 }) == ["A ~ R1 0:05-0:10 ~ B"])
        }

        @Test func noStopNearTheOrigin() throws {
            // 5 km west of A: the nearest stop is A, 5000 m × 1.3 = 6500 m on foot.
            let n = try Self.network()
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
            let n = try Self.network()
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
            let n = try Self.network()
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
            let n = try Self.network()
            #expect(try n.journeys(.stop(feed: nil, id: "A"), .coordinate(Self.q), at: "0:00")
                    == ["A ~ R1 0:10-0:25 ~ D ~ Walk 0:25-0:29:54"])
        }
    }

    /// A11: arrive-by with a walk-only journey. A ──R1── B, 1200 m apart; R1 A 0:30 → B 0:35.
    @Suite("A11 arrive-by, through the planner")
    struct A11_ArriveBy {
        @Test func walkOnlyArrivesAtT() throws {
            // Walk-only 1173 s (A10), arriving at T = 1:00, leaving 0:40:27. R1 A 0:30 → B 0:35
            // is the only ride: it leaves earlier, the walk is listed first.
            var b = NetworkBuilder()
            b.line("A", "B", spacing: 1200)
            b.trip("T1", route: "R1", "A 0:30, B 0:35")
            let n = try b.planner()
            #expect(try n.journeys("A", "B", at: "1:00", arriveBy: true) == ["Walk 0:40:27-1:00", "A ~ R1 0:30-0:35 ~ B"])
        }
    }

    /// A12's network:
    ///
    ///     A ──R2── B ──R3── C          2 km apart
    ///      ╲──────R1───────╱           (R1 does not stop at B)
    ///               │
    ///               E                  2 km east of B (only in `threeRides`)
    ///
    ///     R1   A 0:00 → C 0:40                          1 ride, slow
    ///     R2   A 0:05 → B 0:10;  R3  B 0:12 → C <arr>   2 rides
    ///
    /// Rule: the router lists its Pareto set by ascending rides; the planner lists the
    /// earliest arrival first (fewer rides, then less walking, breaking ties).
    @Suite("A12 Pareto set, in the planner's order")
    struct A12_ParetoSet {
        static let oneRide = "A ~ R1 0:00-0:40 ~ C"

        @Test func theEarliestArrivalFirst() throws {
            var b = NetworkBuilder()
            b.line("A", "B", "C")
            b.trip("T1", route: "R1", "A 0:00, C 0:40")
            b.trip("U1", route: "R2", "A 0:05, B 0:10")
            b.trip("V1", route: "R3", "B 0:12, C 0:20")
            let n = try b.planner()
            let twoRides = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R3 0:12-0:20 ~ C"
            #expect(try n.journeys("A", "C", at: "0:00") == [twoRides, Self.oneRide])
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
            let n = try b.planner()
            let two = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R3 0:12-0:30 ~ C"
            let three = "A ~ R2 0:05-0:10 ~ B ~ Change 2m ~ B ~ R4 0:12-0:15 ~ E ~ Change 2m ~ E ~ R5 0:17-0:20 ~ C"
            #expect(try n.journeys("A", "C", at: "0:00") == [three, two, Self.oneRide])
        }
    }

    /// A14's network: A ──R1── B, 2 km apart; R1 A 0:10 → B 0:20.
    ///
    /// Rule: the planner answers PlanError code BAD_PARAMETER whose message names the
    /// parameter (the router's `ParameterError` is A14's).
    @Suite("A14 parameters, through the planner")
    struct A14_Parameters {
        static func network() throws -> PlannerNetwork {
            var n = NetworkBuilder()
            n.line("A", "B")
            n.trip("T1", route: "R1", "A 0:10, B 0:20")
            return try n.planner()
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

        @Test func valuesAtTheEdgesAreAccepted() throws {
            // maxTransfers 0 (one ride), transferSlack 0, maxAccessWalk 0 for stop-to-stop
            // (each stop is 0 m from its own coordinates).
            let n = try Self.network()
            #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxTransfers = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
            #expect(try n.journeys("A", "B", at: "0:00", params { $0.transferSlack = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
            #expect(try n.journeys("A", "B", at: "0:00", params { $0.maxAccessWalk = 0 }) == ["A ~ R1 0:10-0:20 ~ B"])
        }
    }

    /// A15's network: A ──R1── B ──R1── C, A ──R2── C (express).
    ///
    ///     R1    T1 A 0:01 → C 0:15   T2 A 0:11 → C 0:25   T3 A 0:21 → C 0:35
    ///     R2    X1 A 0:12 → C 0:20
    @Suite("A15 range, through the planner")
    struct A15_Range {
        static func network() throws -> PlannerNetwork {
            var n = NetworkBuilder()
            n.line("A", "B", "C")
            n.trip("T1", route: "R1", "A 0:01, B 0:08, C 0:15")
            n.trip("T2", route: "R1", "A 0:11, B 0:18, C 0:25")
            n.trip("T3", route: "R1", "A 0:21, B 0:28, C 0:35")
            n.trip("X1", route: "R2", "A 0:12, C 0:20")
            return try n.planner()
        }

        @Test func aWindowGivesTheRangeByDeparture() throws {
            // A local time and a window of 30 minutes: T1, X1, T3 (T2 is beaten by X1).
            let n = try Self.network()
            let result = try n.planner.plan(PlanQuery(from: .stop(feed: nil, id: "A"), to: .stop(feed: nil, id: "C"),
                                                      time: Rules.localTime("0:00", on: testDate), window: 30 * 60))
            #expect(result.journeys.map { n.format($0, zone: result.timeZone) }
                    == ["A ~ R1 0:01-0:15 ~ C", "A ~ R2 0:12-0:20 ~ C", "A ~ R1 0:21-0:35 ~ C"])
        }

        @Test func aWindowWithArriveByIsRefused() throws {
            let n = try Self.network()
            #expect(throws: PlanError.self) {
                try n.planner.plan(PlanQuery(from: .stop(feed: nil, id: "A"), to: .stop(feed: nil, id: "C"),
                                             time: Rules.localTime("0:30", on: testDate), arriveBy: true, window: 600))
            }
        }
    }
}
