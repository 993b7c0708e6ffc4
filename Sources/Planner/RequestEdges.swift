import FeedNetwork
import Foundation
import Geo
import Raptor
import TransitModel

/// The edges of what a request may ask (docs/routing-model.md, "Coverage regions"): a mode
/// the region does not have, wheelchair routing where nothing says what is accessible, and
/// an end reached only by a feed's outlying trips. Each is said first, in one sentence,
/// rather than left to look like "no connection" or a long walk.
extension JourneyPlanner {
    /// Feed index -> whether some stop (or station) and whether some trip says if it is
    /// wheelchair accessible (a value other than 0 or empty).
    static func accessibilityData(_ network: TransitNetwork) -> [(stops: Bool, trips: Bool)] {
        let snapshot = network.snapshot
        var out = [(stops: Bool, trips: Bool)](repeating: (false, false), count: snapshot.feedIds.count)
        for s in snapshot.stops where s.wheelchairBoarding != 0 { out[Int(s.feed)].stops = true }
        for t in snapshot.trips where t.wheelchairAccessible != 0 { out[Int(t.feed)].trips = true }
        return out
    }

    /// Feed index -> the modes of its timetable routes (routes with trips).
    static func modesByFeed(_ network: TransitNetwork, routeMode: [LegMode]) -> [Set<LegMode>] {
        let tt = network.timetable, snapshot = network.snapshot
        var out = [Set<LegMode>](repeating: [], count: snapshot.feedIds.count)
        for r in 0..<tt.routeCount where tt.routeTripOffsets[r + 1] > tt.routeTripOffsets[r] {
            out[Int(snapshot.routes[tt.routeSourceRoute[r].index].feed)].insert(routeMode[r])
        }
        return out
    }

    /// The feeds with a stop within `maxAccessWalk` of either end; all feeds when none has
    /// (the region a request's limits are judged in).
    func feedsServing(_ places: ResolvedPlaces, _ p: RoutingParameters) -> [Int] {
        var feeds = Set<Int>()
        for end in [places.origin, places.destination] {
            for s in walks(end, p) { feeds.insert(timetable.stopFeed[s.stop.index].index) }
        }
        return feeds.isEmpty ? Array(network.snapshot.feedIds.indices) : feeds.sorted()
    }

    /// MODE_NOT_IN_REGION and NO_ACCESSIBILITY_DATA: a request whose own limits leave
    /// nothing to plan in the feeds serving its ends, refused before any search.
    /// Parameters that do not validate are left to `plan`, which refuses them (the places
    /// were looked up only as far as the coverage radius then).
    func checkLimits(_ query: PlanQuery, _ places: ResolvedPlaces) throws(PlanError) {
        guard (try? query.parameters.validate(footpathBeelineMeters: timetable.footpathBeelineMeters)) != nil else { return }
        let feeds = feedsServing(places, query.parameters)
        if let modes = query.modes {
            let running = feeds.reduce(into: Set<LegMode>()) { $0.formUnion(feedModes[$1]) }
            if running.isDisjoint(with: modes.allowed) { throw modeNotInRegion(modes, running: running) }
        }
        if query.wheelchair { try checkAccessibilityData(feeds) }
    }

    /// NO_ACCESSIBILITY_DATA when the feeds mark no stop, or no trip, as accessible or not:
    /// unknown counts as not accessible, so nothing could be planned but a walk.
    func checkAccessibilityData(_ feeds: [Int]) throws(PlanError) {
        let stops = feeds.contains { feedHasAccessibilityData[$0].stops }, trips = feeds.contains { feedHasAccessibilityData[$0].trips }
        guard !stops || !trips else { return }
        let names = feeds.map { feedNames[$0].isEmpty ? network.snapshot.feedIds[$0] : feedNames[$0] }
        let key = !stops && !trips ? "reason.marksNothing" : stops ? "reason.marksStopsOnly" : "reason.marksTripsOnly"
        let text = Localized { l in
            Catalogue.text("reason.noAccessibilityData", l, ["what": Catalogue.text(key, l, ["names": Words.list(names, l), "count": "\(names.count)"])])
        }
        throw PlanError(.noAccessibilityData, text,
                        details: ["feeds": .list(feeds.map { .text(network.snapshot.feedIds[$0]) }),
                                  "stopsMarked": .flag(stops), "tripsMarked": .flag(trips)])
    }

    /// "No metro in this region (it has: tram, bus)."
    func modeNotInRegion(_ modes: ModeFilter, running: Set<LegMode>) -> PlanError {
        let asked = LegMode.allCases.filter { modes.allowed.contains($0) }
        let has = LegMode.allCases.filter { running.contains($0) }
        let text = Localized { l in
            let what = asked.count > 3 ? Catalogue.text("reason.noneOfModes", l)
                : Catalogue.text("reason.noMode", l, ["modes": Words.list(asked.map { $0.noun(l) }, l, or: true)])
            return Catalogue.text("reason.modeNotInRegion", l, ["what": what, "has": has.map { $0.noun(l) }.joined(separator: l == .en ? ", " : "、")])
        }
        return PlanError(.modeNotInRegion, text,
                         details: ["modes": .text(modes.description),
                                   "regionModes": .list(has.map { .text($0.rawValue) })])
    }

    /// OUTLYING_SERVICE for the ends that lie only near a feed's outlying stops, each place
    /// once: what leads the answer's notices.
    func outlyingNotices(_ standings: [CoverageStanding]) -> [PlanNotice] {
        var seen = Set<String>(), out: [PlanNotice] = []
        for case .outlying(let place) in standings where seen.insert("\(place.feed.index)/\(place.name)").inserted {
            let f = place.feed.index
            let region = feedNames[f].isEmpty ? network.snapshot.feedIds[f] : feedNames[f]
            out.append(PlanNotice(code: .outlyingService, Localized { l in
                Catalogue.text("notice.outlying", l, ["place": place.name, "region": region, "n": "\(place.tripsPerDay)",
                                                      "distance": Words.distance(place.networkMeters, l)])
            }))
        }
        return out
    }
}
