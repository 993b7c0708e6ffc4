import Foundation
import TransitModel

/// The times and minutes a rider reads, made from an itinerary's instants by one rule
/// (docs/routing-model.md, "Times as shown"): for the API's instruction sentences
/// (`Itinerary`) and the terminal's table, steps and summary (`PlanAnswerText`) alike, so
/// that the two say the same and every number adds up as printed. Nothing here changes
/// what the model computes; the JSON keeps its instants to the second.
public enum ShownTimes {
    /// A walk shorter than this (as walked) is a few steps at a stop (a pole, a platform's
    /// edge): its step says where to go but takes no minute and is not counted as walking.
    /// At the default pace it takes at most 8 s, inside the minute of the ride it touches.
    public static let fewStepsMeters = 10.0

    /// One leg as the rule needs it (UTC seconds).
    public struct Leg: Sendable, Equatable {
        public var isRide: Bool
        /// A walk (or a wait) between two rides.
        public var isChange: Bool
        public var departure: Int64
        public var arrival: Int64
        public var meters: Double
        /// For a change: the seconds waited after walking.
        public var waitSeconds: Int64
        public init(isRide: Bool, isChange: Bool, departure: Int64, arrival: Int64, meters: Double, waitSeconds: Int64) {
            self.isRide = isRide; self.isChange = isChange; self.departure = departure; self.arrival = arrival
            self.meters = meters; self.waitSeconds = waitSeconds
        }
    }

    /// A leg as shown: from `start` to `end` (UTC seconds on whole minutes), and for a walk
    /// or a change the minutes walked and waited (which add up to `end − start`).
    public struct Step: Sendable, Equatable {
        public var start: Int64
        public var end: Int64
        public var walkMinutes: Int
        public var waitMinutes: Int
        /// Counted as walking (the Walk column, the summary).
        public var walks: Bool
        public var minutes: Int { Int((end - start) / 60) }
    }

    /// An itinerary as shown: its steps (one per leg, in order), when it leaves and
    /// arrives, and the walking and waiting its steps say.
    public struct Journey: Sendable, Equatable {
        public var steps: [Step]
        public var start: Int64
        public var end: Int64
        public var walkMeters: Double
        public var walkMinutes: Int
        public var waitMinutes: Int
        public var minutes: Int { Int((end - start) / 60) }
    }

    /// The instant's minute, seconds dropped: when one must be somewhere to leave.
    public static func floorMinute(_ t: Int64) -> Int64 { t - ((t % 60) + 60) % 60 }
    /// The next whole minute when the instant has seconds: when one is surely there.
    public static func ceilMinute(_ t: Int64) -> Int64 { floorMinute(t + 59) }

    /// The rule: rides leave at their minute and arrive at the next whole minute; a walk
    /// or a change fills the time between the rides beside it (the first walk starts at its
    /// own minute, the last ends at the next whole minute after it), so the steps' times
    /// follow each other and each step lasts exactly the minutes it says.
    public static func journey(_ legs: [Leg]) -> Journey {
        var steps = legs.map { l in
            Step(start: floorMinute(l.departure), end: ceilMinute(l.arrival), walkMinutes: 0, waitMinutes: 0,
                 walks: !l.isRide)
        }
        let hasRide = legs.contains { $0.isRide }
        for (i, leg) in legs.enumerated() where !leg.isRide {
            if i > 0 && legs[i - 1].isRide { steps[i].start = steps[i - 1].end }
            if i + 1 < legs.count && legs[i + 1].isRide { steps[i].end = max(steps[i].start, steps[i + 1].start) }
            let gap = steps[i].minutes
            let fewSteps = hasRide && leg.meters < fewStepsMeters
            steps[i].walks = !fewSteps
            if leg.isChange {
                let walking = max(0, leg.arrival - leg.departure - leg.waitSeconds)
                steps[i].walkMinutes = fewSteps ? 0 : min(gap, Int((walking + 59) / 60))
                steps[i].waitMinutes = gap - steps[i].walkMinutes
            } else if fewSteps {
                // It takes no minute of its own.
                if i == 0 { steps[i].start = steps[i].end } else { steps[i].end = steps[i].start }
            } else {
                steps[i].walkMinutes = gap
            }
        }
        let walked = zip(legs, steps).filter { $0.1.walks }
        return Journey(steps: steps, start: steps.first?.start ?? 0, end: steps.last?.end ?? 0,
                       walkMeters: walked.reduce(0) { $0 + $1.0.meters },
                       walkMinutes: walked.reduce(0) { $0 + $1.1.walkMinutes },
                       waitMinutes: steps.reduce(0) { $0 + $1.waitMinutes })
    }

    /// Which of the two a wall-clock time is, in an hour the clocks repeat.
    public enum Repeat: String, Sendable { case first, second }

    /// `first` or `second` when the wall-clock time of `t` happens twice in `zone` (the
    /// night clocks go back), else nil.
    public static func repeated(_ t: Int64, _ zone: TimeZone) -> Repeat? {
        let wall = JourneyPlanner.localSeconds(t, zone)
        for delta: Int64 in [-7200, -3600, -1800, 1800, 3600, 7200] where JourneyPlanner.localSeconds(t + delta, zone) == wall {
            return delta > 0 ? .first : .second
        }
        return nil
    }

    /// Short weekday names by `ServiceDate.weekday` (0 is Monday).
    public static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// "09:10" for a time on `askedDay`; another day within 6 days adds its weekday
    /// ("09:10 Fri"), further away its date ("09:10 2020-11-02"); in an hour the clocks
    /// repeat, which of the two ("01:30 (second)"). `t` is shown at its minute (round it
    /// first with `floorMinute`/`ceilMinute`).
    public static func clock(_ t: Int64, _ zone: TimeZone, askedDay: ServiceDate) -> String {
        var text = ItineraryText.clock(t, zone)
        let day = JourneyPlanner.localDate(t, zone)
        let apart = abs(Int(day.daysSinceEpoch - askedDay.daysSinceEpoch))
        if apart > 6 { text += " \(day.iso8601)" } else if apart > 0 { text += " \(weekdays[day.weekday])" }
        if let r = repeated(t, zone) { text += " (\(r.rawValue))" }
        return text
    }

    /// A time as shown (`clock`, `withDelay`) in `language`: "09:10 Fri" reads "09:10 周五",
    /// "01:30 (second, +3 min)" reads "01:30（第二次，晚 3 分钟）". English is returned as it is.
    public static func localized(_ shown: String, _ language: Language) -> String {
        guard language != .en else { return shown }
        var head = shown, inner: [String] = []
        if shown.hasSuffix(")"), let open = shown.range(of: " (", options: .backwards) {
            head = String(shown[..<open.lowerBound])
            inner = shown[open.upperBound..<shown.index(before: shown.endIndex)].components(separatedBy: ", ")
        }
        if let i = weekdays.firstIndex(where: { head.hasSuffix(" " + $0) }) {
            head = String(head.dropLast(weekdays[i].count)) + Catalogue.text("dayShort.\(i)", language)
        }
        let words = inner.map { w -> String in
            if w == "first" || w == "second" { return Catalogue.text("time.\(w)", language) }
            if w == "on time" { return Catalogue.text("time.onTime", language) }
            if w.hasPrefix("+"), let n = Int(w.dropFirst().prefix { $0.isNumber }) { return Catalogue.text("time.late", language, ["n": "\(n)"]) }
            if w.hasSuffix(" min early"), let n = Int(w.prefix { $0.isNumber }) { return Catalogue.text("time.early", language, ["n": "\(n)"]) }
            return w
        }
        return words.isEmpty ? head : head + "（" + words.joined(separator: "，") + "）"
    }

    /// A realtime ride's time as shown with its delay in minutes beside it: "08:38 (+3 min)",
    /// "08:31 (2 min early)", "08:35 (on time)"; inside the brackets a time already has
    /// ("01:30 (second, +3 min)"). The minutes are those between the scheduled and the
    /// expected time each shown by the same rule (a departure at its minute, an arrival at
    /// the next whole minute, `arrival`), so the scheduled time is the one shown less them.
    public static func withDelay(_ shown: String, expected: Int64, scheduled: Int64, arrival: Bool) -> String {
        let minutes = arrival ? Int((ceilMinute(expected) - ceilMinute(scheduled)) / 60)
            : Int((floorMinute(expected) - floorMinute(scheduled)) / 60)
        let words = minutes == 0 ? "on time" : minutes > 0 ? "+\(minutes) min" : "\(-minutes) min early"
        return shown.hasSuffix(")") ? "\(shown.dropLast()), \(words))" : "\(shown) (\(words))"
    }

    /// The sentence that explains `(first)` and `(second)`, for the night of `t` (a time in
    /// the repeated hour): "On Sunday 2020-10-25 the clocks go back 1 h: …".
    public static func repeatNote(_ t: Int64, _ zone: TimeZone, _ language: Language = .en) -> String {
        let before = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t - 7200))))
        let after = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t + 7200))))
        let day = JourneyPlanner.localDate(t, zone)
        return Catalogue.text("text.clocksBack", language, ["day": Catalogue.text("day.\(day.weekday)", language), "date": day.iso8601,
                                                            "duration": Words.duration(minutes: Int((before - after) / 60), language)])
    }
}
