import Testing
import TransitModel
import TransitTesting

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
/// The router is asked at UTC instants, riding the service dates D − 1, D, D + 1 around
/// the local date D (the 29th); times print as local wall-clock time on the 29th. Reading
/// a local query time (the zone, a time in the gap or in the repeated hour) is the
/// planner's: Tests/PlannerTests/PlannerRulesTests.swift.
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

    /// The spring network's journeys at `time` UTC on `date`, printed in Berlin time on the 29th.
    static func spring(_ time: String, on date: ServiceDate = springDay, arriveBy: Bool = false) throws -> [String] {
        try springNetwork().route("A", "B", at: utcOn(date, time), day: springDay, arriveBy: arriveBy,
                                  zone: "Europe/Berlin", reference: springDay)
    }

    @Test func timesAfterTheChangeAreSummerTime() throws {
        // 01:00 UTC (03:00 CEST, the first valid minute) → T1: 01:20 → 01:50 UTC.
        let journeys = try Self.springNetwork().search("A", "B", at: Self.utcOn(Self.springDay, "1:00"), day: Self.springDay)
        #expect(journeys.first?.departure == Self.utcOn(Self.springDay, "1:20"))
        #expect(journeys.first?.arrival == Self.utcOn(Self.springDay, "1:50"))
        #expect(try Self.spring("1:00") == ["A ~ R1 3:20-3:50 ~ B"])
    }

    @Test func theRideLegCarriesUTCInstants() throws {
        // T2's ride leg: 01:40 → 02:10 UTC.
        let journeys = try Self.springNetwork().search("A", "B", at: Self.utcOn(Self.springDay, "1:30"), day: Self.springDay)
        let rides = journeys.flatMap(\.legs).compactMap { leg -> (Int64, Int64)? in
            if case .ride(_, _, _, _, _, let d, let a) = leg { return (d, a) }
            return nil
        }
        #expect(rides.count == 1)
        #expect(rides.first?.0 == Self.utcOn(Self.springDay, "1:40"))
        #expect(rides.first?.1 == Self.utcOn(Self.springDay, "2:10"))
    }

    @Test func aStopTimeBeforeTheChangeCountsFromNoonMinus12Hours() throws {
        // T0's 01:30:00 is 22:00 UTC + 1 h 30 = 23:30 UTC on the 28th = 00:30 CET on the
        // 29th (not 01:30). Asked at 23:00 UTC on the 28th (local 00:00): T0 is taken.
        let n = try Self.springNetwork()
        let before = Self.springDay.adding(days: -1)
        #expect(try n.search("A", "B", at: Self.utcOn(before, "23:00"), day: Self.springDay).first?.departure
                == Self.utcOn(before, "23:30"))
        #expect(try Self.spring("23:00", on: before) == ["A ~ R1 0:30-0:50 ~ B"])
        // 23:31 UTC (local 00:31): T0 has left; T1 next.
        #expect(try Self.spring("23:31", on: before) == ["A ~ R1 3:20-3:50 ~ B"])
    }

    @Test func theFallBackDayCountsFromNoonMinus12Hours() throws {
        // Sunday 2020-10-25, fall back: at 01:00 UTC, 03:00 CEST becomes 02:00 CET. Noon is
        // 12:00 CET = 11:00 UTC, noon minus 12 h = 23:00 UTC on the 24th.
        //     E1  A 01:40:00 → B 01:50:00   = 00:40 → 00:50 UTC = 02:40 → 02:50 CEST (first 02:xx)
        //     E2  A 02:40:00 → B 02:50:00   = 01:40 → 01:50 UTC = 02:40 → 02:50 CET (second 02:xx)
        // At 00:30 UTC: E1. At 00:41 UTC (still 02:41 CEST): E1 gone, E2 at 01:40 UTC, which
        // also prints 2:40 (02:40 CET).
        var b = NetworkBuilder(timezone: "Europe/Berlin", serviceDate: Self.autumnDay)
        b.line("A", "B")
        b.trip("E1", route: "R1", "A 01:40:00, B 01:50:00")
        b.trip("E2", route: "R1", "A 02:40:00, B 02:50:00")
        let n = try b.build()
        #expect(try n.search("A", "B", at: Self.utcOn(Self.autumnDay, "0:30"), day: Self.autumnDay).first?.departure
                == Self.utcOn(Self.autumnDay, "0:40"))
        #expect(try n.route("A", "B", at: Self.utcOn(Self.autumnDay, "0:30"), day: Self.autumnDay, zone: "Europe/Berlin",
                            reference: Self.autumnDay) == ["A ~ R1 2:40-2:50 ~ B"])
        #expect(try n.search("A", "B", at: Self.utcOn(Self.autumnDay, "0:41"), day: Self.autumnDay).first?.departure
                == Self.utcOn(Self.autumnDay, "1:40"))
        #expect(try n.route("A", "B", at: Self.utcOn(Self.autumnDay, "0:41"), day: Self.autumnDay, zone: "Europe/Berlin",
                            reference: Self.autumnDay) == ["A ~ R1 2:40-2:50 ~ B"])
    }

    @Test func eachTripRunsInItsAgencysTimeZone() throws {
        // Agencies AG (UTC) and BE (Europe/Berlin, CEST +02:00 on Monday 2020-04-20).
        //     R1 (AG)   A 10:00 → B 10:10       10:00 → 10:10 UTC
        //     R2 (BE)   A 11:00 → B 11:10       09:00 → 09:10 UTC
        // Asked at 08:30 UTC: R2 first, printed in UTC.
        var b = NetworkBuilder()
        b.agency("BE", timezone: "Europe/Berlin")
        b.line("A", "B")
        b.route("R2", agency: "BE")
        b.trip("T1", route: "R1", "A 10:00, B 10:10")
        b.trip("T2", route: "R2", "A 11:00, B 11:10")
        let n = try b.build()
        #expect(try n.route("A", "B", at: "8:30") == ["A ~ R2 9:00-9:10 ~ B"])
        #expect(try n.route("A", "B", at: "9:00:01") == ["A ~ R1 10:00-10:10 ~ B"])
    }

    @Test func arriveByOnTheSpringDay() throws {
        // Arrive by 02:00 UTC (local 04:00): T1 arrives 01:50 UTC, T2 02:10 UTC → T1.
        #expect(try Self.spring("2:00", arriveBy: true) == ["A ~ R1 3:20-3:50 ~ B"])
        // Arrive by 01:30 UTC: T0 (23:50 UTC) only.
        #expect(try Self.spring("1:30", arriveBy: true) == ["A ~ R1 0:30-0:50 ~ B"])
    }
}
