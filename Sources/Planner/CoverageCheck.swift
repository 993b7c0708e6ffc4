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

    /// Where a place stands against the coverage regions on the model's days.
    enum CoverageStanding {
        /// Within the radius of a stop with service on one of the days.
        case inside
        /// Within the radius only of stops without service on those days.
        case noServiceThen
        /// Outside every region: the nearest region's feed (nil: no feed is loaded) and how far its edge is.
        case outside(feed: FeedIndex?, meters: Double)
    }

    func coverage(of end: NearbyStops, days: [Int]) -> CoverageStanding {
        let tt = timetable
        let r = Self.coverageRadius
        var nearServed = false
        for s in end.within(r) where servedStops[s.stop.index] {
            nearServed = true
            let stop = s.stop.index
            for i in Int(tt.stopRouteOffsets[stop])..<Int(tt.stopRouteOffsets[stop + 1]) {
                let route = tt.routeService[tt.stopRouteRoute[i].index]
                if days.contains(where: { tt.serviceRuns(route, day: $0) }) { return .inside }
            }
        }
        if nearServed { return .noServiceThen }
        // The nearest stop with service at all: its region's edge is the radius nearer.
        guard var nearest = end.nearest else { return .outside(feed: nil, meters: .infinity) }
        if !servedStops[nearest.stop.index] {
            let wider = network.stopsNear(end.point, beelineMeters: nearest.meters + 5_000).first { servedStops[$0.stop.index] }
            if let wider { nearest = wider }
        }
        return .outside(feed: tt.stopFeed[nearest.stop.index], meters: max(0, nearest.meters - r))
    }

    /// OUTSIDE_COVERAGE for one end: which end, the nearest region, how far its edge is.
    func outsideCoverage(end: String, feed: FeedIndex?, meters: Double, inPeriod: Bool) -> PlanError {
        let snapshot = network.snapshot
        guard let feed else {
            return PlanError(.outsideCoverage, "The \(end) is outside the area this service covers: no feed is loaded.",
                             details: ["end": .text(end)])
        }
        let id = snapshot.feedIds[feed.index], name = feedNames[feed.index]
        let region = name.isEmpty ? id : "\(name) (\(id))"
        let message = inPeriod
            ? "The \(end) is outside the area served on that day: no stop near it has service then; the nearest area with service is \(region)."
            : "The \(end) is outside the area this service covers: the nearest region is \(region), "
              + (meters < 1000 ? "\(Int(meters.rounded(.up))) m" : Words.distance(meters)) + " away."
        var details: [String: PlanDetail] = ["end": .text(end), "nearestRegion": .text(id), "regionName": .text(name)]
        if !inPeriod { details["distanceMeters"] = .number(meters.rounded()) }
        return PlanError(.outsideCoverage, message, details: details)
    }
}
