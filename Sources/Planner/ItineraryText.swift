import Foundation

/// What a leg's instruction says, as data: the English sentence is one rendering of it,
/// and a translation is another (each case is one message to translate, its values the
/// placeholders).
public enum LegInstruction: Sendable, Equatable {
    /// "Walk 350 m (5 min) to Central Station, platform 2"; `to` nil: the destination.
    case walk(meters: Double, seconds: Int64, to: String?)
    /// "Take tram 4 towards Dworzec Główny at 08:12 from A, 6 stops, get off at B (08:25)"
    case ride(mode: LegMode, route: String, headsign: String?, departure: String, from: String, stops: Int,
              to: String, arrival: String)
    /// "Change: walk 120 m to Plac Kościeleckich (2 min), then wait 4 min"
    case changeWalk(meters: Double, seconds: Int64, to: String, waitSeconds: Int64)
    /// "Change at Rondo Jagiellonów: wait 4 min"
    case changeWait(at: String, waitSeconds: Int64)

    /// The sentence in plain English, for a person in a hurry.
    public var english: String {
        typealias T = ItineraryText
        switch self {
        case .walk(let m, let s, let to):
            return "Walk \(T.distance(m)) (\(T.minutes(s))) to \(to ?? "your destination")"
        case .ride(let mode, let route, let headsign, let departure, let from, let stops, let to, let arrival):
            return "Take \(mode.noun) \(route)\(headsign.map { " towards \($0)" } ?? "") at \(departure) from \(from), "
                + "\(stops) stop\(stops == 1 ? "" : "s"), get off at \(to) (\(arrival))"
        case .changeWalk(let m, let s, let to, let wait):
            // Platforms a few meters apart: the distance says nothing, the time does.
            let how = m < 10 ? "walk to \(to)" : "walk \(T.distance(m)) to \(to)"
            return "Change: \(how) (\(T.minutes(s)))" + (wait > 0 ? ", then wait \(T.minutes(wait))" : "")
        case .changeWait(let at, let wait):
            return "Change at \(at): wait \(T.minutes(wait))"
        }
    }
}

/// English renderings of distances, durations and clock times.
public enum ItineraryText {
    /// "350 m" (to 10 m), "1.2 km".
    public static func distance(_ m: Double) -> String {
        if m < 995 { return "\(Int((m / 10).rounded()) * 10) m" }
        let km = String(format: "%.1f", m / 1000)
        return (km.hasSuffix(".0") ? String(km.dropLast(2)) : km) + " km"
    }

    /// Whole minutes, rounded up: "5 min", "under a minute" for 0.
    public static func minutes(_ s: Int64) -> String {
        let m = (s + 59) / 60
        return m < 1 ? "under a minute" : "\(m) min"
    }

    /// "1 h 05 min" from an hour up, else as `minutes`.
    public static func duration(_ s: Int64) -> String {
        let m = (s + 59) / 60
        return m >= 60 ? "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min" : minutes(s)
    }

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
