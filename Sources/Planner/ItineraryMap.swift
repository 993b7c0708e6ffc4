import Geo
import TransitModel

/// A GeoJSON FeatureCollection drawn from an itinerary's legs: one LineString per leg,
/// in leg order, and pins at leg ends. Made from the same legs as the steps, so the two
/// cannot disagree: five steps, five lines, same order, meeting at the same points.
public struct ItineraryMap: Sendable, Equatable {
    public enum Geometry: Sendable, Equatable {
        case lineString([Coordinate])
        case point(Coordinate)
    }

    public struct Feature: Sendable, Equatable {
        public var geometry: Geometry
        /// Index of the leg this feature belongs to (every pin belongs to a leg).
        public var legIndex: Int
        /// Lines: the leg's mode. Pins: `start`, `destination`, `board`, `alight`, `change`,
        /// and `vehicle` (a ride's vehicle where realtime last put it).
        public var role: String
        public var mode: LegMode
        /// `#RRGGBB`: the route's colour for rides, grey for walks; green and red pins for
        /// the start and the destination.
        public var color: String

        public init(geometry: Geometry, legIndex: Int, role: String, mode: LegMode, color: String) {
            self.geometry = geometry; self.legIndex = legIndex; self.role = role; self.mode = mode; self.color = color
        }
    }

    public var features: [Feature]

    /// A map read back from its GeoJSON (`AnswerDocument`).
    public init(features: [Feature]) { self.features = features }

    public static let startColor = "#2E7D32"
    public static let destinationColor = "#C62828"
    public static let walkColor = "#757575"
    public static let defaultRideColor = "#1565C0"

    public init(_ itinerary: Itinerary) {
        var lines: [Feature] = []
        var pins: [Feature] = []
        let legs = itinerary.legs
        for (i, leg) in legs.enumerated() {
            let color = leg.mode == .walk ? Self.walkColor : (leg.ride?.routeColor.map { "#" + $0 } ?? Self.defaultRideColor)
            lines.append(Feature(geometry: .lineString(leg.geometry), legIndex: i, role: "leg", mode: leg.mode, color: color))
            if leg.ride != nil {
                pins.append(Feature(geometry: .point(leg.geometry.first!), legIndex: i, role: "board", mode: leg.mode, color: color))
                pins.append(Feature(geometry: .point(leg.geometry.last!), legIndex: i, role: "alight", mode: leg.mode, color: color))
                // Where the vehicle running the ride's trip was last reported (realtime).
                if let v = leg.vehicle {
                    pins.append(Feature(geometry: .point(Coordinate(latitude: v.latitude, longitude: v.longitude)), legIndex: i,
                                        role: "vehicle", mode: leg.mode, color: color))
                }
            } else if leg.from.stopId != nil && leg.to.stopId != nil {
                pins.append(Feature(geometry: .point(leg.geometry.first!), legIndex: i, role: "change", mode: leg.mode, color: Self.walkColor))
            }
        }
        if let first = legs.first, let last = legs.last {
            pins.insert(Feature(geometry: .point(first.geometry.first!), legIndex: 0, role: "start", mode: first.mode,
                                color: Self.startColor), at: 0)
            pins.append(Feature(geometry: .point(last.geometry.last!), legIndex: legs.count - 1, role: "destination",
                                mode: last.mode, color: Self.destinationColor))
        }
        features = lines + pins
    }
}
