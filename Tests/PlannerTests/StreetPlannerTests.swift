import FeedNetwork
import Geo
import Planner
import Raptor
import Streets
import Testing
import Timetable
import TransitModel
import TransitTesting

// The planner's walks along streets (docs/routing-model.md, "Streets") in the river town
// of StreetWorld: access, egress and the walk-only journey follow the streets where both
// ends snap, the beeline where one does not; `streets=false` is the beeline everywhere.
@Suite struct StreetPlannerTests {
    static let o = StreetWorld.at(510, 350)   // south bank, 10 m from a street
    static let p = StreetWorld.at(510, 750)   // north bank, 10 m from a street

    func plan(_ planner: JourneyPlanner, _ from: Place, _ to: Place, at time: String, streets: Bool = true,
              wheelchair: Bool = false, _ change: (inout RoutingParameters) -> Void = { _ in }) throws -> PlanResult {
        var parameters = RoutingParameters()
        change(&parameters)
        return try planner.plan(PlanQuery(from: from, to: to, time: .instant(Rules.utc(time)), parameters: parameters,
                                          wheelchair: wheelchair, streets: streets))
    }

    /// The beeline's walkMeters from `q` to B.
    func r(_ n: TransitNetwork, _ q: Coordinate) -> Double {
        RoutingParameters().walkMeters(beeline: Geodesic.distance(q, n.coordinate(ofStop: StreetWorld.stop(n, "B"))!))
    }

    func accessStops(_ r: PlanResult, _ n: TransitNetwork) -> Set<String> {
        Set(r.journeys.compactMap { j in
            guard case .access(let s, _, _, _)? = j.legs.first else { return nil }
            return n.snapshot.stops[s.index].stopId
        })
    }

    /// Across the river by beeline (471 walkMeters ≤ 600), round by the steps by street
    /// (920): along streets B is out of reach, and so is Y.
    @Test func accessWalksFollowStreets() throws {
        let n = try StreetWorld.build(), planner = JourneyPlanner(network: n)
        let y = Place.stop(feed: nil, id: "Y")
        let byStreet = try plan(planner, .coordinate(Self.o), y, at: "8:20") { $0.maxAccessWalk = 600 }
        #expect(byStreet.journeys.isEmpty)
        let byBeeline = try plan(planner, .coordinate(Self.o), y, at: "8:20", streets: false) { $0.maxAccessWalk = 600 }
        #expect(accessStops(byBeeline, n) == ["B"])

        // With the default 1000 m the street walk to B (920 m, 11.5 min) is taken, and the leg follows it.
        let r = try plan(planner, .coordinate(Self.o), y, at: "8:15")
        let journey = try #require(r.journeys.first)
        guard case .access(_, let dep, let arr, let meters)? = journey.legs.first else { Issue.record("no access walk"); return }
        #expect(abs(meters - 920) < 5)
        #expect(arr - dep == Int64((meters / r.parameters.walkSpeed).rounded(.up)))
        let leg = try #require(planner.itinerary(journey, in: r).legs.first)
        let walk = try #require(leg.walk)
        #expect(walk.model == .streets)
        #expect(walk.walkMeters == meters, "the leg's route is the walk the search used")
        #expect(abs(walk.meters - 620) < 5, "real meters: the steps once")
        #expect(leg.distanceMeters == walk.meters)
        #expect(leg.geometry == walk.geometry)
        #expect(leg.geometry.first == Self.o, "starts at the origin")
        #expect(leg.geometry.last == n.coordinate(ofStop: StreetWorld.stop(n, "B")), "ends at the stop")
        #expect(leg.geometry.contains { $0.latitude > StreetWorld.southBank && $0.latitude < StreetWorld.northBank },
                "crosses the river")
    }

    @Test func walkOnlyHonoursStreets() throws {
        let n = try StreetWorld.build(), planner = JourneyPlanner(network: n)
        let r = try plan(planner, .coordinate(Self.o), .coordinate(Self.p), at: "8:00")
        let walkOnly = try #require(r.journeys.first { $0.rides == 0 })
        let meters = try #require(walkOnly.walkMeters)
        #expect(abs(meters - 920) < 5)
        #expect(walkOnly.arrival - walkOnly.departure == Int64((meters / r.parameters.walkSpeed).rounded(.up)))
        let leg = try #require(planner.itinerary(walkOnly, in: r).legs.first)
        #expect(leg.walk?.model == .streets)
        #expect(leg.walk?.walkMeters == meters)
        #expect(leg.geometry.first == Self.o && leg.geometry.last == Self.p)
        #expect(leg.walk?.steps.contains { $0.kind == .steps } == true)

        // Within 800 m by beeline (520), not by street: no walk-only journey along streets.
        let short = try? plan(planner, .coordinate(Self.o), .coordinate(Self.p), at: "8:00") { $0.maxDirectWalk = 800 }
        #expect(short?.journeys.contains { $0.rides == 0 } != true)
        let beeline = try plan(planner, .coordinate(Self.o), .coordinate(Self.p), at: "8:00", streets: false) { $0.maxDirectWalk = 800 }
        #expect(beeline.journeys.contains { $0.rides == 0 })
    }

    /// In a wheelchair the walk takes the ramp, never the steps.
    @Test func wheelchairAvoidsSteps() throws {
        let n = try StreetWorld.build(), planner = JourneyPlanner(network: n)
        let r = try plan(planner, .coordinate(Self.o), .coordinate(Self.p), at: "8:00", wheelchair: true)
        let walkOnly = try #require(r.journeys.first { $0.rides == 0 })
        #expect(abs(walkOnly.walkMeters! - 1220) < 5)
        let walk = try #require(planner.itinerary(walkOnly, in: r).legs.first?.walk)
        #expect(walk.model == .streets && walk.walkMeters == walkOnly.walkMeters)
        #expect(!walk.steps.contains { $0.kind == .steps })
        #expect(abs(walk.meters - walk.walkMeters) < 0.01, "no steps: real meters are the walk meters")
    }

    /// F is 150 m from any street: the walk to it is the beeline, and says so.
    @Test func stopFarFromStreetsWalksBeeline() throws {
        let n = try StreetWorld.build(), planner = JourneyPlanner(network: n)
        let o2 = StreetWorld.at(510, 50)
        let r = try plan(planner, .coordinate(o2), .stop(feed: nil, id: "Y"), at: "8:50")
        let journey = try #require(r.journeys.first)
        guard case .access(let stop, _, _, let meters)? = journey.legs.first else { Issue.record("no access walk"); return }
        #expect(n.snapshot.stops[stop.index].stopId == "F")
        let f = n.coordinate(ofStop: stop)!
        #expect(meters == r.parameters.walkMeters(beeline: Geodesic.distance(o2, f)))
        let leg = try #require(planner.itinerary(journey, in: r).legs.first)
        #expect(leg.walk == WalkRoute(model: .beeline, meters: meters, walkMeters: meters, geometry: [o2, f], steps: []))
        #expect(leg.geometry == [o2, f])
    }

    /// `streets=false` on a network with streets answers as the network without them.
    @Test func streetsOffIsTodaysAnswer() throws {
        let with = JourneyPlanner(network: try StreetWorld.build()), without = JourneyPlanner(network: try StreetWorld.build(streets: false))
        #expect(without.timetable.footStreet.isEmpty && without.network.streets == nil)
        let queries: [(Place, Place, String)] = [
            (.coordinate(Self.o), .stop(feed: nil, id: "Y"), "8:20"), (.coordinate(Self.o), .coordinate(Self.p), "8:00"),
            (.coordinate(StreetWorld.at(510, 50)), .stop(feed: nil, id: "Y"), "8:50"),
            (.stop(feed: nil, id: "X"), .stop(feed: nil, id: "Y"), "7:50"),
        ]
        for (from, to, time) in queries {
            let changes: [(inout RoutingParameters) -> Void] = [{ _ in }, { $0.maxTransferWalk = 1000 }, { $0.maxAccessWalk = 600 }]
            for change in changes {
                let a = try plan(with, from, to, at: time, streets: false, change), b = try plan(without, from, to, at: time, change)
                #expect(a.journeys == b.journeys, "\(from) → \(to) at \(time)")
                #expect(a.journeys.map { with.itinerary($0, in: a) } == b.journeys.map { without.itinerary($0, in: b) })
                #expect(a.journeys.allSatisfy { j in with.itinerary(j, in: a).legs.allSatisfy { $0.ride != nil || $0.walk?.model == .beeline } })
            }
        }
    }

    /// NO_STOP_NEARBY tells the walk along the streets to the nearest stop.
    @Test func noStopNearbyTellsTheStreetWalk() throws {
        let n = try StreetWorld.build(), planner = JourneyPlanner(network: n)
        // On a north-bank street, 210 m from B by beeline (273 walkMeters), about 300 by street.
        let q = StreetWorld.at(740, 800)
        do {
            _ = try plan(planner, .coordinate(q), .stop(feed: nil, id: "X"), at: "8:00") { $0.maxAccessWalk = 100 }
            Issue.record("no stop is within 100 m")
        } catch let e as PlanError {
            #expect(e.code == .noStopNearby)
            let b = n.snap(ofStop: StreetWorld.stop(n, "B"))!, a = n.streets!.snap(q)!
            let street = try #require(n.streets!.walkMeters(from: a, to: [b], limit: 5000).first ?? nil)
            #expect(street > r(n, q) + 5, "the street walk is longer than the beeline's")
            #expect(e.details["nearestStopMeters"] == .number(street.rounded()))
            #expect(e.message.contains("\(Int(street.rounded())) m away on foot"))
        }
    }
}
