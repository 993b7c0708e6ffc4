import Dispatch
import FeedNetwork
import Foundation
import Geo
import Raptor
import Realtime
import TransitModel

/// One alternative of a plan answer: a journey, the itinerary made from it, and what sets
/// it apart from the others.
public struct PlanOption: Sendable {
    public var journey: Journey
    public var itinerary: Itinerary
    /// What sets it apart, each true of the shown options by the routing model's definition
    /// ("What a rider is shown"), in a fixed order: `recommended` (when that is not the
    /// model's first), `walk-only`, `earliest-arrival` (arrive-by: `latest-departure`),
    /// `fastest`, `fewest-changes`, `least-walking`, `earliest-departure`; `later-departure`
    /// (arrive-by: `earlier-arrival`) when none of those applies and it is true; then, for
    /// an option with rides costing the rider more than the recommended one, one trade-off
    /// `name:value` (`leaves-later:13800`, `more-changes:1`); `alternative` when nothing
    /// else applies.
    public var labels: [String]
    /// Part of the routing model's answer at the query time (not only a departure found in
    /// the window).
    public var inModelAnswer: Bool
    /// What it costs a rider (the routing model's rider's cost).
    public var riderCost: RiderCost
}

/// Something the rider should know about an answer that still has itineraries.
public struct PlanNotice: Sendable, Equatable {
    /// What the notice is about; the raw values are the API's notice codes.
    public enum Code: String, Sendable, CaseIterable {
        /// The request's time budget ran out before every alternative was looked for.
        case alternativesCutShort = "ALTERNATIVES_CUT_SHORT"
        /// Only accessible stops and trips were used, and how much is unknown.
        case wheelchair = "WHEELCHAIR"
        /// No service on the query's days: only the walk is offered.
        case outsideServicePeriod = "OUTSIDE_SERVICE_PERIOD"
        /// An end is reached only by a feed's outlying trips: local transit there is not covered.
        case outlyingService = "OUTLYING_SERVICE"
    }
    public var code: Code
    /// In English.
    public var message: String
    /// The message in every language.
    public var localized: Localized?

    public init(code: Code, message: String) { self.code = code; self.message = message }
    public init(code: Code, _ text: Localized) { self.code = code; message = text.english; localized = text }

    public func message(_ language: Language) -> String { localized?[language] ?? message }
}

/// What a plan request gets back: alternatives a person can compare at a glance, ordered
/// by departure, with the routing model's first itinerary marked.
public struct PlanAnswer: Sendable {
    public var options: [PlanOption]
    /// Index in `options` of the option a rider is recommended: the least rider's cost
    /// (ties: the model's first, then the earlier arrival, arrive-by: later departure).
    public var recommended: Int
    /// Index in `options` of the model's first itinerary: the earliest arrival, fewer rides
    /// breaking a tie, less walking breaking that (arrive-by: the latest departure). Always shown.
    public var modelFirst: Int
    public var notices: [PlanNotice]
    /// The model's answer at the query time, and the query's zone, instant, places and parameters.
    public var result: PlanResult
    public var arriveBy: Bool
    /// Seconds after (arrive-by: before) the query time searched for alternatives.
    public var window: Int
    public var numItineraries: Int
    public var modes: ModeFilter?
    public var wheelchair: Bool
}

/// What a plan request gets back: the itineraries to compare, or the reason there are none.
public enum PlanOutcome: Sendable {
    case itineraries(PlanAnswer)
    case noItinerary(PlanError)

    /// The answer, or its reason thrown (for callers that handle both alike).
    public func get() throws(PlanError) -> PlanAnswer {
        switch self {
        case .itineraries(let answer): return answer
        case .noItinerary(let reason): throw reason
        }
    }

}

extension JourneyPlanner {
    public static let defaultItineraries = 5
    public static let maxItineraries = 20
    /// Alternatives are looked for this long after (arrive-by: before) the query time.
    public static let defaultWindow = 3600

    /// A plan answer: the model's Pareto set at the query time and the next departures
    /// inside the window (arrive-by: the earlier arrivals), de-duplicated, without rides
    /// that take longer than walking the whole way, at most `numItineraries`, ordered by
    /// departure and labelled; or, as a value, the reason there is none (`PlanReason`:
    /// `SAME_PLACE`, `OUTSIDE_COVERAGE` (an end outside every coverage region),
    /// `NO_STOP_NEARBY` (the request's own walking limit or wheelchair filter leaves no
    /// stop), `OUTSIDE_SERVICE_PERIOD`, `NO_CONNECTION`, `BAD_PARAMETER`, `UNKNOWN_STOP`, …)
    /// with a sentence and details. Nothing is thrown.
    ///
    /// `riderFilter` false (`transit plan --batch`, the model's own answer): nothing is dropped
    /// for its cost and the model's first is the recommended option; the labels keep their
    /// definitions.
    public func answer(_ query: PlanQuery, numItineraries: Int = JourneyPlanner.defaultItineraries,
                       riderFilter: Bool = true, realtime: RealtimeState? = nil) -> PlanOutcome {
        do throws(PlanError) {
            let rt = routing(query, realtime)
            var answer = try itineraries(query, numItineraries: numItineraries, riderFilter: riderFilter, rt: rt)
            // Alerts and vehicles also come with a state that changes no trip.
            if query.realtime, let realtime, realtime.staticTimetable === timetable {
                attachAlerts(&answer, realtime)
                attachVehicles(&answer, realtime)
            }
            return .itineraries(answer)
        } catch {
            return .noItinerary(error)
        }
    }

    private func itineraries(_ query: PlanQuery, numItineraries: Int, riderFilter: Bool, rt: RealtimeRouting?) throws(PlanError) -> PlanAnswer {
        let count = PlanRequestParameters.numItineraries.integerRange, minutes = PlanRequestParameters.window.integerRange
        guard count.contains(numItineraries) else {
            throw PlanError(.badParameter, "numItineraries is \(numItineraries): allowed are \(PlanRequestParameters.numItineraries.rangeWords!)",
                            details: ["parameter": .text("numItineraries"), "value": .number(Double(numItineraries))])
        }
        let window = query.window ?? Self.defaultWindow
        guard (minutes.lowerBound * 60...minutes.upperBound * 60).contains(window) else {
            throw PlanError(.badParameter, "window is \(window / 60) min: allowed are \(PlanRequestParameters.window.rangeWords!)",
                            details: ["parameter": .text("window"), "value": .number(Double(window))])
        }
        let places = try resolve(query)
        let origin = places.origin.point, destination = places.destination.point
        if Geodesic.distance(origin, destination) < 1 {
            throw PlanError(.samePlace, Localized { Catalogue.text("reason.samePlace", $0) })
        }
        // Coverage: both ends inside a region (near a stop with service on the model's days).
        let days = when(query.time, zoneName: places.zoneName).days
        let ends = [("origin", places.origin), ("destination", places.destination)].map { ($0, $1, coverage(of: $1, days: days)) }
        for (end, _, standing) in ends {
            if case .outside(let feed, let meters, let nearest) = standing {
                throw outsideCoverage(end: end, feed: feed, meters: meters, nearest: nearest, inPeriod: false)
            }
        }
        try checkLimits(query, places)
        var modelQuery = query
        modelQuery.window = nil
        var cutShort = false
        func outOfTime() -> Bool {
            if let d = query.deadline, DispatchTime.now().uptimeNanoseconds > d { cutShort = true }
            return cutShort
        }
        // Alternatives are looked for when the model's answer has rides and leaves room.
        func roomFor(_ modelJourneys: Int, rides: Bool) -> Bool { window > 0 && modelJourneys < numItineraries && rides }
        let model: PlanResult
        var range: [Journey] = []
        if !query.arriveBy && window > 0 {
            // One range search gives the model's answer and the departures in the window.
            let found = try planWithAlternatives(query, places: places, window: window, outOfTime: outOfTime, rt: rt)
            model = found.model
            if !found.complete { cutShort = true }
            if roomFor(model.journeys.count, rides: model.journeys.contains { $0.rides > 0 }) {
                range = found.range.filter { $0.rides > 0 }
                    .sorted { ($0.departure, $0.arrival, $0.rides) < ($1.departure, $1.arrival, $1.rides) }
            }
        } else {
            model = try plan(modelQuery, places: places, filter: rideFilter(modes: query.modes, wheelchair: query.wheelchair), rt: rt)
        }
        let outside = outsideServicePeriod(model, query.parameters, places)
        // An end near stops that have no service then: the feed's period, when it is over
        // or not begun, says why best; a walk may still be offered.
        if outside == nil {
            for (end, nearby, standing) in ends {
                if case .noServiceThen = standing, let s = nearby.nearest {
                    throw outsideCoverage(end: end, feed: timetable.stopFeed[s.stop.index], meters: 0, inPeriod: true)
                }
            }
        }

        // Candidates in order of priority: the model's answer first, in its order, then the
        // departures nearest the query time.
        var candidates: [(journey: Journey, model: Bool)] = model.journeys.map { ($0, true) }
        candidates += range.map { ($0, false) }
        if query.arriveBy && roomFor(model.journeys.count, rides: model.journeys.contains { $0.rides > 0 }) && !outOfTime() {
            // Earlier arrivals: ask again just before the arrival of the latest departure.
            var current = model.journeys.filter { $0.rides > 0 }
            let earliest = model.time - Int64(window)
            for _ in 0..<numItineraries where !outOfTime() {
                guard let latest = current.max(by: { ($0.departure, -$0.arrival) < ($1.departure, -$1.arrival) }) else { break }
                let t = latest.arrival - 1
                guard t >= earliest else { break }
                var q = modelQuery
                q.time = .instant(t)
                current = try plan(q, places: places, filter: rideFilter(modes: q.modes, wheelchair: q.wheelchair), rt: rt).journeys.filter { $0.rides > 0 && $0.arrival >= earliest }
                candidates += current.sorted { ($0.arrival, $0.departure) > ($1.arrival, $1.departure) }.map { ($0, false) }
            }
        }
        // Transit only where it is faster than walking the whole way.
        if let walk = model.journeys.first(where: { $0.rides == 0 }) {
            candidates.removeAll { $0.journey.rides > 0 && $0.journey.arrival - $0.journey.departure >= walk.arrival - walk.departure }
        }
        var chosen: [(journey: Journey, model: Bool)] = []
        for c in candidates where chosen.count < numItineraries {
            if !chosen.contains(where: { $0.journey.departure == c.journey.departure && $0.journey.arrival == c.journey.arrival
                                        && $0.journey.rides == c.journey.rides }) {
                chosen.append(c)
            }
        }

        var notices = outlyingNotices(ends.map(\.2))
        if cutShort {
            notices.append(PlanNotice(code: .alternativesCutShort, Localized { Catalogue.text("notice.cutShort", $0) }))
        }
        if query.wheelchair {
            let unknown = accessibilityUnknown()
            notices.append(PlanNotice(code: .wheelchair, Localized { l in
                Catalogue.text("notice.wheelchair", l) + (unknown.stops > 0 || unknown.trips > 0
                    ? Catalogue.text("notice.wheelchairUnknown", l, ["stops": "\(unknown.stops)", "boardable": "\(unknown.boardableStops)",
                                                                   "trips": "\(unknown.trips)", "allTrips": "\(unknown.allTrips)"]) : "")
            }))
        }
        if let outside, chosen.contains(where: { $0.journey.rides == 0 }) {
            notices.append(PlanNotice(code: .outsideServicePeriod, outside.localized ?? Localized { _ in outside.message }))
        }
        guard !chosen.isEmpty else {
            if let outside { throw outside }
            throw noConnection(query, model)
        }

        let first = chosen.first!.journey
        let order = chosen.indices.sorted {
            let a = chosen[$0].journey, b = chosen[$1].journey
            return (a.departure, a.arrival, a.rides) < (b.departure, b.arrival, b.rides)
        }
        // The rider's filter: what is shown and recommended, and the labels (the model's
        // answer above is left as it is).
        let walks = WalkRouteMemo()
        let ranked = order.map { i in
            let c = chosen[i]
            let cost = RiderCost(c.journey, time: model.time, arriveBy: query.arriveBy, window: window)
            return RiderFilter.Candidate(option: PlanOption(journey: c.journey, itinerary: itinerary(c.journey, in: model, walks: walks), labels: [],
                                                            inModelAnswer: c.model, riderCost: cost),
                                         modelFirst: c.model && c.journey == first, cost: cost)
        }
        let shown = riderFilter ? RiderFilter.shown(ranked) : ranked
        let recommended = riderFilter ? RiderFilter.recommended(shown, arriveBy: query.arriveBy) : shown.firstIndex { $0.modelFirst }!
        let tz = zone(model.timeZone)
        let labels = RiderFilter.labels(shown, recommended: recommended, arriveBy: query.arriveBy, window: window) {
            Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))))
        }
        var options = shown.map { $0.option }
        for i in options.indices { options[i].labels = labels[i] }
        return PlanAnswer(options: options, recommended: recommended, modelFirst: shown.firstIndex { $0.modelFirst }!,
                          notices: notices, result: model, arriveBy: query.arriveBy,
                          window: window, numItineraries: numItineraries, modes: query.modes, wheelchair: query.wheelchair)
    }

    /// The local service date D of a result's query instant.
    func queryDate(_ result: PlanResult) -> ServiceDate {
        JourneyPlanner.localDate(result.time, zone(result.timeZone))
    }

    /// OUTSIDE_SERVICE_PERIOD when no feed serving either end has service on D − 1, D or
    /// D + 1 (the model's days), with each such feed's dates.
    func outsideServicePeriod(_ result: PlanResult, _ p: RoutingParameters, _ places: ResolvedPlaces) -> PlanError? {
        let snapshot = network.snapshot
        var feeds = Set<Int32>()
        for end in [places.origin, places.destination] {
            for s in walks(end, p) { feeds.insert(snapshot.stops[s.stop.index].feed) }
        }
        if feeds.isEmpty { feeds = Set((0..<snapshot.feedIds.count).map(Int32.init)) }
        let d = queryDate(result)
        let before = d.adding(days: -1), after = d.adding(days: 1)
        var periods: [(Language) -> String] = [], details: [PlanDetail] = []
        for f in feeds.sorted() {
            let feed = snapshot.feedIds[Int(f)]
            guard let period = servicePeriods[Int(f)] else {
                periods.append { Catalogue.text("reason.noServiceAtAll", $0, ["feed": feed]) }
                details.append(.object(["feed": .text(snapshot.feedIds[Int(f)])]))
                continue
            }
            if after >= period.first && before <= period.last { return nil }
            periods.append { Catalogue.text("reason.runs", $0, ["feed": feed, "start": period.first.iso8601, "end": period.last.iso8601]) }
            details.append(.object(["feed": .text(snapshot.feedIds[Int(f)]), "start": .text(period.first.iso8601),
                                    "end": .text(period.last.iso8601)]))
        }
        let text = Localized { l in
            Catalogue.text("reason.noService", l, ["date": d.iso8601, "timetables": Catalogue.text(periods.count == 1 ? "reason.timetable" : "reason.timetables", l),
                                                    "periods": periods.map { $0(l) }.joined(separator: l == .en ? "; " : "；")])
        }
        return PlanError(.outsideServicePeriod, text,
                         details: ["date": .text(d.iso8601), "feeds": .list(details)])
    }

    /// NO_CONNECTION: stops are near both ends and service runs, but nothing connects them.
    func noConnection(_ query: PlanQuery, _ result: PlanResult) -> PlanError {
        let p = query.parameters
        func limits(_ l: Language) -> String {
            var limits = [Catalogue.text("reason.maxChanges", l, ["n": "\(p.maxTransfers)"])]
            if let modes = query.modes { limits.append(modes.sentence(l)) }
            if query.wheelchair { limits.append(Catalogue.text("reason.wheelchairOnly", l)) }
            return limits.joined(separator: l == .en ? ", " : "，")
        }
        let time = ItineraryText.clock(result.time, TimeZone(identifier: result.timeZone)!)
        var details: [String: PlanDetail] = ["date": .text("\(queryDate(result).iso8601)"), "maxTransfers": .number(Double(p.maxTransfers)),
                                             "wheelchair": .flag(query.wheelchair)]
        if let modes = query.modes { details["modes"] = .text(modes.description) }
        let date = queryDate(result).iso8601
        let text = Localized { l in
            Catalogue.text("reason.noConnection", l, ["when": Catalogue.text(query.arriveBy ? "reason.arrivesBy" : "reason.leavesAfter", l, ["time": time]),
                                                       "date": date, "limits": limits(l)])
        }
        return PlanError(.noConnection, text, details: details)
    }
}
