import Testing
import TransitTesting

/// A07 — frequencies.txt: one trip per start.
///
///     A ──R1── B ──R1── C         2 km apart
///
///     template F1   A 0:04/0:05   B 0:09   C 0:17      (offsets from the first departure,
///                                                       A 0:05: B +4 min, C +12 min)
///     frequency     start 1:00, end 1:30, headway 600 s → starts 1:00, 1:10, 1:20
///
/// Rules: starts start_time + k·headway while before end_time (so 1:30 is not a start);
/// the template trip does not run by itself (not at 0:05); identical starts count once.
@Suite("A07 frequencies")
struct A07_FrequencyTests {
    static func network(rows: [(String, String)] = [("1:00", "1:30")]) throws -> TestNetwork {
        var n = NetworkBuilder()
        n.line("A", "B", "C")
        n.trip("F1", route: "R1", "A 0:04/0:05, B 0:09, C 0:17")
        for (start, end) in rows { n.frequency("F1", start: start, end: end, headwaySeconds: 600) }
        return try n.build()
    }

    @Test func theTemplateDoesNotRunByItself() throws {
        // At 0:00 the first run is the 1:00 start, not the template at 0:05.
        #expect(try Self.network().route("A", "C", at: "0:00") == ["A ~ R1 1:00-1:12 ~ C"])
    }

    @Test func headwayExpansion() throws {
        let n = try Self.network()
        #expect(try n.route("A", "C", at: "1:00:01") == ["A ~ R1 1:10-1:22 ~ C"])
        #expect(try n.route("A", "C", at: "1:10:01") == ["A ~ R1 1:20-1:32 ~ C"])
    }

    @Test func noStartAtEndTime() throws {
        // 1:20 + 600 s = 1:30 is not before end_time 1:30: after 1:20 nothing runs.
        #expect(try Self.network().route("A", "C", at: "1:20:01") == [])
    }

    @Test func offsetsCountFromTheFirstDeparture() throws {
        // B is 4 min after A's departure: the 1:10 run passes B at 1:14 and C at 1:22.
        #expect(try Self.network().route("B", "C", at: "1:05") == ["B ~ R1 1:14-1:22 ~ C"])
        // Arrival at B of the 1:00 run: 1:04.
        #expect(try Self.network().route("A", "B", at: "0:00") == ["A ~ R1 1:00-1:04 ~ B"])
    }

    @Test func identicalStartsCountOnce() throws {
        // Rows 1:00–1:30 and 1:20–1:40: starts {1:00, 1:10, 1:20} ∪ {1:20, 1:30} = 4 runs.
        let n = try Self.network(rows: [("1:00", "1:30"), ("1:20", "1:40")])
        #expect(n.timetable.tripCount == 4)
        // The second row adds 1:30.
        #expect(try n.route("A", "C", at: "1:20:01") == ["A ~ R1 1:30-1:42 ~ C"])
        #expect(try n.route("A", "C", at: "1:30:01") == [])
    }

    @Test func aFrequencyStartingPastMidnight() throws {
        // start 24:10, end 24:20: one run, Tuesday 00:10 (Monday's service), found on
        // Tuesday 00:00 through D − 1.
        let n = try Self.network(rows: [("24:10", "24:20")])
        #expect(try n.route("A", "C", at: "0:00", on: testDate.adding(days: 1)) == ["A ~ R1 24:10-24:22 ~ C"])
    }

    @Test func offsetsCountFromTheTemplatesFirstStopTimeEvenWhereNoOneBoards() throws {
        // The template's first stop time names a station S (location_type 1): the trip passes
        // through it (no one boards there), but it is still the trip's first departure.
        //     F1   S 0:00   A 0:05   C 0:15        frequency 1:00–1:10, headway 600 → one start 1:00
        // Offsets from S's 0:00: A at 1:05, C at 1:15.
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.stop("S", at: offset(testOrigin, north: -2000), type: 1)
        b.trip("F1", route: "R1", "S 0:00, A 0:05, C 0:15")
        b.frequency("F1", start: "1:00", end: "1:10", headwaySeconds: 600)
        let n = try b.build()
        let got = try n.route("A", "C", at: "0:00")
        #expect(got == ["A ~ R1 1:05-1:15 ~ C"])
    }

    @Test func arriveByARun() throws {
        // Arrive at C by 1:25: the 1:10 run (C 1:22) departs latest.
        #expect(try Self.network().route("A", "C", at: "1:25", arriveBy: true) == ["A ~ R1 1:10-1:22 ~ C"])
        // By 1:11:59: none (the first run reaches C at 1:12); the template (C 0:17) does not run.
        #expect(try Self.network().route("A", "C", at: "1:11:59", arriveBy: true) == [])
    }
}
