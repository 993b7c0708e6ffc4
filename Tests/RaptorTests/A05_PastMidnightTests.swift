import Testing
import TransitModel
import TransitTesting

/// A05 — trips that run past midnight belong to the previous service date.
///
///     A ──R1── B                 2 km apart; agency time zone UTC
///
///     service MON: Monday 2020-04-20 only      service TUE: Tuesday 2020-04-21 only
///     R1  M1 (MON)   A 24:30 → B 24:40         (Tuesday 00:30 → 00:40)
///     R1  U1 (TUE)   A  0:25 → B  0:35         (Tuesday 00:25 → 00:35)
///
/// Rule: `HH:MM:SS` on service date D is noon of D minus 12 h plus HH:MM:SS; a query at
/// instant T rides the trips of service dates D − 1, D and D + 1 (D = local date of T).
/// Times print from midnight of Monday, so Tuesday 00:30 prints `24:30`.
@Suite("A05 trips past midnight")
struct A05_PastMidnightTests {
    static let monday = testDate
    static let tuesday = testDate.adding(days: 1)

    static func network(withTuesdayTrip: Bool = false) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.service("MON", from: monday, to: monday)
        n.service("TUE", from: tuesday, to: tuesday)
        n.line("A", "B")
        n.trip("M1", route: "R1", service: "MON", "A 24:30, B 24:40")
        if withTuesdayTrip { n.trip("U1", route: "R1", service: "TUE", "A 0:25, B 0:35") }
        return try n.build()
    }

    @Test func mondaysTripIsFoundOnTuesdayMorning() throws {
        // Tuesday 00:20: D = Tuesday, D − 1 = Monday → M1 at Monday 24:30 = Tuesday 00:30.
        let n = try Self.network()
        #expect(try n.route("A", "B", at: "0:20", on: Self.tuesday) == ["A ~ R1 24:30-24:40 ~ B"])
        let journeys = try n.search("A", "B", at: utc("0:20", on: Self.tuesday))
        #expect(journeys.first?.departure == utc("0:30", on: Self.tuesday))
        #expect(journeys.first?.arrival == utc("0:40", on: Self.tuesday))
    }

    @Test func andOnMondayEvening() throws {
        // Monday 23:50: D = Monday; M1 leaves 40 minutes later.
        #expect(try Self.network().route("A", "B", at: "23:50") == ["A ~ R1 24:30-24:40 ~ B"])
    }

    @Test func missedAfterItsDeparture() throws {
        // Tuesday 00:30:01: M1 has left; nothing else runs.
        #expect(try Self.network().route("A", "B", at: "0:30:01", on: Self.tuesday) == [])
    }

    @Test func notTwoDaysLater() throws {
        // Wednesday 00:20: D − 1 = Tuesday, whose trips (none past midnight here) are not
        // Monday's: M1 does not run "every night".
        #expect(try Self.network().route("A", "B", at: "0:20", on: Self.tuesday.adding(days: 1)) == [])
    }

    @Test func bothServiceDatesAreMerged() throws {
        // Tuesday 00:20: U1 (Tuesday 00:25) comes before M1 (Tuesday 00:30).
        let n = try Self.network(withTuesdayTrip: true)
        #expect(try n.route("A", "B", at: "0:20", on: Self.tuesday) == ["A ~ R1 24:25-24:35 ~ B"])
        // Tuesday 00:25:01: U1 gone, M1 still to come.
        #expect(try n.route("A", "B", at: "0:25:01", on: Self.tuesday) == ["A ~ R1 24:30-24:40 ~ B"])
    }

    @Test func theServiceDateNotTheCalendarDateDecides() throws {
        // The same 24:30 trip on a Tuesday-only service leaves on Wednesday at 00:30 (the
        // service date plus 24:30), not on Tuesday: asked Tuesday 00:20, it is found (D is
        // Tuesday) but departs a day later.
        var b = NetworkBuilder()
        b.service("TUEONLY", from: Self.tuesday, to: Self.tuesday)
        b.line("A", "B")
        b.trip("M1", route: "R1", service: "TUEONLY", "A 24:30, B 24:40")
        let n = try b.build()
        // Printed from Tuesday's midnight: Wednesday 00:30 is 24:30.
        #expect(try n.route("A", "B", at: "0:20", on: Self.tuesday, reference: Self.tuesday) == ["A ~ R1 24:30-24:40 ~ B"])
        #expect(try n.search("A", "B", at: utc("0:20", on: Self.tuesday)).first?.departure
                == utc("0:30", on: Self.tuesday.adding(days: 1)))
    }

    @Test func arriveByAcrossMidnight() throws {
        // Arrive by Tuesday 00:45: M1 arrives 00:40 → departs Monday 24:30.
        #expect(try Self.network().route("A", "B", at: "0:45", on: Self.tuesday, arriveBy: true)
                == ["A ~ R1 24:30-24:40 ~ B"])
    }

    @Test func aYearLongCalendarWithAnException() throws {
        // Service MONDAYS: Mondays from 2020-01-01 to 2020-12-31 (about 370 days: several
        // words of service-day bits), without 2020-04-27 (calendar_dates type 2) and with
        // Sunday 2020-04-26 added (type 1).
        //     M1 (MONDAYS)   A 24:30 → B 24:40
        var b = NetworkBuilder()
        b.service("MONDAYS", weekdays: 0b000_0001, from: ServiceDate(year: 2020, month: 1, day: 1)!,
                  to: ServiceDate(year: 2020, month: 12, day: 31)!,
                  added: [ServiceDate(year: 2020, month: 4, day: 26)!], removed: [ServiceDate(year: 2020, month: 4, day: 27)!])
        b.line("A", "B")
        b.trip("M1", route: "R1", service: "MONDAYS", "A 24:30, B 24:40")
        let n = try b.build()
        func departure(_ y: Int, _ m: Int, _ d: Int) throws -> Int64? {
            try n.search("A", "B", at: utc("0:20", on: ServiceDate(year: y, month: m, day: d)!)).first?.departure
        }
        // Tuesday 2020-04-21 00:20: Monday 20th's run, 00:30 on the 21st.
        #expect(try departure(2020, 4, 21) == utc("0:30", on: ServiceDate(year: 2020, month: 4, day: 21)!))
        // Tuesday 2020-12-29: the last Monday's run.
        #expect(try departure(2020, 12, 29) == utc("0:30", on: ServiceDate(year: 2020, month: 12, day: 29)!))
        // Tuesday 2020-01-07: the first Monday's run (Jan 6th).
        #expect(try departure(2020, 1, 7) == utc("0:30", on: ServiceDate(year: 2020, month: 1, day: 7)!))
        // Monday 2020-04-27 00:20: the added Sunday 26th runs (00:30 on the 27th).
        #expect(try departure(2020, 4, 27) == utc("0:30", on: ServiceDate(year: 2020, month: 4, day: 27)!))
        // Tuesday 2020-04-28 00:20: Monday 27th is removed: nothing.
        #expect(try departure(2020, 4, 28) == nil)
        // Wednesday 2020-04-22 00:20: Tuesday does not run.
        #expect(try departure(2020, 4, 22) == nil)
    }
}
