import Foundation
import Geo
import Raptor
import TransitModel

/// The JSON shape of plan answers and errors, shared by `transit plan --json`, its batch
/// mode and the HTTP API: one place decides it, so they cannot drift apart.
///
/// Answer: `{"itineraries": [...], "recommended": i, "notices": [...], "query": {...}, "error": null}`;
/// each itinerary has `labels`, `departure`, `arrival`, `durationSeconds`, `rides`,
/// `summary`, `legs` (the steps) and `map` (a GeoJSON FeatureCollection drawn from the
/// same legs). Error: `{"itineraries": [], "error": {"code", "message", "details"}}`.
public enum PlanAnswerJSON {
    /// ISO 8601 with the offset of `zone` at that instant: `2018-06-05T08:34:00-07:00`.
    public static func iso(_ t: Int64, _ zone: TimeZone) -> String {
        // One time zone lookup (Foundation's is the costly part here), not two.
        let local = JourneyPlanner.localSeconds(t, zone)
        let offset = Int(local - t)
        let date = ServiceDate(daysSinceEpoch: Int32((local - ((local % 86_400) + 86_400) % 86_400) / 86_400))
        let secs = Int(local - Int64(date.daysSinceEpoch) * 86_400)
        let (y, m, d) = date.components
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offset < 0 ? "-" : "+"
        let o = abs(offset)
        return "\(y)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))\(sign)\(two(o / 3600)):\(two(o / 60 % 60))"
    }

    public static func error(_ e: PlanError) -> [String: Any] {
        ["itineraries": [Any](), "error": ["code": e.code, "message": e.message, "details": e.details.mapValues(\.json)]]
    }

    public static func answer(_ a: PlanAnswer) -> [String: Any] {
        let r = a.result
        let zone = TimeZone(identifier: r.timeZone) ?? TimeZone(identifier: "UTC")!
        let p = r.parameters
        var query: [String: Any] = [
            "from": ["lat": r.origin.latitude, "lon": r.origin.longitude],
            "to": ["lat": r.destination.latitude, "lon": r.destination.longitude],
            "time": iso(r.time, zone), "timeZone": r.timeZone, "arriveBy": a.arriveBy, "window": a.window / 60,
            "numItineraries": a.numItineraries, "wheelchair": a.wheelchair,
            "parameters": ["walkSpeed": p.walkSpeed, "walkDetourFactor": p.walkDetourFactor, "maxAccessWalk": p.maxAccessWalk,
                           "maxTransferWalk": p.maxTransferWalk, "maxDirectWalk": p.maxDirectWalk,
                           "transferSlack": p.transferSlack, "maxTransfers": p.maxTransfers] as [String: Any],
        ]
        if let modes = a.modes { query["modes"] = LegMode.allCases.filter { modes.allowed.contains($0) }.map(\.rawValue) }
        return [
            "itineraries": a.options.enumerated().map { i, o in itinerary(o, zone, recommended: i == a.recommended) },
            "recommended": a.recommended,
            "notices": a.notices.map { ["code": $0.code, "message": $0.message] },
            "query": query,
            "error": NSNull(),
        ]
    }

    static func place(_ p: ItineraryPlace) -> [String: Any] {
        var out: [String: Any] = ["name": p.name, "lat": p.coordinate.latitude, "lon": p.coordinate.longitude]
        if let id = p.stopId { out["stopId"] = id }
        if let feed = p.feed { out["feed"] = feed }
        if let platform = p.platformCode { out["platformCode"] = platform }
        return out
    }

    static func itinerary(_ o: PlanOption, _ zone: TimeZone, recommended: Bool) -> [String: Any] {
        func time(_ t: Int64) -> String { iso(t, zone) }
        let it = o.itinerary
        let legs: [[String: Any]] = it.legs.map { leg in
            var out: [String: Any] = [
                "mode": leg.mode.rawValue, "from": place(leg.from), "to": place(leg.to),
                "departure": time(leg.departure), "arrival": time(leg.arrival), "durationSeconds": leg.durationSeconds,
                "distanceMeters": (leg.distanceMeters * 10).rounded() / 10, "instruction": leg.instruction,
            ]
            if leg.mode == .walk && leg.from.stopId != nil && leg.to.stopId != nil {
                out["change"] = true
                out["waitSeconds"] = leg.waitSeconds
            }
            if let ride = leg.ride {
                out["agency"] = ride.agency
                out["routeId"] = ride.routeId
                out["route"] = ride.routeShortName ?? ride.routeLongName ?? ride.routeId
                if let v = ride.routeShortName { out["routeShortName"] = v }
                if let v = ride.routeLongName { out["routeLongName"] = v }
                if let v = ride.routeColor { out["routeColor"] = v }
                if let v = ride.routeTextColor { out["routeTextColor"] = v }
                if let v = ride.headsign { out["headsign"] = v }
                out["trip"] = ride.tripId
                out["serviceDate"] = ride.serviceDate.iso8601
                out["geometrySource"] = ride.shapeId == nil ? "stops" : "shape"
                if let v = ride.shapeId { out["shapeId"] = v }
                out["intermediateStops"] = ride.intermediateStops.map { stop -> [String: Any] in
                    var s = place(stop.place)
                    s["arrival"] = time(stop.arrival)
                    s["departure"] = time(stop.departure)
                    return s
                }
            }
            return out
        }
        let s = it.summary
        let summary: [String: Any] = [
            "departure": time(s.departure), "arrival": time(s.arrival),
            "durationSeconds": s.durationSeconds, "walkMeters": s.walkMeters.rounded(),
            "walkSeconds": s.walkSeconds, "rides": s.rides, "changes": s.changes,
            "waitingSeconds": s.waitingSeconds, "modes": s.modes.map(\.rawValue),
        ]
        return ["labels": o.labels, "recommended": recommended, "departure": time(s.departure), "arrival": time(s.arrival),
                "durationSeconds": s.durationSeconds, "rides": s.rides, "summary": summary, "legs": legs,
                "map": ItineraryMap(it).geoJSON]
    }

    /// Compact JSON text, keys sorted (`JSONText`).
    public static func encode(_ object: [String: Any]) -> String { JSONText.encode(object) }
}
