import Foundation
import GTFSRealtime
import Planner
import TransitModel
import Synchronization

/// One thing a follower is told (docs/routing-model.md, "Following a trip"): its kind,
/// what it concerns, the data a program reads and the sentence a person reads (the stream's
/// `message`, the terminal's line).
public struct FollowEvent: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case delay
        case cancellation
        case skippedStop = "skipped-stop"
        case missedConnection = "missed-connection"
        case alert
        case legUpcoming = "leg-upcoming"
        case arrived
    }

    /// What comes after a cancellation, a skipped stop or a missed connection.
    public enum Continuation: Sendable {
        /// The model's answer from where the rider will be: its option (in `answer`) and
        /// the trip followed from now on (the rides kept before the break, then the new
        /// ones) with its token.
        case itinerary(answer: PlanAnswer, option: Int, trip: FollowedTrip, token: String)
        /// No way to continue, and why.
        case noWay(PlanError)
    }

    public enum Moment: String, Sendable { case boarding, alighting }

    public var kind: Kind
    /// The clock when it was made (UTC seconds).
    public var time: Int64
    /// The ride it concerns (0-based, in the trip followed when it was made); for a
    /// missed connection, the ride before the change.
    public var ride: Int?
    public var line: String?
    public var headsign: String?
    /// `delay`: the times told before and now (departure from the boarding stop, arrival
    /// at the alighting stop).
    public var oldDeparture: Int64?, oldArrival: Int64?
    public var newDeparture: Int64?, newArrival: Int64?
    /// `skipped-stop`: the stop no longer served and whether the rider boards there;
    /// `leg-upcoming`: the stop and the moment.
    public var stopId: String?
    public var stopName: String?
    public var moment: Moment?
    /// `leg-upcoming`: whole minutes to go (rounded up).
    public var minutes: Int?
    public var alert: RealtimeMessage.Alert?
    public var alertFeed: String?
    public var continuation: Continuation?
    /// The sentence in plain English.
    public var message: String

    public init(kind: Kind, time: Int64, message: String) {
        self.kind = kind; self.time = time; self.message = message
    }
}

/// Clock times and durations in a sentence.
enum FollowWords {
    /// A clock time as the answers show it ("Times as shown"): a departure's minute with
    /// its seconds dropped, an arrival's rounded up. (Arithmetic on the zone's offset: a
    /// Calendar per sentence made a pass over 1,000 followed trips several times slower.)
    static func clock(_ t: Int64, _ zone: String, arrival: Bool = false) -> String {
        let shown = arrival ? ShownTimes.ceilMinute(t) : ShownTimes.floorMinute(t)
        let offset = Int64(FollowZones.zone(zone).secondsFromGMT(for: Date(timeIntervalSince1970: Double(shown))))
        let day = ((shown + offset) % 86_400 + 86_400) % 86_400
        let h = Int(day / 3600), m = Int(day % 3600 / 60)
        return (h < 10 ? "0" : "") + String(h) + (m < 10 ? ":0" : ":") + String(m)
    }

    /// "5 min late", "2 min early", "on time": the expected time against the scheduled
    /// one in shown minutes ("Times as shown"), so that it is the difference of the
    /// printed times.
    static func lateness(expected: Int64, scheduled: Int64, arrival: Bool, _ language: Language = .en) -> String {
        let shown: (Int64) -> Int64 = { arrival ? ShownTimes.ceilMinute($0) : ShownTimes.floorMinute($0) }
        let m = Int((shown(expected) - shown(scheduled)) / 60)
        if m == 0 { return Catalogue.text("follow.onTime", language) }
        return Catalogue.text(m > 0 ? "follow.late" : "follow.early", language, ["n": "\(abs(m))"])
    }

    static func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    /// "Yellow towards SFO" (the line and where it goes), in `language`.
    static func line(_ r: MatchedRide, _ language: Language = .en) -> String {
        let name = lineName(r, language)
        return r.headsign.map { Catalogue.text("follow.line", language, ["line": name, "headsign": $0]) } ?? name
    }

    /// "metro Yellow" (`MatchedRide.line`) with the mode's noun in `language`: "地铁 Yellow".
    static func lineName(_ r: MatchedRide, _ language: Language) -> String {
        guard language != .en else { return r.line }
        let mode = LegMode(routeType: r.routeType), prefix = mode.noun + " "
        guard r.line.hasPrefix(prefix) else { return r.line }
        return mode.noun(language) + " " + r.line.dropFirst(prefix.count)
    }

    /// An alert's header (English if it has one, else its first), else its description.
    static func alertText(_ a: RealtimeMessage.Alert) -> String {
        func pick(_ list: [RealtimeMessage.Translation]) -> String? {
            (list.first { $0.language?.lowercased().hasPrefix("en") == true } ?? list.first { $0.language == nil } ?? list.first)?.text
        }
        let text = pick(a.header) ?? pick(a.description) ?? (a.effect ?? "a notice")
        // One line: a feed's texts may hold line breaks.
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// Time zones by IANA name, looked up once each.
public enum FollowZones {
    private static let zones = Mutex<[String: TimeZone]>([:])

    public static func zone(_ name: String) -> TimeZone {
        if let z = zones.withLock({ $0[name] }) { return z }
        let z = TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!
        zones.withLock { $0[name] = z }
        return z
    }
}
