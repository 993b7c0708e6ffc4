import FeedNetwork
import Foundation
import Testing
import Timetable
import TransitModel

// The timetable builder on tiny feeds made in code, its arrays checked exactly against
// values worked out by hand from `../shared/spec/routing-model.md`: patterns split where
// trips overtake, service days and `dayBase` across DST changes, frequencies expanded into
// runs, untimed stop times interpolated, footpath candidates and transfers.txt rules.

/// "H:MM" or "H:MM:SS" as seconds (hours may exceed 23).
private func hms(_ text: String) -> Int32 {
    let p = text.split(separator: ":").map { Int32($0)! }
    return p[0] * 3600 + p[1] * 60 + (p.count == 3 ? p[2] : 0)
}

/// UTC seconds since 1970 of an ISO 8601 instant such as "2020-03-28T22:00:00Z".
private func instant(_ text: String) -> Int64 {
    let f = ISO8601DateFormatter()
    return Int64(f.date(from: text)!.timeIntervalSince1970)
}

/// Meters along a meridian of the WGS84 ellipsoid between two latitudes (degrees), by
/// Simpson's rule over the meridian radius of curvature: an oracle for the beeline of two
/// stops on one meridian that shares no code with Geo.
private func meridianArc(_ lat1: Double, _ lat2: Double) -> Double {
    let a = 6_378_137.0, f = 1 / 298.257223563, e2 = f * (2 - f)
    func m(_ phi: Double) -> Double { a * (1 - e2) / pow(1 - e2 * sin(phi) * sin(phi), 1.5) }
    let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180, n = 1000
    let h = (p2 - p1) / Double(n)
    var sum = m(p1) + m(p2)
    for i in 1..<n { sum += (i % 2 == 1 ? 4 : 2) * m(p1 + Double(i) * h) }
    return abs(sum * h / 3)
}

/// A one-feed snapshot built in code: stops on the meridian 13° E by latitude, one route
/// per name, service "S" on `date` unless others are declared.
private struct Feed {
    var snapshot = FeedSnapshot()
    var stops: [String: Int32] = [:], routes: [String: Int32] = [:], services: [String: Int32] = [:], trips: [String: Int32] = [:]

    init(timezone: String = "UTC", date: ServiceDate = ServiceDate(year: 2020, month: 4, day: 20)!) {
        snapshot.feedIds = ["t"]
        snapshot.agencies = [FeedSnapshot.Agency(feed: 0, agencyId: "A", name: "A", timezone: timezone)]
        service("S", start: date, end: date)
    }

    mutating func service(_ id: String, start: ServiceDate? = nil, end: ServiceDate? = nil, added: [ServiceDate] = []) {
        services[id] = Int32(snapshot.services.count)
        snapshot.services.append(FeedSnapshot.Service(feed: 0, serviceId: id, weekdays: start == nil ? 0 : 0x7F,
                                                      start: start, end: end, added: added, removed: []))
    }

    mutating func stop(_ id: String, latitude: Double?, type: Int8 = 0, parent: String? = nil) {
        stops[id] = Int32(snapshot.stops.count)
        snapshot.stops.append(FeedSnapshot.Stop(feed: 0, stopId: id, name: id, latitude: latitude,
                                                longitude: latitude == nil ? nil : 13.0, locationType: type,
                                                parent: parent.map { stops[$0]! } ?? -1, platformCode: nil))
    }

    /// `times`: (stop, arrival, departure, shape_dist_traveled); "-" is untimed.
    mutating func trip(_ id: String, route: String = "R", service: String = "S",
                       _ times: [(String, String, String, Double)]) {
        if routes[route] == nil {
            routes[route] = Int32(snapshot.routes.count)
            snapshot.routes.append(FeedSnapshot.Route(feed: 0, routeId: route, agency: 0, shortName: route, longName: nil,
                                                      type: 3, color: nil, textColor: nil))
        }
        trips[id] = Int32(snapshot.trips.count)
        snapshot.trips.append(FeedSnapshot.Trip(feed: 0, tripId: id, route: routes[route]!, service: services[service]!,
                                                headsign: nil, shapeId: nil))
        for (stop, arrival, departure, distance) in times {
            snapshot.stopTimeStop.append(stops[stop]!)
            snapshot.stopTimeArrival.append(arrival == "-" ? FeedSnapshot.untimed : hms(arrival))
            snapshot.stopTimeDeparture.append(departure == "-" ? FeedSnapshot.untimed : hms(departure))
            snapshot.stopTimePickup.append(0)
            snapshot.stopTimeDropOff.append(0)
            snapshot.stopTimeShapeDistance.append(distance)
        }
        snapshot.tripStopTimes.append(Int32(snapshot.stopTimeStop.count))
    }

    /// A trip whose stop times are `stop time` pairs, arrival = departure.
    mutating func trip(_ id: String, route: String = "R", service: String = "S", _ times: String) {
        trip(id, route: route, service: service, times.split(separator: ",").map { entry in
            let w = entry.split(separator: " ").map(String.init)
            return (w[0], w[1], w[1], .nan)
        })
    }

    func network() throws -> TransitNetwork { try TimetableBuilder.build(snapshot) }
    func build() throws -> Timetable { try network().timetable }
}

/// Route r's times as rows per stop position, each row the route's trips in order.
private func times(_ tt: Timetable, route r: Int, arrivals: Bool = false) -> [[Int32]] {
    let stops = Int(tt.routeStopOffsets[r + 1] - tt.routeStopOffsets[r])
    let trips = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r])
    return (0..<stops).map { i in (0..<trips).map { j in
        arrivals ? tt.arrival(route: r, position: i, run: j) : tt.departure(route: r, position: i, run: j)
    } }
}

private func tripIds(_ tt: Timetable, _ snapshot: FeedSnapshot, route r: Int) -> [String] {
    (Int(tt.routeTripOffsets[r])..<Int(tt.routeTripOffsets[r + 1])).map { snapshot.trips[tt.tripSource[$0].index].tripId }
}

@Suite struct TimetableBuilderTests {
    /// Route R, stops A B C. T2 leaves A after T1 but reaches C first (it overtakes T1
    /// between B and C); T3 follows T1 everywhere. Trips sorted by their departures are
    /// T1, T2, T3; T1 and T3 keep their order at every stop and share a route, T2 gets
    /// a route of its own.
    @Test("overtaking trips are split into patterns so that trips keep their order at every stop")
    func overtaking() throws {
        var f = Feed()
        f.stop("A", latitude: 52.00); f.stop("B", latitude: 52.02); f.stop("C", latitude: 52.04)
        f.trip("T1", "A 8:00, B 8:10, C 8:30")
        f.trip("T2", "A 8:05, B 8:12, C 8:20")
        f.trip("T3", "A 8:20, B 8:30, C 8:40")
        let tt = try f.build()
        #expect(tt.routeCount == 2)
        #expect(tt.routeStopOffsets == [0, 3, 6])
        #expect(tt.routeStops.map(\.raw) == [0, 1, 2, 0, 1, 2])
        #expect(tt.routeTripOffsets == [0, 2, 3])
        #expect(tt.stopEventCount == 9)
        #expect(tripIds(tt, f.snapshot, route: 0) == ["T1", "T3"])
        #expect(tripIds(tt, f.snapshot, route: 1) == ["T2"])
        #expect(tt.stopEventTimes(arrivals: false) == ["8:00", "8:20", "8:10", "8:30", "8:30", "8:40", "8:05", "8:12", "8:20"].map(hms))
        #expect(tt.stopEventTimes(arrivals: true) == tt.stopEventTimes(arrivals: false))
        // Arrivals equal to departures are not stored again; the three runs take different
        // times between stops: a row each.
        #expect(tt.routeArrivalShift.allSatisfy { $0 == 0 } && tt.profiles.count == 9)
        #expect(tt.routeSourceRoute.map(\.raw) == [0, 0])
        #expect(tt.routeService.map(\.raw) == [0, 0])
        #expect(tt.tripSource.map(\.raw) == [0, 2, 1])
        // Stop -> (route, position): A, B and C each on both routes.
        #expect(tt.stopRouteOffsets == [0, 2, 4, 6])
        #expect(tt.stopRouteRoute.map(\.raw) == [0, 1, 0, 1, 0, 1])
        #expect(tt.stopRoutePosition.map(\.raw) == [0, 0, 1, 1, 2, 2])
        // The invariant the router's binary search relies on, for every route.
        for r in 0..<tt.routeCount {
            for row in times(tt, route: r) + times(tt, route: r, arrivals: true) {
                #expect(row == row.sorted(), "route \(r): \(row)")
            }
        }
    }

    /// Trips of one route that differ in stops, in pickup/drop-off rules or in service are
    /// separate patterns, whatever their times.
    @Test("a pattern is one route, one stop sequence, one set of pickup/drop-off rules, one service")
    func patterns() throws {
        var f = Feed()
        f.service("W", start: ServiceDate(year: 2020, month: 4, day: 21)!, end: ServiceDate(year: 2020, month: 4, day: 21)!)
        f.stop("A", latitude: 52.00); f.stop("B", latitude: 52.02); f.stop("C", latitude: 52.04)
        f.trip("P1", "A 8:00, B 8:10, C 8:20")
        f.trip("P2", "A 9:00, C 9:20")
        f.trip("P3", service: "W", "A 7:00, B 7:10, C 7:20")
        f.trip("P4", "A 10:00, B 10:10, C 10:20")
        f.snapshot.stopTimePickup[f.snapshot.stopTimePickup.count - 2] = 1   // P4: no boarding at B
        let tt = try f.build()
        #expect(tt.routeCount == 4)
        #expect((0..<4).map { tripIds(tt, f.snapshot, route: $0) } == [["P1"], ["P2"], ["P3"], ["P4"]])
        #expect(tt.routeStops.map(\.raw) == [0, 1, 2, 0, 2, 0, 1, 2, 0, 1, 2])
        #expect(tt.routeService.map(\.raw) == [0, 0, 1, 0])
        #expect(tt.routeCanBoard == [true, true, true, true, true, true, true, true, true, false, true])
        #expect(tt.routeCanAlight == Array(repeating: true, count: 11))
    }

    /// Europe/Berlin: clocks go forward at 02:00 on Sunday 2020-03-29 and back at 03:00 on
    /// Sunday 2020-10-25. A service date's times count from noon minus 12 h: on both
    /// Sundays that is 01:00 or 23:00 of the wall clock, not midnight, and 08:00 of the
    /// timetable is 08:00 on the wall clock, whatever the offset that day.
    @Test("dayBase: times of a service date across DST changes map to the right UTC instants")
    func daylightSaving() throws {
        let saturday = ServiceDate(year: 2020, month: 3, day: 28)!, spring = ServiceDate(year: 2020, month: 3, day: 29)!
        let autumn = ServiceDate(year: 2020, month: 10, day: 25)!
        var f = Feed(timezone: "Europe/Berlin", date: saturday)
        f.service("SUN", added: [spring, autumn])
        f.stop("A", latitude: 52.00); f.stop("B", latitude: 52.02)
        f.trip("D1", "A 8:00, B 8:30")
        f.trip("D2", service: "SUN", "A 1:30, B 26:00")
        let tt = try f.build()
        // Days from the day before the first service date to the day after the last.
        #expect(tt.firstDay == ServiceDate(year: 2020, month: 3, day: 27)!)
        #expect(tt.dayCount == Int(autumn.daysSinceEpoch - saturday.daysSinceEpoch) + 3)
        #expect(tt.timeZoneNames == ["Europe/Berlin"])
        #expect(tt.routeTimeZone == [0, 0])
        func day(_ d: ServiceDate) -> Int { Int(d.daysSinceEpoch - tt.firstDay.daysSinceEpoch) }
        // Noon minus 12 h: CET (+1) on Saturday, CEST (+2) at noon on the spring Sunday
        // (so 23:00 CET the evening before), CET (+1) at noon on the autumn Sunday (so
        // 01:00 CEST that night).
        #expect(tt.dayBase[day(saturday)] == instant("2020-03-27T23:00:00Z"))
        #expect(tt.dayBase[day(spring)] == instant("2020-03-28T22:00:00Z"))
        #expect(tt.dayBase[day(autumn)] == instant("2020-10-24T23:00:00Z"))
        #expect(tt.dayBase[day(autumn) + 1] == instant("2020-10-25T23:00:00Z"))
        // 08:00 on Saturday is 07:00 UTC; 01:30 on the spring Sunday is 00:30 CET, the
        // clock before the change (23:30 UTC); 26:00 that day is 02:00 CEST on Monday
        // (00:00 UTC); 01:30 on the autumn Sunday is 02:30 CEST, the first time round
        // (00:30 UTC).
        let d1 = try #require(tt.tripSource.firstIndex(of: SourceTripIndex(0))), d2 = try #require(tt.tripSource.firstIndex(of: SourceTripIndex(1)))
        let r1 = try #require((0..<tt.routeCount).first { tt.routeTripOffsets[$0] == d1 })
        let r2 = try #require((0..<tt.routeCount).first { tt.routeTripOffsets[$0] == d2 })
        #expect(tt.dayBase[day(saturday)] + Int64(times(tt, route: r1)[0][0]) == instant("2020-03-28T07:00:00Z"))
        #expect(tt.dayBase[day(spring)] + Int64(times(tt, route: r2)[0][0]) == instant("2020-03-28T23:30:00Z"))
        #expect(tt.dayBase[day(spring)] + Int64(times(tt, route: r2, arrivals: true)[1][0]) == instant("2020-03-30T00:00:00Z"))
        #expect(tt.dayBase[day(autumn)] + Int64(times(tt, route: r2)[0][0]) == instant("2020-10-25T00:30:00Z"))
        // Service days: "S" on Saturday only, "SUN" on the two Sundays only.
        let running = (0..<2).map { s in (0..<tt.dayCount).filter { tt.serviceRuns(ServiceIndex(s), day: $0) } }
        #expect(running == [[day(saturday)], [day(spring), day(autumn)]])
    }

    /// Template F: X (a station: passed through, dropped) 5:58, A 6:00, B 6:10/6:12,
    /// C 6:20. Rows 7:00–7:30 every 10 min and 7:20–7:40 every 15 min: starts 7:00, 7:10,
    /// 7:20 and 7:20 (the same start, once), 7:35; each run keeps the template's offsets
    /// from its first departure (X at 5:58): A at start + 2 min. The template does not run.
    @Test("frequencies expand into one run per distinct start, offsets from the template's first departure")
    func frequencies() throws {
        var f = Feed()
        f.stop("X", latitude: 51.99, type: 1)
        f.stop("A", latitude: 52.00); f.stop("B", latitude: 52.02); f.stop("C", latitude: 52.04)
        f.trip("F", [("X", "5:58", "5:58", .nan), ("A", "6:00", "6:00", .nan), ("B", "6:10", "6:12", .nan), ("C", "6:20", "6:20", .nan)])
        f.trip("N", "A 7:15, B 7:25, C 7:35")
        f.snapshot.frequencies = [
            FeedSnapshot.Frequency(trip: 0, startTime: hms("7:00"), endTime: hms("7:30"), headwaySeconds: 600),
            FeedSnapshot.Frequency(trip: 0, startTime: hms("7:20"), endTime: hms("7:40"), headwaySeconds: 900),
        ]
        let tt = try f.build()
        #expect(tt.tripCount == 5)
        #expect(tt.routeCount == 1)
        #expect(tt.routeStops.map(\.raw) == [1, 2, 3])
        #expect(tripIds(tt, f.snapshot, route: 0) == ["F", "F", "N", "F", "F"])
        #expect(times(tt, route: 0) == [
            ["7:02", "7:12", "7:15", "7:22", "7:37"].map(hms),
            ["7:14", "7:24", "7:25", "7:34", "7:49"].map(hms),
            ["7:22", "7:32", "7:35", "7:42", "7:57"].map(hms),
        ])
        // Arrivals that differ from the departures: after them in each row; the frequency
        // runs share F's row, N has one of its own.
        #expect(tt.routeArrivalShift == [3] && tt.profiles.count == 2 * 6)
        #expect(Set(tt.runTimes.map(\.row)).count == 2)
        #expect(times(tt, route: 0, arrivals: true) == [
            ["7:02", "7:12", "7:15", "7:22", "7:37"].map(hms),
            ["7:12", "7:22", "7:25", "7:32", "7:47"].map(hms),
            ["7:22", "7:32", "7:35", "7:42", "7:57"].map(hms),
        ])
    }

    /// Untimed stop times between timed ones, in proportion to distance: along
    /// shape_dist_traveled when the whole span has it (0, 1000, 3000, 6000 over 30 min:
    /// B at 5 min, C at 15), else along the beeline between consecutive stops (stops on
    /// one meridian at 0, 1, 2 and 4 hundredths of a degree: B at a quarter of 30 min,
    /// 7:30, C at half). A stop time with only a departure (or arrival) uses it for both.
    /// A trip whose last stop time has no time is left out, with a warning.
    @Test("untimed stop times are interpolated by shape distance, else by beeline; untimed ends leave the trip out")
    func interpolation() throws {
        var f = Feed()
        f.stop("A", latitude: 52.00); f.stop("B", latitude: 52.01); f.stop("C", latitude: 52.02); f.stop("D", latitude: 52.04)
        f.trip("I1", route: "R1", [("A", "8:00", "8:00", 0), ("B", "-", "-", 1000), ("C", "-", "-", 3000), ("D", "8:30", "8:30", 6000)])
        f.trip("I2", route: "R2", [("A", "-", "9:00", .nan), ("B", "-", "-", .nan), ("C", "-", "-", .nan), ("D", "9:30", "-", .nan)])
        // Shape distances on part of the span only: the beeline is used for all of it.
        f.trip("I3", route: "R3", [("A", "10:00", "10:00", 0), ("B", "-", "-", .nan), ("C", "-", "-", 5000), ("D", "10:30", "10:30", 6000)])
        f.trip("I4", route: "R4", [("A", "11:00", "11:00", .nan), ("B", "-", "-", .nan), ("D", "-", "-", .nan)])
        // Two stops at one place: D = 0, both at the earlier time.
        f.stop("A2", latitude: 52.00)
        f.trip("I5", route: "R5", [("A", "12:00", "12:00", .nan), ("A2", "-", "-", .nan), ("A", "12:10", "12:10", .nan)])
        let network = try f.network(), tt = network.timetable
        #expect(network.warnings == ["1 trips left out: their first or last stop time has no time"])
        #expect(tt.routeCount == 4)
        #expect((0..<4).map { tripIds(tt, f.snapshot, route: $0) } == [["I1"], ["I2"], ["I3"], ["I5"]])
        #expect(times(tt, route: 0).flatMap { $0 } == ["8:00", "8:05", "8:15", "8:30"].map(hms))
        #expect(times(tt, route: 1).flatMap { $0 } == ["9:00", "9:07:30", "9:15", "9:30"].map(hms))
        #expect(times(tt, route: 1, arrivals: true).flatMap { $0 } == ["9:00", "9:07:30", "9:15", "9:30"].map(hms))
        #expect(times(tt, route: 2).flatMap { $0 } == ["10:00", "10:07:30", "10:15", "10:30"].map(hms))
        #expect(times(tt, route: 3).flatMap { $0 } == ["12:00", "12:00", "12:10"].map(hms))
    }

    /// P, Q 300 m north, R 900 m north, T 2.1 km north: P–Q, P–R and Q–R are within the
    /// 1000 m radius, R–T is not. The station ST (not boardable) has none. transfers.txt:
    /// T → P type 2 with 180 s (a footpath whatever its length, listed first), P → P type 3
    /// (the change at P itself is forbidden), Q → R type 1 (timed, first in Q's list).
    @Test("footpath candidates: every pair within the radius by beeline, transfers.txt rules first")
    func footpaths() throws {
        var f = Feed()
        let lat: [String: Double] = ["P": 52.0, "Q": 52.0027, "R": 52.0081, "T": 52.019]
        f.stop("ST", latitude: 52.0001, type: 1)
        for id in ["P", "Q", "R", "T"] { f.stop(id, latitude: lat[id]) }
        f.trip("X", "P 8:00, T 8:10")
        let (st, p, q, r, t): (Int32, Int32, Int32, Int32, Int32) = (0, 1, 2, 3, 4)
        f.snapshot.transfers = [
            FeedSnapshot.Transfer(fromStop: t, toStop: p, type: 2, minTransferTime: 180, line: 2),
            FeedSnapshot.Transfer(fromStop: p, toStop: p, type: 3, minTransferTime: nil, line: 3),
            FeedSnapshot.Transfer(fromStop: q, toStop: r, type: 1, minTransferTime: nil, line: 4),
        ]
        let tt = try f.build()
        #expect(tt.footpathBeelineMeters == 1000)
        #expect(tt.stopBoardable == [false, true, true, true, true])
        // ST: none; P: Q, R; Q: R (ruled), P; R: Q, P; T: P (ruled).
        #expect(tt.footOffsets == [0, 0, 2, 4, 6, 7])
        #expect(tt.footTarget.map(\.raw) == [q, r, r, p, q, p, p])
        #expect(tt.footSources().map(\.raw) == [p, p, q, q, r, r, t])
        let none = TransferRule.none.rawValue
        #expect(tt.footRule == [none, none, TransferRule.timed.rawValue, none, none, none, TransferRule.minimumTime.rawValue])
        #expect(tt.footMinTime == [0, 0, 0, 0, 0, 0, 180])
        #expect(tt.sameStopRule == [none, TransferRule.forbidden.rawValue, none, none, none])
        #expect(tt.sameStopMinTime == [0, 0, 0, 0, 0])
        let pairs = zip(tt.footSources(), tt.footTarget).map { (a, b) in
            meridianArc(f.snapshot.stops[a.index].latitude!, f.snapshot.stops[b.index].latitude!)
        }
        for (i, (got, expected)) in zip(tt.footBeeline, pairs).enumerated() {
            #expect(abs(got - expected) < 0.001, "footpath \(i): \(got) m, the meridian arc is \(expected) m")
        }
        #expect(pairs[0] > 290 && pairs[0] < 310 && pairs[6] > 2000, "the network is laid out as drawn: \(pairs)")
        // Incoming: P from T (ruled), Q, R; Q from P, R; R from Q (ruled), P; T none.
        #expect(tt.footInOffsets == [0, 0, 3, 5, 7, 7])
        #expect(tt.footIn.map { tt.footSources()[Int($0)].raw } == [t, q, r, p, r, q, p])
        for b in 0..<tt.stopCount {
            for i in Int(tt.footInOffsets[b])..<Int(tt.footInOffsets[b + 1]) { #expect(tt.footTarget[Int(tt.footIn[i])] == StopIndex(b)) }
        }
    }
}
