import Foundation
import GTFSRealtime
import Testing
import TransitTesting

/// `RealtimeMessage.decode` and `encoded()` on BART's real messages
/// (../shared/data/gtfs-rt/bart/, 2019-08-07), on messages made in code, and on broken bytes.
/// The expected figures were read independently with `protoc --decode` (Debian's
/// protobuf-compiler) from the same files.
@Suite("GTFS-Realtime decoding")
struct RealtimeDecodingTests {
    static func realMessage(_ name: String) throws -> [UInt8] {
        let url = try FeedFixtures.sharedDataDirectory().appendingPathComponent("gtfs-rt/bart/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }

    @Test("BART's TripUpdates: 91 trips, header 2019-08-07 17:45:21 UTC, 8 ADDED, no start_date, events with delay, time and uncertainty")
    func bartTripUpdates() throws {
        let m = try RealtimeMessage.decode(try Self.realMessage("bart-trip-updates.pb"))
        #expect(m.timestamp == 1_565_199_921)  // 2019-08-07 17:45:21 UTC
        #expect(m.version == "1.0" && m.incrementality == .fullDataset)
        #expect(m.tripUpdates.count == 91 && m.alerts.isEmpty && m.vehicles.isEmpty)
        #expect(m.tripUpdates.filter { $0.trip.scheduleRelationship == .added }.count == 8)
        #expect(m.tripUpdates.filter { $0.trip.scheduleRelationship == .scheduled }.count == 83)
        #expect(m.tripUpdates.allSatisfy { $0.trip.startDate == nil && $0.trip.startTime == nil && $0.trip.routeId == nil })
        #expect(m.tripUpdates.allSatisfy { $0.entityId == $0.trip.tripId })

        let stops = m.tripUpdates.flatMap(\.stopTimeUpdates)
        #expect(stops.count == 1060)
        #expect(stops.allSatisfy { $0.scheduleRelationship == .scheduled && $0.stopId != nil && $0.stopSequence != nil })
        let events = stops.flatMap { [$0.arrival, $0.departure] }.compactMap { $0 }
        #expect(events.count == 2120)
        #expect(events.allSatisfy { $0.delay != nil && $0.time != nil && $0.uncertainty == 30 })

        let first = try #require(m.tripUpdates.first)
        #expect(first.trip == RealtimeMessage.TripDescriptor(tripId: "1011112WKDY"))
        let s1 = try #require(first.stopTimeUpdates.first)
        #expect(s1 == RealtimeMessage.StopTimeUpdate(
            stopSequence: 1, stopId: "DALY",
            arrival: .init(delay: 29, time: 1_565_201_526, uncertainty: 30),
            departure: .init(delay: 29, time: 1_565_201_626, uncertainty: 30)))
        let added = try #require(m.tripUpdates.first { $0.trip.tripId == "1051042WKDY" })
        #expect(added.trip.scheduleRelationship == .added)
        #expect(added.stopTimeUpdates.first?.stopSequence == 0 && added.stopTimeUpdates.first?.stopId == "SHAY")
        #expect(added.stopTimeUpdates.first?.arrival == .init(delay: 27, time: 1_565_199_965, uncertainty: 30))
    }

    @Test("BART's alert: one alert with cause, effect, URL, header and the agency it informs")
    func bartAlert() throws {
        let m = try RealtimeMessage.decode(try Self.realMessage("bart-alerts.pb"))
        #expect(m.timestamp == 1_565_199_942 && m.version == "1.0" && m.tripUpdates.isEmpty)
        #expect(m.alerts.count == 1)
        let a = try #require(m.alerts.first)
        #expect(a.entityId == "BSA_187874")
        #expect(a.cause == "MEDICAL_EMERGENCY" && a.effect == "SIGNIFICANT_DELAYS")
        #expect(a.informedEntities == [RealtimeMessage.InformedEntity(agencyId: "BART")])
        #expect(a.activePeriods.isEmpty)
        #expect(a.url == [.init(language: "en-US", text: "http://www.bart.gov/schedules/advisories")])
        #expect(a.header.count == 1 && a.header.first?.language == "en-US")
        #expect(a.header.first?.text.hasPrefix("There is a major delay at Montgomery St. on the San Francisco Line") == true)
        #expect(a.description.isEmpty)  // the message has no description_text
    }

    @Test("encode(decode(x)) decodes back equal", arguments: ["bart-trip-updates.pb", "bart-alerts.pb"])
    func roundTrip(_ name: String) throws {
        let bytes = try Self.realMessage(name)
        let m = try RealtimeMessage.decode(bytes)
        let again = m.encoded()
        #expect(try RealtimeMessage.decode(again) == m)
        // The original writes SCHEDULED and FULL_DATASET out; encoded() leaves defaults out.
        #expect(again.count <= bytes.count && again.count > bytes.count * 9 / 10)
        #expect(try RealtimeMessage.decode(Data(bytes)) == m)
    }

    @Test("every field of the contract survives encoded() and decode")
    func everyField() throws {
        let trip = RealtimeMessage.TripDescriptor(tripId: "T1", routeId: "R", directionId: 1, startTime: "25:10:00",
                                                  startDate: "20190807", scheduleRelationship: .canceled)
        let m = RealtimeMessage(
            timestamp: 1_565_199_921, version: "2.0", incrementality: .differential,
            tripUpdates: [
                .init(entityId: "u1", trip: trip, vehicleId: "V9", vehicleLabel: "Car 9",
                      stopTimeUpdates: [
                        .init(stopSequence: 3, arrival: .init(delay: -60)),
                        .init(stopId: "MONT", departure: .init(time: 1_565_200_000, uncertainty: 0), scheduleRelationship: .skipped),
                        .init(stopSequence: 7, scheduleRelationship: .noData),
                        .init(stopSequence: 8, stopId: "X", scheduleRelationship: .unscheduled),
                      ], timestamp: 1_565_199_900, delay: 120),
                .init(entityId: "u2", trip: .init(routeId: "R", directionId: 0, startTime: "08:00:00", startDate: "20190807")),
            ] + [RealtimeMessage.TripRelationship.added, .unscheduled, .replacement, .duplicated, .deleted, .new, .scheduled].map {
                .init(entityId: "r-\($0.rawValue)", trip: .init(tripId: "T-\($0.rawValue)", scheduleRelationship: $0))
            },
            alerts: [
                .init(entityId: "a1", activePeriods: [.init(start: 1_565_190_000, end: 1_565_210_000), .init(start: 5), .init(end: 9)],
                      informedEntities: [.init(agencyId: "BART"), .init(routeId: "R", routeType: 1, directionId: 1),
                                         .init(trip: trip), .init(stopId: "MONT")],
                      cause: "STRIKE", effect: "NO_SERVICE", url: [.init(text: "https://example.org")],
                      header: [.init(language: "en", text: "Closed"), .init(language: "es", text: "Cerrado")],
                      description: [.init(text: "Montgomery St. is closed. Zażółć.")]),
                .init(entityId: "a2"),
            ],
            vehicles: [
                .init(entityId: "v1", trip: trip, vehicleId: "V9", vehicleLabel: "Car 9", latitude: 37.75, longitude: -122.25,
                      bearing: 90, speed: 12.5, stopId: "MONT", currentStopSequence: 4, currentStatus: "STOPPED_AT", timestamp: 1_565_199_000),
                .init(entityId: "v2"),
            ])
        let back = try RealtimeMessage.decode(m.encoded())
        #expect(back == m)
        #expect(back.tripUpdates.map(\.trip.scheduleRelationship).suffix(7)
                == [.added, .unscheduled, .replacement, .duplicated, .deleted, .new, .scheduled])
    }

    /// DUPLICATED (6), DELETED (7) and NEW (8) came after the reference file the code is
    /// generated from; written by hand here, byte by byte, as a newer producer would.
    @Test("trip relationships newer than the reference file are read", arguments: [(6, "DUPLICATED"), (7, "DELETED"), (8, "NEW"), (3, "CANCELED")])
    func newerTripRelationships(_ value: UInt8, _ name: String) throws {
        let trip: [UInt8] = [0x0A, 0x01, 0x54, 0x20, value]                  // trip_id "T", schedule_relationship
        let tripUpdate: [UInt8] = [0x0A, UInt8(trip.count)] + trip           // TripUpdate.trip
        let entity: [UInt8] = [0x0A, 0x01, 0x65, 0x1A, UInt8(tripUpdate.count)] + tripUpdate  // id "e", trip_update
        let bytes: [UInt8] = [0x0A, 0x05, 0x0A, 0x03, 0x32, 0x2E, 0x30]     // header { gtfs_realtime_version "2.0" }
            + [0x12, UInt8(entity.count)] + entity
        let m = try RealtimeMessage.decode(bytes)
        #expect(m.tripUpdates.map(\.trip) == [.init(tripId: "T", scheduleRelationship: .init(rawValue: name)!)])
        #expect(m.encoded() == bytes)
    }

    @Test("names outside the reference's enums are left out, not invented")
    func unknownNames() throws {
        let m = RealtimeMessage(alerts: [.init(entityId: "a", cause: "SOLAR_FLARE", effect: "NO_SERVICE")],
                                vehicles: [.init(entityId: "v", currentStatus: "FLYING")])
        let back = try RealtimeMessage.decode(m.encoded())
        #expect(back.alerts.first?.cause == nil && back.alerts.first?.effect == "NO_SERVICE")
        #expect(back.vehicles.first?.currentStatus == nil)
    }

    @Test("an empty byte string is refused plainly: no header")
    func empty() {
        #expect(throws: RealtimeDecodeError.self) { try RealtimeMessage.decode([UInt8]()) }
        do { _ = try RealtimeMessage.decode([UInt8]()); Issue.record("decoded") } catch {
            #expect(error.message == "not a GTFS-Realtime message: it is empty (0 bytes), so it has no header")
        }
    }

    @Test("a missing required field is refused and named")
    func missingRequired() throws {
        // A header without gtfs_realtime_version: field 1 (header) of length 2 holding timestamp 5.
        do { _ = try RealtimeMessage.decode([0x0A, 0x02, 0x18, 0x05]); Issue.record("decoded") } catch {
            #expect(error.message == "not a GTFS-Realtime message: the header's gtfs_realtime_version is missing (required by gtfs-realtime.proto)")
        }
        // Only an entity, no header.
        do { _ = try RealtimeMessage.decode([0x12, 0x03, 0x0A, 0x01, 0x41]); Issue.record("decoded") } catch {
            #expect(error.message == "not a GTFS-Realtime message: the header is missing (required by gtfs-realtime.proto)")
        }
        // A vehicle position without longitude.
        let noLongitude = RealtimeMessage(vehicles: [.init(entityId: "v", latitude: 37.7)]).encoded()
        do { _ = try RealtimeMessage.decode(noLongitude); Issue.record("decoded") } catch {
            #expect(error.message.contains("latitude or longitude of the vehicle position in entity 1 of 1 (id \"v\")"))
        }
    }

    @Test("garbage names the byte where it stops being protocol buffers")
    func garbage() throws {
        do { _ = try RealtimeMessage.decode(Array("hello, this is not protobuf".utf8)); Issue.record("decoded") } catch {
            #expect(error.message.hasPrefix("not a GTFS-Realtime message: "))
            #expect(error.message.contains("at byte"))
        }
        let bytes = try Self.realMessage("bart-trip-updates.pb")
        do { _ = try RealtimeMessage.decode(Array(bytes.prefix(20_000))); Issue.record("decoded") } catch {
            #expect(error.message.hasPrefix("not a GTFS-Realtime message: field 2 of FeedMessage at byte "), "\(error.message)")
            #expect(error.message.contains("remain"))
        }
    }

    @Test("truncations of the real message at many offsets decode or are refused, never crash")
    func truncations() throws {
        let bytes = try Self.realMessage("bart-trip-updates.pb")
        var refused = 0, decoded = 0
        for cut in stride(from: 0, to: bytes.count, by: 37) {
            do {
                let m = try RealtimeMessage.decode(Array(bytes.prefix(cut)))
                decoded += 1
                #expect(m.tripUpdates.count < 91)
            } catch {
                refused += 1
                #expect(error.message.hasPrefix("not a GTFS-Realtime message: "))
            }
        }
        // A cut between two entities is a shorter, valid message; most cuts fall inside one.
        #expect(refused > 900 && refused + decoded == (bytes.count + 36) / 37)
        // Every prefix of the alert message.
        let alert = try Self.realMessage("bart-alerts.pb")
        for cut in 0..<alert.count {
            do { _ = try RealtimeMessage.decode(Array(alert.prefix(cut))) } catch {
                #expect(error.message.hasPrefix("not a GTFS-Realtime message: "))
            }
        }
    }

    @Test("random byte flips decode or are refused; what decodes encodes back to itself")
    func byteFlips() throws {
        var random = SeededRandom(seed: 0x6A7F_5EED)
        for name in ["bart-trip-updates.pb", "bart-alerts.pb"] {
            let bytes = try Self.realMessage(name)
            var outcomes = (decoded: 0, refused: 0)
            for _ in 0..<400 {
                var b = bytes
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    b[Int.random(in: 0..<b.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                do {
                    let m = try RealtimeMessage.decode(b)
                    outcomes.decoded += 1
                    let back = try RealtimeMessage.decode(m.encoded())
                    // NaN coordinates are not equal to themselves: compare their text then.
                    #expect(back == m || String(describing: back) == String(describing: m))
                } catch {
                    outcomes.refused += 1
                    #expect(error.message.hasPrefix("not a GTFS-Realtime message: "))
                }
            }
            #expect(outcomes.decoded > 0 && outcomes.refused > 0, "\(name): \(outcomes)")
        }
    }
}
