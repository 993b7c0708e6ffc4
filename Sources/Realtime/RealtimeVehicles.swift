import FeedNetwork
import GTFSRealtime

/// A vehicle of a feed's VehiclePositions message that has a position, with the route and
/// trip it serves as the feed names them (`/v1/vehicles`, and the rides of an answer on
/// the trip it runs: the map draws it).
public struct RealtimeVehicle: Sendable, Equatable {
    public var feedId: String
    public var position: RealtimeMessage.VehiclePosition
    /// The message's `route_id`, else the route of its `trip_id` in the static feed (nil:
    /// neither is known).
    public var routeId: String?
    public var tripId: String?
    /// The trip's service date ("YYYYMMDD") when the message gives it.
    public var startDate: String?
    public var latitude: Double { position.latitude ?? 0 }
    public var longitude: Double { position.longitude ?? 0 }
}

public enum RealtimeVehicles {
    /// The vehicles of `messages` (feed id -> message) with a position in range, in feed
    /// then message order; their routes found through `network`'s trips where the message
    /// names only the trip.
    public static func resolve(network: TransitNetwork, messages: [String: RealtimeMessage]) -> [RealtimeVehicle] {
        var out: [RealtimeVehicle] = []
        let s = network.snapshot
        for feedId in messages.keys.sorted() {
            let m = messages[feedId]!
            guard !m.vehicles.isEmpty, let feed = s.feedIds.firstIndex(of: feedId) else { continue }
            var tripById: [String: Int32]?
            for v in m.vehicles {
                guard let lat = v.latitude, let lon = v.longitude, (-90...90).contains(lat), (-180...180).contains(lon),
                      lat != 0 || lon != 0 else { continue }
                var route = v.trip?.routeId
                if route == nil, let id = v.trip?.tripId {
                    if tripById == nil { tripById = network.tripIndex(feed: feed) }
                    if let t = tripById?[id] { route = s.routes[Int(s.trips[Int(t)].route)].routeId }
                }
                out.append(RealtimeVehicle(feedId: feedId, position: v, routeId: route, tripId: v.trip?.tripId, startDate: v.trip?.startDate))
            }
        }
        return out
    }

    /// The vehicle running `tripId` of `feedId` on `startDate` ("YYYYMMDD"; a vehicle that
    /// gives no date matches any), the most recently reported first.
    public static func running(tripId: String, feedId: String, startDate: String, in vehicles: [RealtimeVehicle]) -> RealtimeVehicle? {
        vehicles.filter { $0.feedId == feedId && $0.tripId == tripId && ($0.startDate == nil || $0.startDate == startDate) }
            .max { ($0.position.timestamp ?? 0) < ($1.position.timestamp ?? 0) }
    }
}
