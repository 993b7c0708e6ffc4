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
    /// The mode as a sentence names it, in `language`.
    public func noun(_ language: Language) -> String { language == .en ? noun : Catalogue.text("mode.\(rawValue)", language) }

    public var noun: String {
        switch self {
        case .walk: return "walk"
        case .tram: return "tram"
        case .subway: return "metro"
        case .rail: return "train"
        case .bus: return "bus"
        case .ferry: return "ferry"
        case .cableTram: return "cable car"
        case .gondola: return "gondola"
        case .funicular: return "funicular"
        case .trolleybus: return "trolleybus"
        case .monorail: return "monorail"
        case .coach: return "coach"
        case .air: return "flight"
        case .taxi: return "taxi"
        }
    }
}
