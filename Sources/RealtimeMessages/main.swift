// realtime-messages: seeded GTFS-Realtime TripUpdates messages for a GTFS feed, written as
// protocol-buffer files, for the realtime benchmarks and load tests (Scripts/bench-realtime.sh):
// the same generator the randomized comparison with the reference uses
// (`RealtimeScenario`: delays that make trips overtake, absolute times, NO_DATA, SKIPPED
// stops, cancellations, added and unknown trips, times that go backwards…). Not part of
// the service: a tool beside the tests.
import ArgumentParser
import Foundation
import GTFS
import GTFSRealtime
import TransitModel
import TransitTesting

@main
struct RealtimeMessages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime-messages",
        abstract: "Write seeded GTFS-Realtime TripUpdates messages for a GTFS feed (for benchmarks and load tests).")

    @Argument(help: "The GTFS feed (.zip or folder).") var feed: String
    @Option(help: "The feed's id (default: the file's name without extension).") var feedId: String?
    @Option(help: "The service date the updates are for (YYYY-MM-DD).") var date: String
    @Option(help: "TripUpdates per message.") var updates = 10_000
    @Option(help: "Seed of the first message; message k has seed + k.") var seed: UInt64 = 1
    @Option(help: "How many messages (each a different seed).") var count = 1
    @Option(help: "Where to write: FILE, or with --count > 1 a prefix (PREFIX-1.pb, PREFIX-2.pb…).") var out: String
    @Flag(help: "Leave the SKIPPED stops out (their trips keep their other updates): to see what skipped stops cost the router.")
    var noSkips = false

    func run() throws {
        guard let day = ServiceDate.parse(iso8601: date) else { throw ValidationError("--date \(date) is not YYYY-MM-DD") }
        let id = feedId ?? URL(fileURLWithPath: feed).deletingPathExtension().lastPathComponent
        let (snapshot, _) = try SnapshotSink.load(path: feed, feedId: id)
        let keys = try RealtimeTripKeys.read(snapshot, feeds: [id: feed])
        for k in 0..<count {
            var message = RealtimeScenario.message(for: snapshot, date: day, seed: seed + UInt64(k), updates: updates, keys: keys)
            if noSkips {
                for i in message.tripUpdates.indices { message.tripUpdates[i].stopTimeUpdates.removeAll { $0.scheduleRelationship == .skipped } }
            }
            let path = count == 1 ? out : "\(out)-\(k + 1).pb"
            let bytes = message.encoded()
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            print("\(path): \(message.tripUpdates.count) trip updates for \(id) on \(day.iso8601), \(bytes.count) bytes")
        }
    }
}
