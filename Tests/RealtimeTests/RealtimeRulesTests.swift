import GTFSRealtime
import Realtime
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Each rule of docs/routing-model.md, "Realtime", on a tiny line:
///
///     A ──R1── B ──R1── C ──R1── D        2 km apart
///
///     T1   A 0:00   B 0:10   C 0:20   D 0:30
///     T2   A 1:00   B 1:10   C 1:20   D 1:30
@Suite("Realtime rules")
struct RealtimeRulesTests {
    @Test func aDelayIsCarriedToLaterStops() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 300)])])
        #expect(c.times("T1") == ["A 0:00", "B 0:15", "C 0:25", "D 0:35"])
        #expect(c.report.applied == 1 && c.report.rejected.isEmpty)
        #expect(try c.route("A", "D", at: "0:00") == ["A ~ R1 0:00-0:35 ~ D"])
        // The static timetable is as it was: realtime off routes on the plan.
        #expect(try c.route("A", "D", at: "0:00", realtime: false) == ["A ~ R1 0:00-0:30 ~ D"])
        // Boarding at B after the scheduled 0:10 catches the late train.
        #expect(try c.route("B", "D", at: "0:12") == ["B ~ R1 0:15-0:35 ~ D"])
    }

    @Test func theNextUpdateTakesOver() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 300), at("C", delay: 60)])])
        #expect(c.times("T1") == ["A 0:00", "B 0:15", "C 0:21", "D 0:31"])
    }

    @Test func anAbsoluteTimeWinsOverTheDelay() throws {
        var s = at("B", delay: 60)
        s.arrival = Event(delay: 60, time: utc("0:13")); s.departure = nil
        let c = try RealtimeCase(lineABCD(), [update("T1", [s])])
        // Arrival 0:13 (not +1 min); without a departure event it departs with the arrival's delay.
        #expect(c.times("T1") == ["A 0:00", "B 0:13", "C 0:23", "D 0:33"])
    }

    @Test func aDepartureAloneGivesTheArrivalItsDelay() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", departure: utc("0:12"))])])
        #expect(c.times("T1") == ["A 0:00", "B 0:12", "C 0:22", "D 0:32"])
    }

    @Test func arrivalAndDepartureDelaysDiffer() throws {
        var s = at("B")
        s.arrival = Event(delay: 60); s.departure = Event(delay: 240)
        let c = try RealtimeCase(lineABCD(), [update("T1", [s])])
        // Later stops take the departure delay.
        #expect(c.times("T1") == ["A 0:00", "B 0:11/0:14", "C 0:24", "D 0:34"])
    }

    @Test func noDataEndsPropagation() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 300), at("C", .noData)])])
        #expect(c.times("T1") == ["A 0:00", "B 0:15", "C 0:20", "D 0:30"])
    }

    @Test func aSkippedStopIsNeitherBoardedNorAlighted() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("A", delay: 120), at("B", .skipped)])])
        // Times propagate through the skipped stop.
        #expect(c.times("T1") == ["A 0:02", "B -", "C 0:22", "D 0:32"])
        #expect(try c.route("A", "B", at: "0:00") == ["A ~ R1 1:00-1:10 ~ B"])
        #expect(try c.route("B", "D", at: "0:00") == ["B ~ R1 1:10-1:30 ~ D"])
        #expect(try c.route("A", "C", at: "0:00") == ["A ~ R1 0:02-0:22 ~ C"])
        // Arrive-by reads the same skip.
        #expect(try c.route("A", "B", at: "0:30", arriveBy: true) == [])
        #expect(try c.route("A", "B", at: "1:20", arriveBy: true) == ["A ~ R1 1:00-1:10 ~ B"])
        #expect(try c.route("A", "C", at: "0:25", arriveBy: true) == ["A ~ R1 0:02-0:22 ~ C"])
        #expect(try c.route("B", "D", at: "0:40", arriveBy: true) == [])
    }

    @Test func aCancelledTripDoesNotRunThatDay() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", relationship: .canceled)])
        #expect(c.times("T1") == nil)
        #expect(c.report.applied == 1)
        #expect(try c.route("A", "D", at: "0:00") == ["A ~ R1 1:00-1:30 ~ D"])
        #expect(try c.route("A", "D", at: "0:40", arriveBy: true) == [])
        #expect(try c.route("A", "D", at: "0:00", realtime: false) == ["A ~ R1 0:00-0:30 ~ D"])
        // DELETED is the same.
        let d = try RealtimeCase(lineABCD(), [update("T1", relationship: .deleted)])
        #expect(try d.route("A", "D", at: "0:00") == ["A ~ R1 1:00-1:30 ~ D"])
    }

    @Test func aCancellationIsForThatDateOnly() throws {
        var b = NetworkBuilder()
        b.line("A", "B")
        b.service("DAILY", from: testDate, to: testDate.adding(days: 3))
        b.trip("T", route: "R1", service: "DAILY", "A 10:00, B 10:10")
        let c = try RealtimeCase(b, [update("T", relationship: .canceled)])
        #expect(try c.route("A", "B", at: "9:00") == ["A ~ R1 34:00-34:10 ~ B"])
    }

    @Test func aTripDelayWithoutStopUpdatesMovesEveryStop() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", delay: 90), update("T2")])
        #expect(c.times("T1") == ["A 0:01:30", "B 0:11:30", "C 0:21:30", "D 0:31:30"])
        // Nothing at all: applied, on time.
        #expect(c.times("T2") == ["A 1:00", "B 1:10", "C 1:20", "D 1:30"])
        #expect(c.report.applied == 2)
        // R1's day is replaced: both trips run on a route of their own that day.
        #expect(c.state.addedTrips == 2 && c.state.addedRoutes == 1)
    }

    @Test func newTripsAreCountedNotApplied() throws {
        let c = try RealtimeCase(lineABCD(), [
            update("T1", relationship: .added), update("X", relationship: .new, entity: "x1"),
            update("T2", relationship: .replacement), update("T2", relationship: .duplicated, entity: "d"),
            update("T2", relationship: .unscheduled, entity: "u"),
        ])
        #expect(c.report.applied == 0)
        #expect(c.report.rejected == ["added-trip": 1, "new-trip": 1, "replacement-trip": 1, "duplicated-trip": 1, "unscheduled-trip": 1])
        #expect(c.state.timetable === c.network.timetable)
    }

    @Test func unknownTripsAndStops() throws {
        let c = try RealtimeCase(lineABCD(), [
            update("NOPE", [at("B", delay: 60)]),
            update("T1", [at("Z", delay: 60)]),
            update("T2", [at("B", delay: 60, sequence: 9)]),
        ])
        #expect(c.report.rejected == ["unknown-trip": 1, "unknown-stop": 2])
        #expect(c.report.samples.count == 3)
        #expect(c.times("T1") == ["A 0:00", "B 0:10", "C 0:20", "D 0:30"])
    }

    @Test func stopsByStopSequence() throws {
        // stop_sequence k is the trip's k-th stop time here (the snapshot keeps no stop_sequence).
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("", delay: 120, sequence: 3)])])
        #expect(c.times("T1") == ["A 0:00", "B 0:10", "C 0:22", "D 0:32"])
        // stop_sequence wins over a stop_id beside it (B is the 2nd stop, not C).
        var s = at("C", delay: 60, sequence: 2)
        s.stopId = "C"
        let d = try RealtimeCase(lineABCD(), [update("T1", [s])])
        #expect(d.times("T1") == ["A 0:00", "B 0:11", "C 0:21", "D 0:31"])
    }

    @Test func stopsOutOfOrderAreRefused() throws {
        let c = try RealtimeCase(lineABCD(), [
            update("T1", [at("C", delay: 60), at("B", delay: 60)]),
            update("T2", [at("", delay: 60, sequence: 3), at("", delay: 60, sequence: 2)]),
        ])
        #expect(c.report.rejected == ["unordered-stops": 2])
    }

    @Test func timesThatGoBackwardsAreRefused() throws {
        // B departs 0:25 but C (scheduled 0:20, updated +1 min) arrives 0:21.
        let c = try RealtimeCase(lineABCD(), [
            update("T1", [at("B", departure: utc("0:25")), at("C", delay: 60)]),
            // Arrival after departure at one stop.
            update("T2", [at("B", arrival: utc("1:12"), departure: utc("1:11"))]),
        ])
        #expect(c.report.rejected == ["times-backwards": 2])
        #expect(c.times("T1") == ["A 0:00", "B 0:10", "C 0:20", "D 0:30"])
        #expect(try c.route("A", "D", at: "0:00") == ["A ~ R1 0:00-0:30 ~ D"])
    }

    @Test func datesAndDuplicates() throws {
        let c = try RealtimeCase(lineABCD(), [
            update("T1", [at("B", delay: 60)]),
            update("T1", [at("B", delay: 600)], entity: "again"),
            update("T2", date: "20200421"),
            update("T2", date: "2020-04-20", entity: "iso"),
        ])
        #expect(c.report.applied == 1)
        #expect(c.report.rejected == ["duplicate-update": 1, "not-running": 1, "bad-date": 1])
        #expect(c.times("T1") == ["A 0:00", "B 0:11", "C 0:21", "D 0:31"])
        // The first counts even when it is not applied.
        let d = try RealtimeCase(lineABCD(), [update("T1", [at("B", arrival: utc("0:12"), departure: utc("0:11"))]),
                                              update("T1", [at("B", delay: 60)], entity: "again")])
        #expect(d.report.rejected == ["times-backwards": 1, "duplicate-update": 1])
    }

    @Test func withoutStartDateTheMessageDateCounts() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 60)], date: nil)], timestamp: utc("0:05"))
        #expect(c.report.applied == 1 && c.times("T1")?[1] == "B 0:11")
        let d = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 60)], date: nil)], timestamp: nil)
        #expect(d.report.rejected == ["no-date": 1])
        // The message of the next day: T1 does not run then.
        let e = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 60)], date: nil)], timestamp: utc("0:05", on: testDate.adding(days: 1)))
        #expect(e.report.rejected == ["not-running": 1])
    }

    @Test func aTripMatchedByRouteDirectionAndStartTime() throws {
        func byRoute(_ route: String?, _ start: String?, direction: Int? = 0, date: String? = testDateText) -> Update {
            Update(entityId: "r", trip: Descriptor(routeId: route, directionId: direction, startTime: start, startDate: date),
                   stopTimeUpdates: [at("B", delay: 120)])
        }
        let c = try RealtimeCase(lineABCD(), [byRoute("R1", "01:00:00")])
        #expect(c.report.applied == 1)
        #expect(c.times("T2") == ["A 1:00", "B 1:12", "C 1:22", "D 1:32"])
        // The other direction_id names no trip of the feed's (trips.txt has 0 for both).
        let d = try RealtimeCase(lineABCD(), [byRoute("R1", "01:05:00"), byRoute("R2", "01:00:00"), byRoute("R1", "01:00:00", direction: nil),
                                              byRoute("R1", "1:00", date: testDateText), byRoute("R1", "01:00:00", direction: 1)])
        #expect(d.report.rejected == ["unknown-trip": 4, "bad-date": 1])
        var b = lineABCD()
        b.trip("T3", route: "R1", direction: 0, "A 1:00, B 1:12, C 1:22, D 1:32")
        let e = try RealtimeCase(b, [byRoute("R1", "01:00:00")])
        #expect(e.report.rejected == ["ambiguous-trip": 1])
    }

    @Test func frequencyTripsAreNotApplied() throws {
        var b = NetworkBuilder()
        b.line("A", "B")
        b.trip("F", route: "R1", "A 0:00, B 0:10")
        b.frequency("F", start: "6:00", end: "8:00", headwaySeconds: 600)
        let c = try RealtimeCase(b, [update("F", [at("B", delay: 60)])])
        #expect(c.report.rejected == ["frequency-trip": 1])
    }

    @Test func aDifferentialMessageIsRefusedWhole() throws {
        let c = try RealtimeCase(lineABCD(), [update("T1", [at("B", delay: 60)])], incrementality: .differential)
        #expect(c.report.applied == 0 && c.report.rejected == ["differential": 1])
        #expect(c.state.timetable === c.network.timetable)
    }

    /// T1 late by 15 min from B on: T2, scheduled 10 min after it, overtakes it.
    ///
    ///     T1   A 0:00   B 0:25   C 0:35       (scheduled B 0:10, C 0:20)
    ///     T2   A 0:10   B 0:20   C 0:30
    @Test func aDelayThatMakesTripsOvertakeIsAnsweredRight() throws {
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R1", "A 0:00, B 0:10, C 0:20")
        b.trip("T2", route: "R1", "A 0:10, B 0:20, C 0:30")
        b.trip("T3", route: "R1", "A 0:30, B 0:40, C 0:50")
        let c = try RealtimeCase(b, [update("T1", [at("B", delay: 900)])])
        #expect(try c.route("A", "C", at: "0:00") == ["A ~ R1 0:10-0:30 ~ C"])
        #expect(try c.route("A", "B", at: "0:00") == ["A ~ R1 0:10-0:20 ~ B"])
        #expect(try c.route("B", "C", at: "0:21") == ["B ~ R1 0:25-0:35 ~ C"])
        #expect(try c.route("A", "C", at: "0:36", arriveBy: true) == ["A ~ R1 0:10-0:30 ~ C"])
        // Two trips late the same day: each on a route of its own where they overtake.
        let d = try RealtimeCase(b, [update("T1", [at("B", delay: 900)]), update("T3", [at("A", delay: -1500)])])
        #expect(d.times("T3") == ["A 0:05", "B 0:15", "C 0:25"])
        #expect(try d.route("A", "C", at: "0:01") == ["A ~ R1 0:05-0:25 ~ C"])
        #expect(try d.route("B", "C", at: "0:16") == ["B ~ R1 0:20-0:30 ~ C"])
        #expect(d.state.addedRoutes == 2)
    }

    @Test func unknownFeedsAreCounted() throws {
        let network = try lineABCD().network()
        let state = RealtimeState.build(network: network, messages: ["other": Message(timestamp: 0, tripUpdates: [update("T1")])])
        #expect(state.reports == [RealtimeFeedReport(feedId: "other", messageTime: 0, tripUpdates: 1, applied: 0,
                                                     rejected: ["unknown-feed": 1], samples: ["T1: unknown-feed: no feed other is loaded"])])
    }

    @Test func theStaticTimetableIsNotChanged() throws {
        let network = try lineABCD().network()
        let before = (network.timetable.runTimes, network.timetable.profiles, network.timetable.routeCount, network.timetable.tripCount)
        let state = RealtimeState.build(network: network, messages: ["test": Message(timestamp: utc("0:00"), tripUpdates: [
            update("T1", [at("B", delay: 300)]), update("T2", relationship: .canceled)])])
        #expect(state.timetable !== network.timetable)
        #expect(network.timetable.runTimes == before.0 && network.timetable.profiles == before.1)
        #expect(network.timetable.routeCount == before.2 && network.timetable.tripCount == before.3)
        #expect(network.timetable.routeRemovedOffsets.isEmpty)
        #expect(state.timetable.routeCount == before.2 + 1 && state.timetable.tripCount == before.3 + 1)
        let t1 = state.updatedTrips.first { $0.entityId == "T1" }!
        #expect(t1.trip.map { state.staticTrip(of: $0) } == t1.staticTrip)
        #expect(state.updatedTrips.first { $0.entityId == "T2" }!.cancelled)
    }
}
