import Foundation

/// A plan answer as plain text for a terminal: the alternatives side by side (leave,
/// arrive, time, rides, walk, modes, what sets each apart), then the steps of the
/// routing model's first itinerary (the instruction sentences of the same legs the map
/// is drawn from), then a summary line and any notices.
public enum PlanAnswerText {
    public static func render(_ a: PlanAnswer, _ query: PlanQuery) -> String {
        let zone = TimeZone(identifier: a.result.timeZone) ?? TimeZone(identifier: "UTC")!
        func clock(_ t: Int64) -> String { ItineraryText.clock(t, zone) }
        let first = a.options[a.recommended].itinerary
        func name(_ place: Place, from: Bool) -> String {
            if case .stop = place {
                let p = from ? first.legs.first!.from : first.legs.last!.to
                if p.stopId != nil { return p.name }
            }
            return place.description
        }
        var out = ""
        func line(_ s: String = "") { out += s + "\n" }
        let date = String(PlanAnswerJSON.iso(a.result.time, zone).prefix(10))
        line("\(name(query.from, from: true)) → \(name(query.to, from: false)), "
             + "\(a.arriveBy ? "arrive by" : "leave at") \(clock(a.result.time)) on \(date) (\(a.result.timeZone))")
        line()
        var rows = [["#", "Leave", "Arrive", "Time", "Rides", "Walk", "Modes", ""]]
        for (i, o) in a.options.enumerated() {
            let s = o.itinerary.summary
            rows.append(["\(i + 1)", clock(s.departure), clock(s.arrival), ItineraryText.duration(s.durationSeconds),
                         "\(s.rides)", ItineraryText.distance(s.walkMeters),
                         s.modes.isEmpty ? "walk" : s.modes.map(\.noun).joined(separator: ", "), o.labels.joined(separator: ", ")])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max()! }
        for row in rows {
            var text = "  " + row.enumerated().map { c, v in
                c == row.count - 1 ? v : v.padding(toLength: widths[c], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            line(text)
        }
        line()
        line("Steps of option \(a.recommended + 1) (\(a.arriveBy ? "latest departure" : "earliest arrival")):")
        for leg in first.legs { line("  \(clock(leg.departure))  \(leg.instruction)") }
        line("  \(clock(first.summary.arrival))  Arrive")
        line(summary(first.summary))
        for n in a.notices { line("Note: \(n.message)") }
        return out
    }

    /// "44 min · 1 ride, no change · walk 100 m (2 min) · wait 0 min · metro"
    public static func summary(_ s: ItinerarySummary) -> String {
        var parts = [ItineraryText.duration(s.durationSeconds)]
        if s.rides > 0 {
            parts.append("\(s.rides) ride\(s.rides == 1 ? "" : "s"), "
                         + (s.changes == 0 ? "no change" : "\(s.changes) change\(s.changes == 1 ? "" : "s")"))
        }
        parts.append(s.walkMeters < 1 ? "no walking" : "walk \(ItineraryText.distance(s.walkMeters)) (\(ItineraryText.minutes(s.walkSeconds)))")
        if s.rides > 1 { parts.append("waiting \(ItineraryText.minutes(s.waitingSeconds))") }
        parts.append(s.modes.isEmpty ? "on foot" : s.modes.map(\.noun).joined(separator: ", "))
        return "  " + parts.joined(separator: " · ")
    }
}
