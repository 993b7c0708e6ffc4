import Foundation
import GTFS
import GTFSRealtime
import Testing
import TransitModel
import TransitTesting

/// `ReferenceRealtime` rule by rule (docs/routing-model.md "Realtime") on networks built in
/// code: one feed "test", agency in UTC unless said, service "S" on Monday 2020-04-20 only.
/// Times are written `H:MM[:SS]` of the service day; an updated trip prints as
/// `STOP ARR/DEP` per stop time, `x` after a stop where neither boarding nor alighting is allowed.
@Suite struct ReferenceRealtimeTests {
    typealias TU = RealtimeMessage.TripUpdate
    typealias STU = RealtimeMessage.StopTimeUpdate
    typealias Event = RealtimeMessage.StopTimeEvent

    static let date = NetworkBuilder.testDate
    static let day = "20200420"
    /// POSIX seconds of `H:MM` on the test date in UTC.
    static func at(_ clock: String) -> Int64 { Int64(date.daysSinceEpoch) * 86_400 + Int64(NetworkBuilder.clock(clock)) }

    /// A-B-C-D-E, trip T1 of route R leaving A at 8:00, 10 minutes a stop with 1 minute dwell.
    static func line(timezone: String = "UTC") -> NetworkBuilder {
        var b = NetworkBuilder(timezone: timezone)
        b.line("A", "B", "C", "D", "E")
        b.trip("T1", route: "R", "A 8:00, B 8:10/8:11, C 8:20/8:21, D 8:30/8:31, E 8:40")
        b.trip("T2", route: "R", "A 9:00, B 9:10/9:11, C 9:20/9:21, D 9:30/9:31, E 9:40")
        return b
    }

    static func trip(_ id: String = "T1", date: String? = day, _ relationship: RealtimeMessage.TripRelationship = .scheduled,
                     delay: Int32? = nil) -> TU {
        TU(entityId: "e-\(id)", trip: .init(tripId: id, startDate: date, scheduleRelationship: relationship), delay: delay)
    }

    static func trip(_ updates: [STU]) -> TU { trip("T1", updates) }

    static func trip(delay: Int32, _ updates: [STU]) -> TU { trip("T1", delay: delay, updates) }

    static func trip(_ id: String, delay: Int32? = nil, _ updates: [STU]) -> TU {
        TU(entityId: "e-\(id)", trip: .init(tripId: id, startDate: day), stopTimeUpdates: updates, delay: delay)
    }

    static func apply(_ b: NetworkBuilder, _ updates: [TU], timestamp: Int64? = nil, keys: RealtimeTripKeys? = nil,
                      incrementality: RealtimeMessage.Incrementality = .fullDataset, feed: String = "test") -> ReferenceRealtime.Result {
        let message = RealtimeMessage(timestamp: timestamp, incrementality: incrementality, tripUpdates: updates)
        return ReferenceRealtime.applyDetailed([feed: message], to: b.snapshot, keys: keys ?? .positional(b.snapshot))
    }

    /// The stop times of trip `id` in `s`, as `A 8:00/8:00, B 8:10/8:11 x, …`.
    static func times(_ s: FeedSnapshot, _ id: String) -> String? {
        guard let t = s.trips.firstIndex(where: { $0.tripId == id }) else { return nil }
        func clock(_ v: Int32) -> String {
            let (h, m, sec) = (v / 3600, (v / 60) % 60, v % 60)
            return "\(h):\(m < 10 ? "0" : "")\(m)" + (sec == 0 ? "" : ":\(sec < 10 ? "0" : "")\(sec)")
        }
        return s.stopTimes(ofTrip: t).map { i in
            "\(s.stops[Int(s.stopTimeStop[i])].stopId) \(clock(s.stopTimeArrival[i]))/\(clock(s.stopTimeDeparture[i]))"
                + (s.stopTimePickup[i] == 1 && s.stopTimeDropOff[i] == 1 ? " x" : "")
        }.joined(separator: ", ")
    }

    /// Whether trip `id` runs on `date` in `s`.
    static func runs(_ s: FeedSnapshot, _ id: String, on date: ServiceDate = date) -> Bool {
        guard let t = s.trips.first(where: { $0.tripId == id }) else { return false }
        return s.services[Int(t.service)].runs(on: date)
    }

    static let updated = "T1@2020-04-20"

    // MARK: Times

    @Test func delayPropagatesToTheEndAndStopTimesBeforeKeepTheirs() {
        let r = Self.apply(Self.line(), [Self.trip([STU(stopSequence: 3, arrival: Event(delay: 300))])])
        #expect(r.applied == 1 && r.notApplied.isEmpty)
        // An arrival alone departs with its delay; B before it keeps its times.
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:00/8:00, B 8:10/8:11, C 8:25/8:26, D 8:35/8:36, E 8:45/8:45")
        #expect(!Self.runs(r.snapshot, "T1") && Self.runs(r.snapshot, Self.updated) && Self.runs(r.snapshot, "T2"))
        // The copy leaves the other trip and its service untouched.
        #expect(Self.times(r.snapshot, "T2") == Self.times(Self.line().snapshot, "T2"))
    }

    @Test func departureAloneArrivesWithItsDelayAndTimeWinsOverDelay() {
        let r = Self.apply(Self.line(), [Self.trip([
            STU(stopSequence: 2, departure: Event(delay: 120)),
            // time says +60 s, delay says +600: time wins.
            STU(stopSequence: 4, arrival: Event(delay: 600, time: Self.at("8:31")), departure: Event(delay: 600, time: Self.at("8:32"))),
        ])])
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:00/8:00, B 8:12/8:13, C 8:22/8:23, D 8:31/8:32, E 8:41/8:41")
    }

    @Test func propagationCarriesTheDepartureDelay() {
        // Arrives 5 min late at B, leaves only 2 min late: the later stops are 2 min late.
        let r = Self.apply(Self.line(), [Self.trip([STU(stopSequence: 2, arrival: Event(delay: 300), departure: Event(delay: 120))])])
        // B arrives 8:15 after it departs 8:13: backwards, so not applied.
        #expect(r.notApplied == ["times-backwards": 1] && Self.runs(r.snapshot, "T1"))
        let ok = Self.apply(Self.line(), [Self.trip([STU(stopSequence: 2, arrival: Event(delay: 120), departure: Event(delay: 60))])])
        #expect(Self.times(ok.snapshot, Self.updated) == "A 8:00/8:00, B 8:12/8:12, C 8:21/8:22, D 8:31/8:32, E 8:41/8:41")
    }

    @Test func noDataKeepsScheduledTimesAndEndsPropagation() {
        let r = Self.apply(Self.line(), [Self.trip([
            STU(stopSequence: 1, departure: Event(delay: 240)),
            STU(stopSequence: 3, scheduleRelationship: .noData),
            STU(stopSequence: 5, arrival: Event(delay: 60)),
        ])])
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:04/8:04, B 8:14/8:15, C 8:20/8:21, D 8:30/8:31, E 8:41/8:41")
    }

    @Test func skippedStopForbidsBoardingAndAlightingAndPropagatesThrough() {
        let r = Self.apply(Self.line(), [Self.trip([
            STU(stopSequence: 2, arrival: Event(delay: 180)),
            STU(stopId: "C", scheduleRelationship: .skipped),
        ])])
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:00/8:00, B 8:13/8:14, C 8:23/8:24 x, D 8:33/8:34, E 8:43/8:43")
    }

    @Test func tripDelayAloneAndAnUpdateWithNothing() {
        let r = Self.apply(Self.line(), [Self.trip(delay: 90), Self.trip("T2")])
        #expect(r.applied == 2)
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:01:30/8:01:30, B 8:11:30/8:12:30, C 8:21:30/8:22:30, D 8:31:30/8:32:30, E 8:41:30/8:41:30")
        // On time: applied (the ride is realtime), same times.
        #expect(Self.times(r.snapshot, "T2@2020-04-20") == Self.times(Self.line().snapshot, "T2") && !Self.runs(r.snapshot, "T2"))
        // With stop time updates the trip-level delay is not used.
        let s = Self.apply(Self.line(), [Self.trip(delay: 900, [STU(stopSequence: 4, arrival: Event(delay: 60))])])
        #expect(Self.times(s.snapshot, Self.updated) == "A 8:00/8:00, B 8:10/8:11, C 8:20/8:21, D 8:31/8:32, E 8:41/8:41")
    }

    @Test func timesGoingBackwardsAreNotApplied() {
        // Early at C (−15 min) after leaving B on time: arrives at C before leaving B.
        let r = Self.apply(Self.line(), [Self.trip([STU(stopSequence: 3, arrival: Event(delay: -900))])])
        #expect(r.applied == 0 && r.notApplied == ["times-backwards": 1])
        #expect(Self.runs(r.snapshot, "T1") && Self.times(r.snapshot, Self.updated) == nil)
        // Equal is fine: C arrives when B departs.
        let equal = Self.apply(Self.line(), [Self.trip([STU(stopSequence: 3, arrival: Event(delay: -540), departure: Event(delay: 0))])])
        #expect(equal.applied == 1 && Self.times(equal.snapshot, Self.updated)?.contains("C 8:11/8:21") == true)
    }

    @Test func untimedStopTimesAreInterpolatedBeforeTheyAreShifted() {
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("T1", route: "R", "A 8:00, B -, C 8:20")
        let r = Self.apply(b, [Self.trip([STU(stopSequence: 1, departure: Event(delay: 60))])])
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:01/8:01, B 8:11/8:11, C 8:21/8:21")
    }

    // MARK: Which stop

    @Test func stopSequenceWinsAndStopIdFindsTheNextVisit() {
        // A loop: A B C A D; sequences 10, 20, 30, 40, 50.
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("T1", route: "R", "A 8:00, B 8:10, C 8:20, A 8:30, D 8:40")
        let keys = RealtimeTripKeys(stopSequence: [10, 20, 30, 40, 50], direction: [0])
        // By stop_id after C: the second visit of A.
        let r = Self.apply(b, [Self.trip([STU(stopSequence: 30, stopId: "B", arrival: Event(delay: 0)),
                                          STU(stopId: "A", arrival: Event(delay: 120))])], keys: keys)
        #expect(Self.times(r.snapshot, Self.updated) == "A 8:00/8:00, B 8:10/8:10, C 8:20/8:20, A 8:32/8:32, D 8:42/8:42")
        // By stop_id from the start: the first visit.
        let first = Self.apply(b, [Self.trip([STU(stopId: "A", departure: Event(delay: 60))])], keys: keys)
        #expect(Self.times(first.snapshot, Self.updated) == "A 8:01/8:01, B 8:11/8:11, C 8:21/8:21, A 8:31/8:31, D 8:41/8:41")
    }

    @Test func unknownAndUnorderedStops() {
        let b = Self.line()
        let r = Self.apply(b, [
            Self.trip("T1", [STU(stopSequence: 9, arrival: Event(delay: 60))]),
            Self.trip("T2", [STU(stopId: "Z", arrival: Event(delay: 60))]),
        ])
        #expect(r.notApplied == ["unknown-stop": 2] && r.applied == 0)
        let o = Self.apply(b, [
            Self.trip("T1", [STU(stopSequence: 3, arrival: Event(delay: 60)), STU(stopSequence: 2, arrival: Event(delay: 60))]),
            Self.trip("T2", [STU(stopSequence: 3, arrival: Event(delay: 60)), STU(stopSequence: 3, arrival: Event(delay: 60))]),
        ])
        #expect(o.notApplied == ["unordered-stops": 2] && Self.runs(o.snapshot, "T1") && Self.runs(o.snapshot, "T2"))
        // A stop_sequence cannot be matched without the feed's keys.
        let none = ReferenceRealtime.apply(["test": RealtimeMessage(tripUpdates: [Self.trip([STU(stopSequence: 2, arrival: Event(delay: 60))])])],
                                           to: b.snapshot)
        #expect(none.notApplied == ["unknown-stop": 1])
    }

    // MARK: Trips, dates, relationships

    @Test func canceledAndDeletedTripsStopRunningOnThatDateOnly() {
        var b = NetworkBuilder()
        b.line("A", "B")
        b.service("W", from: Self.date, to: Self.date.adding(days: 6))
        b.trip("T1", route: "R", service: "W", "A 8:00, B 8:10")
        b.trip("T2", route: "R", service: "W", "A 9:00, B 9:10")
        b.trip("T3", route: "R", service: "W", "A 10:00, B 10:10")
        let r = Self.apply(b, [Self.trip("T1", .canceled), Self.trip("T2", date: "20200421", .deleted)])
        #expect(r.applied == 2)
        #expect(!Self.runs(r.snapshot, "T1") && Self.runs(r.snapshot, "T1", on: Self.date.adding(days: 1)))
        #expect(Self.runs(r.snapshot, "T2") && !Self.runs(r.snapshot, "T2", on: Self.date.adding(days: 1)))
        // T3 shares the service and runs on both days; no new trip for a cancellation.
        #expect(Self.runs(r.snapshot, "T3") && Self.runs(r.snapshot, "T3", on: Self.date.adding(days: 1)))
        #expect(r.snapshot.trips.count == 3)
    }

    @Test func tripsThatAreNotAppliedWithTheirReasons() {
        var b = Self.line()
        b.service("SUN", weekdays: 0x40, from: Self.date, to: Self.date.adding(days: 6))
        b.trip("T3", route: "R", service: "SUN", "A 10:00, E 10:40")
        b.trip("F", route: "R", "A 11:00, E 11:40")
        b.frequency("F", start: "11:00", end: "13:00", headwaySeconds: 600)
        let r = Self.apply(b, [
            Self.trip("T1", .added), Self.trip("T1", .new), Self.trip("T1", .replacement), Self.trip("T1", .duplicated),
            Self.trip("T1", .unscheduled),
            Self.trip("NOPE", delay: 60),
            Self.trip("F", delay: 60),
            Self.trip("T3", delay: 60),                       // runs on Sundays only
            Self.trip("T1", date: "2020-04-20", delay: 60),   // not YYYYMMDD
            Self.trip("T1", date: "20200431", delay: 60),     // no such day
            Self.trip("T1", date: nil, delay: 60),            // no start_date and no header time
            Self.trip("T2", delay: 60), Self.trip("T2", .canceled),  // the first counts
        ])
        #expect(r.notApplied == ["added-trip": 1, "new-trip": 1, "replacement-trip": 1, "duplicated-trip": 1, "unscheduled-trip": 1,
                                 "unknown-trip": 1, "frequency-trip": 1, "not-running": 1, "bad-date": 2, "no-date": 1,
                                 "duplicate-update": 1])
        #expect(r.applied == 1 && Self.times(r.snapshot, "T2@2020-04-20") != nil && Self.runs(r.snapshot, "T1"))
        #expect(r.outcomes.map(\.reason).last == "duplicate-update")
    }

    @Test func withoutStartDateTheDateIsTheHeadersLocalDateInTheAgencysZone() {
        // 2020-04-21 03:00 UTC is still Monday 2020-04-20 in Los Angeles.
        let la = Self.apply(Self.line(timezone: "America/Los_Angeles"), [Self.trip(date: nil, delay: 60)],
                            timestamp: Self.at("27:00"))
        #expect(la.applied == 1 && Self.times(la.snapshot, Self.updated) != nil)
        // In UTC it is Tuesday, when the service does not run.
        let utc = Self.apply(Self.line(), [Self.trip(date: nil, delay: 60)], timestamp: Self.at("27:00"))
        #expect(utc.notApplied == ["not-running": 1])
    }

    @Test func tripFoundByRouteDirectionAndStartTime() {
        var b = Self.line()
        b.trip("T3", route: "R", "A 9:00, B 9:12, E 9:50")
        let keys = RealtimeTripKeys(stopSequence: RealtimeTripKeys.positional(b.snapshot).stopSequence, direction: [0, 0, 1])
        func byRoute(_ start: String?, direction: Int? = 0) -> TU {
            TU(entityId: "r", trip: .init(routeId: "R", directionId: direction, startTime: start, startDate: Self.day), delay: 120)
        }
        let r = Self.apply(b, [byRoute("08:00:00")], keys: keys)
        #expect(r.applied == 1 && Self.times(r.snapshot, Self.updated)?.hasPrefix("A 8:02/8:02") == true)
        #expect(Self.apply(b, [byRoute("9:00:00", direction: 1)], keys: keys).applied == 1)
        let keysSame = RealtimeTripKeys(stopSequence: keys.stopSequence, direction: [0, 0, 0])
        #expect(Self.apply(b, [byRoute("09:00:00")], keys: keysSame).notApplied == ["ambiguous-trip": 1])
        #expect(Self.apply(b, [byRoute("08:30:00")], keys: keys).notApplied == ["unknown-trip": 1])
        #expect(Self.apply(b, [byRoute("08:00:00", direction: nil)], keys: keys).notApplied == ["unknown-trip": 1])
        #expect(Self.apply(b, [byRoute("8h00")], keys: keys).notApplied == ["bad-date": 1])
    }

    @Test func messagesThatAreNotAppliedWhole() {
        let b = Self.line()
        #expect(Self.apply(b, [Self.trip(delay: 60)], incrementality: .differential).notApplied == ["differential": 1])
        #expect(Self.apply(b, [Self.trip(delay: 60)], feed: "other").notApplied == ["unknown-feed": 1])
    }

    /// stop_sequence and direction_id read back from real feeds line up with the snapshot:
    /// every stop time has its sequence, increasing along each trip (Caltrain lists its
    /// rows out of order), and every trip a direction.
    @Test(arguments: ["caltrain.zip", "bart-2018.zip"])
    func keysReadFromTheFeedLineUpWithTheSnapshot(_ file: String) throws {
        let path = ReferenceComparisonTests.feedPath(file), feedId = String(file.dropLast(4))
        let (snapshot, _) = try SnapshotSink.load(path: path, feedId: feedId)
        let keys = try RealtimeTripKeys.read(snapshot, feeds: [feedId: path])
        #expect(keys.stopSequence.count == snapshot.stopTimeCount && keys.direction.count == snapshot.trips.count)
        var unordered = 0
        for t in snapshot.trips.indices {
            let sequences = snapshot.stopTimes(ofTrip: t).map { keys.stopSequence[$0] }
            if zip(sequences, sequences.dropFirst()).contains(where: { $0 >= $1 }) || sequences.contains(where: { $0 < 0 }) { unordered += 1 }
        }
        #expect(unordered == 0)
        #expect(keys.direction.allSatisfy { $0 == 0 || $0 == 1 })
        // Unknown feeds are left alone.
        #expect(try RealtimeTripKeys.read(snapshot, feeds: ["other": path]).stopSequence.allSatisfy { $0 == -1 })
    }

    // MARK: Routing on the copy

    @Test func theReferenceRouterRidesTheUpdatedTrip() {
        let b = Self.line()
        let r = Self.apply(b, [Self.trip([STU(stopSequence: 2, departure: Event(delay: 300))])])
        let router = ReferenceRouter(snapshot: r.snapshot), a = Int32(0), e = Int32(4)
        let journeys = router.departAt(from: .stop(a), to: .stop(e), time: Self.at("7:55"))
        #expect(journeys == [ReferenceJourney(rides: 1, departure: Self.at("8:00"), arrival: Self.at("8:45"))])
        // Boarding at B after its scheduled departure still catches the late trip.
        let b2 = router.departAt(from: .stop(1), to: .stop(e), time: Self.at("8:12"))
        #expect(b2 == [ReferenceJourney(rides: 1, departure: Self.at("8:16"), arrival: Self.at("8:45"))])
    }

    @Test func scenarioIsSeededAndExercisesEveryRule() {
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D", "E")
        for k in 0..<40 {
            let h = 6 + k / 4, m = (k % 4) * 15
            func t(_ add: Int) -> String { let x = h * 60 + m + add; return "\(x / 60):\(x % 60 < 10 ? "0" : "")\(x % 60)" }
            b.trip("T\(k)", route: k % 2 == 0 ? "R" : "Q", "A \(t(0)), B \(t(10))/\(t(11)), C \(t(20))/\(t(21)), D \(t(30)), E \(t(40))")
        }
        let keys = RealtimeTripKeys.positional(b.snapshot)
        let m1 = RealtimeScenario.message(for: b.snapshot, date: Self.date, seed: 7, updates: 400, keys: keys)
        let m2 = RealtimeScenario.message(for: b.snapshot, date: Self.date, seed: 7, updates: 400, keys: keys)
        #expect(m1 == m2 && m1.tripUpdates.count == 400)
        let r = ReferenceRealtime.applyDetailed(["test": m1], to: b.snapshot, keys: keys)
        let reasons = Set(r.outcomes.map(\.reason))
        for reason in ["applied", "added-trip", "unknown-trip", "times-backwards", "duplicate-update", "bad-date"] {
            #expect(reasons.contains(reason), "no \(reason) in \(reasons.sorted())")
        }
        let all = m1.tripUpdates.flatMap(\.stopTimeUpdates)
        #expect(all.contains { $0.scheduleRelationship == .skipped } && all.contains { $0.scheduleRelationship == .noData })
        #expect(all.contains { $0.arrival?.time != nil } && m1.tripUpdates.contains { $0.trip.scheduleRelationship == .canceled })
        #expect(m1.tripUpdates.contains { $0.trip.startDate == nil })
    }
}
