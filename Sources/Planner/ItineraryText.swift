import Foundation
import TransitModel

/// What a leg's instruction says, as data: the English sentence is one rendering of it,
/// and a translation is another (each case is one message to translate, its values the
/// placeholders).
public enum LegInstruction: Sendable, Equatable {
    /// "Walk 350 m (5 min) to Central Station, platform 2"; `to` nil: the destination; a
    /// few steps: "Go to Central Station, a few steps away".
    /// `minutes` as shown (`ShownTimes`): the time to the next step.
    case walk(meters: Double, minutes: Int, to: String?)
    /// "Take tram 4 towards Dworzec Główny at 08:12 from A, 6 stops, get off at B (08:25)";
    /// the times as shown (`ShownTimes.clock`: with their day when not on the day asked).
    case ride(mode: LegMode, route: String, headsign: String?, departure: String, from: String, stops: Int,
              to: String, arrival: String)
    /// "Change: walk 120 m to Plac Kościeleckich (2 min), then wait 4 min"
    case changeWalk(meters: Double, minutes: Int, to: String, waitMinutes: Int)
    /// "Change at Rondo Jagiellonów: wait 4 min"
    case changeWait(at: String, waitMinutes: Int)

    /// A time as shown inside brackets: "02:11 (second)" reads "02:11, second".
    static func unbracketed(_ time: String) -> String {
        time.replacingOccurrences(of: " (", with: ", ").replacingOccurrences(of: ")", with: "")
    }

    /// The sentence in plain English, for a person in a hurry.
    public var english: String {
        typealias T = Words
        switch self {
        case .walk(let m, let minutes, let to):
            // A few steps (`ShownTimes.fewStepsMeters`) take no minute and are not walking.
            if m < ShownTimes.fewStepsMeters { return to.map { "Go to \($0), a few steps away" } ?? "Your destination is a few steps away" }
            return "Walk \(T.distance(m)) (\(T.duration(minutes: minutes))) to \(to ?? "your destination")"
        case .ride(let mode, let route, let headsign, let departure, let from, let stops, let to, let arrival):
            return "Take \(mode.noun) \(route)\(headsign.map { " towards \($0)" } ?? "") at \(departure) from \(from), "
                + "\(stops) stop\(stops == 1 ? "" : "s"), get off at \(to) (\(Self.unbracketed(arrival)))"
        case .changeWalk(let m, let minutes, let to, let wait):
            // Platforms a few meters apart: neither distance nor minutes say anything.
            let how = m < ShownTimes.fewStepsMeters ? "walk to \(to)" : "walk \(T.distance(m)) to \(to) (\(T.duration(minutes: minutes)))"
            return "Change: \(how)" + (wait > 0 ? ", then wait \(T.duration(minutes: wait))" : "")
        case .changeWait(let at, let wait):
            return wait > 0 ? "Change at \(at): wait \(T.duration(minutes: wait))" : "Change at \(at)"
        }
    }
}

/// English renderings of clock times and places (distances and durations: `Words`).
public enum ItineraryText {
    /// Local wall-clock "HH:MM" of a UTC instant.
    public static func clock(_ t: Int64, _ zone: TimeZone) -> String {
        let local = JourneyPlanner.localSeconds(t, zone)
        let secs = ((local % 86_400) + 86_400) % 86_400
        let h = secs / 3600, m = secs / 60 % 60
        return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    /// A place as a sentence names it: "Central Station, platform 2".
    public static func describe(_ p: ItineraryPlace) -> String {
        p.platformCode.map { "\(p.name), platform \($0)" } ?? p.name
    }
}
