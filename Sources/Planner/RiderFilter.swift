import Raptor

/// What an option costs a rider, in seconds, and its parts (docs/routing-model.md, "What a
/// rider is shown"): time aboard counts once, time out of vehicles between leaving and
/// arriving twice, a change 10 minutes, and being kept from the time asked half (inside
/// the window, only for the recommendation, not for the limit). The model's Pareto set is
/// not touched by it: it only chooses what is shown and recommended, and what the labels say.
public struct RiderCost: Sendable, Equatable {
    /// Seconds aboard vehicles (the rides' departure to arrival).
    public var aboardSeconds: Int64
    /// Seconds between leaving and arriving not aboard: walking, change slack, waiting.
    public var outsideSeconds: Int64
    public var changes: Int
    /// How long the rider is kept from the time asked (depart-at: departure − T; arrive-by:
    /// T − arrival), in seconds.
    public var gapSeconds: Int64
    /// The answer's window, in seconds: the part of the gap inside it does not count
    /// toward the limit (those later departures are the alternatives asked for).
    public var windowSeconds: Int64

    public static let outsideWeight: Int64 = 2
    public static let changePenaltySeconds: Int64 = 600
    /// A candidate is shown when its cost is at most `limitBase + limitFactor × best`.
    public static let limitBaseSeconds: Int64 = 900
    public static let limitFactor = 1.5

    /// The parts, in the order the model lists them; their sum is `seconds`.
    public var gapPart: Int64 { gapSeconds / 2 }
    public var changePart: Int64 { Int64(changes) * Self.changePenaltySeconds }
    public var outsidePart: Int64 { Self.outsideWeight * outsideSeconds }

    public var seconds: Int64 { aboardSeconds + outsidePart + changePart + gapPart }
    /// What is held against the limit: the cost without the gap's part inside the window.
    public var limitedSeconds: Int64 { seconds - min(gapSeconds, windowSeconds) / 2 }

    /// The most a shown option may cost when the best candidate costs `best`.
    public static func limit(best: Int64) -> Int64 { limitBaseSeconds + Int64((limitFactor * Double(best)).rounded(.down)) }
}

extension RiderCost {
    /// The cost of `journey` for a query at instant `time` (arrive-by: by `time`).
    public init(_ journey: Journey, time: Int64, arriveBy: Bool, window: Int) {
        var aboard: Int64 = 0
        for case .ride(_, _, _, _, _, let departure, let arrival) in journey.legs { aboard += arrival - departure }
        self.init(aboardSeconds: aboard, outsideSeconds: journey.arrival - journey.departure - aboard,
                  changes: max(0, journey.rides - 1),
                  gapSeconds: max(0, arriveBy ? time - journey.arrival : journey.departure - time),
                  windowSeconds: Int64(window))
    }
}

/// The rider's filter and labels over candidate options (docs/routing-model.md, "What a
/// rider is shown"): which are shown, which is recommended, what each label says. Pure:
/// options in, options out, so the tests can check each rule on its own.
public enum RiderFilter {
    /// A candidate: the option and its cost.
    public struct Candidate: Sendable {
        public var option: PlanOption
        /// The model's first itinerary (kept whatever it costs).
        public var modelFirst: Bool
        public var cost: RiderCost
        public init(option: PlanOption, modelFirst: Bool, cost: RiderCost) {
            self.option = option; self.modelFirst = modelFirst; self.cost = cost
        }
    }

    /// The candidates a rider is shown: those whose `limitedSeconds` are within the limit of
    /// the best cost, the
    /// model's first and the walk-only journey always; in the order given.
    public static func shown(_ candidates: [Candidate]) -> [Candidate] {
        guard let best = candidates.map(\.cost.seconds).min() else { return [] }
        let limit = RiderCost.limit(best: best)
        return candidates.filter { $0.modelFirst || $0.option.journey.rides == 0 || $0.cost.limitedSeconds <= limit }
    }

    /// Index of the recommended option: the least cost; ties to the model's first, then the
    /// earlier arrival (arrive-by: the later departure), then fewer rides.
    public static func recommended(_ shown: [Candidate], arriveBy: Bool) -> Int {
        func key(_ c: Candidate) -> (Int64, Int, Int64, Int) {
            (c.cost.seconds, c.modelFirst ? 0 : 1, arriveBy ? -c.option.journey.departure : c.option.journey.arrival,
             c.option.journey.rides)
        }
        return shown.indices.min { key(shown[$0]) < key(shown[$1]) }!
    }

    /// The whole local minute of an instant, as printed (zone offsets are whole minutes).
    static func minute(_ t: Int64, offset: (Int64) -> Int64) -> Int64 {
        let local = t + offset(t)
        return (local - ((local % 60) + 60) % 60) / 60
    }

    /// The labels of each shown option (see `PlanOption.labels`), by the model's definitions.
    /// `offset` gives the zone's UTC offset in seconds at an instant (for printed minutes).
    public static func labels(_ shown: [Candidate], recommended: Int, arriveBy: Bool, window: Int,
                              offset: (Int64) -> Int64) -> [[String]] {
        var labels = Array(repeating: Set<String>(), count: shown.count)
        let all = Array(shown.indices)
        func s(_ i: Int) -> ItinerarySummary { shown[i].option.itinerary.summary }
        func dep(_ i: Int) -> Int64 { minute(s(i).departure, offset: offset) }
        func arr(_ i: Int) -> Int64 { minute(s(i).arrival, offset: offset) }
        let transit = all.filter { s($0).rides > 0 }
        for i in all where s(i).rides == 0 { labels[i].insert("walk-only") }
        if let first = all.first(where: { shown[$0].modelFirst }) {
            labels[first].insert(arriveBy ? "latest-departure" : "earliest-arrival")
            // The table says which option the steps are of when it is not the model's first.
            if first != recommended { labels[recommended].insert("recommended") }
        }
        // The best by `key`, ties broken as the model orders (earlier arrival, arrive-by:
        // later departure; then fewer rides); labelled only when it beats some other
        // option outright.
        func tie(_ i: Int) -> Int64 { arriveBy ? -s(i).departure : s(i).arrival }
        func best(_ name: String, among: [Int], _ key: (Int) -> Int64) {
            guard let b = among.min(by: { (key($0), tie($0), s($0).rides) < (key($1), tie($1), s($1).rides) }) else { return }
            if among.contains(where: { key($0) > key(b) }) { labels[b].insert(name) }
        }
        // Fastest: the least duration, unless it leaves (arrive-by: arrives) so long after
        // (before) the first that a rider would not count it as an alternative at all.
        let fastest = all.min { (s($0).durationSeconds, tie($0), s($0).rides) < (s($1).durationSeconds, tie($1), s($1).rides) }
        if let f = fastest, considered(shown, arriveBy: arriveBy, window: window).contains(f) { labels[f].insert("fastest") }
        best("fewest-changes", among: transit, { Int64(s($0).rides) })
        best("least-walking", among: transit, { Int64(s($0).walkMeters.rounded()) })
        if !arriveBy { best("earliest-departure", among: transit, dep) }
        let order = ["recommended", "walk-only", "earliest-arrival", "latest-departure", "fastest", "fewest-changes", "least-walking",
                     "earliest-departure"]
        return all.map { i in
            var out = order.filter { labels[i].contains($0) }
            // The walk's cost is its walking, which "on foot" says already.
            let t = i == recommended || s(i).rides == 0 ? nil : tradeOff(shown[i], versus: shown[recommended], arriveBy: arriveBy)
            // "later" says nothing that "leaves … later" does not say better.
            if out.isEmpty && t?.hasPrefix("leaves-") != true {
                if !arriveBy && all.allSatisfy({ $0 >= i || dep($0) < dep(i) }) { out.append("later-departure") }
                if arriveBy && all.allSatisfy({ $0 <= i || arr($0) > arr(i) }) { out.append("earlier-arrival") }
            }
            if let t { out.append(t) }
            if out.isEmpty { out.append("alternative") }
            return out
        }
    }

    /// The options that may be `fastest`: those leaving at most `window` after the earliest
    /// departure shown (arrive-by: arriving at most `window` before the latest arrival shown).
    public static func considered(_ shown: [Candidate], arriveBy: Bool, window: Int) -> [Int] {
        let w = Int64(window)
        if arriveBy {
            guard let latest = shown.map(\.option.journey.arrival).max() else { return [] }
            return shown.indices.filter { shown[$0].option.journey.arrival >= latest - w }
        }
        guard let earliest = shown.map(\.option.journey.departure).min() else { return [] }
        return shown.indices.filter { shown[$0].option.journey.departure <= earliest + w }
    }

    /// What `o` costs more than the recommended `r`, as one `name:value` label: the largest
    /// positive part of the difference whose value is positive; nil when `o` costs no more.
    public static func tradeOff(_ o: Candidate, versus r: Candidate, arriveBy: Bool) -> String? {
        guard o.cost.seconds > r.cost.seconds else { return nil }
        let departureLater = o.option.journey.departure - r.option.journey.departure
        let parts: [(part: Int64, name: String, value: Int64)] = [
            (o.cost.gapPart - r.cost.gapPart, arriveBy ? "leaves-earlier" : "leaves-later", arriveBy ? -departureLater : departureLater),
            (o.cost.changePart - r.cost.changePart, "more-changes", Int64(o.cost.changes - r.cost.changes)),
            (o.cost.outsidePart - r.cost.outsidePart, "more-waiting", o.cost.outsideSeconds - r.cost.outsideSeconds),
            (o.cost.aboardSeconds - r.cost.aboardSeconds, "longer-ride", o.cost.aboardSeconds - r.cost.aboardSeconds),
        ]
        // The first of the largest wins a tie (the model's order of the parts).
        var chosen: (part: Int64, name: String, value: Int64)?
        for p in parts where p.part > 0 && p.value > 0 && p.part > (chosen?.part ?? 0) { chosen = p }
        return chosen.map { "\($0.name):\($0.value)" }
    }
}
