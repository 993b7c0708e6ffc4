import Foundation
@testable import Planner
import Testing
import TransitModel

/// Each rule of "What a rider is shown" (docs/routing-model.md) on options made by hand,
/// with the expected outcome worked out from the rule: the cost and its limit, what is
/// dropped and kept, the recommended option, and the labels that must not be given.
@Suite struct RiderFilterRulesTests {
    /// The query time: 2020-06-02 10:00 UTC (labels are read in UTC here).
    static let t: Int64 = 1_591_092_000

    /// An option leaving `dep` and arriving `arr` minutes after `t`, with `aboard` minutes
    /// aboard and `rides` rides.
    static func option(_ dep: Int64, _ arr: Int64, rides: Int, aboard: Int64, walk: Double = 0, model: Bool = false,
                       first: Bool = false, arriveBy: Bool = false, window: Int = 3600) -> RiderFilter.Candidate {
        let d = t + dep * 60, a = t + arr * 60
        let journey = Journey(departure: d, arrival: a, rides: rides, legs: [], walkMeters: rides == 0 ? walk : nil)
        let cost = RiderCost(aboardSeconds: aboard * 60, outsideSeconds: (arr - dep - aboard) * 60, changes: max(0, rides - 1),
                             gapSeconds: arriveBy ? t - a : d - t, windowSeconds: Int64(window))
        let summary = ItinerarySummary(departure: d, arrival: a, walkMeters: walk, walkSeconds: 0, rides: rides, waitingSeconds: 0,
                                       modes: [])
        return RiderFilter.Candidate(option: PlanOption(journey: journey, itinerary: Itinerary(legs: [], summary: summary), labels: [],
                                                        inModelAnswer: model || first, riderCost: cost),
                                     modelFirst: first, cost: cost)
    }

    static func labels(_ o: [RiderFilter.Candidate], arriveBy: Bool = false) -> [[String]] {
        RiderFilter.labels(o, recommended: RiderFilter.recommended(o, arriveBy: arriveBy), arriveBy: arriveBy, window: 3600) { _ in 0 }
    }

    @Test("the cost: aboard once, out of vehicles twice, 10 min a change, half the gap; the window's part not held against the limit")
    func cost() {
        let c = RiderCost(aboardSeconds: 1800, outsideSeconds: 600, changes: 1, gapSeconds: 4000, windowSeconds: 3600)
        #expect(c.seconds == 1800 + 1200 + 600 + 2000)
        #expect(c.limitedSeconds == 5600 - 1800)
        #expect(RiderCost.limit(best: 1000) == 900 + 1500)
    }

    @Test("an overnight wait at a change is dropped unless it is the model's first; the morning ride is recommended")
    func overnight() {
        // 22:40 + 7 min, 7 h 43 min with 6 h 40 min out of vehicles; the morning ride 8 h later, 23 min.
        let night = Self.option(7, 470, rides: 3, aboard: 63, first: true)
        let morning = Self.option(477, 500, rides: 1, aboard: 16, model: true)
        let otherNight = Self.option(10, 475, rides: 3, aboard: 60)
        let shown = RiderFilter.shown([night, otherNight, morning])
        #expect(shown.count == 2 && shown[0].modelFirst && shown[1].option.journey == morning.option.journey)
        #expect(RiderFilter.recommended(shown, arriveBy: false) == 1)
        let labels = Self.labels(shown)
        // The short ride leaves hours after the first: no option is "fastest".
        #expect(!labels.joined().contains("fastest"), "\(labels)")
        #expect(labels[0] == ["earliest-arrival", "earliest-departure", "more-waiting:\((400 - 7) * 60)"], "\(labels)")
        #expect(labels[1] == ["recommended", "fewest-changes"], "\(labels)")
    }

    @Test("arrive-by: a night bus that saves a change is dropped; earlier departures say how much earlier")
    func arriveByNightBus() {
        // Arrive by 10:00 + 0: the model's first leaves 45 min before, the night bus 6 h before.
        let first = Self.option(-45, -9, rides: 2, aboard: 30, first: true, arriveBy: true)
        let night = Self.option(-360, -320, rides: 1, aboard: 40, model: true, arriveBy: true)
        let earlier = Self.option(-67, -31, rides: 2, aboard: 32, arriveBy: true)
        let shown = RiderFilter.shown([night, earlier, first])
        #expect(shown.count == 2 && !shown.contains { $0.option.journey == night.option.journey })
        let labels = Self.labels(shown, arriveBy: true)
        #expect(labels[1] == ["latest-departure", "fastest"], "\(labels)")
        #expect(labels[0] == ["leaves-earlier:\(22 * 60)"], "\(labels)")
    }

    @Test("later only when it leaves in a later minute than every option before it; fewest changes only when another has more")
    func laterIsTrue() {
        let a = Self.option(5, 40, rides: 2, aboard: 25, first: true)
        let b = Self.option(20, 45, rides: 1, aboard: 25)
        let c = Self.option(20, 48, rides: 1, aboard: 28)
        let f = Self.option(22, 52, rides: 1, aboard: 30)
        let shown = [a, b, c, f]
        #expect(RiderFilter.recommended(shown, arriveBy: false) == 1)
        let labels = Self.labels(shown)
        #expect(labels[0] == ["earliest-arrival", "earliest-departure", "more-waiting:600"], "\(labels)")
        #expect(labels[1] == ["recommended", "fastest", "fewest-changes"], "\(labels)")
        #expect(labels[2] == ["longer-ride:180"], "same minute as option 2, so not later: \(labels)")
        #expect(labels[3] == ["later-departure", "longer-ride:300"], "\(labels)")
        // Next departures costing more mostly for leaving later say so instead of "later".
        let next = Self.labels([b, Self.option(35, 60, rides: 1, aboard: 25, model: true)])
        #expect(next[1] == ["leaves-later:900"], "\(next)")
    }

    @Test("a change to gain a few minutes over a direct ride of the same minute: the direct ride is recommended")
    func detour() {
        let detour = Self.option(2, 28, rides: 2, aboard: 18, first: true)
        let direct = Self.option(2, 32, rides: 1, aboard: 30, model: true)
        let shown = RiderFilter.shown([detour, direct])
        #expect(shown.count == 2)
        #expect(RiderFilter.recommended(shown, arriveBy: false) == 1)
        let labels = Self.labels(shown)
        #expect(labels[0] == ["earliest-arrival", "fastest", "more-waiting:480"], "\(labels)")
        #expect(labels[1] == ["recommended", "fewest-changes"])
    }

    @Test("a tie in cost goes to the model's first; the walk is kept whatever it costs and has no trade-off")
    func ties() {
        let first = Self.option(0, 30, rides: 1, aboard: 30, first: true)
        let same = Self.option(0, 30, rides: 1, aboard: 30)
        let walk = Self.option(0, 300, rides: 0, aboard: 0, walk: 20_000)
        let shown = RiderFilter.shown([first, same, walk])
        #expect(shown.count == 3)
        #expect(RiderFilter.recommended(shown, arriveBy: false) == 0)
        #expect(Self.labels(shown)[2] == ["walk-only"])
    }
}
