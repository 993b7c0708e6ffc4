import PlanJSON
import Planner
import Timetable
import TransitModel

/// How stops and departures look in the API's answers.
enum StopJSON {
    /// A route as a stop lists it.
    static func route(_ s: FeedSnapshot, _ source: SourceRouteIndex) -> [String: Any] {
        let r = s.routes[source.index]
        var o: [String: Any] = ["id": r.routeId, "mode": LegMode(routeType: Int(r.type)).rawValue]
        if let v = r.shortName, !v.isEmpty { o["shortName"] = v }
        if let v = r.longName, !v.isEmpty { o["longName"] = v }
        if let v = r.color, !v.isEmpty { o["color"] = v }
        return o
    }

    /// A stop (or station), its place and the routes through it (a station: through its
    /// platforms), plus `extra` (score, distance).
    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    static func stop(_ served: ServedTimetable, _ stop: StopIndex, extra: [String: Any]) -> [String: Any] {
        let network = served.network, tt = network.timetable, s = network.snapshot
        let st = s.stops[stop.index]
        var o: [String: Any] = ["id": st.stopId, "feed": s.feedIds[Int(st.feed)], "name": st.name,
                                "kind": st.locationType == 1 ? "station" : "stop"]
        if let c = network.coordinate(ofStop: stop) { o["lat"] = c.latitude; o["lon"] = c.longitude } else { o["lat"] = 0.0; o["lon"] = 0.0 }
        if let p = st.platformCode, !p.isEmpty { o["platformCode"] = p }
        if st.parent >= 0 { o["parentStation"] = s.stops[Int(st.parent)].stopId }
        var members = [stop]
        if st.locationType == 1 { members += network.stationChildren[stop] }
        o["routes"] = tt.sourceRoutes(through: members).map { route(s, $0) }
        for (k, v) in extra { o[k] = v }
        return o
    }

    /// Stops found by name, best first: each with its score, how it was found when not by
    /// its name, the trips calling there on its feed's typical day (what ranks equals), and, when
    /// another row has its name, what tells it apart: no two rows read the same.
    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    static func found(_ served: ServedTimetable, _ found: [StopMatch]) -> [[String: Any]] {
        let search = served.stops
        let tells = search.distinctions(found.map(\.stop))
        return zip(found, tells).map { m, tell in
            var extra: [String: Any] = ["score": (m.score * 1000).rounded() / 1000, "callsPerDay": search.calls(m.stop)]
            if let by = m.foundBy { extra["foundBy"] = by }
            if let tell { extra["distinction"] = tell }
            return stop(served, m.stop, extra: extra)
        }
    }

    /// Stops near a place, nearest first, with their distance and, when another row has
    /// their name (the poles of one street corner), what tells them apart.
    @_optimize(none)
    static func near(_ served: ServedTimetable, _ near: [(stop: StopIndex, meters: Double)]) -> [[String: Any]] {
        let tells = served.stops.distinctions(near.map(\.stop))
        return zip(near, tells).map { hit, tell in
            var extra: [String: Any] = ["distanceMeters": hit.meters.rounded()]
            if let tell { extra["distinction"] = tell }
            return stop(served, hit.stop, extra: extra)
        }
    }

    static func departure(_ served: ServedTimetable, _ d: Departure) -> [String: Any] {
        let s = served.network.snapshot
        var o: [String: Any] = ["stopId": s.stops[d.stop.index].stopId, "route": route(s, d.sourceRoute), "trip": d.tripId,
                                "serviceDate": d.serviceDate.iso8601, "departure": PlanAnswerJSON.iso(d.time, d.timeZone)]
        if let p = d.platformCode, !p.isEmpty { o["platformCode"] = p }
        if let h = d.headsign, !h.isEmpty { o["headsign"] = h }
        return o
    }
}
