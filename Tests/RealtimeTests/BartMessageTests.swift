import FeedNetwork
import Foundation
import GTFS
import GTFSRealtime
import Raptor
import Realtime
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The real BART message (2019-08-07, 91 TripUpdates) on BART's static feed of then
/// (../shared/data/gtfs-rt/bart/bart-rt.zip): every update applied or counted with a reason.
@Suite("Realtime on BART's real message")
struct BartMessageTests {
    /// The message's values, from `bartTripUpdatesCSV` (decoded with protoc from the .pb).
    static func message() -> RealtimeMessage {
        var lines = bartTripUpdatesCSV.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        let timestamp = Int64(header.split(separator: " ").first { $0.hasPrefix("timestamp=") }!.dropFirst(10))!
        lines.removeFirst()  // column names
        var updates: [RealtimeMessage.TripUpdate] = []
        for line in lines {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func opt(_ i: Int) -> String? { f[i].isEmpty ? nil : f[i] }
            if updates.last?.entityId != f[0] {
                let rel = RealtimeMessage.TripRelationship(rawValue: f[4]) ?? .scheduled
                updates.append(RealtimeMessage.TripUpdate(entityId: f[0], trip: .init(tripId: opt(1), routeId: opt(3), startDate: opt(2),
                                                                                       scheduleRelationship: rel)))
            }
            guard opt(5) != nil || opt(6) != nil else { continue }
            func event(_ d: Int, _ t: Int) -> RealtimeMessage.StopTimeEvent? {
                opt(d) == nil && opt(t) == nil ? nil : .init(delay: opt(d).map { Int32($0)! }, time: opt(t).map { Int64($0)! })
            }
            updates[updates.count - 1].stopTimeUpdates.append(.init(
                stopSequence: opt(5).map { Int($0)! }, stopId: opt(6), arrival: event(8, 9), departure: event(10, 11),
                scheduleRelationship: opt(7).flatMap(RealtimeMessage.StopRelationship.init(rawValue:)) ?? .scheduled))
        }
        return RealtimeMessage(timestamp: timestamp, version: "1.0", tripUpdates: updates)
    }

    static func network() throws -> TransitNetwork {
        let path = try FeedFixtures.sharedDataDirectory().appendingPathComponent("gtfs-rt/bart/bart-rt.zip").path
        let (snapshot, _) = try SnapshotSink.load(path: path, feedId: "bart")
        return try TimetableBuilder.build(snapshot)
    }

    @Test func everyUpdateIsAppliedOrCountedWithAReason() throws {
        let message = Self.message()
        #expect(message.tripUpdates.count == 91)
        let network = try Self.network()
        let clock = ContinuousClock()
        var state: RealtimeState!
        let took = clock.measure { state = RealtimeState.build(network: network, messages: ["bart": message]) }
        let report = state.reports[0]
        print("BART 2019-08-07: \(report.tripUpdates) TripUpdates, applied \(report.applied), not applied \(report.rejected.sorted { $0.key < $1.key }) in \(took)")
        for s in report.samples { print("  \(s)") }
        #expect(report.tripUpdates == 91)
        #expect(report.applied + report.rejected.values.reduce(0, +) == 91)
        #expect(report.rejected["added-trip"] == 8)
        // The one stop_sequence its trip lacks makes its update not applied.
        #expect(report.rejected["unknown-stop", default: 0] >= 1)
        #expect(report.applied > 40)
        // BART's stop_sequence and stop_id disagree in some updates (FRMT as 18 where the
        // static trip has it as 19): the model follows stop_sequence. Counted here for the report.
        let tt0 = network.timetable
        var disagree = 0
        for u in message.tripUpdates {
            guard let record = state.updatedTrips.first(where: { $0.entityId == u.entityId }) else { continue }
            let t = record.staticTrip.index
            var r = 0
            while Int(tt0.routeTripOffsets[r + 1]) <= t { r += 1 }
            for s in u.stopTimeUpdates {
                if let seq = s.stopSequence, let id = s.stopId,
                   network.snapshot.stops[tt0.routeStops[Int(tt0.routeStopOffsets[r]) + seq - 1].index].stopId != id { disagree += 1 }
            }
        }
        print("BART: \(disagree) applied stop time updates whose stop_id is not the stop of their stop_sequence")
        // Applied updates change the timetable a request routes on, not the static one.
        #expect(state.timetable !== network.timetable && state.addedTrips > 0)
        #expect(network.timetable.routeRemovedOffsets.isEmpty)
        // A late trip runs late: its first stop time update's expected departure is in the overlay.
        let late = message.tripUpdates.first { u in
            state.updatedTrips.contains { $0.entityId == u.entityId && $0.trip != nil && $0.trip!.index >= network.timetable.tripCount }
        }!
        let record = state.updatedTrips.first { $0.entityId == late.entityId }!
        let tt = state.timetable, t = record.trip!.index
        var r = 0
        while Int(tt.routeTripOffsets[r + 1]) <= t { r += 1 }
        let first = late.stopTimeUpdates[0]
        let pos = first.stopSequence! - 1
        let nt = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r]), j = t - Int(tt.routeTripOffsets[r])
        let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + record.day]
        if let time = first.departure?.time {
            #expect(base + Int64(tt.departure(route: r, position: pos, run: j)) == time)
        }
    }
}
