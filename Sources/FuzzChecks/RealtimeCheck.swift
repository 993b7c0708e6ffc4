import Foundation
import GTFSRealtime

/// `fuzz-realtime`: `RealtimeMessage.decode` (GTFS-Realtime protocol buffers) on any bytes.
///
/// Properties: the reader answers with a message or a `RealtimeDecodeError` whose text is
/// one plain sentence ("not a GTFS-Realtime message: …", any byte it names inside the
/// input); the `[UInt8]`, `Data` and raw-memory readers agree; a message read encodes
/// (`encoded()`) to bytes that read back to the same message and encode to the same bytes
/// again; and a message holds no more entities than its bytes can (each takes at least 4).
public enum RealtimeCheck {
    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        func fail(_ m: String) -> FuzzFailure { FuzzFailure("fuzz-realtime", "\(input.count) bytes: \(m)") }
        let bytes = [UInt8](input)
        let read = Result { () throws(RealtimeDecodeError) in try RealtimeMessage.decode(input) }
        let fromArray = Result { () throws(RealtimeDecodeError) in try RealtimeMessage.decode(bytes) }
        let fromData = Result { () throws(RealtimeDecodeError) in try RealtimeMessage.decode(Data(bytes)) }
        guard same(read, fromArray), same(read, fromData) else { throw fail("the byte, array and Data readers disagree") }

        switch read {
        case .failure(let error):
            let text = error.message
            guard text.hasPrefix("not a GTFS-Realtime message: "), !text.contains("\n"), text.utf8.count < 400 else {
                throw fail("refusal is not one plain sentence: \(text.debugDescription)")
            }
            if let r = text.range(of: "at byte "), let n = Int(text[r.upperBound...].prefix { $0.isNumber }), n >= input.count {
                throw fail("refusal names byte \(n) of \(input.count): \(text)")
            }
        case .success(let m):
            let entities = m.tripUpdates.count + m.alerts.count + m.vehicles.count
            guard entities * 4 <= input.count else { throw fail("\(entities) entities from \(input.count) bytes") }
            let once = m.encoded()
            let back: RealtimeMessage
            do { back = try RealtimeMessage.decode(once) } catch {
                throw fail("its own encoding is refused: \(error.message)")
            }
            // NaN coordinates are not equal to themselves: their text is compared then.
            guard back == m || String(describing: back) == String(describing: m) else {
                throw fail("does not read back from its own encoding")
            }
            guard back.encoded() == once else { throw fail("encodes differently the second time") }
        }
    }

    static func same(_ a: Result<RealtimeMessage, RealtimeDecodeError>, _ b: Result<RealtimeMessage, RealtimeDecodeError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y || String(describing: x) == String(describing: y)
        case (.failure(let x), .failure(let y)): x.message == y.message
        default: false
        }
    }

    /// Real messages named by `TRANSIT_FUZZ_REALTIME` (`:`-separated `.pb` paths; Scripts/fuzz.sh
    /// sets it to ../shared/data/gtfs-rt/*/*.pb), read whole; missing files are skipped.
    public static func realMessages() -> [[UInt8]] {
        let paths = (ProcessInfo.processInfo.environment["TRANSIT_FUZZ_REALTIME"] ?? "").split(separator: ":")
        return paths.compactMap { (try? Data(contentsOf: URL(fileURLWithPath: String($0)))).map { [UInt8]($0) } }
    }

    /// Seeds from `realMessages()` and from the sampled feeds (see `seeds(_:messages:)`).
    public static func seeds(_ samples: [FeedSample]) -> [[UInt8]] {
        seeds(samples, messages: realMessages())
    }

    /// Each real message whole and cut into messages of 1, 2 and 4 of its entities (small
    /// inputs mutate faster), then, per sampled feed, messages naming its real trips, routes,
    /// stops, stop sequences, agency and dates: trip updates of every schedule relationship
    /// with delays, times and skipped stops, an alert with translations and informed
    /// entities, and a vehicle position.
    public static func seeds(_ samples: [FeedSample], messages: [[UInt8]]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for bytes in messages {
            out.append(bytes)
            guard let m = try? RealtimeMessage.decode(bytes) else { continue }
            for size in [1, 2, 4] {
                for start in stride(from: 0, to: min(m.tripUpdates.count, 24 * size), by: size) {
                    var part = m
                    part.tripUpdates = Array(m.tripUpdates[start..<min(start + size, m.tripUpdates.count)])
                    out.append(part.encoded())
                }
            }
            if !m.alerts.isEmpty || !m.vehicles.isEmpty {
                var part = m
                part.tripUpdates = []
                out.append(part.encoded())
            }
        }
        let relationships: [RealtimeMessage.TripRelationship] = [.scheduled, .canceled, .added, .deleted, .new, .duplicated, .replacement, .unscheduled]
        for s in samples {
            let trips = s.column("trips.txt", "trip_id"), routes = s.column("trips.txt", "route_id")
            let stops = s.column("stop_times.txt", "stop_id"), sequences = s.column("stop_times.txt", "stop_sequence").compactMap { Int($0) }
            let date = s.column("calendar.txt", "start_date").first ?? s.column("calendar_dates.txt", "date").first
            let agency = s.column("agency.txt", "agency_id").first
            let start = s.column("stop_times.txt", "departure_time").first
            for (k, relationship) in relationships.enumerated() where !trips.isEmpty {
                let trip = RealtimeMessage.TripDescriptor(
                    tripId: trips[k % trips.count], routeId: k % 2 == 0 ? nil : routes.first, directionId: k % 3 == 0 ? nil : k % 2,
                    startTime: k % 2 == 0 ? start : nil, startDate: k % 4 == 0 ? nil : date, scheduleRelationship: relationship)
                var updates: [RealtimeMessage.StopTimeUpdate] = []
                for (i, stop) in stops.prefix(4).enumerated() {
                    let kind: RealtimeMessage.StopRelationship = i == 2 && k % 2 == 1 ? .skipped : i == 3 && k % 3 == 1 ? .noData : .scheduled
                    updates.append(.init(stopSequence: i < sequences.count && k % 2 == 0 ? sequences[i] : nil, stopId: stop,
                                         arrival: .init(delay: Int32(60 * i - 30 * k), time: k % 2 == 0 ? 1_565_199_921 + Int64(120 * i) : nil, uncertainty: 30),
                                         departure: i % 2 == 0 ? .init(delay: Int32(60 * i)) : nil, scheduleRelationship: kind))
                }
                let update = RealtimeMessage.TripUpdate(entityId: "e\(k)", trip: trip, vehicleId: k % 2 == 0 ? "V\(k)" : nil,
                                                        stopTimeUpdates: k % 4 == 3 ? [] : updates,
                                                        timestamp: 1_565_199_900, delay: k % 4 == 3 ? 300 : nil)
                out.append(RealtimeMessage(timestamp: 1_565_199_921, tripUpdates: [update]).encoded())
            }
            let alert = RealtimeMessage.Alert(
                entityId: "alert-\(s.feed)", activePeriods: [.init(start: 1_565_190_000, end: 1_565_290_000), .init(start: 1_565_300_000)],
                informedEntities: [.init(agencyId: agency), .init(routeId: routes.first, routeType: 1),
                                   .init(trip: .init(tripId: trips.first)), .init(stopId: stops.first)],
                cause: "MAINTENANCE", effect: "DETOUR", url: [.init(language: "en", text: "https://example.org/\(s.feed)")],
                header: [.init(language: "en", text: "Works at \(stops.first ?? "a stop")"), .init(language: "pl", text: "Roboty")],
                description: [.init(text: "Zażółć gęślą jaźń: trains \(routes.first ?? "") run late.")])
            let vehicle = RealtimeMessage.VehiclePosition(
                entityId: "v-\(s.feed)", trip: .init(tripId: trips.first, startDate: date), vehicleId: "V1", vehicleLabel: "Car 1",
                latitude: 37.8, longitude: -122.27, bearing: 270, speed: 20, stopId: stops.first, currentStopSequence: sequences.first,
                currentStatus: "STOPPED_AT", timestamp: 1_565_199_920)
            out.append(RealtimeMessage(timestamp: 1_565_199_921, alerts: [alert]).encoded())
            out.append(RealtimeMessage(timestamp: 1_565_199_921, vehicles: [vehicle]).encoded())
        }
        out.append(RealtimeMessage(timestamp: 1_565_199_921, incrementality: .differential).encoded())
        out.append(RealtimeMessage().encoded())
        return out
    }

    /// Bytes the mutations insert whole: short field headers of the reference (tag, and
    /// length where one follows), version strings, and ids of the sampled feeds.
    public static func dictionary(_ samples: [FeedSample]) -> [String] {
        var tokens = ["1.0", "2.0", "\u{0A}\u{03}2.0", "\u{10}\u{01}", "\u{18}", "\u{12}", "\u{1A}", "\u{22}", "\u{2A}",
                      "\u{08}", "\u{20}\u{03}", "\u{20}\u{07}", "\u{28}\u{01}", "\u{30}", "\u{52}", "\u{5A}", "\u{45}",
                      "20190807", "25:10:00"]
        for s in samples {
            tokens += s.column("trips.txt", "trip_id").prefix(2)
            tokens += s.column("stops.txt", "stop_id").prefix(2)
        }
        return tokens
    }
}
