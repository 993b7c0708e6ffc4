import FeedNetwork
import Foundation
import Geo
import GTFS
@testable import Planner
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Itineraries and their maps on real feeds: for every itinerary of seeded random plans,
/// the step list and the map come from one list of legs and agree.
@Suite struct ItineraryTests {
    static let feeds: [(String, (Int, Int, Int))] = [
        ("bart-2018.zip", (2018, 6, 5)),
        ("wmata-rail-2026.zip", (2026, 5, 5)),         // stations, entrances, platforms
        ("sacramento-sacrt-2024.zip", (2024, 6, 18)),  // shapes, bus and light rail
        ("caltrain.zip", (2009, 3, 3)),
    ]

    /// One of `feeds`: its query date, snapshot, planner and served stops.
    static func feed(_ file: String) throws -> (date: (Int, Int, Int), snapshot: FeedSnapshot, planner: JourneyPlanner, stops: [Int]) {
        let date = feeds.first { $0.0 == file }!.1
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath(file), feedId: String(file.dropLast(4)))
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        return (date, snapshot, planner, ReferenceComparisonTests.servedStops(planner.timetable))
    }

    /// A random stop or a point up to 700 m from one.
    static func randomPlace(_ stops: [Int], _ snapshot: FeedSnapshot, _ network: TransitNetwork, _ rng: inout SeededRandom) -> Place {
        let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
        if Bool.random(using: &rng) { return .stop(feed: nil, id: snapshot.stops[s].stopId) }
        return .coordinate(Geodesic.destination(from: network.coordinate(ofStop: StopIndex(s))!,
                                                azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                                meters: Double.random(in: 0..<700, using: &rng)))
    }

    @Test("steps and map agree, leg by leg; alternatives are ordered, distinct and labelled", arguments: feeds.map(\.0))
    func stepsAndMapAgree(_ file: String) throws {
        let (date, snapshot, planner, stops) = try Self.feed(file)
        let network = planner.network, tt = network.timetable
        var rng = SeededRandom(seed: 4242)
        var checked = 0, rideLegs = 0, shapedLegs = 0
        for q in 0..<60 {
            func place() -> Place { Self.randomPlace(stops, snapshot, network, &rng) }
            let seconds = Int.random(in: 6 * 3600..<22 * 3600, using: &rng)
            let n = [1, 3, 5, 8][q % 4]
            let query = PlanQuery(from: place(), to: place(),
                                  time: .local(year: date.0, month: date.1, day: date.2, hour: seconds / 3600,
                                               minute: seconds / 60 % 60, second: 0),
                                  arriveBy: q % 3 == 2, window: [nil, 1800, 0][q % 3])
            guard let answer = try? planner.answer(query, numItineraries: n).get() else { continue }
            try checkAlternatives(answer, n)
            for option in answer.options {
                try check(option.itinerary, option.journey, answer.result)
                for leg in option.itinerary.legs where leg.ride != nil {
                    rideLegs += 1
                    if leg.ride?.shapeId != nil { shapedLegs += 1; try checkShaped(leg) }
                }
                checked += 1
            }
        }
        #expect(checked >= 40, "only \(checked) itineraries were checked")
        // Every one of these feeds has shapes.txt: nearly every ride follows its shape.
        #expect(shapedLegs * 10 >= rideLegs * 9, "\(shapedLegs) of \(rideLegs) rides follow a shape")
        print("\(file): \(checked) itineraries, \(rideLegs) rides, \(shapedLegs) drawn from shapes")
    }

    /// Ordered by departure, no two alike, each labelled, at most as many as asked, the
    /// model's first among them and marked; rides only where faster than the walk.
    func checkAlternatives(_ a: PlanAnswer, _ n: Int) throws {
        let o = a.options
        try #require(!o.isEmpty && o.count <= n)
        let keys = o.map { [$0.journey.departure, $0.journey.arrival, Int64($0.journey.rides)] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) }, "not ordered by departure")
        #expect(Set(keys).count == keys.count, "duplicates")
        #expect(o.allSatisfy { !$0.labels.isEmpty })
        let first = try #require(a.result.journeys.first)
        let rec = o[a.modelFirst].journey
        #expect(rec.departure == first.departure && rec.arrival == first.arrival && rec.rides == first.rides)
        #expect(o[a.modelFirst].labels.contains(a.arriveBy ? "latest-departure" : "earliest-arrival"))
        #expect(o[a.recommended].riderCost.seconds == o.map(\.riderCost.seconds).min(), "recommended: the least rider's cost")
        #expect(o.filter { $0.labels.contains("fastest") }.count <= 1)
        if let walk = o.first(where: { $0.journey.rides == 0 }) {
            #expect(walk.labels.contains("walk-only"))
            for t in o where t.journey.rides > 0 {
                #expect(t.itinerary.summary.durationSeconds < walk.itinerary.summary.durationSeconds, "a ride slower than walking")
            }
        }
        for option in o where !option.inModelAnswer {
            if a.arriveBy { #expect(option.journey.arrival <= a.result.time && option.journey.arrival >= a.result.time - Int64(a.window)) }
            else { #expect(option.journey.departure >= a.result.time && option.journey.departure <= a.result.time + Int64(a.window)) }
        }
    }

    /// A ride drawn from its shape passes every stop it serves (within 150 m) and is not
    /// much longer than the line through its stops (a stop placed on the wrong pass of a
    /// looping shape would send it round the loop).
    func checkShaped(_ leg: ItineraryLeg) throws {
        let g = leg.geometry
        for stop in leg.ride!.intermediateStops {
            let d = Self.distance(stop.place.coordinate, toLine: g)
            #expect(d <= 150, "\(leg.ride!.tripId): \(stop.place.name) is \(Int(d)) m from the ride's line")
        }
        var straight = 0.0, previous = leg.from.coordinate
        for c in leg.ride!.intermediateStops.map(\.place.coordinate) + [leg.to.coordinate] {
            straight += Geodesic.distance(previous, c); previous = c
        }
        #expect(leg.distanceMeters >= straight * 0.95 - 20 && leg.distanceMeters <= straight * 2 + 500,
                "\(leg.ride!.tripId): \(Int(leg.distanceMeters)) m along the shape, \(Int(straight)) m through the stops")
    }

    /// Meters from a point to a polyline (a local plane; fine within a city).
    static func distance(_ p: Coordinate, toLine line: [Coordinate]) -> Double {
        let k = 111_195.0, kx = cos(p.latitude * Double.pi / 180) * k
        func xy(_ c: Coordinate) -> (Double, Double) { ((c.longitude - p.longitude) * kx, (c.latitude - p.latitude) * k) }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
            let ex = ax + t * dx, ey = ay + t * dy
            best = min(best, (ex * ex + ey * ey).squareRoot())
        }
        return best
    }

    func check(_ it: Itinerary, _ journey: Journey, _ result: PlanResult) throws {
        let p = result.parameters
        let legs = it.legs
        try #require(!legs.isEmpty)
        // Steps and map: one line per leg, in leg order.
        let map = ItineraryMap(it)
        let lines = map.features.filter { if case .lineString = $0.geometry { return true }; return false }
        #expect(lines.map(\.legIndex) == Array(legs.indices))
        for (line, leg) in zip(lines, legs) {
            #expect(line.geometry == .lineString(leg.geometry))
            #expect(line.mode == leg.mode)
        }
        // Geometry: each leg from its own `from` to its own `to`, starting where the previous ended.
        for (i, leg) in legs.enumerated() {
            #expect(leg.geometry.count >= 2)
            #expect(leg.geometry.first == leg.from.coordinate && leg.geometry.last == leg.to.coordinate)
            if i > 0 { #expect(leg.geometry.first == legs[i - 1].geometry.last, "leg \(i) does not start where leg \(i - 1) ended") }
            #expect(leg.departure <= leg.arrival)
            if i > 0 { #expect(legs[i - 1].arrival <= leg.departure) }
            #expect(!leg.instruction.isEmpty)
        }
        // Start and end: the request's places (or the stops they name).
        #expect(legs.first!.geometry.first == result.origin || legs.first!.from.stopId != nil)
        #expect(legs.last!.geometry.last == result.destination || legs.last!.to.stopId != nil)
        // Pins sit on leg ends; start green, destination red; every pin belongs to a leg.
        let pins = map.features.filter { if case .point = $0.geometry { return true }; return false }
        #expect(pins.first?.role == "start" && pins.first?.color == ItineraryMap.startColor)
        #expect(pins.last?.role == "destination" && pins.last?.color == ItineraryMap.destinationColor)
        for pin in pins {
            guard case .point(let c) = pin.geometry else { continue }
            let leg = legs[pin.legIndex]
            #expect(c == leg.geometry.first || c == leg.geometry.last, "pin \(pin.role) is not on an end of leg \(pin.legIndex)")
        }
        #expect(pins.filter { $0.role == "board" }.count == journey.rides)
        // Walks follow the model; durations add up to the journey's.
        for leg in legs where leg.mode == .walk {
            let walkSeconds = leg.durationSeconds - leg.waitSeconds
            #expect(walkSeconds == Int64((leg.distanceMeters / p.walkSpeed).rounded(.up)),
                    "walk of \(leg.distanceMeters) m takes \(walkSeconds) s")
            #expect(leg.waitSeconds >= 0)
        }
        #expect(legs.reduce(0) { $0 + $1.durationSeconds } == journey.arrival - journey.departure)
        #expect(legs.first!.departure == journey.departure && legs.last!.arrival == journey.arrival)
        #expect(it.summary.rides == journey.rides && it.summary.durationSeconds == journey.arrival - journey.departure)
        #expect(legs.filter { $0.ride != nil }.count == journey.rides)
    }

    /// The answer makes the model's answer and the alternatives from one range search
    /// (`RaptorRouter.answer`); here they are held to the model's own search (`plan`
    /// without a window) and the range search (`plan` with one) on random queries: the
    /// same departures, arrivals and rides, and the answer's options are drawn from them.
    @Test("one search for the answer = the model's search + the range search", arguments: feeds.map(\.0))
    func answerFromOneSearch(_ file: String) throws {
        let (date, snapshot, planner, stops) = try Self.feed(file)
        let network = planner.network, tt = network.timetable
        var rng = SeededRandom(seed: 20_261_121)
        var compared = 0, withAlternatives = 0
        func key(_ j: Journey) -> String { "\(j.departure)-\(j.arrival)/\(j.rides)" }
        for _ in 0..<80 {
            func place() -> Place { Self.randomPlace(stops, snapshot, network, &rng) }
            let seconds = Int.random(in: 5 * 3600..<24 * 3600, using: &rng)
            let window = [15, 60, 120][Int.random(in: 0..<3, using: &rng)] * 60
            let query = PlanQuery(from: place(), to: place(),
                                  time: .local(year: date.0, month: date.1, day: date.2, hour: seconds / 3600, minute: seconds / 60 % 60, second: 0))
            guard let model = try? planner.plan(query) else { continue }
            var rangeQuery = query
            rangeQuery.window = window
            let range = try planner.plan(rangeQuery).journeys.filter { $0.rides > 0 }
            let both = try planner.planWithAlternatives(query, places: planner.resolve(query), window: window, outOfTime: { false })
            #expect(both.complete)
            #expect(both.model.journeys.map(key) == model.journeys.map(key), "\(query.from) -> \(query.to) at \(seconds) s")
            #expect(both.range.filter { $0.rides > 0 }.map(key).sorted() == range.map(key).sorted(), "\(query.from) -> \(query.to) at \(seconds) s, window \(window)")
            compared += 1
            if !range.isEmpty { withAlternatives += 1 }
        }
        print("\(file): \(compared) answers compared, \(withAlternatives) with departures in the window")
        #expect(compared >= 40 && withAlternatives >= 20)
    }

    @Test func routeTypesMapToTheirBaseMode() {
        #expect(LegMode(routeType: 700) == .bus)
        #expect(LegMode(routeType: 800) == .trolleybus)
        #expect(LegMode(routeType: 109) == .rail)
        #expect(LegMode(routeType: 1400) == .funicular)
        #expect(LegMode(routeType: 0) == .tram && LegMode(routeType: 1) == .subway && LegMode(routeType: 3) == .bus)
    }
}

/// Short trips and places far from any stop, on BART.
@Suite struct NearbyPlacesTests {
    static let planner: JourneyPlanner = {
        let (snapshot, _) = try! SnapshotSink.load(path: ReferenceComparisonTests.feedPath("bart-2018.zip"), feedId: "bart")
        return JourneyPlanner(network: try! TimetableBuilder.build(snapshot))
    }()
    static let at = QueryTime.local(year: 2018, month: 6, day: 5, hour: 17, minute: 10, second: 0)

    @Test("a few hundred meters apart: the walk, and transit only where it is faster")
    func aFewHundredMetersApart() throws {
        // Powell St. to Civic Center: 750 m apart (980 m on foot), trains every few minutes.
        let answer = try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "POWL"), to: .stop(feed: nil, id: "CIVC"), time: Self.at)).get()
        let walk = try #require(answer.options.first { $0.journey.rides == 0 })
        #expect(walk.labels.contains("walk-only"))
        #expect(walk.itinerary.legs.count == 1 && walk.itinerary.legs[0].mode == .walk)
        let rides = answer.options.filter { $0.journey.rides > 0 }
        #expect(!rides.isEmpty, "the train is faster than the 13 min walk")
        for r in rides { #expect(r.itinerary.summary.durationSeconds < walk.itinerary.summary.durationSeconds) }
        #expect(answer.options[answer.recommended].journey.rides == 1, "the train arrives first")

        // 300 m apart in Oakland, 100 m from 12th St.: walking wins; no slower ride is offered.
        let a = Coordinate(latitude: 37.8044, longitude: -122.2712)
        let b = Geodesic.destination(from: a, azimuthDegrees: 45, meters: 300)
        let short = try Self.planner.answer(PlanQuery(from: .coordinate(a), to: .coordinate(b), time: Self.at)).get()
        #expect(short.options.map(\.journey.rides) == [0])
        #expect(short.options[0].itinerary.legs[0].instruction == "Walk 390 m (5 min) to your destination")
    }

    @Test("far from any stop: OUTSIDE_COVERAGE with the nearest region and its distance; NO_STOP_NEARBY under a shorter walk")
    func farFromAnyStop() throws {
        // 6 km out in the Pacific off Ocean Beach: outside every region.
        let sea = Coordinate(latitude: 37.76, longitude: -122.58)
        let error = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .coordinate(sea), time: Self.at)).get()
        }
        #expect(error?.code == .outsideCoverage)
        #expect(error?.details["end"] == .text("destination") && error?.details["nearestRegion"] == .text("bart"))
        guard case .number(let meters)? = error?.details["distanceMeters"] else { Issue.record("no distance"); return }
        #expect(meters > 9_000 && meters < 20_000, "\(meters)")
        #expect(error?.message.contains("Bay Area Rapid Transit") == true)
        // The nearest stop, the nearest place known to be walkable, is named with its distance.
        guard case .number(let stopMeters)? = error?.details["nearestStopMeters"], case .text(let stop)? = error?.details["nearestStop"]
        else { Issue.record("no nearest stop"); return }
        #expect(abs(stopMeters - meters - JourneyPlanner.coverageRadius) <= 1, "\(stopMeters) m to \(stop)")
        #expect(error?.message.contains("the nearest stop, ") == true && error?.message.contains("nearest place known to be walkable") == true)

        // 600 m from 12th St. (inside the region), but the request walks at most 400 m:
        // NO_STOP_NEARBY, with the walk to the nearest stop (600 m × 1.3).
        let near = Geodesic.destination(from: Self.planner.network.coordinate(ofStop: try Self.planner.resolveStop(nil, "12TH"))!,
                                        azimuthDegrees: 300, meters: 600)
        var p = RoutingParameters()
        p.maxAccessWalk = 400
        let short = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .coordinate(near), to: .stop(feed: nil, id: "SFIA"), time: Self.at, parameters: p)).get()
        }
        #expect(short?.code == .noStopNearby && short?.details["end"] == .text("origin"))
        guard case .number(let walk)? = short?.details["nearestStopMeters"] else { Issue.record("no distance"); return }
        #expect(abs(walk - 780) <= 1, "\(walk)")
    }

    @Test("a stop without service on the query's days does not extend the region for that query")
    func weekendOnlyStation() throws {
        // Caltrain's Atherton station had weekend service only in 2009.
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath("caltrain.zip"), feedId: "caltrain")
        let caltrain = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        func query(_ day: Int) -> PlanQuery {
            PlanQuery(from: .stop(feed: nil, id: "Atherton Caltrain"), to: .stop(feed: nil, id: "San Francisco Caltrain"),
                      time: .local(year: 2009, month: 3, day: day, hour: 8, minute: 0, second: 0))
        }
        let tuesday = #expect(throws: PlanError.self) { try caltrain.answer(query(3)).get() }
        #expect(tuesday?.code == .outsideCoverage && tuesday?.details["end"] == .text("origin"))
        #expect(tuesday?.message.contains("no stop near it has service then") == true)
        #expect(try !caltrain.answer(query(7)).get().options.isEmpty, "Saturday: served")
    }

    @Test("just inside a region is served, just outside is refused")
    func regionEdge() throws {
        let network = Self.planner.network, tt = network.timetable
        let r = JourneyPlanner.coverageRadius
        let stops = (0..<tt.stopCount).filter { tt.stopRouteOffsets[$0 + 1] > tt.stopRouteOffsets[$0] }.map { network.coordinate(ofStop: StopIndex($0))! }
        // Dublin/Pleasanton, at the end of a line: points due east of it.
        let dubl = network.coordinate(ofStop: try Self.planner.resolveStop(nil, "DUBL"))!
        func point(_ meters: Double) -> Coordinate { Geodesic.destination(from: dubl, azimuthDegrees: 90, meters: meters) }
        #expect(stops.map { Geodesic.distance(point(r + 10), $0) }.min()! >= r + 9)
        let inside = try Self.planner.answer(PlanQuery(from: .coordinate(point(r - 10)), to: .stop(feed: nil, id: "12TH"), time: Self.at)).get()
        #expect(!inside.options.isEmpty)
        let outside = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .coordinate(point(r + 10)), to: .stop(feed: nil, id: "12TH"), time: Self.at)).get()
        }
        #expect(outside?.code == .outsideCoverage && outside?.details["end"] == .text("origin"))
        #expect(outside?.details["distanceMeters"] == .number(10))
    }

    @Test("same place, no connection, outside the service period: a code and a sentence")
    func reasons() throws {
        let same = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "12TH"), time: Self.at)).get()
        }
        #expect(same?.code == .samePlace)
        let late = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"),
                                              time: .local(year: 2030, month: 1, day: 8, hour: 8, minute: 0, second: 0))).get()
        }
        #expect(late?.code == .outsideServicePeriod)
        #expect(late?.message.contains("2018-05-26") == true && late?.message.contains("2019-07-01") == true)
        let noBus = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"), time: Self.at,
                                              modes: try ModeFilter.parse("BUS"))).get()
        }
        #expect(noBus?.code == .modeNotInRegion)
        #expect(noBus?.message == "No bus in this region (it has: metro).")
        // A walk-only answer outside the service period says so beside the walk.
        let walk = try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "POWL"), to: .stop(feed: nil, id: "CIVC"),
                                                     time: .local(year: 2030, month: 1, day: 8, hour: 8, minute: 0, second: 0))).get()
        #expect(walk.options.map(\.journey.rides) == [0])
        #expect(walk.notices.map(\.code) == [.outsideServicePeriod])
        let bad = #expect(throws: PlanError.self) {
            try Self.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"), time: Self.at),
                                    numItineraries: 0).get()
        }
        #expect(bad?.code == .badParameter && bad?.details["parameter"] == .text("numItineraries"))
    }

    @Test("wheelchair: only accessible stops and trips; unknown counts as not, and the answer says so")
    func wheelchair() throws {
        // BART marks every station and trip accessible: same answer, with the notice.
        let q = PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"), time: Self.at, wheelchair: true)
        let a = try Self.planner.answer(q).get()
        #expect(!a.options.isEmpty)
        #expect(a.notices.first?.code == .wheelchair)
        // Caltrain (2009) says nothing about accessibility: nothing could be used, and the
        // refusal says so first (docs/routing-model.md, "Coverage regions").
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath("caltrain.zip"), feedId: "caltrain")
        let caltrain = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        let error = #expect(throws: PlanError.self) {
            try caltrain.answer(PlanQuery(from: .coordinate(Coordinate(latitude: 37.7764, longitude: -122.3943)),
                                          to: .coordinate(Coordinate(latitude: 37.4434, longitude: -122.1651)),
                                          time: .local(year: 2009, month: 3, day: 3, hour: 7, minute: 0, second: 0), wheelchair: true)).get()
        }
        #expect(error?.code == .noAccessibilityData)
        #expect(error?.message.hasPrefix("Caltrain marks no stop and no trip as wheelchair accessible or not") == true)
        let unknown = caltrain.accessibilityUnknown()
        #expect(unknown.stops == unknown.boardableStops && unknown.trips == unknown.allTrips)
    }
}

/// The rule of "Times as shown" (docs/routing-model.md) on legs drawn by hand, to the
/// second: T0 = 2018-06-05 00:00 UTC.
@Suite struct ShownTimesRuleTests {
    static let t0: Int64 = 1_528_156_800
    static func walk(_ dep: Int64, _ arr: Int64, _ m: Double, change: Bool = false, wait: Int64 = 0) -> ShownTimes.Leg {
        ShownTimes.Leg(isRide: false, isChange: change, departure: t0 + dep, arrival: t0 + arr, meters: m, waitSeconds: wait)
    }
    static func ride(_ dep: Int64, _ arr: Int64) -> ShownTimes.Leg {
        ShownTimes.Leg(isRide: true, isChange: false, departure: t0 + dep, arrival: t0 + arr, meters: 5000, waitSeconds: 0)
    }

    @Test("rides leave at their minute and arrive at the next; walks and waits fill the time between, as printed")
    func addsUp() {
        // Walk 75 s (08:44:45) to a ride at 08:46:00, ride to 09:05:00, change: walk 75 s and
        // wait 165 s for a ride at 09:09:00 that arrives 09:20:30, walk 555 s (to 09:29:45).
        let j = ShownTimes.journey([Self.walk(31_485, 31_560, 100), Self.ride(31_560, 32_700),
                                    Self.walk(32_700, 32_940, 100, change: true, wait: 165), Self.ride(32_940, 33_630),
                                    Self.walk(33_630, 34_185, 740)])
        #expect(j.steps.map(\.minutes) == [2, 19, 4, 12, 9])
        #expect(j.steps[2].walkMinutes == 2 && j.steps[2].waitMinutes == 2)  // not 2 + 3: the change lasts 4
        #expect(j.start == Self.t0 + 31_440 && j.end == Self.t0 + 34_200)   // 08:44 → 09:30, 09:29:45 rounded up
        #expect(j.minutes == 46 && j.walkMinutes == 2 + 2 + 9 && j.waitMinutes == 2 && j.walkMeters == 940)
    }

    @Test("a walk of a few steps takes no minute and is not walking")
    func fewSteps() {
        let j = ShownTimes.journey([Self.walk(31_556, 31_560, 6), Self.ride(31_560, 32_700), Self.walk(32_700, 32_703, 4)])
        #expect(j.steps.map(\.minutes) == [0, 19, 0] && j.start == Self.t0 + 31_560 && j.minutes == 19)
        #expect(j.walkMeters == 0 && j.walkMinutes == 0 && !j.steps.contains(where: \.walks))
        #expect(LegInstruction.walk(meters: 6, minutes: 0, to: "A").english == "Go to A, a few steps away")
        #expect(LegInstruction.walk(meters: 4, minutes: 0, to: nil).english == "Your destination is a few steps away")
        // Alone, a walk is a walk.
        #expect(ShownTimes.journey([Self.walk(31_500, 31_530, 6)]).steps[0].walks)
    }

    @Test("a time off the day asked carries its day; the repeated hour says which")
    func days() {
        let la = TimeZone(identifier: "America/Los_Angeles")!, warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let tuesday = ServiceDate(year: 2018, month: 6, day: 5)!
        let at = Self.t0 + 7 * 3600 + 9 * 60 // 00:09 local on Tuesday
        #expect(ShownTimes.clock(at, la, askedDay: tuesday) == "00:09")
        #expect(ShownTimes.clock(at + 86_400, la, askedDay: tuesday) == "00:09 Wed")
        #expect(ShownTimes.clock(at - 600, la, askedDay: tuesday) == "23:59 Mon")
        #expect(ShownTimes.clock(at + 7 * 86_400, la, askedDay: tuesday) == "00:09 2018-06-12")
        // 2020-10-25 02:30 in Warsaw: 00:30 UTC (CEST) and 01:30 UTC (CET).
        let sunday = ServiceDate(year: 2020, month: 10, day: 25)!
        let first: Int64 = 1_603_585_800
        #expect(ShownTimes.clock(first, warsaw, askedDay: sunday) == "02:30 (first)")
        #expect(ShownTimes.clock(first + 3600, warsaw, askedDay: sunday) == "02:30 (second)")
        #expect(ShownTimes.clock(first + 7200, warsaw, askedDay: sunday) == "03:30")
        #expect(ShownTimes.clock(first - 3600, warsaw, askedDay: sunday) == "01:30")
        #expect(ShownTimes.repeatNote(first, warsaw).hasPrefix("On Sunday 2020-10-25 the clocks go back 1 h"))
    }

    @Test("durations in words: minutes, then hours")
    func durations() {
        #expect(Words.duration(minutes: 0) == "under a minute" && Words.duration(minutes: 45) == "45 min")
        #expect(Words.duration(minutes: 60) == "1 h" && Words.duration(minutes: 65) == "1 h 5 min")
        #expect(Words.duration(minutes: 328) == "5 h 28 min" && Words.minutes(328 * 60 - 30) == "5 h 28 min")
        #expect(LegInstruction.changeWait(at: "X", waitMinutes: 328).english == "Change at X: wait 5 h 28 min")
    }
}
