import GTFSRealtime
import Foundation
import Testing
import TransitStore
import TransitTesting

/// `transit serve --realtime`: BART's real TripUpdates and Alert (files), a URL that never
/// answers and a file that is not a message; plans route on the updates, rides carry their
/// delays and alerts, `/v1/health` says what each source did, and nothing stops serving.
@Suite("HTTP API: realtime sources", .serialized,
       .enabled(if: bartRealtime() != nil, "the GTFS-Realtime data of the shared data is not here (set TRANSIT_SHARED_DATA)"))
struct RealtimeServeTests {
    static let planPath = "/v1/plan?from=stop:12TH&to=stop:SFIA&time=2019-08-07T10:40:00"

    static func rides(_ json: [String: Any]?) -> [[String: Any]] {
        (json?["itineraries"] as? [[String: Any]] ?? []).flatMap { ($0["legs"] as? [[String: Any]] ?? []).filter { $0["mode"] as? String != "WALK" } }
    }

    @Test("files and a dead URL: delays and alerts on the rides, each source in /v1/health, realtime=false plans as before")
    func bartMessages() throws {
        let rt = bartRealtime()!
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: rt.appendingPathComponent("bart-rt.zip").path, feedId: "bart")
        // VehiclePositions: a vehicle on every trip the TripUpdates name (by trip alone: the
        // route comes from the feed), and one without a position (not shown).
        let updates = try RealtimeMessage.decode([UInt8](Data(contentsOf: rt.appendingPathComponent("bart-trip-updates.pb"))))
        var vehicles = updates.tripUpdates.enumerated().map { i, u in
            RealtimeMessage.VehiclePosition(entityId: "v\(i)", trip: RealtimeMessage.TripDescriptor(tripId: u.trip.tripId, startDate: u.trip.startDate),
                                            vehicleId: "car-\(i)", vehicleLabel: "Train \(i)", latitude: 37.80 - Double(i) * 0.001,
                                            longitude: -122.27, bearing: 200, stopId: "12TH", currentStatus: "IN_TRANSIT_TO",
                                            timestamp: updates.timestamp)
        }
        vehicles.append(RealtimeMessage.VehiclePosition(entityId: "lost", trip: nil, vehicleId: "nowhere"))
        let vehicleFile = FileManager.default.temporaryDirectory.appendingPathComponent("vehicles-\(UUID().uuidString).pb")
        try Data(RealtimeMessage(timestamp: updates.timestamp, vehicles: vehicles).encoded()).write(to: vehicleFile)
        defer { try? FileManager.default.removeItem(at: vehicleFile) }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-message-\(UUID().uuidString).pb")
        try Data("<html>503 Service Unavailable</html>".utf8).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        let server = try ServerProcess(databaseURL: db.url, arguments: [
            "--realtime", "bart=\(rt.appendingPathComponent("bart-trip-updates.pb").path)",
            "--realtime", "bart=\(rt.appendingPathComponent("bart-alerts.pb").path)",
            "--realtime", "bart=http://127.0.0.1:9/never.pb", "--realtime-poll", "1", "--realtime-timeout", "1",
            "--realtime", "bart=\(garbage.path)",
            "--realtime", "bart=\(vehicleFile.path)",
        ])
        let v = try validator(server)
        try server.waitUntil("bart served") { h in (h["feeds"] as? [[String: Any]])?.first?["id"] as? String == "bart" }
        try server.waitUntil("the URL tried") { h in
            (h["realtime"] as? [[String: Any]])?.contains { $0["url"] != nil && $0["problem"] != nil } == true
        }
        let health = try server.request("/v1/health")
        expectConforms(v, "/v1/health", health)
        let sources = health.json?["realtime"] as? [[String: Any]] ?? []
        #expect(sources.count == 5)
        #expect(sources[0]["applied"] as? Int == 48 && sources[0]["tripUpdates"] as? Int == 91 && sources[0]["entities"] as? Int == 91)
        #expect((sources[0]["rejected"] as? [String: Int]) == ["added-trip": 8, "unknown-trip": 18, "times-backwards": 15, "unknown-stop": 1, "unordered-stops": 1])
        #expect(sources[0]["messageTime"] as? String == "2019-08-07T17:45:21Z")
        #expect(sources[1]["entities"] as? Int == 1, "the alert")
        #expect((sources[2]["problem"] as? String)?.contains("cannot fetch") == true)
        #expect((sources[3]["problem"] as? String)?.contains("not a GTFS-Realtime message") == true, "\(sources[3])")

        let plan = try server.request(Self.planPath)
        #expect(plan.status == 200)
        expectConforms(v, "/v1/plan", plan)
        let rides = Self.rides(plan.json)
        // The 11:00 Yellow line train runs 304 s late at 12th St, 202 s at the airport.
        let late = try #require(rides.first { $0["realtime"] as? Bool == true }, "\(plan.text.prefix(600))")
        #expect(late["departureDelaySeconds"] as? Int == 304 && late["arrivalDelaySeconds"] as? Int == 202)
        #expect(late["scheduledDeparture"] as? String == "2019-08-07T11:00:00-07:00")
        #expect(late["departure"] as? String == "2019-08-07T11:05:04-07:00")
        #expect(rides.allSatisfy { ($0["alerts"] as? [[String: Any]])?.first?["id"] as? String == "BSA_187874" }, "the agency-wide alert on every ride")
        let used = plan.json?["realtime"] as? [[String: Any]]
        #expect(used?.first?["feed"] as? String == "bart" && used?.first?["applied"] as? Int == 48)

        // The late ride's vehicle, on the ride and on its map.
        let vehicle = try #require(late["vehicle"] as? [String: Any], "no vehicle on the late ride")
        #expect((vehicle["id"] as? String)?.hasPrefix("car-") == true && vehicle["tripId"] as? String == late["trip"] as? String)
        #expect(vehicle["routeId"] as? String == late["routeId"] as? String && vehicle["currentStatus"] as? String == "IN_TRANSIT_TO")
        let its = plan.json?["itineraries"] as? [[String: Any]] ?? []
        let withLate = try #require(its.first { ($0["legs"] as? [[String: Any]])?.contains { ($0["vehicle"] as? [String: Any])?["id"] as? String == vehicle["id"] as? String } == true })
        let features = (withLate["map"] as? [String: Any])?["features"] as? [[String: Any]] ?? []
        let pins = features.filter { ($0["properties"] as? [String: Any])?["role"] as? String == "vehicle" }
        #expect(pins.count == 1, "the vehicle drawn on the trip's map")
        let point = (pins.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double]
        // (The map's positions are rounded to 6 decimals.)
        #expect(abs((point?[0] ?? 0) - (vehicle["lon"] as? Double ?? 1)) < 1e-6 && abs((point?[1] ?? 0) - (vehicle["lat"] as? Double ?? 1)) < 1e-6)

        // /v1/vehicles: GeoJSON points, of a route when asked.
        let all = try server.request("/v1/vehicles")
        #expect(all.status == 200)
        expectConforms(v, "/v1/vehicles", all)
        let allFeatures = all.json?["features"] as? [[String: Any]] ?? []
        #expect(allFeatures.count == updates.tripUpdates.count, "every vehicle with a position")
        let routeId = try #require(late["routeId"] as? String)
        let ofRoute = try server.request("/v1/vehicles?route=\(routeId)")
        expectConforms(v, "/v1/vehicles", ofRoute)
        let routeFeatures = ofRoute.json?["features"] as? [[String: Any]] ?? []
        #expect(!routeFeatures.isEmpty && routeFeatures.count < allFeatures.count)
        #expect(routeFeatures.allSatisfy { ($0["properties"] as? [String: Any])?["routeId"] as? String == routeId })
        #expect(try server.request("/v1/vehicles?route=no-such-route").status == 404)
        #expect(try server.request("/v1/vehicles?feed=nope").status == 404)
        #expect(try server.request("/v1/vehicles?bus=1").status == 400)

        // realtime=false: the plan as scheduled, no realtime fields.
        let planned = try server.request(Self.planPath + "&realtime=false")
        #expect(planned.status == 200)
        expectConforms(v, "/v1/plan", planned)
        #expect(Self.rides(planned.json).allSatisfy { $0["realtime"] == nil && $0["departureDelaySeconds"] == nil })
        #expect(!Self.rides(planned.json).contains { $0["departure"] as? String == "2019-08-07T11:05:04-07:00" })
        #expect(planned.json?["realtime"] == nil)

        let end = server.stop()
        #expect(end.stderr.components(separatedBy: "never.pb: cannot fetch").count - 1 == 1, "one line per problem: \(end.stderr.suffix(1200))")
    }
}
