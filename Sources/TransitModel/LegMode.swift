/// How a leg moves: walking, or the transit mode of its route (extended route types
/// mapped to their base mode: 700 → BUS, 800 → TROLLEYBUS, 109 → RAIL, 1400 → FUNICULAR).
public enum LegMode: String, Sendable, Codable, CaseIterable {
    case walk = "WALK", tram = "TRAM", subway = "SUBWAY", rail = "RAIL", bus = "BUS", ferry = "FERRY"
    case cableTram = "CABLE_TRAM", gondola = "GONDOLA", funicular = "FUNICULAR", trolleybus = "TROLLEYBUS"
    case monorail = "MONORAIL", coach = "COACH", air = "AIRPLANE", taxi = "TAXI"

    /// The mode of a GTFS `route_type`, basic (0–12) or extended (100–1799).
    public init(routeType t: Int) {
        switch t {
        case 0, 900...999: self = .tram
        case 1, 400...404: self = .subway
        case 2, 100...199, 300...399: self = .rail
        case 3, 700...799: self = .bus
        case 200...299: self = .coach
        case 4, 1000...1099, 1200...1299: self = .ferry
        case 5: self = .cableTram
        case 6, 1300...1399: self = .gondola
        case 7, 1400...1499: self = .funicular
        case 11, 800...899: self = .trolleybus
        case 12, 405: self = .monorail
        case 1100...1199: self = .air
        case 1500...1599: self = .taxi
        default: self = .bus
        }
    }

    /// The word a sentence uses ("Take tram 4").
    /// The mode as a sentence names it, in `language` (the catalogue's `mode.*`).
    public func noun(_ language: Language) -> String { Catalogue.text("mode.\(rawValue)", language) }

    /// In English: "metro", "train", "tram".
    public var noun: String { noun(.en) }
}
