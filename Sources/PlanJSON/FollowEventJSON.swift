import Follow
import Foundation
import Planner
import TransitModel

/// The JSON of a followed trip's events (the `data` of the stream's frames), and of the
/// trip followed: one place decides it, for the API and `transit follow --server`.
///
/// Event: `{"type", "id", "time", "message", "ride", "line", "headsign", …}`: the
/// fields of its kind (docs/routing-model.md, "Following a trip"; the OpenAPI document
/// lists them), times in ISO 8601 with the ride's zone.
public enum FollowEventJSON {
    /// A time in ISO 8601 with the zone's offset then (a `ZoneOffsets` per event looked up
    /// the zone's next transition each time: most of a pass over 1,000 trips' events).
    static func time(_ t: Int64, _ zone: TimeZone, _ w: inout JSONWriter) {
        var text: [UInt8] = [UInt8(ascii: "\"")]
        PlanAnswerJSON.iso(t, offset: zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))), into: &text)
        text.append(UInt8(ascii: "\""))
        w.raw(text)
    }

    public static func event(_ e: FollowEvent, id: Int, watch: TripWatch) -> [UInt8] {
        let zoneName = e.ride.flatMap { $0 < watch.rides.count ? watch.rides[$0].zone : nil } ?? watch.rides.first?.zone ?? "UTC"
        let zone = FollowZones.zone(zoneName)
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        if let a = e.alert {
            w.key("alert"); PlanAnswerJSON.alert(a, &w)
            w.field("alertFeed", ifPresent: e.alertFeed)
        }
        if case .itinerary(let answer, let option, _, let token) = e.continuation {
            let z = ZoneOffsets(TimeZone(identifier: answer.result.timeZone) ?? TimeZone(identifier: "UTC")!)
            w.key("continuation"); w.beginObject()
            w.key("itinerary")
            PlanAnswerJSON.itinerary(answer.options[option], z, recommended: true, modelFirst: true, realtime: true,
                                     language: watch.options.language, into: &w)
            w.field("tripToken", token)
            w.endObject()
        }
        w.field("headsign", ifPresent: e.headsign)
        w.field("id", id)
        w.field("line", ifPresent: e.line)
        w.field("message", e.message)
        if let m = e.minutes { w.field("minutes", m) }
        w.field("moment", ifPresent: e.moment?.rawValue)
        if let t = e.newArrival { w.key("newArrival"); time(t, zone, &w) }
        if let t = e.newDeparture { w.key("newDeparture"); time(t, zone, &w) }
        if case .noWay(let why) = e.continuation {
            w.key("noWayToContinue"); w.beginObject()
            w.field("code", why.code.rawValue); w.field("message", why.message(watch.options.language))
            w.endObject()
        }
        if let t = e.oldArrival { w.key("oldArrival"); time(t, zone, &w) }
        if let t = e.oldDeparture { w.key("oldDeparture"); time(t, zone, &w) }
        if let r = e.ride { w.field("ride", r) }
        w.field("stopId", ifPresent: e.stopId)
        w.field("stopName", ifPresent: e.stopName)
        w.key("time"); time(e.time, zone, &w)
        w.field("type", e.kind.rawValue)
        w.endObject()
        return w.bytes
    }

    /// The trip a stream follows (its first frame, `following`): each ride's line,
    /// stops and planned times, and the message a terminal prints.
    public static func following(_ trip: FollowedTrip, rides: [MatchedRide], language: Language = .en) -> [UInt8] {
        let zone = FollowZones.zone(rides.first?.zone ?? "UTC")
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.field("message", FollowText.following(trip, rides: rides, language: language))
        w.key("rides"); w.beginArray()
        for (r, m) in zip(trip.rides, rides) {
            w.beginObject()
            w.field("alightStopId", r.alightStopId); w.field("alightStopName", m.alightName)
            w.field("boardStopId", r.boardStopId); w.field("boardStopName", m.boardName)
            w.field("feed", r.feed)
            w.field("headsign", ifPresent: m.headsign)
            w.field("line", m.line)
            w.key("plannedArrival"); time(r.plannedArrival, zone, &w)
            w.key("plannedDeparture"); time(r.plannedDeparture, zone, &w)
            w.field("tripId", r.tripId)
            w.endObject()
        }
        w.endArray()
        w.field("type", "following")
        w.endObject()
        return w.bytes
    }
}
