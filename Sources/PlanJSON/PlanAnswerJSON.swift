import Foundation
import Geo
import GTFSRealtime
import Planner
import Realtime
import Raptor
import Streets
import TransitModel

/// The JSON shape of plan answers and errors, shared by `transit plan --json`, its batch
/// mode and the HTTP API: one place decides it, so they cannot drift apart.
///
/// Answer: `{"itineraries": [...], "recommended": i, "modelFirst": j, "notices": [...], "query": {...}, "error": null}`
/// (`recommended`: the rider's choice; `modelFirst`: the routing model's first itinerary);
/// each itinerary has `labels`, `departure`, `arrival`, `durationSeconds`, `rides`,
/// `inModelAnswer`, `modelFirst`, `riderCost` (the rider's cost and its parts),
/// `summary`, `legs` (the steps) and `map` (a GeoJSON FeatureCollection drawn from the
/// same legs). Error: `{"itineraries": [], "error": {"code", "message", "details"}}`.
public enum PlanAnswerJSON {
    /// ISO 8601 with the offset of `zone` at that instant: `2018-06-05T08:34:00-07:00`.
    public static func iso(_ t: Int64, _ zone: TimeZone) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(25)
        iso(t, offset: zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func iso(_ t: Int64, offset: Int, into out: inout [UInt8]) {
        let local = t + Int64(offset)
        let date = ServiceDate(daysSinceEpoch: Int32((local - ((local % 86_400) + 86_400) % 86_400) / 86_400))
        let secs = Int(local - Int64(date.daysSinceEpoch) * 86_400)
        let (y, m, d) = date.components
        func two(_ v: Int) { out.append(UInt8(ascii: "0") + UInt8(v / 10)); out.append(UInt8(ascii: "0") + UInt8(v % 10)) }
        if (1000...9999).contains(y) { two(y / 100); two(y % 100) } else { out.append(contentsOf: String(y).utf8) }
        out.append(UInt8(ascii: "-")); two(m); out.append(UInt8(ascii: "-")); two(d)
        out.append(UInt8(ascii: "T")); two(secs / 3600); out.append(UInt8(ascii: ":")); two(secs / 60 % 60)
        out.append(UInt8(ascii: ":")); two(secs % 60)
        out.append(UInt8(ascii: offset < 0 ? "-" : "+"))
        let o = abs(offset)
        two(o / 3600); out.append(UInt8(ascii: ":")); two(o / 60 % 60)
    }

    /// A batch line's answer when there is no plan: the error, and no itineraries.
    public static func error(_ e: PlanError, language: Language = .en) -> [String: Any] {
        var o = apiError(e, language: language)
        o["itineraries"] = [Any]()
        return o
    }

    /// The error as the API answers it: `{"error": {"code", "message", "details"}}`.
    public static func apiError(_ e: PlanError, language: Language = .en) -> [String: Any] {
        ["error": ["code": e.code.rawValue, "message": e.message(language), "details": e.details.mapValues(\.json)] as [String: Any]]
    }

    /// The answer as JSON text; `feeds` (the API's: the feeds and versions it was planned
    /// on) when given. Written straight to text (`JSONWriter`), keys in sorted order.
    public static func answer(_ a: PlanAnswer, feeds: [(id: String, version: Int)]? = nil, realtime: [RealtimeUsed]? = nil,
                              tripTokens: [String?]? = nil, language: Language = .en) -> String {
        String(decoding: answerBytes(a, feeds: feeds, realtime: realtime, tripTokens: tripTokens, language: language), as: UTF8.self)
    }

    /// One feed's realtime message an answer was planned on: its header time, its age when
    /// the answer was made, and how many of its TripUpdates were applied.
    public struct RealtimeUsed: Sendable, Equatable {
        public var feed: String
        public var messageTime: Int64?
        public var ageSeconds: Int64?
        public var tripUpdates: Int
        public var applied: Int
        public init(feed: String, messageTime: Int64?, ageSeconds: Int64?, tripUpdates: Int, applied: Int) {
            self.feed = feed; self.messageTime = messageTime; self.ageSeconds = ageSeconds
            self.tripUpdates = tripUpdates; self.applied = applied
        }
    }

    /// What `state` says of its messages at `now` (POSIX seconds), for `realtime` above.
    public static func realtimeSummary(_ state: RealtimeState, now: Int64) -> [RealtimeUsed] {
        state.reports.map { r in
            RealtimeUsed(feed: r.feedId, messageTime: r.messageTime, ageSeconds: r.messageTime.map { now - $0 },
                         tripUpdates: r.tripUpdates, applied: r.applied)
        }
    }

    /// `answer` as UTF-8 bytes (what the server sends, without a String in between).
    /// `tripTokens`: per option, the token that follows it (nil for the walk-only journey).
    /// `language`: of the instructions and notices (the rest is data).
    public static func answerBytes(_ a: PlanAnswer, feeds: [(id: String, version: Int)]? = nil, realtime: [RealtimeUsed]? = nil,
                                   tripTokens: [String?]? = nil, language: Language = .en) -> [UInt8] {
        let r = a.result
        let zone = ZoneOffsets(TimeZone(identifier: r.timeZone) ?? TimeZone(identifier: "UTC")!)
        let p = r.parameters
        var w = JSONWriter(capacity: 32_768)
        w.beginObject()
        w.key("error"); w.null()
        if let feeds {
            w.key("feeds"); w.beginArray()
            for f in feeds { w.beginObject(); w.field("id", f.id); w.field("version", f.version); w.endObject() }
            w.endArray()
        }
        w.key("itineraries"); w.beginArray()
        let withRealtime = realtime != nil
        for (i, o) in a.options.enumerated() {
            itinerary(o, zone, recommended: i == a.recommended, modelFirst: i == a.modelFirst, realtime: withRealtime,
                      tripToken: tripTokens.flatMap { i < $0.count ? $0[i] : nil }, language: language, into: &w)
        }
        w.endArray()
        w.field("modelFirst", a.modelFirst)
        w.key("notices"); w.beginArray()
        for n in a.notices { w.beginObject(); w.field("code", n.code.rawValue); w.field("message", n.message(language)); w.endObject() }
        w.endArray()
        w.key("query"); w.beginObject()
        w.field("arriveBy", a.arriveBy)
        w.key("from"); w.beginObject(); w.field("lat", r.origin.latitude); w.field("lon", r.origin.longitude); w.endObject()
        if let modes = a.modes {
            w.key("modes"); w.beginArray()
            for m in LegMode.allCases where modes.allowed.contains(m) { w.string(m.rawValue) }
            w.endArray()
        }
        w.field("numItineraries", a.numItineraries)
        w.key("parameters"); w.beginObject()
        w.field("maxAccessWalk", p.maxAccessWalk); w.field("maxDirectWalk", p.maxDirectWalk)
        w.field("maxTransferWalk", p.maxTransferWalk); w.field("maxTransfers", p.maxTransfers)
        w.field("transferSlack", p.transferSlack); w.field("walkDetourFactor", p.walkDetourFactor)
        w.field("walkSpeed", p.walkSpeed)
        w.endObject()
        w.key("time"); time(r.time, zone, &w)
        w.field("timeZone", r.timeZone)
        w.key("to"); w.beginObject(); w.field("lat", r.destination.latitude); w.field("lon", r.destination.longitude); w.endObject()
        w.field("wheelchair", a.wheelchair)
        w.field("window", a.window / 60)
        w.endObject()
        if let realtime {
            // The messages this answer was planned on: how fresh it is.
            w.key("realtime"); w.beginArray()
            for u in realtime {
                w.beginObject()
                if let age = u.ageSeconds { w.field("ageSeconds", Int(age)) }
                w.field("applied", u.applied)
                w.field("feed", u.feed)
                if let t = u.messageTime { w.key("messageTime"); time(t, ZoneOffsets(TimeZone(identifier: "UTC")!), &w) }
                w.field("tripUpdates", u.tripUpdates)
                w.endObject()
            }
            w.endArray()
        }
        w.field("recommended", a.recommended)
        w.endObject()
        return w.bytes
    }

    static func time(_ t: Int64, _ zone: ZoneOffsets, _ w: inout JSONWriter) {
        var text: [UInt8] = [UInt8(ascii: "\"")]
        text.reserveCapacity(27)
        iso(t, offset: zone.offset(at: t), into: &text)
        text.append(UInt8(ascii: "\""))
        w.raw(text)
    }

    /// A place's fields (without the braces, so that a passed stop can add its times).
    private static func placeFields(_ p: ItineraryPlace, _ w: inout JSONWriter) {
        w.field("feed", ifPresent: p.feed)
        w.field("lat", p.coordinate.latitude)
        w.field("lon", p.coordinate.longitude)
        w.field("name", p.name)
        w.field("platformCode", ifPresent: p.platformCode)
        w.field("stopId", ifPresent: p.stopId)
    }

    private static func place(_ p: ItineraryPlace, _ w: inout JSONWriter) {
        w.beginObject(); placeFields(p, &w); w.endObject()
    }

    static func itinerary(_ o: PlanOption, _ zone: ZoneOffsets, recommended: Bool, modelFirst: Bool, realtime: Bool = false,
                          tripToken: String? = nil, language: Language = .en, into w: inout JSONWriter) {
        let it = o.itinerary
        let s = it.summary
        w.beginObject()
        w.key("arrival"); time(s.arrival, zone, &w)
        w.key("departure"); time(s.departure, zone, &w)
        w.field("durationSeconds", s.durationSeconds)
        w.field("inModelAnswer", o.inModelAnswer)
        w.key("labels"); w.beginArray()
        for l in o.labels { w.string(l) }
        w.endArray()
        w.key("legs"); w.beginArray()
        for leg in it.legs { self.leg(leg, zone, realtime: realtime, language: language, &w) }
        w.endArray()
        w.key("map"); ItineraryMap(it).writeGeoJSON(&w)
        w.field("modelFirst", modelFirst)
        w.field("recommended", recommended)
        let c = o.riderCost
        w.key("riderCost"); w.beginObject()
        w.field("aboardSeconds", c.aboardSeconds)
        w.field("changes", c.changes)
        w.field("gapSeconds", c.gapSeconds)
        w.field("outsideSeconds", c.outsideSeconds)
        w.field("seconds", c.seconds)
        w.endObject()
        w.field("rides", s.rides)
        w.key("summary"); w.beginObject()
        w.key("arrival"); time(s.arrival, zone, &w)
        w.field("changes", s.changes)
        w.key("departure"); time(s.departure, zone, &w)
        w.field("durationSeconds", s.durationSeconds)
        w.key("modes"); w.beginArray()
        for m in s.modes { w.string(m.rawValue) }
        w.endArray()
        w.field("rides", s.rides)
        w.field("waitingSeconds", s.waitingSeconds)
        w.field("walkMeters", s.walkMeters.rounded())
        w.field("walkSeconds", s.walkSeconds)
        w.endObject()
        w.field("tripToken", ifPresent: tripToken)
        w.endObject()
    }

    /// `realtime`: the answer was planned on realtime (every ride then says whether it has an update).
    private static func leg(_ leg: ItineraryLeg, _ zone: ZoneOffsets, realtime: Bool, language: Language, _ w: inout JSONWriter) {
        let ride = leg.ride
        let change = leg.mode == .walk && leg.from.stopId != nil && leg.to.stopId != nil
        let rt = leg.realtime
        w.beginObject()
        if let ride { w.field("agency", ride.agency) }
        if ride != nil && realtime {
            w.key("alerts"); w.beginArray()
            for a in leg.alerts { alert(a, &w) }
            w.endArray()
        }
        w.key("arrival"); time(leg.arrival, zone, &w)
        if let rt { w.field("arrivalDelaySeconds", Int(rt.arrivalDelaySeconds)) }
        if change { w.field("change", true) }
        w.key("departure"); time(leg.departure, zone, &w)
        if let rt { w.field("departureDelaySeconds", Int(rt.departureDelaySeconds)) }
        w.field("distanceMeters", (leg.distanceMeters * 10).rounded() / 10)
        w.field("durationSeconds", leg.durationSeconds)
        w.key("from"); place(leg.from, &w)
        if let ride { w.field("geometrySource", ride.shapeId == nil ? "stops" : "shape"); w.field("headsign", ifPresent: ride.headsign) }
        w.field("instruction", leg.step.text(language))
        if let ride {
            w.key("intermediateStops"); w.beginArray()
            for stop in ride.intermediateStops {
                w.beginObject()
                w.key("arrival"); time(stop.arrival, zone, &w)
                w.key("departure"); time(stop.departure, zone, &w)
                placeFields(stop.place, &w)
                w.endObject()
            }
            w.endArray()
        }
        w.field("mode", leg.mode.rawValue)
        if ride != nil && realtime { w.field("realtime", rt != nil) }
        if let ride {
            w.field("route", ride.routeShortName ?? ride.routeLongName ?? ride.routeId)
            w.field("routeColor", ifPresent: ride.routeColor)
            w.field("routeId", ride.routeId)
            w.field("routeLongName", ifPresent: ride.routeLongName)
            w.field("routeShortName", ifPresent: ride.routeShortName)
            w.field("routeTextColor", ifPresent: ride.routeTextColor)
            if let rt {
                w.key("scheduledArrival"); time(rt.scheduledArrival, zone, &w)
                w.key("scheduledDeparture"); time(rt.scheduledDeparture, zone, &w)
            }
            w.field("serviceDate", ride.serviceDate.iso8601)
            w.field("shapeId", ifPresent: ride.shapeId)
            if let rt {
                // Stops the trip passes without stopping that day (SKIPPED).
                w.key("skippedStops"); w.beginArray()
                for s in rt.skippedStopIds { w.string(s) }
                w.endArray()
            }
        }
        w.key("to"); place(leg.to, &w)
        if let ride { w.field("trip", ride.tripId) }
        if let v = leg.vehicle { w.key("vehicle"); vehicle(v, &w) }
        if change { w.field("waitSeconds", leg.waitSeconds) }
        if let walk = leg.walk { walkFields(walk, language: language, &w) }
        w.endObject()
    }

    /// A vehicle where realtime last put it (a ride's, and `/v1/vehicles`' properties):
    /// its ids, position, bearing, speed, what it does at which stop, and when it was seen.
    public static func vehicle(_ v: RealtimeVehicle, _ w: inout JSONWriter) {
        let p = v.position
        w.beginObject()
        if let b = p.bearing { w.field("bearing", b) }
        w.field("currentStatus", ifPresent: p.currentStatus)
        w.field("feed", v.feedId)
        w.field("id", p.vehicleId ?? p.entityId)
        w.field("label", ifPresent: p.vehicleLabel)
        w.field("lat", v.latitude)
        w.field("lon", v.longitude)
        w.field("routeId", ifPresent: v.routeId)
        if let v = p.speed { w.field("speed", v) }
        w.field("stopId", ifPresent: p.stopId)
        if let t = p.timestamp { w.key("timestamp"); time(t, ZoneOffsets(TimeZone(identifier: "UTC")!), &w) }
        w.field("tripId", ifPresent: v.tripId)
        w.endObject()
    }

    /// Vehicles as a GeoJSON FeatureCollection of points (`/v1/vehicles`), each with
    /// `vehicle`'s fields as its properties.
    public static func vehicles(_ list: [RealtimeVehicle]) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 320 * list.count)
        w.beginObject()
        w.key("features"); w.beginArray()
        for v in list {
            w.beginObject()
            w.key("geometry"); w.beginObject()
            w.key("coordinates"); w.pair(v.longitude, v.latitude)
            w.field("type", "Point")
            w.endObject()
            w.key("properties"); vehicle(v, &w)
            w.field("type", "Feature")
            w.endObject()
        }
        w.endArray()
        w.field("type", "FeatureCollection")
        w.endObject()
        return w.bytes
    }

    /// An alert on a ride: its texts (the first translation of each: the message's default
    /// or only language), cause, effect and active periods.
    static func alert(_ a: RealtimeMessage.Alert, _ w: inout JSONWriter) {
        let utc = ZoneOffsets(TimeZone(identifier: "UTC")!)
        w.beginObject()
        w.key("activePeriods"); w.beginArray()
        for p in a.activePeriods {
            w.beginObject()
            if let e = p.end { w.key("end"); time(e, utc, &w) }
            if let s = p.start { w.key("start"); time(s, utc, &w) }
            w.endObject()
        }
        w.endArray()
        w.field("cause", ifPresent: a.cause)
        w.field("description", ifPresent: a.description.first?.text)
        w.field("effect", ifPresent: a.effect)
        w.field("header", ifPresent: a.header.first?.text)
        w.field("id", a.entityId)
        w.field("url", ifPresent: a.url.first?.text)
        w.endObject()
    }

    /// A walk leg's `walkModel` and `walkSteps` (empty for a beeline): each step's action,
    /// way, sentence and the point where it starts (as the map writes positions).
    private static func walkFields(_ walk: WalkRoute, language: Language, _ w: inout JSONWriter) {
        w.field("walkModel", walk.model.rawValue)
        w.key("walkSteps"); w.beginArray()
        for step in walk.steps {
            w.beginObject()
            w.field("action", step.action.rawValue)
            w.field("heading", ifPresent: step.heading)
            w.field("instruction", step.text(language))
            w.field("kind", step.kind.name)
            w.field("meters", (step.meters * 10).rounded() / 10)
            if let c = walk.start(of: step) {
                let p = ItineraryMap.position(c)
                w.key("point"); w.pair(p.longitude, p.latitude)
            }
            w.key("street"); if let s = step.street { w.string(s) } else { w.null() }
            w.endObject()
        }
        w.endArray()
    }

    /// Compact JSON text of a `[String: Any]` tree, keys sorted (`JSONText`).
    public static func encode(_ object: [String: Any]) -> String { JSONText.encode(object) }
}

/// A zone's UTC offset at instants, asked of Foundation once per stretch between two of
/// its transitions (an answer's times mostly fall in one; the lookup was most of the cost
/// of writing a time). For one answer at a time: not shared between threads.
final class ZoneOffsets {
    let zone: TimeZone
    /// [from, until) has `offset`.
    private var from = Int64.max, until = Int64.min, offset = 0

    init(_ zone: TimeZone) { self.zone = zone }

    func offset(at t: Int64) -> Int {
        if from <= t && t < until { return offset }
        let date = Date(timeIntervalSince1970: Double(t))
        offset = zone.secondsFromGMT(for: date)
        from = t
        until = zone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .max
        return offset
    }
}
