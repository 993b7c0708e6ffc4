import Foundation
import GTFS
import Geo
import Testing
import TransitModel
import TransitTesting

// The reference router (TransitTesting.ReferenceRouter) on tiny networks with hand-derived
// answers, one model rule per test; on random tiny networks against a brute-force enumeration of
// every journey; then on real feeds: a smoke test, a self-consistency check between its
// depart-at and arrive-by searches, and its speed.
//
// Unless said otherwise: agency in UTC, one service running only on Monday 2018-06-04 (so the
// query's D−1 and D+1 add nothing), stops 5 km apart on an east-west line (no walks between them),
// queries from stop to stop (no access or egress walk). Times are "HH:MM" of that Monday, UTC.

/// Monday.
private let refMonday = ServiceDate(year: 2018, month: 6, day: 4)!
private let refOrigin = Coordinate(latitude: 45.0, longitude: 7.0)

/// Seconds of a "HH:MM" or "HH:MM:SS" clock text.
private func refClock(_ text: String) -> Int32 {
    let parts = text.split(separator: ":").map { Int32($0)! }
    return parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
}

/// UTC instant of a clock time on `date` (midnight UTC plus the clock).
private func refUTC(_ text: String, on date: ServiceDate = refMonday) -> Int64 {
    Int64(date.daysSinceEpoch) * 86_400 + Int64(refClock(text))
}

/// "HH:MM:SS" of an instant on Monday (UTC), for a stop time.
private func refHMS(_ instant: Int64) -> String {
    let s = instant - refUTC("00:00")
    return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
}

/// `walkSeconds` between two points, as the model defines it (default parameters).
private func refWalk(_ a: Coordinate, _ b: Coordinate) -> Int64 {
    Int64((Geodesic.distance(a, b) * 1.3 / 1.33).rounded(.up))
}

private func refEast(_ meters: Double, north: Double = 0) -> Coordinate {
    let p = Geodesic.destination(from: refOrigin, azimuthDegrees: 90, meters: meters)
    return north == 0 ? p : Geodesic.destination(from: p, azimuthDegrees: 0, meters: north)
}

private func J(_ rides: Int, _ departure: Int64, _ arrival: Int64) -> ReferenceJourney {
    ReferenceJourney(rides: rides, departure: departure, arrival: arrival)
}

/// One stop time of a tiny trip.
private struct RefCall {
    var stop: Int32
    var arrival: String?
    var departure: String?
    var pickup: UInt8 = 0
    var dropOff: UInt8 = 0
    var distance: Double = .nan
}

private func at(_ stop: Int32, _ time: String?, dep: String? = nil, pickup: UInt8 = 0, dropOff: UInt8 = 0,
                dist: Double = .nan) -> RefCall {
    RefCall(stop: stop, arrival: time, departure: dep ?? time, pickup: pickup, dropOff: dropOff, distance: dist)
}

/// A feed built in code: one agency, one route, one service.
private struct RefFeed {
    var snapshot = FeedSnapshot()

    init(timezone: String = "UTC", serviceDays: [ServiceDate] = [refMonday]) {
        snapshot.feedIds = ["tiny"]
        snapshot.agencies = [.init(feed: 0, agencyId: "A", name: "Agency", timezone: timezone)]
        snapshot.routes = [.init(feed: 0, routeId: "R", agency: 0, shortName: "R", longName: nil, type: 3,
                                 color: nil, textColor: nil)]
        snapshot.services = [.init(feed: 0, serviceId: "S", added: serviceDays)]
    }

    /// A stop at `coordinate` (nil: none), of `type`, with a parent station or -1.
    @discardableResult
    mutating func stop(_ id: String, _ coordinate: Coordinate?, type: Int8 = 0, parent: Int32 = -1) -> Int32 {
        snapshot.stops.append(.init(feed: 0, stopId: id, name: id, latitude: coordinate?.latitude,
                                    longitude: coordinate?.longitude, locationType: type, parent: parent, platformCode: nil))
        return Int32(snapshot.stops.count - 1)
    }

    /// A stop on the line, `kilometers` east of the origin.
    @discardableResult
    mutating func stop(_ id: String, km kilometers: Double) -> Int32 { stop(id, refEast(kilometers * 1000)) }

    @discardableResult
    mutating func trip(_ id: String, _ calls: [RefCall]) -> Int32 {
        snapshot.trips.append(.init(feed: 0, tripId: id, route: 0, service: 0, headsign: nil, shapeId: nil))
        for c in calls {
            snapshot.stopTimeStop.append(c.stop)
            snapshot.stopTimeArrival.append(c.arrival.map(refClock) ?? FeedSnapshot.untimed)
            snapshot.stopTimeDeparture.append(c.departure.map(refClock) ?? FeedSnapshot.untimed)
            snapshot.stopTimePickup.append(c.pickup)
            snapshot.stopTimeDropOff.append(c.dropOff)
            snapshot.stopTimeShapeDistance.append(c.distance)
        }
        snapshot.tripStopTimes.append(Int32(snapshot.stopTimeStop.count))
        return Int32(snapshot.trips.count - 1)
    }

    mutating func transfer(_ from: Int32, _ to: Int32, type: Int8, min: Int32? = nil) {
        snapshot.transfers.append(.init(fromStop: from, toStop: to, type: type, minTransferTime: min,
                                        line: Int32(snapshot.transfers.count + 2)))
    }

    mutating func frequency(_ trip: Int32, _ start: String, _ end: String, every headway: Int32) {
        snapshot.frequencies.append(.init(trip: trip, startTime: refClock(start), endTime: refClock(end), headwaySeconds: headway))
    }

    func router(_ change: (inout ReferenceParameters) -> Void = { _ in }) -> ReferenceRouter {
        var p = ReferenceParameters()
        change(&p)
        return ReferenceRouter(snapshot: snapshot, parameters: p)
    }
}

@Suite struct ReferenceRouterTests {
    // MARK: Rides and changes

    /// A ──X 08:00→08:30──▶ B
    @Test func singleRide() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:50")) == [J(1, refUTC("08:00"), refUTC("08:30"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("08:00")) == [J(1, refUTC("08:00"), refUTC("08:30"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("08:00:01")) == [])
        // Not backwards.
        #expect(r.departAt(from: .stop(b), to: .stop(a), time: refUTC("07:00")) == [])
    }

    /// A ──X 08:00→08:30──▶ B ──Y dep→09:00──▶ C: the change at B needs 120 s.
    @Test(arguments: [("08:32:00", true), ("08:31:59", false)])
    func changeWithSlack(_ yDeparts: String, _ made: Bool) {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b, yDeparts), at(c, "09:00")])
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00"))
                == (made ? [J(2, refUTC("08:00"), refUTC("09:00"))] : []))
    }

    /// A ──X──▶ B ┄walk 300 m┄ B2 ──Y──▶ C: the change takes walkSeconds + 120.
    @Test func footpathChange() {
        let walk = refWalk(refEast(5000), refEast(5000, north: 300))
        for (offset, made) in [(walk + 120, true), (walk + 119, false)] {
            var f = RefFeed()
            let a = f.stop("A", km: 0), b = f.stop("B", km: 5), b2 = f.stop("B2", refEast(5000, north: 300))
            let c = f.stop("C", km: 10)
            f.trip("X", [at(a, "08:00"), at(b, "08:30")])
            // Only a departure time at B2 (it stands for both).
            f.trip("Y", [RefCall(stop: b2, arrival: nil, departure: refHMS(refUTC("08:30") + offset)), at(c, "09:00")])
            let r = f.router()
            #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00"))
                    == (made ? [J(2, refUTC("08:00"), refUTC("09:00"))] : []), "offset \(offset)")
        }
    }

    /// No footpath beyond maxTransferWalk (400 m beeline = 520 m walked), unless transfers.txt says so.
    @Test func footpathLimitAndTransferRowBeyondIt() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), b2 = f.stop("B2", refEast(5000, north: 400))
        let c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b2, "08:50"), at(c, "09:00")])
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
        var g = f
        g.transfer(b, b2, type: 0)
        #expect(g.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00"))
                == [J(2, refUTC("08:00"), refUTC("09:00"))])
        // A larger maxTransferWalk makes the footpath by distance.
        #expect(f.router { $0.maxTransferWalk = 600 }.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00"))
                == [J(2, refUTC("08:00"), refUTC("09:00"))])
        // transfers.txt rows are directed: B2 → B does not make B → B2.
        var h = f
        h.transfer(b2, b, type: 0)
        #expect(h.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
    }

    /// transfer_type 1: no slack (same stop: 0 s; footpath: walkSeconds only).
    @Test func timedTransfer() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), b2 = f.stop("B2", refEast(5000, north: 300))
        let c = f.stop("C", km: 10), d = f.stop("D", km: 15)
        let walk = refWalk(refEast(5000), refEast(5000, north: 300))
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b, "08:30"), at(c, "09:00")])
        f.trip("Z", [at(b2, refHMS(refUTC("08:30") + walk)), at(d, "09:00")])
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
        #expect(f.router().departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == [])
        f.transfer(b, b, type: 1)
        f.transfer(b, b2, type: 1)
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        #expect(f.router().departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        #expect(f.router().arriveBy(from: .stop(a), to: .stop(d), time: refUTC("09:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
    }

    /// A timed transfer between two zero-length hops in the same second: the scan must see the
    /// label made at 08:30 by X before it leaves 08:30, whatever order the two hops come in.
    @Test func timedTransferInTheSameSecond() {
        for yFirst in [true, false] {
            var f = RefFeed()
            let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
            if yFirst { f.trip("Y", [at(b, "08:30"), at(c, "08:30")]) }
            f.trip("X", [at(a, "08:30"), at(b, "08:30")])
            if !yFirst { f.trip("Y", [at(b, "08:30"), at(c, "08:30")]) }
            f.transfer(b, b, type: 1)
            let r = f.router()
            #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("08:00")) == [J(2, refUTC("08:30"), refUTC("08:30"))])
            #expect(r.arriveBy(from: .stop(a), to: .stop(c), time: refUTC("09:00")) == [J(2, refUTC("08:30"), refUTC("08:30"))])
        }
    }

    /// transfer_type 2: max(walkSeconds + slack, min_transfer_time); same stop max(slack, min).
    @Test func minimumTransferTime() {
        for (yDeparts, made) in [("08:39:59", false), ("08:40:00", true)] {
            var f = RefFeed()
            let a = f.stop("A", km: 0), b = f.stop("B", km: 5), b2 = f.stop("B2", refEast(5000, north: 300))
            let c = f.stop("C", km: 10), d = f.stop("D", km: 15)
            f.trip("X", [at(a, "08:00"), at(b, "08:30")])
            f.trip("Y", [at(b, yDeparts), at(c, "09:00")])
            f.trip("Z", [at(b2, yDeparts), at(d, "09:00")])
            f.transfer(b, b, type: 2, min: 600)
            f.transfer(b, b2, type: 2, min: 600)
            let r = f.router()
            #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == (made ? [J(2, refUTC("08:00"), refUTC("09:00"))] : []))
            #expect(r.departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == (made ? [J(2, refUTC("08:00"), refUTC("09:00"))] : []))
        }
        // A min_transfer_time below walk + slack does not shorten the change; empty counts as 0.
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b, "08:31:59"), at(c, "09:00")])
        f.transfer(b, b, type: 2, min: 30)
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
        f.snapshot.transfers[0].minTransferTime = nil
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
    }

    /// transfer_type 3: no change from `from` to `to`; at one stop, no alighting and re-boarding.
    @Test func forbiddenTransfers() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), b2 = f.stop("B2", refEast(5000, north: 300))
        let c = f.stop("C", km: 10), d = f.stop("D", km: 15)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b, "08:50"), at(c, "09:00")])
        f.trip("Z", [at(b2, "08:50"), at(d, "09:00")])
        let before = f.router()
        #expect(before.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        #expect(before.departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        f.transfer(b, b, type: 3)
        f.transfer(b, b2, type: 3)
        let after = f.router()
        #expect(after.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
        #expect(after.departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == [])
        #expect(after.arriveBy(from: .stop(a), to: .stop(d), time: refUTC("10:00")) == [])
        // Only that direction: from B2 the change to B is still there (Z's stop to Y's stop).
        var g = f
        let e = g.stop("E", km: 20)
        g.trip("V", [at(e, "08:00"), at(b2, "08:30")])
        #expect(g.router().departAt(from: .stop(e), to: .stop(c), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
    }

    /// Station rows stand for their boardable children; a row naming both stops wins over a
    /// station row whatever the lines; among equals the later line wins; entrances are ignored.
    @Test func transferRowPrecedence() {
        var f = RefFeed()
        let station = f.stop("ST", refEast(5000), type: 1)
        let a = f.stop("A", km: 0)
        let b = f.stop("B", nil, parent: station)  // inherits the station's coordinates
        let b2 = f.stop("B2", refEast(5000, north: 300), parent: station)
        let entrance = f.stop("E1", refEast(5000, north: 100), type: 2, parent: station)
        let c = f.stop("C", km: 10), d = f.stop("D", km: 15)
        let walk = refWalk(refEast(5000), refEast(5000, north: 300))
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(b, "08:50"), at(c, "09:00")])
        f.trip("Z", [at(b2, refHMS(refUTC("08:30") + walk)), at(d, "09:00")])
        f.transfer(b, b2, type: 1)               // line 2: direct, wins over the station row
        f.transfer(station, station, type: 3)    // line 3: forbids B → B (and B2 → B, …)
        f.transfer(b, entrance, type: 3)         // line 4: names an entrance: ignored
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
        #expect(r.departAt(from: .stop(a), to: .stop(d), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        // Two direct rows for B → B: the later one (type 0, slack) wins over the station row too.
        f.transfer(b, b, type: 3)
        f.transfer(b, b, type: 0)
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        f.snapshot.transfers.swapAt(3, 4)
        f.snapshot.transfers[3].line = 5; f.snapshot.transfers[4].line = 6
        #expect(f.router().departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [])
    }

    // MARK: Service days and time zones

    /// A trip of Monday's service at 25:10 runs on Tuesday 01:10 (Los Angeles); queried on
    /// Tuesday 00:30 local, it is found among the trips of D − 1.
    @Test func pastMidnightQueriedOnTheNextDay() {
        var f = RefFeed(timezone: "America/Los_Angeles")
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5)
        f.trip("N", [at(a, "25:10"), at(b, "26:00")])
        let r = f.router()
        let tuesday = refMonday.adding(days: 1)
        // PDT is UTC−7: Tuesday 00:30 local = 07:30 UTC; 25:10 on Monday = Tuesday 08:10 UTC.
        let t = refUTC("07:30", on: tuesday)
        #expect(r.queryServiceDate(from: .stop(a), time: t)! == (tuesday, "America/Los_Angeles"))
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: t) == [J(1, refUTC("08:10", on: tuesday), refUTC("09:00", on: tuesday))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(b), time: refUTC("10:00", on: tuesday))
                == [J(1, refUTC("08:10", on: tuesday), refUTC("09:00", on: tuesday))])
        // Wednesday 00:30 local: Monday is D − 2, not considered.
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("06:00", on: tuesday)) == [J(1, refUTC("08:10", on: tuesday), refUTC("09:00", on: tuesday))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:30", on: tuesday.adding(days: 1))) == [])
    }

    /// "Noon minus 12 hours" on the day summer time starts (Los Angeles, 2018-03-11): 01:00:00
    /// of that service date is 00:00 PST = 08:00 UTC, and 08:00:00 is 08:00 PDT = 15:00 UTC.
    @Test func noonMinusTwelveHoursOnADaylightSavingDay() {
        let day = ServiceDate(year: 2018, month: 3, day: 11)!
        var f = RefFeed(timezone: "America/Los_Angeles", serviceDays: [day])
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5)
        f.trip("EARLY", [at(a, "01:00"), at(b, "01:30")])
        f.trip("MORNING", [at(a, "08:00"), at(b, "08:30")])
        let r = f.router()
        let saturdayEvening = refUTC("07:30", on: day)  // 23:30 PST on the 10th: D = the 10th, D + 1 = the 11th
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: saturdayEvening) == [J(1, refUTC("08:00", on: day), refUTC("08:30", on: day))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("08:01", on: day)) == [J(1, refUTC("15:00", on: day), refUTC("15:30", on: day))])
    }

    /// frequencies.txt: runs start 07:00, 07:15, 07:30, 07:45 (before 08:00), with the template's
    /// offsets from its first departure; the template (06:00) does not run by itself; a second row
    /// repeating starts adds nothing.
    @Test func frequencies() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        let t = f.trip("T", [at(a, "06:00"), at(b, "06:10", dep: "06:12"), at(c, "06:20")])
        f.frequency(t, "07:00", "08:00", every: 900)
        f.frequency(t, "07:30", "07:46", every: 900)
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("05:50")) == [J(1, refUTC("07:00"), refUTC("07:10"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:20")) == [J(1, refUTC("07:30"), refUTC("07:40"))])
        #expect(r.departAt(from: .stop(b), to: .stop(c), time: refUTC("07:45")) == [J(1, refUTC("07:57"), refUTC("08:05"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:46")) == [])
        #expect(r.arriveBy(from: .stop(a), to: .stop(c), time: refUTC("08:00")) == [J(1, refUTC("07:30"), refUTC("07:50"))])
    }

    // MARK: Stop times

    /// pickup_type 1 forbids boarding, drop_off_type 1 alighting; the ride passes through.
    @Test func pickupAndDropOff() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(b, "08:10", pickup: 1), at(c, "08:20")])
        f.trip("Z", [at(a, "09:00"), at(b, "09:10", dropOff: 1), at(c, "09:20")])
        let r = f.router()
        #expect(r.departAt(from: .stop(b), to: .stop(c), time: refUTC("08:00")) == [J(1, refUTC("09:10"), refUTC("09:20"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("08:30")) == [])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:30")) == [J(1, refUTC("08:00"), refUTC("08:10"))])
        #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("08:30")) == [J(1, refUTC("09:00"), refUTC("09:20"))])
        #expect(r.arriveBy(from: .stop(b), to: .stop(c), time: refUTC("09:30")) == [J(1, refUTC("09:10"), refUTC("09:20"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(b), time: refUTC("09:30")) == [J(1, refUTC("08:00"), refUTC("08:10"))])
    }

    /// A trip through a stop that is not boardable (a station) passes through it.
    @Test func nonBoardableStopIsPassedThrough() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), n = f.stop("N", refEast(5000), type: 1), c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(n, "08:10"), at(c, "08:20")])
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [J(1, refUTC("08:00"), refUTC("08:20"))])
        #expect(r.departAt(from: .stop(n), to: .stop(c), time: refUTC("07:00")) == [])
        #expect(r.departAt(from: .stop(a), to: .stop(n), time: refUTC("07:00")) == [])
    }

    /// An untimed stop time between 08:00 (distance 0) and 08:10 (distance 3) at distance 1:
    /// 08:00 + round(600 × 1 / 3) = 08:03:20. Halves round up: 601 × 1/2 = 300.5 → 301.
    @Test func untimedStopTimeInterpolated() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        let d = f.stop("D", km: 15), e = f.stop("E", km: 20), g = f.stop("G", km: 25)
        f.trip("X", [at(a, "08:00", dist: 0), at(b, nil, dist: 1), at(c, "08:10", dist: 3)])
        f.trip("H", [at(d, "09:00", dist: 0), at(e, nil, dist: 1), at(g, "09:10:01", dist: 2)])
        // No shape distance on one stop time of the span: beeline 5 km + 5 km, so half way.
        f.trip("Y", [at(a, "10:00", dist: 0), at(b, nil), at(c, "10:10", dist: 3)])
        let r = f.router()
        #expect(r.departAt(from: .stop(b), to: .stop(c), time: refUTC("08:00")) == [J(1, refUTC("08:03:20"), refUTC("08:10"))])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("08:00")) == [J(1, refUTC("08:00"), refUTC("08:03:20"))])
        #expect(r.departAt(from: .stop(e), to: .stop(g), time: refUTC("09:00")) == [J(1, refUTC("09:05:01"), refUTC("09:10:01"))])
        #expect(r.departAt(from: .stop(b), to: .stop(c), time: refUTC("09:00")) == [J(1, refUTC("10:05"), refUTC("10:10"))])
    }

    /// A trip whose last stop time has no time is left out.
    @Test func tripWithUntimedEndIsLeftOut() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5)
        f.trip("X", [at(a, "08:00"), at(b, nil)])
        f.trip("Y", [at(a, "09:00"), at(b, "09:30")])
        let r = f.router()
        #expect(r.tripsLeftOut == [0])
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:00")) == [J(1, refUTC("09:00"), refUTC("09:30"))])
    }

    // MARK: Walking

    /// Walk-only when walkMeters ≤ 2000: beeline 1 km → 1300 m → ceil(1300 / 1.33) s.
    @Test func walkOnly() {
        var f = RefFeed()
        f.stop("A", km: 0)
        let r = f.router()
        let near = refEast(1000), far = refEast(1600)
        let t = refUTC("08:00")
        let walk = refWalk(refOrigin, near)
        #expect(walk == 978)
        #expect(r.departAt(from: .coordinate(latitude: refOrigin.latitude, longitude: refOrigin.longitude),
                           to: .coordinate(latitude: near.latitude, longitude: near.longitude), time: t) == [J(0, t, t + walk)])
        #expect(r.arriveBy(from: .coordinate(latitude: refOrigin.latitude, longitude: refOrigin.longitude),
                           to: .coordinate(latitude: near.latitude, longitude: near.longitude), time: t) == [J(0, t - walk, t)])
        #expect(r.departAt(from: .coordinate(latitude: refOrigin.latitude, longitude: refOrigin.longitude),
                           to: .coordinate(latitude: far.latitude, longitude: far.longitude), time: t) == [])
    }

    /// Access and egress walks (no slack): leave at 08:00 − walk to A, arrive 08:30 + walk from B;
    /// a stop beyond maxAccessWalk is not walked to; no footpath after the last ride.
    @Test func accessAndEgressWalks() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5)
        let b2 = f.stop("B2", refEast(5000, north: 300)), c = f.stop("C", km: 10)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        f.trip("Y", [at(a, "08:05"), at(b2, "08:35")])
        _ = c
        let origin = refEast(-500), destination = refEast(5000, north: -200)
        let accessWalk = refWalk(origin, refEast(0)), egressWalk = refWalk(refEast(5000), destination)
        let r = f.router()
        let from = ReferencePlace.coordinate(latitude: origin.latitude, longitude: origin.longitude)
        let to = ReferencePlace.coordinate(latitude: destination.latitude, longitude: destination.longitude)
        #expect(r.departAt(from: from, to: to, time: refUTC("07:00"))
                == [J(1, refUTC("08:00") - accessWalk, refUTC("08:30") + egressWalk)])
        #expect(r.arriveBy(from: from, to: to, time: refUTC("09:00"))
                == [J(1, refUTC("08:05") - accessWalk, refUTC("08:35") + refWalk(refEast(5000, north: 300), destination))])
        // Leaving one second too late for X's access walk.
        #expect(r.departAt(from: from, to: to, time: refUTC("08:00") - accessWalk + 1)
                == [J(1, refUTC("08:05") - accessWalk, refUTC("08:35") + refWalk(refEast(5000, north: 300), destination))])
        // 800 m beeline = 1040 m walked: too far to walk to A.
        let tooFar = refEast(-800)
        #expect(r.departAt(from: .coordinate(latitude: tooFar.latitude, longitude: tooFar.longitude), to: to,
                           time: refUTC("07:00")) == [])
    }

    // MARK: Answers

    /// Depart-at shows the latest departure among equal arrivals; arrive-by the earliest arrival
    /// among equal departures. X1 07:50→08:30, X2 08:00→08:30, X3 08:00→08:40.
    @Test func arriveByMirrorsDepartAt() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10)
        f.trip("X1", [at(a, "07:50"), at(b, "08:30")])
        f.trip("X2", [at(a, "08:00"), at(b, "08:30")])
        f.trip("X3", [at(a, "08:00"), at(b, "08:40")])
        f.trip("Y", [at(b, "08:45"), at(c, "09:00")])
        let r = f.router()
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:45")) == [J(1, refUTC("08:00"), refUTC("08:30"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(b), time: refUTC("08:45")) == [J(1, refUTC("08:00"), refUTC("08:30"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(b), time: refUTC("08:30")) == [J(1, refUTC("08:00"), refUTC("08:30"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(b), time: refUTC("08:29:59")) == [])
        #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(c), time: refUTC("09:00")) == [J(2, refUTC("08:00"), refUTC("09:00"))])
        #expect(r.arriveBy(from: .stop(a), to: .stop(c), time: refUTC("08:59:59")) == [])
    }

    /// A slow direct ride (A→C 08:00→10:00) and a faster change (A→B→C, arriving 09:00) are both
    /// kept; a 3-ride journey arriving at 09:00 too is not (not strictly earlier); arriving 08:55 it is.
    @Test func paretoOverRides() {
        for (qArrives, kept) in [("09:00", false), ("08:55", true)] {
            var f = RefFeed()
            let a = f.stop("A", km: 0), b = f.stop("B", km: 5), c = f.stop("C", km: 10), e = f.stop("E", km: 15)
            f.trip("S", [at(a, "08:00"), at(c, "10:00")])
            f.trip("X", [at(a, "08:05"), at(b, "08:30")])
            f.trip("Y", [at(b, "08:40"), at(c, "09:00")])
            f.trip("P", [at(b, "08:33"), at(e, "08:40")])
            f.trip("Q", [at(e, "08:43"), at(c, qArrives)])
            let r = f.router()
            let expected = [J(1, refUTC("08:00"), refUTC("10:00")), J(2, refUTC("08:05"), refUTC("09:00"))]
                + (kept ? [J(3, refUTC("08:05"), refUTC("08:55"))] : [])
            #expect(r.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00")) == expected)
            // With at most one change the 3-ride journey is gone.
            #expect(f.router { $0.maxTransfers = 1 }.departAt(from: .stop(a), to: .stop(c), time: refUTC("07:00"))
                    == Array(expected.prefix(2)))
            // Arrive-by at 10:00: the latest departures are 08:00 (1 ride) and 08:05 (2 rides).
            #expect(r.arriveBy(from: .stop(a), to: .stop(c), time: refUTC("10:00"))
                    == [J(1, refUTC("08:00"), refUTC("10:00")), J(2, refUTC("08:05"), refUTC("09:00"))])
        }
    }

    /// The walk-only journey comes first, beside the rides it may dominate.
    @Test func walkOnlyBesideRides() {
        var f = RefFeed()
        let a = f.stop("A", km: 0), b = f.stop("B", km: 1)
        f.trip("X", [at(a, "08:00"), at(b, "08:30")])
        let r = f.router()
        let walk = refWalk(refEast(0), refEast(1000))
        #expect(r.departAt(from: .stop(a), to: .stop(b), time: refUTC("07:50"))
                == [J(0, refUTC("07:50"), refUTC("07:50") + walk), J(1, refUTC("08:00"), refUTC("08:30"))])
    }

    // MARK: Random networks against enumeration

    /// Random tiny networks (4–7 stops within 2.5 km, so access walks and footpaths abound;
    /// zero-length hops and equal times; pickup/drop-off 1; random transfers.txt rows) where every
    /// journey with up to 4 rides is enumerated by brute force: the router's answers must equal
    /// the enumeration's, depart-at and arrive-by, tie-breaks included.
    @Test func randomNetworksAgainstEnumeration() {
        var rng = SeededRandom(seed: 2026_11_21)
        var failures: [String] = []
        var withRides = 0
        for network in 0..<300 {
            var f = RefFeed()
            let stopCount = Int.random(in: 4...7, using: &rng)
            for s in 0..<stopCount {
                f.stop("S\(s)", refEast(Double.random(in: 0...2500, using: &rng), north: Double.random(in: 0...200, using: &rng)))
            }
            for t in 0..<Int.random(in: 4...9, using: &rng) {
                var stops = Array(0..<Int32(stopCount))
                stops.shuffle(using: &rng)
                var clock = 8 * 3600 + 60 * Int.random(in: 0..<30, using: &rng)
                var calls: [RefCall] = []
                for stop in stops.prefix(Int.random(in: 2...4, using: &rng)) {
                    let arrival = clock
                    clock += 60 * Int.random(in: 0...1, using: &rng)
                    calls.append(RefCall(stop: stop, arrival: refHMS(refUTC("00:00") + Int64(arrival)),
                                         departure: refHMS(refUTC("00:00") + Int64(clock)),
                                         pickup: Int.random(in: 0..<10, using: &rng) == 0 ? 1 : 0,
                                         dropOff: Int.random(in: 0..<10, using: &rng) == 0 ? 1 : 0))
                    clock += 60 * [0, 0, 1, 2, 3, 5].randomElement(using: &rng)!
                }
                f.trip("T\(t)", calls)
            }
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let from = Int32.random(in: 0..<Int32(stopCount), using: &rng)
                let to = Bool.random(using: &rng) ? from : Int32.random(in: 0..<Int32(stopCount), using: &rng)
                f.transfer(from, to, type: Int8.random(in: 0...3, using: &rng), min: [nil, 0, 300, 600].randomElement(using: &rng)!)
            }
            let router = f.router { $0.maxTransfers = 3 }
            let oracle = RefEnumeration(f.snapshot, maxRides: 4)
            for q in 0..<8 {
                func place() -> ReferencePlace {
                    let s = Int32.random(in: 0..<Int32(stopCount), using: &rng)
                    if Bool.random(using: &rng) { return .stop(s) }
                    let p = Geodesic.destination(from: oracle.coordinates[Int(s)], azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                                 meters: Double.random(in: 0...600, using: &rng))
                    return .coordinate(latitude: p.latitude, longitude: p.longitude)
                }
                let from = place(), to = place()
                let arriveBy = q % 2 == 1
                let t = refUTC(arriveBy ? "08:30" : "07:50") + 60 * Int64.random(in: 0..<120, using: &rng)
                let mine = arriveBy ? router.arriveBy(from: from, to: to, time: t) : router.departAt(from: from, to: to, time: t)
                let expected = arriveBy ? oracle.arriveBy(from, to, t) : oracle.departAt(from, to, t)
                if mine.contains(where: { $0.rides > 0 }) { withRides += 1 }
                if mine != expected {
                    failures.append("network \(network) \(arriveBy ? "arrive-by" : "depart-at") \(from) → \(to) at \(refHMS(t)): "
                                    + "router \(mine), enumeration \(expected)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) differences; first: \(failures.first ?? "")")
        #expect(withRides > 300)
    }

    // MARK: Real feeds

    private static func load(_ name: String) throws -> FeedSnapshot {
        let path = ["bart-2018", "caltrain", "google-sample"].contains(name) ? try FeedFixtures.bundledFeed(name)
                                                                             : try FeedFixtures.sharedFeed(name)
        return try SnapshotSink.load(path: path, feedId: name).0
    }

    /// BART, Tuesday 2018-06-05 08:00 PDT: Embarcadero → Downtown Berkeley is one ride of about
    /// 25 minutes (Richmond line); Embarcadero → SFO is one ride too.
    @Test func bartSmoke() throws {
        let snapshot = try Self.load("bart-2018")
        let r = ReferenceRouter(snapshot: snapshot)
        func stop(_ id: String) throws -> ReferencePlace { .stop(Int32(try #require(snapshot.stops.firstIndex { $0.stopId == id }))) }
        let t = refUTC("15:00", on: ServiceDate(year: 2018, month: 6, day: 5)!)
        #expect(r.queryServiceDate(from: try stop("EMBR"), time: t)! == (ServiceDate(year: 2018, month: 6, day: 5)!, "America/Los_Angeles"))
        for (to, minutes) in [("DBRK", 15...40), ("SFIA", 25...50)] {
            let journeys = r.departAt(from: try stop("EMBR"), to: try stop(to), time: t)
            let first = try #require(journeys.first, "EMBR → \(to)")
            #expect(first.rides == 1)
            #expect(first.departure >= t && first.departure < t + 20 * 60, "EMBR → \(to): \(journeys)")
            #expect(minutes.contains(Int(first.arrival - first.departure) / 60), "EMBR → \(to): \(journeys)")
            let back = r.arriveBy(from: try stop("EMBR"), to: try stop(to), time: first.arrival)
            #expect(back.contains(first), "EMBR → \(to): \(back) should hold \(first)")
        }
        // Weekends and holidays: 2018-07-04 runs the Sunday service, later and sparser than weekdays.
        let holiday = r.departAt(from: try stop("EMBR"), to: try stop("DBRK"),
                                 time: refUTC("19:00", on: ServiceDate(year: 2018, month: 7, day: 4)!))
        #expect(!holiday.isEmpty)
    }

    /// On random queries, each depart-at journey (k rides, d → a) is found again by arrive-by at a
    /// (same k, same d, same a), and each arrive-by journey by depart-at at its departure — the
    /// forward and backward scans checking each other. Also prints the time per query.
    /// A busy service date of each feed (SOURCES.md); `REFERENCE_ALL_FEEDS=1` checks them all.
    private static let feedDates: [String: (Int, Int, Int)] = [
        "bart-2018": (2018, 6, 5), "sacramento-sacrt-2024": (2024, 6, 18), "google-sample": (2007, 1, 6),
        "caltrain": (2009, 3, 3), "porto-alegre-trensurb-2019": (2019, 3, 1), "mexico-city-2018": (2018, 1, 2),
        "milan-atm-2014": (2014, 10, 20), "wmata-rail-2026": (2026, 5, 9), "vilnius-2015": (2015, 9, 4),
        "nyc-subway-2018": (2018, 6, 25), "porto-alegre-eptc-2019": (2019, 4, 15), "bydgoszcz-2020": (2020, 4, 16),
    ]
    private static let consistencyFeeds = ProcessInfo.processInfo.environment["REFERENCE_ALL_FEEDS"] == "1"
        ? feedDates.keys.sorted() : ["bart-2018", "sacramento-sacrt-2024"]

    @Test(arguments: consistencyFeeds)
    func selfConsistencyAndSpeed(_ feed: String) throws {
        let snapshot = try Self.load(feed)
        let started = Date()
        let r = ReferenceRouter(snapshot: snapshot)
        let built = Date().timeIntervalSince(started)
        let (y, m, d) = Self.feedDates[feed]!
        let date = ServiceDate(year: y, month: m, day: d)!
        let zone = TimeZone(identifier: snapshot.agencies[0].timezone)!
        let stops = snapshot.stops.indices.filter { snapshot.stops[$0].locationType == 0 }
        var rng = SeededRandom(seed: 7 &+ UInt64(feed.utf8.count))
        var answered = 0, queries = 0, mismatches: [String] = []
        var seconds = 0.0
        for q in 0..<40 {
            let from = ReferencePlace.stop(Int32(stops[Int.random(in: 0..<stops.count, using: &rng)]))
            let to = ReferencePlace.stop(Int32(stops[Int.random(in: 0..<stops.count, using: &rng)]))
            // 05:00–21:00 local.
            let t = Int64(date.daysSinceEpoch) * 86_400 + 5 * 3600 + Int64.random(in: 0..<(16 * 3600), using: &rng)
                - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(date.daysSinceEpoch) * 86_400 + 43_200)))
            let arriveBy = q % 2 == 1
            let clock = Date()
            let journeys = arriveBy ? r.arriveBy(from: from, to: to, time: t) : r.departAt(from: from, to: to, time: t)
            seconds += Date().timeIntervalSince(clock)
            queries += 1
            for j in journeys where j.rides > 0 {
                answered += 1
                let probe = arriveBy ? j.departure : j.arrival
                guard r.queryServiceDate(from: from, time: probe)?.date == r.queryServiceDate(from: from, time: t)?.date else { continue }
                let clock = Date()
                let mirror = arriveBy ? r.departAt(from: from, to: to, time: probe) : r.arriveBy(from: from, to: to, time: probe)
                seconds += Date().timeIntervalSince(clock)
                queries += 1
                if !mirror.contains(j) { mismatches.append("\(arriveBy ? "arrive-by" : "depart-at") \(from) → \(to) at \(t): \(j) not in \(mirror)") }
            }
        }
        print("reference router on \(feed): built in \(String(format: "%.2f", built)) s, \(queries) queries, "
              + "\(String(format: "%.1f", 1000 * seconds / Double(queries))) ms per query (this build), \(answered) journeys with rides")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; first: \(mismatches.first ?? "")")
        #expect(answered > 10)
    }
}

/// The model by enumeration, for tiny one-day networks in UTC (no frequencies, no untimed stop
/// times, no stations): every journey with up to `maxRides` rides, then the answers.
private struct RefEnumeration {
    struct Trip { var stops: [Int32]; var arrival: [Int64]; var departure: [Int64]; var board: [Bool]; var alight: [Bool] }
    let snapshot: FeedSnapshot
    let coordinates: [Coordinate]
    let trips: [Trip]
    let maxRides: Int

    init(_ snapshot: FeedSnapshot, maxRides: Int) {
        self.snapshot = snapshot
        self.maxRides = maxRides
        coordinates = snapshot.stops.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) }
        trips = snapshot.trips.indices.map { t in
            let r = snapshot.stopTimes(ofTrip: t)
            return Trip(stops: Array(snapshot.stopTimeStop[r]),
                        arrival: r.map { refUTC("00:00") + Int64(snapshot.stopTimeArrival[$0]) },
                        departure: r.map { refUTC("00:00") + Int64(snapshot.stopTimeDeparture[$0]) },
                        board: r.map { snapshot.stopTimePickup[$0] != 1 }, alight: r.map { snapshot.stopTimeDropOff[$0] != 1 })
        }
    }

    func walk(_ a: Coordinate, _ b: Coordinate) -> (meters: Double, seconds: Int64) {
        let meters = Geodesic.distance(a, b) * 1.3
        return (meters, Int64((meters / 1.33).rounded(.up)))
    }

    /// change time(s, t) in seconds, nil when there is no change.
    func change(_ s: Int32, _ t: Int32) -> Int64? {
        let row = snapshot.transfers.filter { $0.fromStop == s && $0.toStop == t }.max { $0.line < $1.line }
        let minimum = Int64(row?.minTransferTime ?? 0)
        if s == t {
            switch row?.type {
            case 1: return 0
            case 2: return max(120, minimum)
            case 3: return nil
            default: return 120
            }
        }
        let w = walk(coordinates[Int(s)], coordinates[Int(t)])
        guard let row else { return w.meters <= 500 ? w.seconds + 120 : nil }
        switch row.type {
        case 1: return w.seconds
        case 2: return max(w.seconds + 120, minimum)
        case 3: return nil
        default: return w.seconds + 120
        }
    }

    func point(_ p: ReferencePlace) -> Coordinate {
        switch p {
        case .coordinate(let lat, let lon): return Coordinate(latitude: lat, longitude: lon)
        case .stop(let s): return coordinates[Int(s)]
        }
    }

    /// Every journey with rides: (rides, departure = first boarding − access walk, arrival).
    func journeys(_ from: ReferencePlace, _ to: ReferencePlace, notBefore: Int64) -> [ReferenceJourney] {
        let origin = point(from), destination = point(to)
        var found: [ReferenceJourney] = []
        func egress(_ s: Int32) -> Int64? {
            let w = walk(coordinates[Int(s)], destination)
            return w.meters <= 1000 ? w.seconds : nil
        }
        func ride(_ trip: Trip, from i: Int, rides: Int, departure: Int64) {
            for j in (i + 1)..<trip.stops.count where trip.alight[j] {
                if let e = egress(trip.stops[j]) { found.append(ReferenceJourney(rides: rides, departure: departure, arrival: trip.arrival[j] + e)) }
                guard rides < maxRides else { continue }
                for next in 0..<Int32(coordinates.count) {
                    guard let c = change(trip.stops[j], next) else { continue }
                    for other in trips {
                        for k in 0..<other.stops.count where other.stops[k] == next && other.board[k] && other.departure[k] >= trip.arrival[j] + c {
                            ride(other, from: k, rides: rides + 1, departure: departure)
                        }
                    }
                }
            }
        }
        for s in 0..<Int32(coordinates.count) {
            let w = walk(origin, coordinates[Int(s)])
            guard w.meters <= 1000 else { continue }
            for trip in trips {
                for i in 0..<trip.stops.count where trip.stops[i] == s && trip.board[i] && trip.departure[i] >= notBefore + w.seconds {
                    ride(trip, from: i, rides: 1, departure: trip.departure[i] - w.seconds)
                }
            }
        }
        return found
    }

    func walkOnly(_ from: ReferencePlace, _ to: ReferencePlace) -> Int64? {
        let w = walk(point(from), point(to))
        return w.meters <= 2000 ? w.seconds : nil
    }

    func departAt(_ from: ReferencePlace, _ to: ReferencePlace, _ t: Int64) -> [ReferenceJourney] {
        let all = journeys(from, to, notBefore: t)
        var answer = walkOnly(from, to).map { [ReferenceJourney(rides: 0, departure: t, arrival: t + $0)] } ?? []
        var previous = Int64.max
        for k in 1...maxRides {
            let upTo = all.filter { $0.rides <= k }
            guard let arrival = upTo.map(\.arrival).min(), arrival < previous else { continue }
            previous = arrival
            answer.append(ReferenceJourney(rides: k, departure: upTo.filter { $0.arrival == arrival }.map(\.departure).max()!, arrival: arrival))
        }
        return answer
    }

    func arriveBy(_ from: ReferencePlace, _ to: ReferencePlace, _ t: Int64) -> [ReferenceJourney] {
        let all = journeys(from, to, notBefore: Int64.min / 4)
        var answer = walkOnly(from, to).map { [ReferenceJourney(rides: 0, departure: t - $0, arrival: t)] } ?? []
        var previous = Int64.min
        for k in 1...maxRides {
            let upTo = all.filter { $0.rides <= k }
            guard let departure = upTo.filter({ $0.arrival <= t }).map(\.departure).max(), departure > previous else { continue }
            previous = departure
            answer.append(ReferenceJourney(rides: k, departure: departure, arrival: upTo.filter { $0.departure == departure }.map(\.arrival).min()!))
        }
        return answer
    }
}
