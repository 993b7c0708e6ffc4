import Foundation
import Geo
import Timetable
import TransitModel

/// What tells apart stops of one name in a list a rider reads: "Dworzec Wschód" four
/// times is no choice at all; "towards Fordon", "towards Rycerska" is.
enum StopDistinction {
    /// For each of `stops`, a short text telling it from the others of the same name in
    /// the list, or nil when no other has its name. The first of these that separates
    /// rows is said, then the next, until no two rows of a name read the same: the feed;
    /// station or platform (and its code); the station it belongs to; its routes; where
    /// its trips go; its position among the others; the stop id (unique within a feed).
    static func distinctions(_ stops: [Int], _ tt: Timetable, _ snapshot: FeedSnapshot,
                             _ importance: StopImportance) -> [String?] {
        var out = [String?](repeating: nil, count: stops.count)
        var byName: [String: [Int]] = [:], order: [String] = []
        for (row, s) in stops.enumerated() {
            let name = snapshot.stops[s].name
            if byName[name] == nil { order.append(name) }
            byName[name, default: []].append(row)
        }
        for name in order {
            guard let rows = byName[name], rows.count > 1 else { continue }
            let members = rows.map { stops[$0] }
            var parts = [[String]](repeating: [], count: rows.count)
            for feature in features(members, tt, snapshot, importance) {
                let values = members.map(feature)
                guard Set(values.map { $0 ?? "" }).count > 1 else { continue }  // says nothing new
                for i in rows.indices { if let v = values[i] { parts[i].append(v) } }
                if Set(parts.map { $0.joined(separator: "\u{1}") }).count == rows.count { break }
            }
            for (i, row) in rows.enumerated() { out[row] = parts[i].joined(separator: ", ") }
        }
        return out
    }

    /// The ways two stops of a name differ, in the order a rider tells them apart by.
    private static func features(_ members: [Int], _ tt: Timetable, _ snapshot: FeedSnapshot,
                                 _ importance: StopImportance) -> [(Int) -> String?] {
        let stops = snapshot.stops
        func children(_ s: Int) -> [Int] {
            stops[s].locationType == 1 ? stops.indices.filter { Int(stops[$0].parent) == s } : [s]
        }
        // Lazily: only reached when the features before leave rows alike.
        let centre: Coordinate? = {
            let cs = members.compactMap { coordinate($0, snapshot) }
            guard !cs.isEmpty else { return nil }
            return Coordinate(latitude: cs.map(\.latitude).reduce(0, +) / Double(cs.count),
                              longitude: cs.map(\.longitude).reduce(0, +) / Double(cs.count))
        }()
        return [
            { snapshot.feedIds[Int(stops[$0].feed)] },
            { s in
                if stops[s].locationType == 1 { return "station" }
                if let p = stops[s].platformCode, !p.isEmpty { return "platform \(p)" }
                return nil
            },
            { s in stops[s].parent >= 0 ? "at \(stops[Int(stops[s].parent)].name)" : nil },
            { s in
                let names = tt.sourceRoutes(through: children(s).map { StopIndex($0) }).map { r -> String in
                    let route = snapshot.routes[r.index]
                    return route.shortName.flatMap { $0.isEmpty ? nil : $0 } ?? route.longName ?? route.routeId
                }
                let sorted = Array(Set(names)).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
                guard !sorted.isEmpty else { return nil }
                return (sorted.count == 1 ? "route " : "routes ") + sorted.prefix(4).joined(separator: ", ")
                    + (sorted.count > 4 ? " and \(sorted.count - 4) more" : "")
            },
            { s in
                guard let d = importance.mainDestination(children(s), tt, snapshot) else { return nil }
                return stops[d].name == stops[s].name ? "last stop" : "towards \(stops[d].name)"
            },
            { s in
                guard let centre, let c = coordinate(s, snapshot) else { return nil }
                return Compass.direction(from: centre, to: c)
            },
            { "stop \(stops[$0].stopId)" },
        ]
    }

    static func coordinate(_ s: Int, _ snapshot: FeedSnapshot) -> Coordinate? {
        var i = s
        while i >= 0 {
            let st = snapshot.stops[i]
            if let lat = st.latitude, let lon = st.longitude { return Coordinate(latitude: lat, longitude: lon) }
            i = Int(st.parent)
        }
        return nil
    }
}

/// Directions in words, as a rider tells two places of one name apart.
public enum Compass {
    /// "north", "south-east": the direction from `a` to `b`, in eight; nil within 5 m
    /// (too close for a direction to mean anything on the street).
    public static func direction(from a: Coordinate, to b: Coordinate) -> String? {
        let g = Geodesic.inverse(a, b)
        guard g.meters > 5 else { return nil }
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        let degrees = (g.azimuth1 + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((degrees + 22.5) / 45) % 8]
    }
}
