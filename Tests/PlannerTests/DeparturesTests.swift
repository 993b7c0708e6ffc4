import FeedNetwork
import Foundation
import GTFS
import PlanJSON
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Next departures from a stop, checked against a count made here straight from the
/// feed's stop_times and calendars (not the timetable's layout): same trips, same service
/// dates, same instants.
@Suite struct DeparturesTests {
    /// A planner and the full snapshot (with stop times: the timetable keeps only names).
    struct Fixture: Sendable {
        let planner: JourneyPlanner
        let reference: ReferenceDepartures

        init(_ path: String, _ feedId: String) {
            let (snapshot, _) = try! SnapshotSink.load(path: path, feedId: feedId)
            planner = JourneyPlanner(network: try! TimetableBuilder.build(snapshot))
            reference = ReferenceDepartures(snapshot)
        }

        func stop(_ id: String) throws -> StopIndex { try planner.resolveStop(nil, id) }
    }

    static let bart = Fixture(try! FeedFixtures.bundledFeed("bart-2018"), "bart")
    static let milan = Fixture(try! FeedFixtures.sharedFeed("milan-atm-2014"), "milan")
    static let wmata = Fixture(try! FeedFixtures.sharedFeed("wmata-rail-2026"), "wmata")

    /// The timetable's station index (used for departures at a station, stop search
    /// results and transfers.txt rows between stations) lists, for every stop, the stops
    /// that name it as their parent_station, in stop order: checked against a scan.
    @Test func stationChildrenIndex() {
        var stations = 0
        for f in [Self.bart, Self.milan, Self.wmata] {
            let network = f.planner.network, tt = network.timetable, stops = network.snapshot.stops
            var scanned = [[Int32]](repeating: [], count: stops.count)
            for (i, st) in stops.enumerated() where st.parent >= 0 { scanned[Int(st.parent)].append(Int32(i)) }
            let wrong = stops.indices.filter { network.stationChildren[StopIndex($0)].map(\.raw) != scanned[$0] }
            #expect(wrong.isEmpty, "\(wrong.prefix(5).map { stops[$0].stopId })")
            stations += scanned.filter { !$0.isEmpty }.count
        }
        #expect(stations > 0)
    }

    /// What a departure is, for comparing: instant, trip, service date, platform.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var time: Int64, trip: String, date: ServiceDate, stop: Int32
        static func < (a: Key, b: Key) -> Bool { (a.time, a.trip, a.date, a.stop) < (b.time, b.trip, b.date, b.stop) }
        var description: String { "\(time) \(trip) \(date) \(stop)" }
    }

    /// Departures from `stop` in [t, t + window] both ways, compared; returns how many.
    @discardableResult
    static func compare(_ f: Fixture, stop index: StopIndex, time: QueryTime, t: Int64, window: Int) -> Int {
        let network = f.planner.network, tt = network.timetable, stops = network.snapshot.stops, stop = index.raw
        let got = f.planner.departures(stop: index, after: time, limit: 100_000, withinSeconds: window)
        let platforms = stops[Int(stop)].locationType == 1
            ? stops.indices.filter { stops[$0].parent == stop && tt.stopBoardable[$0] }.map(Int32.init) : [stop]
        let zone = TimeZone(identifier: f.planner.feedTimeZone(stops[Int(stop)].feed))!
        let expected = f.reference.departures(platforms, from: t, to: t + Int64(window), zone: zone)
        let keys = got.map { Key(time: $0.time, trip: $0.tripId, date: $0.serviceDate, stop: $0.stop.raw) }
        #expect(keys.sorted() == expected.sorted(), "\(stops[Int(stop)].stopId) at \(t) +\(window): \(Set(keys).symmetricDifference(expected).sorted().prefix(5))")
        checkShape(got, t: t, window: window, limit: 100_000)
        // A smaller limit is the start of the same list.
        let few = f.planner.departures(stop: index, after: time, limit: 7, withinSeconds: window)
        #expect(few == Array(got.prefix(7)))
        return got.count
    }

    /// Sorted by time, then route; inside the window; no more than the limit; readable times.
    static func checkShape(_ d: [Departure], t: Int64, window: Int, limit: Int) {
        #expect(d.count <= limit)
        for x in d {
            #expect(x.time >= t && x.time <= t + Int64(window))
            let iso = PlanAnswerJSON.iso(x.time, x.timeZone)
            #expect(QueryTime.parse(iso) == .instant(x.time), "\(iso)")
            #expect(x.boardingAllowed)
        }
        for (a, b) in zip(d, d.dropFirst()) {
            #expect(a.time < b.time || (a.time == b.time && a.sourceRoute <= b.sourceRoute))
        }
    }

    @Test("= the feed's own stop times on random stops and times", arguments: ["bart", "milan"])
    func againstReference(_ feed: String) throws {
        let f = feed == "bart" ? Self.bart : Self.milan
        // Dates inside each feed's period, away from daylight saving changes.
        let dates = feed == "bart" ? (2018, 6, 4...10) : (2014, 10, 20...24)
        let network = f.planner.network, tt = network.timetable
        let served = tt.stopsWithService()
        let stops = (0..<tt.stopCount).filter { served[$0] }
        var rng = SeededRandom(seed: 2024)
        var total = 0
        for q in 0..<20 {
            let stop = StopIndex(stops[Int.random(in: 0..<stops.count, using: &rng)])
            let day = Int.random(in: dates.2, using: &rng)
            let seconds = Int.random(in: 0..<86_400, using: &rng)
            let window = [900, 3600, 4 * 3600, 10 * 3600][q % 4]
            let zone = TimeZone(identifier: f.planner.feedTimeZone(tt.stopFeed[stop.index].raw))!
            let t = ReferenceDepartures.instant(dates.0, dates.1, day, seconds, zone)
            // Half as a local time, half as an instant.
            let time: QueryTime = q % 2 == 0
                ? .local(year: dates.0, month: dates.1, day: day, hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)
                : .instant(t)
            total += Self.compare(f, stop: stop, time: time, t: t, window: window)
        }
        print("\(feed): \(total) departures compared")
        #expect(total > 100)
    }

    @Test("past midnight: the day before's trips, with the next calendar day's time")
    func pastMidnight() throws {
        let f = Self.bart
        let stop = try f.stop("MONT")
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let t = ReferenceDepartures.instant(2018, 6, 6, 15 * 60, zone)  // Wednesday 00:15
        let d = f.planner.departures(stop: stop, after: .local(year: 2018, month: 6, day: 6, hour: 0, minute: 15, second: 0),
                                     limit: 50, withinSeconds: 2 * 3600)
        Self.compare(f, stop: stop, time: .instant(t), t: t, window: 2 * 3600)
        let late = d.filter { $0.serviceDate == ServiceDate(year: 2018, month: 6, day: 5)! }
        #expect(!late.isEmpty, "Tuesday's trips still run after midnight")
        #expect(late.map { PlanAnswerJSON.iso($0.time, $0.timeZone) }.allSatisfy { $0.hasPrefix("2018-06-06T0") && $0.hasSuffix("-07:00") })
        #expect(d.first.map { $0.time >= t } ?? false)
        Self.checkShape(d, t: t, window: 2 * 3600, limit: 50)
    }

    @Test("a station lists its platforms' departures; an entrance its station's")
    func station() throws {
        let f = Self.wmata
        let station = try f.stop("STN_A01_C01")  // Metro Center: red line and blue/orange/silver
        let zone = TimeZone(identifier: "America/New_York")!
        let t = ReferenceDepartures.instant(2026, 5, 5, 8 * 3600, zone)
        let n = Self.compare(f, stop: station, time: .instant(t), t: t, window: 3600)
        let all = f.planner.departures(stop: station, after: .instant(t), limit: 1000, withinSeconds: 3600)
        #expect(n == all.count && n > 20)
        #expect(Set(all.map(\.stop)).count >= 3, "every platform")
        let platforms = try ["PF_A01_1", "PF_A01_2", "PF_C01_C"].map { try f.stop($0) }
        var merged: [Departure] = []
        for p in platforms {
            let own = f.planner.departures(stop: p, after: .instant(t), limit: 1000, withinSeconds: 3600)
            #expect(!own.isEmpty && own.allSatisfy { $0.stop == p })
            merged += own
        }
        #expect(Set(merged.map { Key(time: $0.time, trip: $0.tripId, date: $0.serviceDate, stop: $0.stop.raw) })
                == Set(all.map { Key(time: $0.time, trip: $0.tripId, date: $0.serviceDate, stop: $0.stop.raw) }))
        #expect(f.planner.departures(stop: try f.stop("ENT_A01_C01_N"), after: .instant(t), limit: 1000, withinSeconds: 3600) == all)
        #expect(all.allSatisfy { $0.mode == .subway && $0.headsign != nil && $0.routeColor != nil })
    }

    @Test("limit and window")
    func limits() throws {
        let f = Self.bart
        let stop = try f.stop("12TH")
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let t = ReferenceDepartures.instant(2018, 6, 5, 17 * 3600, zone)
        let ten = f.planner.departures(stop: stop, after: .instant(t))
        #expect(ten.count == 10)
        Self.checkShape(ten, t: t, window: 4 * 3600, limit: 10)
        let short = f.planner.departures(stop: stop, after: .instant(t), limit: 100, withinSeconds: 300)
        #expect(!short.isEmpty && short.count < 10)
        Self.checkShape(short, t: t, window: 300, limit: 100)
        #expect(f.planner.departures(stop: stop, after: .instant(t), limit: 0).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .instant(t), withinSeconds: -1).isEmpty)
        #expect(f.planner.departures(stop: StopIndex(raw: -1), after: .instant(t)).isEmpty)
        #expect(f.planner.departures(stop: StopIndex(f.planner.timetable.stopCount), after: .instant(t)).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .local(year: 2018, month: 2, day: 30, hour: 8, minute: 0, second: 0)).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .local(year: 2018, month: 6, day: 5, hour: .max, minute: 0, second: 0)).isEmpty)
        // Outside the feed's period: nothing, no crash.
        #expect(f.planner.departures(stop: stop, after: .local(year: 2030, month: 1, day: 1, hour: 8, minute: 0, second: 0)).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .instant(0)).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .instant(.max)).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .instant(.min), withinSeconds: .max).isEmpty)
        #expect(f.planner.departures(stop: stop, after: .instant(t), withinSeconds: .max) == ten)
        // A terminus: the trips that end there are not departures, unless asked for.
        let antioch = try f.stop("ANTC")
        let board = f.planner.departures(stop: antioch, after: .instant(t), limit: 1000, withinSeconds: 3600)
        let any = f.planner.departures(stop: antioch, after: .instant(t), limit: 1000, withinSeconds: 3600, includeNonBoarding: true)
        #expect(!board.isEmpty && any.count > board.count)
        #expect(any.filter(\.boardingAllowed).count == board.count)
        #expect(any.filter { !$0.boardingAllowed }.allSatisfy { $0.headsign != nil })
    }

    @Test("frequency-based trips: one departure per run")
    func frequencies() throws {
        let f = Fixture(try FeedFixtures.bundledFeed("google-sample"), "sample")
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let t = ReferenceDepartures.instant(2008, 6, 2, 5 * 3600, zone)
        var total = 0
        for stop in (0..<f.planner.timetable.stopCount).filter({ f.planner.timetable.stopBoardable[$0] }) {
            total += Self.compare(f, stop: StopIndex(stop), time: .instant(t), t: t, window: 18 * 3600)
        }
        #expect(total > 100)
    }
}

/// Departures counted the plain way: every stop time of every trip (frequency-based trips
/// once per run), on every date its service runs, at noon minus 12 h of that date in the
/// feed's zone plus the time.
struct ReferenceDepartures: Sendable {
    let snapshot: FeedSnapshot
    // Stop -> (trip, time since noon minus 12 h) of every boardable stop time there.
    let byStop: [[(trip: Int32, time: Int32)]]

    init(_ s: FeedSnapshot) {
        snapshot = s
        var freq: [Int32: [FeedSnapshot.Frequency]] = [:]
        for f in s.frequencies { freq[f.trip, default: []].append(f) }
        var byStop = [[(trip: Int32, time: Int32)]](repeating: [], count: s.stops.count)
        for t in 0..<s.trips.count {
            let range = s.stopTimes(ofTrip: t)
            guard range.count >= 2 else { continue }
            precondition(range.allSatisfy { s.stopTimeDeparture[$0] != FeedSnapshot.untimed }, "a test feed with untimed stop times")
            let first = s.stopTimeDeparture[range.first!]
            var shifts: [Int32] = [0]
            if let fs = freq[Int32(t)] {
                var starts = Set<Int32>()
                for f in fs { for start in stride(from: f.startTime, to: f.endTime, by: Int(f.headwaySeconds)) { starts.insert(start) } }
                shifts = starts.map { $0 - first }
            }
            for st in range where st != range.last! && s.stopTimePickup[st] != 1 {
                for shift in shifts { byStop[Int(s.stopTimeStop[st])].append((Int32(t), s.stopTimeDeparture[st] + shift)) }
            }
        }
        self.byStop = byStop
    }

    /// UTC seconds of a local date and time (no DST gap expected).
    static func instant(_ y: Int, _ m: Int, _ d: Int, _ seconds: Int, _ zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = DateComponents(year: y, month: m, day: d, hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)
        return Int64(calendar.date(from: c)!.timeIntervalSince1970)
    }

    func departures(_ stops: [Int32], from t: Int64, to end: Int64, zone: TimeZone) -> [DeparturesTests.Key] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let first = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(t)))
        let firstDate = ServiceDate(year: first.year!, month: first.month!, day: first.day!)!
        let days = Int((end - t) / 86_400) + 1
        var out: [DeparturesTests.Key] = []
        // Trips up to 96 h long: service dates up to 4 days before the query's.
        for offset in -4...days {
            let date = firstDate.adding(days: offset)
            let (y, m, d) = date.components
            let base = Self.instant(y, m, d, 12 * 3600, zone) - 43_200
            for stop in stops {
                for (trip, time) in byStop[Int(stop)] {
                    let when = base + Int64(time)
                    guard when >= t && when <= end, snapshot.services[Int(snapshot.trips[Int(trip)].service)].runs(on: date) else { continue }
                    out.append(.init(time: when, trip: snapshot.trips[Int(trip)].tripId, date: date, stop: stop))
                }
            }
        }
        return out
    }
}
