import Planner
import Testing
import TransitModel

/// A06 — daylight saving time. Agency time zone Europe/Berlin.
///
///     A ──R1── B                 2 km apart
///
/// Sunday 2020-03-29, spring forward: at 01:00 UTC, 02:00 CET (+01:00) becomes 03:00 CEST
/// (+02:00). Noon is 12:00 CEST = 10:00 UTC, so "noon minus 12 h" is 22:00 UTC on the
/// 28th (23:00 CET): every stop time of that service date counts from 22:00 UTC.
///
///     R1    A          B            A (UTC)       B (UTC)      A (local)
///     T0    01:30:00 → 01:50:00     28th 23:30 →  23:50        00:30 CET
///     T1    03:20:00 → 03:50:00     29th 01:20 →  01:50        03:20 CEST
///     T2    03:40:00 → 04:10:00     29th 01:40 →  02:10        03:40 CEST
///
/// Local query times: in the gap (02:00–03:00 does not exist) the offset before the
/// change (+01:00) applies. Times print as local wall-clock time on the 29th.
@Suite("A06 daylight saving time")
struct A06_DaylightSavingTests {
    static let springDay = ServiceDate(year: 2020, month: 3, day: 29)!
    static let autumnDay = ServiceDate(year: 2020, month: 10, day: 25)!

    static func utcOn(_ date: ServiceDate, _ time: String) -> Int64 { utc(time, on: date) }

    static func springNetwork() throws -> TestNetwork {
        var n = NetworkBuilder(timezone: "Europe/Berlin", serviceDate: springDay)
        n.line("A", "B")
        n.trip("T0", route: "R1", "A 01:30:00, B 01:50:00")
        n.trip("T1", route: "R1", "A 03:20:00, B 03:50:00")
        n.trip("T2", route: "R1", "A 03:40:00, B 04:10:00")
        return try n.build()
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

    @Test func theRideLegCarriesUTCInstants() throws {
        // T2's ride leg: 01:40 → 02:10 UTC.
        let result = try Self.springNetwork().plan("A", "B", at: "3:30", on: Self.springDay)
        let rides = result.journeys.flatMap(\.legs).compactMap { leg -> (Int64, Int64)? in
            if case .ride(_, _, _, _, _, let d, let a) = leg { return (d, a) }
            return nil
        }
        #expect(rides.count == 1)
        #expect(rides.first?.0 == Self.utcOn(Self.springDay, "1:40"))
        #expect(rides.first?.1 == Self.utcOn(Self.springDay, "2:10"))
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

    @Test func aStopTimeBeforeTheChangeCountsFromNoonMinus12Hours() throws {
        // T0's 01:30:00 is 22:00 UTC + 1 h 30 = 23:30 UTC on the 28th = 00:30 CET on the
        // 29th (not 01:30). Asked at local 00:00 (23:00 UTC): T0 is taken.
        let n = try Self.springNetwork()
        let result = try n.plan("A", "B", at: "0:00", on: Self.springDay)
        #expect(result.time == Self.utcOn(Self.springDay.adding(days: -1), "23:00"))
        #expect(result.journeys.first?.departure == Self.utcOn(Self.springDay.adding(days: -1), "23:30"))
        #expect(try n.journeys("A", "B", at: "0:00", on: Self.springDay, reference: Self.springDay)
                == ["A ~ R1 0:30-0:50 ~ B"])
        // Local 00:31 (23:31 UTC): T0 has left; T1 next.
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
        // Sunday 2020-10-25, fall back: at 01:00 UTC, 03:00 CEST becomes 02:00 CET. Noon is
        // 12:00 CET = 11:00 UTC, noon minus 12 h = 23:00 UTC on the 24th.
        //     E1  A 01:40:00 → B 01:50:00   = 00:40 → 00:50 UTC = 02:40 → 02:50 CEST (first 02:xx)
        //     E2  A 02:40:00 → B 02:50:00   = 01:40 → 01:50 UTC = 02:40 → 02:50 CET (second 02:xx)
        // Local 02:30 happens twice; +02:00 (before the change) applies → 00:30 UTC → E1.
        var b = NetworkBuilder(timezone: "Europe/Berlin", serviceDate: Self.autumnDay)
        b.line("A", "B")
        b.trip("E1", route: "R1", "A 01:40:00, B 01:50:00")
        b.trip("E2", route: "R1", "A 02:40:00, B 02:50:00")
        let n = try b.build()
        let result = try n.plan("A", "B", at: "2:30", on: Self.autumnDay)
        #expect(result.time == Self.utcOn(Self.autumnDay, "0:30"))
        #expect(result.journeys.first?.departure == Self.utcOn(Self.autumnDay, "0:40"))
        #expect(try n.journeys("A", "B", at: "2:30", on: Self.autumnDay, reference: Self.autumnDay)
                == ["A ~ R1 2:40-2:50 ~ B"])
        // 00:41 UTC as an instant (still 02:41 CEST): E1 gone, E2 at 01:40 UTC, which also
        // prints 2:40 (02:40 CET).
        let later = try n.planner.plan(PlanQuery(from: .stop(feed: nil, id: "A"), to: .stop(feed: nil, id: "B"),
                                                 time: .instant(Self.utcOn(Self.autumnDay, "0:41"))))
        #expect(later.journeys.first?.departure == Self.utcOn(Self.autumnDay, "1:40"))
    }

    @Test func eachTripRunsInItsAgencysTimeZone() throws {
        // Agencies AG (UTC, the feed's first: the query's zone) and BE (Europe/Berlin, CEST
        // +02:00 on Monday 2020-04-20).
        //     R1 (AG)   A 10:00 → B 10:10       10:00 → 10:10 UTC
        //     R2 (BE)   A 11:00 → B 11:10       09:00 → 09:10 UTC
        // Asked at 08:30 (UTC): R2 first, printed in UTC.
        var b = NetworkBuilder()
        b.agency("BE", timezone: "Europe/Berlin")
        b.line("A", "B")
        b.route("R2", agency: "BE")
        b.trip("T1", route: "R1", "A 10:00, B 10:10")
        b.trip("T2", route: "R2", "A 11:00, B 11:10")
        let n = try b.build()
        let result = try n.plan("A", "B", at: "8:30")
        #expect(result.timeZone == "UTC")
        #expect(try n.journeys("A", "B", at: "8:30") == ["A ~ R2 9:00-9:10 ~ B"])
        #expect(try n.journeys("A", "B", at: "9:00:01") == ["A ~ R1 10:00-10:10 ~ B"])
    }

    @Test func arriveByOnTheSpringDay() throws {
        // Arrive by local 04:00 (02:00 UTC): T1 arrives 01:50 UTC, T2 02:10 UTC → T1.
        #expect(try Self.springNetwork().journeys("A", "B", at: "4:00", on: Self.springDay, arriveBy: true,
                                                  reference: Self.springDay) == ["A ~ R1 3:20-3:50 ~ B"])
        // Arrive by local 02:30 (in the gap: +01:00 → 01:30 UTC): T0 (23:50 UTC) only.
        #expect(try Self.springNetwork().journeys("A", "B", at: "2:30", on: Self.springDay, arriveBy: true,
                                                  reference: Self.springDay) == ["A ~ R1 0:30-0:50 ~ B"])
    }
}
