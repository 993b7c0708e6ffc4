import FeedNetwork
import Foundation
import Geo
import Planner
import TransitModel

/// A stop found by name, as the stop search (`StopSearch`, `GET /v1/stops?query=`) lists it.
public struct StopCandidate: Sendable, Equatable {
    public var feed: String
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    public var score: Double
    /// Route names through it ("58", "Red"), with their modes' nouns ("bus").
    public var routes: [(mode: String, name: String)]

    public init(feed: String, id: String, name: String, coordinate: Coordinate, score: Double, routes: [(mode: String, name: String)]) {
        self.feed = feed; self.id = id; self.name = name; self.coordinate = coordinate; self.score = score; self.routes = routes
    }

    public static func == (a: StopCandidate, b: StopCandidate) -> Bool { a.feed == b.feed && a.id == b.id }
}

/// A place a rider names: one stop or station, or the stops of one name close together
/// (a city's "Rondo Jagiellonów" is six poles around a roundabout, one place to a rider).
public struct NamedPlace: Sendable, Equatable {
    public var name: String
    public var feed: String
    public var stops: [StopCandidate]
    public var score: Double
    /// What tells it from another place of the same name in the same list when `routes`
    /// would read the same ("caltrain", "north", "stop 2033"); set by `PlaceFinder.group`.
    public var distinction: String? = nil

    /// The middle of its stops.
    var centre: Coordinate {
        Coordinate(latitude: stops.map(\.coordinate.latitude).reduce(0, +) / Double(stops.count),
                   longitude: stops.map(\.coordinate.longitude).reduce(0, +) / Double(stops.count))
    }

    /// What to plan from: the stop itself, or for several stops the middle of them (the
    /// planner walks from there to whichever serves the trip best).
    public var place: Place {
        if stops.count == 1 { return .stop(feed: feed, id: stops[0].id) }
        let lat = stops.map(\.coordinate.latitude).reduce(0, +) / Double(stops.count)
        let lon = stops.map(\.coordinate.longitude).reduce(0, +) / Double(stops.count)
        return .coordinate(Coordinate(latitude: (lat * 1e6).rounded() / 1e6, longitude: (lon * 1e6).rounded() / 1e6))
    }

    /// "6 stops; tram 2, 8, 10; bus 31N, 33N, 57 and 7 more": what a person tells two
    /// places of one name apart by (rails before buses, three names a mode), and the
    /// `distinction` when that is not enough.
    public var detail: String { routeSummary + (distinction.map { "; " + $0 } ?? "") }

    /// The stop count and the routes, by mode.
    public var routeSummary: String {
        var seen = Set<String>(), byMode: [(mode: String, names: [String])] = []
        for s in stops {
            for r in s.routes where seen.insert(r.mode + " " + r.name).inserted {
                if let i = byMode.firstIndex(where: { $0.mode == r.mode }) { byMode[i].names.append(r.name) } else { byMode.append((r.mode, [r.name])) }
            }
        }
        let rank = ["train", "metro", "tram", "monorail", "funicular", "cable car", "gondola", "ferry", "trolleybus", "coach", "bus"]
        byMode.sort { (rank.firstIndex(of: $0.mode) ?? 5) < (rank.firstIndex(of: $1.mode) ?? 5) }
        let stopsText = stops.count == 1 ? "1 stop" : "\(stops.count) stops"
        guard !byMode.isEmpty else { return stopsText }
        let shown = byMode.prefix(2).map { "\($0.mode) \($0.names.prefix(3).joined(separator: ", "))" }
        let more = seen.count - byMode.prefix(2).reduce(0) { $0 + min(3, $1.names.count) }
        return "\(stopsText); " + shown.joined(separator: "; ") + (more > 0 ? " and \(more) more" : "")
    }
}

/// Turns what a rider typed into a place: coordinates and `stop:ID` as they are, a name
/// through the stop search, grouped into places; one place found, several to choose
/// from, or none (with the nearest names as suggestions).
public enum PlaceFinder {
    /// Stops of one name and feed within this distance of the group's best stop are one place.
    public static let groupMeters = 500.0
    /// Stops asked of the stop search to make places of: enough that a place of many stops
    /// is not cut short ("Dworzec Bielawy" has two; 30 showed one).
    public static let searchLimit = 100

    public enum Outcome: Sendable, Equatable {
        case found(NamedPlace)
        /// Best first; the rider picks one.
        case ambiguous([NamedPlace])
        /// Nothing matched every word; `suggestions` are places matching some of them.
        case notFound(suggestions: [NamedPlace])
    }

    /// A stop search's matches as `transit plan` lists them: each stop's feed, id, name,
    /// place, and the routes through it (a station: through its platforms).
    public static func candidates(_ matches: [StopMatch], _ network: TransitNetwork) -> [StopCandidate] {
        let tt = network.timetable, s = network.snapshot
        return matches.map { m in
            let st = s.stops[m.stop.index]
            var members = [m.stop]
            if st.locationType == 1 { members += network.stationChildren[m.stop] }
            let routes = tt.sourceRoutes(through: members).map { source -> (mode: String, name: String) in
                let r = s.routes[source.index]
                return (LegMode(routeType: Int(r.type)).noun, r.shortName.flatMap { $0.isEmpty ? nil : $0 } ?? r.longName ?? r.routeId)
            }
            return StopCandidate(feed: s.feedIds[Int(st.feed)], id: st.stopId, name: st.name,
                                 coordinate: network.coordinate(ofStop: m.stop) ?? Coordinate(latitude: 0, longitude: 0),
                                 score: m.score, routes: routes)
        }
    }

    /// Search results (best first) grouped into places, best first: by score, then in
    /// the search's order (the busiest stop first among equals, so a place ranks as its
    /// busiest stop). Places of one name whose details would read the same are told apart.
    public static func group(_ candidates: [StopCandidate]) -> [NamedPlace] {
        var places: [NamedPlace] = []
        for c in candidates {
            if let i = places.firstIndex(where: { $0.feed == c.feed && $0.name == c.name
                && Geodesic.distance($0.stops[0].coordinate, c.coordinate) <= groupMeters }) {
                places[i].stops.append(c)
                places[i].score = max(places[i].score, c.score)
            } else {
                places.append(NamedPlace(name: c.name, feed: c.feed, stops: [c], score: c.score))
            }
        }
        let ranked = places.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        return distinguished(ranked)
    }

    /// Sets `distinction` on places that would read the same (name and routes): the feed
    /// when theirs differ, else where each lies from the middle of them ("north"), else
    /// its first stop's id; the first of these that tells them all apart.
    static func distinguished(_ places: [NamedPlace]) -> [NamedPlace] {
        var places = places
        var groups: [String: [Int]] = [:]
        for (i, p) in places.enumerated() { groups[p.name + "\u{1}" + p.routeSummary, default: []].append(i) }
        for rows in groups.values where rows.count > 1 {
            let members = rows.map { places[$0] }
            let lat = members.map(\.centre.latitude).reduce(0, +) / Double(members.count)
            let lon = members.map(\.centre.longitude).reduce(0, +) / Double(members.count)
            let middle = Coordinate(latitude: lat, longitude: lon)
            let ways: [(NamedPlace) -> String?] = [
                { $0.feed }, { Compass.direction(from: middle, to: $0.centre) }, { "stop \($0.stops[0].id)" },
            ]
            var parts = [[String]](repeating: [], count: rows.count)
            for way in ways {
                let values = members.map(way)
                guard Set(values.map { $0 ?? "" }).count > 1 else { continue }
                for i in rows.indices { if let v = values[i] { parts[i].append(v) } }
                if Set(parts.map { $0.joined(separator: "\u{1}") }).count == rows.count { break }
            }
            for (i, row) in rows.enumerated() where !parts[i].isEmpty { places[row].distinction = parts[i].joined(separator: ", ") }
        }
        return places
    }

    /// One place when a single place has the best score, else the choice.
    public static func decide(_ places: [NamedPlace]) -> Outcome {
        guard let best = places.first else { return .notFound(suggestions: []) }
        let tied = places.filter { $0.score >= best.score - 1e-9 }
        return tied.count == 1 ? .found(best) : .ambiguous(Array(tied.prefix(9)))
    }
}
