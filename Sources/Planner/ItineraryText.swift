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

    /// A place as `ItineraryText.describe` names it, in `language`: "Central Station,
    /// platform 2" reads "Central Station 2 号站台".
    static func place(_ described: String, _ language: Language) -> String {
        guard language != .en, let r = described.range(of: ", platform ", options: .backwards) else { return described }
        return Catalogue.text("leg.platform", language, ["name": String(described[..<r.lowerBound]), "platform": String(described[r.upperBound...])])
    }

    /// A time as shown inside brackets: "02:11 (second)" reads "02:11, second".
    /// (Over UTF-8 bytes, not Foundation's `replacingOccurrences`: it is written for every
    /// ride of every answer, and the two calls through NSString were 1% of a served plan's
    /// CPU.)
    static func unbracketed(_ time: String) -> String {
        let open = UInt8(ascii: "("), close = UInt8(ascii: ")"), space = UInt8(ascii: " ")
        guard time.utf8.contains(where: { $0 == open || $0 == close }) else { return time }
        let bytes = Array(time.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        var i = 0
        while i < bytes.count {
            if bytes[i] == space && i + 1 < bytes.count && bytes[i + 1] == open {
                out.append(UInt8(ascii: ",")); out.append(space); i += 2
                continue
            }
            if bytes[i] != close { out.append(bytes[i]) }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The sentence in plain English, for a person in a hurry.
    public var english: String { text(.en) }

    /// The sentence in `language` (the catalogue's `leg.*` messages).
    public func text(_ language: Language) -> String {
        typealias T = Words
        func say(_ key: String, _ values: [String: String] = [:]) -> String { Catalogue.text(key, language, values) }
        switch self {
        case .walk(let m, let minutes, let to):
            // A few steps (`ShownTimes.fewStepsMeters`) take no minute and are not walking.
            let to = to.map { Self.place($0, language) }
            if m < ShownTimes.fewStepsMeters { return to.map { say("leg.fewSteps", ["to": $0]) } ?? say("leg.fewStepsHome") }
            let values = ["distance": T.distance(m, language), "duration": T.duration(minutes: minutes, language)]
            return to.map { say("leg.walk", values.merging(["to": $0]) { a, _ in a }) } ?? say("leg.walkHome", values)
        case .ride(let mode, let route, let headsign, let departure, let from, let stops, let to, let arrival):
            return say("leg.ride", ["mode": mode.noun(language), "route": route, "towards": headsign.map { say("leg.towards", ["headsign": $0]) } ?? "",
                                    "departure": ShownTimes.localized(departure, language), "from": Self.place(from, language), "stops": "\(stops)",
                                    "to": Self.place(to, language),
                                    "arrival": language == .en ? Self.unbracketed(arrival) : ShownTimes.localized(arrival, language)])
        case .changeWalk(let m, let minutes, let to, let wait):
            let to = Self.place(to, language)
            // Platforms a few meters apart: neither distance nor minutes say anything.
            let how = m < ShownTimes.fewStepsMeters ? say("leg.changeWalkShort", ["to": to])
                : say("leg.changeWalk", ["distance": T.distance(m, language), "to": to, "duration": T.duration(minutes: minutes, language)])
            return how + (wait > 0 ? say("leg.thenWait", ["wait": T.duration(minutes: wait, language)]) : "")
        case .changeWait(let at, let wait):
            let at = Self.place(at, language)
            return wait > 0 ? say("leg.changeWait", ["at": at, "wait": T.duration(minutes: wait, language)]) : say("leg.changeAt", ["at": at])
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
