import FeedNetwork
import Geo
import Planner
import Raptor
import Streets
import Testing
import Timetable
import TransitModel
import TransitTesting

// The timetable's footpaths along streets and the router's use of them, in StreetWorld's
// river town: A ↔ B round by the steps (920 walkMeters, 1020 step-free over the ramp),
// C ↔ D beyond the 1300 m the timetable looks (no footpath unless transfers.txt makes
// one), F does not snap (the beeline).
@Suite struct StreetFootpathTests {
    static func foot(_ tt: Timetable, _ n: TransitNetwork, _ a: String, _ b: String) -> Int? {
        let s = StreetWorld.stop(n, a), t = StreetWorld.stop(n, b)
        return (Int(tt.footOffsets[s.index])..<Int(tt.footOffsets[s.index + 1])).first { tt.footTarget[$0] == t }
    }

    @Test func streetFootpathsInTheTimetable() throws {
        let n = try StreetWorld.build(), tt = n.timetable
        #expect(tt.footStreet.count == tt.footTarget.count && tt.footStreetStepFree.count == tt.footTarget.count)
        let ab = try #require(Self.foot(tt, n, "A", "B")), ba = try #require(Self.foot(tt, n, "B", "A"))
        #expect(abs(tt.footStreet[ab] - 920) < 5 && abs(tt.footStreet[ba] - 920) < 5)
        #expect(abs(tt.footStreetStepFree[ab] - 1020) < 5)
        let cd = try #require(Self.foot(tt, n, "C", "D"))
        #expect(tt.footStreet[cd] == .infinity, "both snap, no street walk within 1300 m")
        let fa = try #require(Self.foot(tt, n, "F", "A"))
        #expect(tt.footStreet[fa].isNaN, "F does not snap: the beeline")
        // The graph's own answer, once more: the same number the planner's walks get.
        let graph = try #require(n.streets)
        let a = n.snap(ofStop: StreetWorld.stop(n, "A"))!, b = n.snap(ofStop: StreetWorld.stop(n, "B"))!
        #expect(tt.footStreet[ab] == graph.walkMeters(from: a, to: [b], limit: 1300).first!!)
        // Without streets: today's timetable, no street arrays.
        let plain = try StreetWorld.build(streets: false).timetable
        #expect(plain.footStreet.isEmpty && plain.footStreetStepFree.isEmpty)
        #expect(plain.footTarget == tt.footTarget && plain.footBeeline == tt.footBeeline)
    }

    func journeys(_ n: TransitNetwork, streets: Bool = true,
                  _ change: (inout RoutingParameters) -> Void) throws -> (JourneyPlanner, PlanResult) {
        var p = RoutingParameters()
        change(&p)
        let planner = JourneyPlanner(network: n)
        let r = try planner.plan(PlanQuery(from: .stop(feed: nil, id: "X"), to: .stop(feed: nil, id: "Y"), time: .instant(Rules.utc("7:50")),
                                           parameters: p, streets: streets))
        return (planner, r)
    }

    /// The change from A to B goes round by the steps: 920 m, not 320 × 1.3.
    @Test func footpathGoesRound() throws {
        let n = try StreetWorld.build()
        let (planner, r) = try journeys(n) { $0.maxTransferWalk = 1000 }
        let journey = try #require(r.journeys.first)
        let change = journey.legs.compactMap { leg -> (Double, Int64, Int64)? in
            if case .transfer(_, _, let dep, let ready, let m) = leg { return (m, dep, ready) } else { return nil }
        }
        let (meters, dep, ready) = try #require(change.first)
        #expect(abs(meters - 920) < 5)
        #expect(ready - dep == Int64((meters / r.parameters.walkSpeed).rounded(.up)) + Int64(r.parameters.transferSlack))
        let leg = try #require(planner.itinerary(journey, in: r).legs.first { $0.from.stopId == "A" && $0.to.stopId == "B" })
        let walk = try #require(leg.walk)
        #expect(walk.model == .streets)
        #expect(abs(walk.walkMeters - meters) < 0.01, "the route is the footpath the search used (Float in the timetable)")
        #expect(leg.geometry.contains { $0.latitude > StreetWorld.southBank && $0.latitude < StreetWorld.northBank })

        // At the default 500 m the street footpath is too long; the beeline one (416) is not.
        #expect(try journeys(n) { _ in }.1.journeys.isEmpty)
        #expect(try journeys(n, streets: false) { _ in }.1.journeys.count == 1)
    }

    /// A wheelchair's footpath is step-free: over the ramp, 1020 m.
    @Test func stepFreeFootpathCosts() throws {
        let n = try StreetWorld.build()
        let router = RaptorRouter(timetable: n.timetable)
        var p = RoutingParameters()
        p.maxTransferWalk = 1100
        let x = StreetWorld.stop(n, "X"), y = StreetWorld.stop(n, "Y")
        let day = Int(NetworkBuilder.testDate.daysSinceEpoch - n.timetable.firstDay.daysSinceEpoch)
        func meters(_ walk: FootpathWalk) throws -> Double? {
            let request = try RaptorRequest(arriveBy: false, time: Rules.utc("7:50"), access: [StopWalk(stop: x, seconds: 0, meters: 0)],
                                            egress: [StopWalk(stop: y, seconds: 0, meters: 0)], days: [day - 1, day, day + 1],
                                            parameters: p, footpathWalk: walk, timetable: n.timetable)
            // The change from A to B, if the first journey makes it.
            return router.route(request).first?.legs.lazy.compactMap { leg -> Double? in
                if case .transfer(_, let to, _, _, let m) = leg, to == StreetWorld.stop(n, "B") { return m } else { return nil }
            }.first
        }
        #expect(abs(try #require(try meters(.streets)) - 920) < 5)
        #expect(abs(try #require(try meters(.stepFree)) - 1020) < 5)
        #expect(try meters(.beeline) == p.walkMeters(beeline: n.timetable.footBeeline[Self.foot(n.timetable, n, "A", "B")!]))
        p.maxTransferWalk = 1000
        #expect(try meters(.stepFree) == nil, "1020 m step-free is beyond 1000 (the journey changes to F instead)")
        #expect(abs(try #require(try meters(.streets)) - 920) < 5)
    }

    /// A transfers.txt row between two stops with no street walk found makes a footpath:
    /// the beeline's, whatever its length.
    @Test func ruleMakesBeelineFootpath() throws {
        var b = StreetWorld.network()
        b.trip("t4", route: "R4", "X 7:00, C 7:10")
        b.trip("t5", route: "R5", "D 7:40, Y 7:50")
        let noRule = b
        b.transfer("C", "D", type: 0)
        let withRule = try TimetableBuilder.build(b.snapshot, streets: StreetWorld.streets())
        let without = try TimetableBuilder.build(noRule.snapshot, streets: StreetWorld.streets())
        func plan(_ n: TransitNetwork) throws -> PlanResult {
            var p = RoutingParameters()
            p.maxTransferWalk = 1000
            return try JourneyPlanner(network: n).plan(PlanQuery(from: .stop(feed: nil, id: "X"), to: .stop(feed: nil, id: "Y"),
                                                                  time: .instant(Rules.utc("6:50")), parameters: p))
        }
        let ruled = try #require(try plan(withRule).journeys.first)
        #expect(ruled.arrival == Rules.utc("7:50"))
        let cd = try #require(Self.foot(withRule.timetable, withRule, "C", "D"))
        let change = ruled.legs.compactMap { leg -> Double? in if case .transfer(_, _, _, _, let m) = leg { return m } else { return nil } }
        #expect(change == [RoutingParameters().walkMeters(beeline: withRule.timetable.footBeeline[cd])])
        #expect(try plan(without).journeys.first?.arrival != Rules.utc("7:50"), "without the rule C and D are not linked")
    }
}
