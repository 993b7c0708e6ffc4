import FeedNetwork
import Foundation
import Geo
import Raptor
import TransitModel

extension JourneyPlanner {
    /// The beeline radius of the declared coverage regions: where a trip can start or end
    /// under the default routing model (maxAccessWalk / walkDetourFactor, 769 m).
    public static var coverageRadius: Double {
        let p = RoutingParameters()
        return p.maxAccessWalk / p.walkDetourFactor
    }

    /// Where a place stands against the coverage regions on the model's days
    /// (docs/routing-model.md, "Coverage regions").
    enum CoverageStanding {
        /// Within the radius of a stop of a feed's network with service on one of the days.
        case inside
        /// Within the radius only of a feed's outlying stops with service then: answered,
        /// with a notice first that local transit there is not covered.
        case outlying(OutlyingPlace)
        /// Within the radius only of stops without service on those days.
        case noServiceThen
        /// Outside every region: the nearest region's feed (nil: no feed is loaded), how far
        /// its edge is, and the nearest stop with service and how far it is (beeline).
        case outside(feed: FeedIndex?, meters: Double, nearest: (stop: StopIndex, meters: Double)?)
    }

    func coverage(of end: NearbyStops, days: [Int]) -> CoverageStanding {
        let tt = timetable
        let r = Self.coverageRadius
        var nearServed = false
        var outlying: OutlyingPlace?
        for s in end.within(r) where servedStops[s.stop.index] {
            nearServed = true
            let stop = s.stop.index
            for i in Int(tt.stopRouteOffsets[stop])..<Int(tt.stopRouteOffsets[stop + 1]) {
                let route = tt.routeService[tt.stopRouteRoute[i].index]
                guard days.contains(where: { tt.serviceRuns(route, day: $0) }) else { continue }
                if serviceLevels.inNetwork[stop] { return .inside }
                let place = serviceLevels.placeOfStop[stop]
                if outlying == nil && place >= 0 { outlying = serviceLevels.places[Int(place)] }
                break
            }
        }
        if let outlying { return .outlying(outlying) }
        if nearServed { return .noServiceThen }
        // The nearest stop with service at all: its region's edge is the radius nearer.
        guard var nearest = end.nearest else { return .outside(feed: nil, meters: .infinity, nearest: nil) }
        if !servedStops[nearest.stop.index] {
            let wider = network.stopsNear(end.point, beelineMeters: nearest.meters + 5_000).first { servedStops[$0.stop.index] }
            if let wider { nearest = wider }
        }
        return .outside(feed: tt.stopFeed[nearest.stop.index], meters: max(0, nearest.meters - r), nearest: nearest)
    }

    /// OUTSIDE_COVERAGE for one end: which end, the nearest region, how far its edge is.
    /// Out of the period, the nearest stop (with no street map, the nearest place known to
    /// be walkable) is named with its beeline distance: a place in a lake or at sea is told
    /// how far the shore is, as far as anything here knows it.
    func outsideCoverage(end: String, feed: FeedIndex?, meters: Double, nearest: (stop: StopIndex, meters: Double)? = nil,
                         inPeriod: Bool) -> PlanError {
        let snapshot = network.snapshot
        func say(_ key: String, _ l: Language, _ values: [String: String] = [:]) -> String {
            Catalogue.text(key, l, values.merging(["end": Catalogue.text("end.\(end)", l)]) { a, _ in a })
        }
        guard let feed else {
            return PlanError(.outsideCoverage, Localized { say("reason.noFeed", $0) }, details: ["end": .text(end)])
        }
        let id = snapshot.feedIds[feed.index], name = feedNames[feed.index]
        let region = name.isEmpty ? id : "\(name) (\(id))"
        var details: [String: PlanDetail] = ["end": .text(end), "nearestRegion": .text(id), "regionName": .text(name)]
        let text: Localized
        if inPeriod {
            text = Localized { say("reason.outsideOnDay", $0, ["region": region]) }
        } else if let nearest {
            let stop = snapshot.stops[nearest.stop.index]
            // Near enough to walk towards (a lake, the sea off a city): the stop is all a
            // rider can be pointed to; from another continent the distance says it all.
            text = Localized { l in
                say("reason.outsideNearestStop", l, ["stop": stop.name, "stopDistance": Self.meters(nearest.meters, l), "region": region,
                                                     "walkable": Catalogue.text(nearest.meters < 50_000 ? "reason.walkable" : "reason.walkableFar", l),
                                                     "distance": Self.meters(meters, l)])
            }
            details["nearestStop"] = .text(stop.stopId)
            details["nearestStopMeters"] = .number(nearest.meters.rounded())
        } else {
            text = Localized { say("reason.outsideRegion", $0, ["region": region, "distance": Self.meters(meters, $0)]) }
        }
        if !inPeriod { details["distanceMeters"] = .number(meters.rounded()) }
        return PlanError(.outsideCoverage, text, details: details)
    }

    /// Meters as a sentence says them: whole meters up to a kilometre (rounded up, so a
    /// place 0.4 m outside is not "0 m" away), then `Words.distance`.
    static func meters(_ m: Double, _ language: Language = .en) -> String {
        m < 1000 ? Catalogue.text("words.meters", language, ["n": "\(Int(m.rounded(.up)))"]) : Words.distance(m, language)
    }
}
