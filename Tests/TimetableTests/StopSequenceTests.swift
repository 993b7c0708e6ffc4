@testable import FeedNetwork
import Foundation
import GTFS
import Testing
import Timetable
import TransitModel
import TransitTesting

// stop_sequence and direction_id kept end to end: read from a feed's files into the
// snapshot (against a CSV reading of the same files that shares no code with GTFS), then
// kept compactly in the network after the stop times are dropped
// (`TransitNetwork.stopSequence(ofSourceTrip:position:)` and its inverse).

/// The rows of one CSV file of a zip, as dictionaries (RFC 4180 quoting; a BOM dropped).
func csvRows(zip path: String, file: String) throws -> [[String: String]] {
    let folder = try FeedFixtures.unzip(path)
    defer { folder.remove() }
    var text = String(decoding: try folder.read(file), as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
    var chars = text.makeIterator(), pending: Character? = nil
    while let c = pending ?? chars.next() {
        pending = nil
        if quoted {
            if c == "\"" {
                if let n = chars.next() { if n == "\"" { field.append("\"") } else { quoted = false; pending = n } } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" { quoted = true }
        else if c == "," { row.append(field); field = "" }
        else if c == "\n" || c == "\r\n" || c == "\r" {
            row.append(field); field = ""
            if row != [""] { rows.append(row) }
            row = []
        } else { field.append(c) }
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    let header = rows[0].map { $0.trimmingCharacters(in: .whitespaces) }
    return rows.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
}

/// Per trip id, the file's stop_sequence values ascending; per trip id, its direction_id.
func fileSequencesAndDirections(_ path: String) throws -> (sequences: [String: [Int32]], directions: [String: Int8?]) {
    var sequences: [String: [Int32]] = [:]
    for r in try csvRows(zip: path, file: "stop_times.txt") { sequences[r["trip_id"]!, default: []].append(Int32(r["stop_sequence"]!.trimmingCharacters(in: .whitespaces))!) }
    for k in sequences.keys { sequences[k]!.sort() }
    var directions: [String: Int8?] = [:]
    for r in try csvRows(zip: path, file: "trips.txt") { directions.updateValue(r["direction_id"].flatMap { Int8($0) }, forKey: r["trip_id"]!) }
    return (sequences, directions)
}

@Suite("Stop sequences and directions")
struct StopSequenceTests {
    /// The snapshot's sequences and directions are the file's; the network answers every
    /// stop time's sequence and back, and nil for sequences the trip lacks.
    private func check(_ name: String) throws -> (network: TransitNetwork, snapshot: FeedSnapshot) {
        let path = try FeedFixtures.sharedFeed(name)
        let (s, _) = try SnapshotSink.load(path: path, feedId: name)
        let file = try fileSequencesAndDirections(path)
        #expect(s.stopTimeSequence.count == s.stopTimeStop.count)
        #expect(s.trips.count == file.directions.count)
        var wrong = 0
        for (t, trip) in s.trips.enumerated() {
            if s.stopTimes(ofTrip: t).map({ s.stopTimeSequence[$0] }) != file.sequences[trip.tripId] ?? [] { wrong += 1 }
            if trip.directionId != file.directions[trip.tripId]! { wrong += 1 }
        }
        #expect(wrong == 0, "\(name): \(wrong) trips' sequences or directions differ from the file")

        let network = try TimetableBuilder.build(s)
        #expect(network.snapshot.stopTimeSequence.isEmpty && network.snapshot.trips == s.trips)
        var bad: [String] = []
        for t in 0..<s.trips.count {
            let sequences = s.stopTimes(ofTrip: t).map { s.stopTimeSequence[$0] }
            #expect(network.stopSequences.stopTimeCount(ofSourceTrip: t) == sequences.count)
            for (p, seq) in sequences.enumerated() {
                if network.stopSequence(ofSourceTrip: t, position: p) != seq { bad.append("\(s.trips[t].tripId) #\(p) sequence") }
                if network.position(ofStopSequence: seq, inSourceTrip: t) != p { bad.append("\(s.trips[t].tripId) \(seq) position") }
            }
            // Sequences the trip lacks: before, after and in its gaps.
            let present = Set(sequences)
            let lo = (sequences.first ?? 0) - 2, hi = (sequences.last ?? 0) + 2
            for seq in lo...hi where !present.contains(seq) && network.position(ofStopSequence: seq, inSourceTrip: t) != nil {
                bad.append("\(s.trips[t].tripId): \(seq) found")
            }
        }
        #expect(bad.isEmpty, "\(name): \(bad.prefix(10))")
        // Every timetable trip (frequency runs too) has its source trip's stop times.
        let tt = network.timetable
        for r in 0..<tt.routeCount {
            let stops = Int(tt.routeStopOffsets[r + 1] - tt.routeStopOffsets[r])
            for j in Int(tt.routeTripOffsets[r])..<Int(tt.routeTripOffsets[r + 1]) {
                let source = tt.tripSource[j].index
                let kept = (0..<network.stopSequences.stopTimeCount(ofSourceTrip: source))
                    .compactMap { network.stopSequences.routePosition(ofSourceTrip: source, position: $0) }
                #expect(kept == Array(0..<stops), "\(name): trip \(s.trips[source].tripId) on route \(r)")
            }
        }
        let irregular = network.stopSequences.irregularTripCount
        print("StopSequences \(name): \(s.trips.count) trips, \(s.stopTimeCount) stop times; "
              + "\(irregular.shifted) trips off the feed's usual numbering (\(irregular.gapped) gapped); "
              + "\(network.stopSequences.bytes) bytes kept, \(network.stopSequences.irregularBytes) of them for those trips")
        return (network, s)
    }

    @Test("sacramento-sacrt-2024: gapped stop_sequence, direction_id")
    func sacramento() throws {
        let (network, s) = try check("sacramento-sacrt-2024")
        // The feed numbers from 1; five trips have gaps.
        #expect(network.stopSequences.irregularTripCount == (shifted: 5, gapped: 5))
        #expect(Set(s.trips.map(\.directionId)) == [0, 1])
    }

    @Test("bydgoszcz-2020: stop_sequence from 0, kept for free")
    func bydgoszcz() throws {
        let (network, s) = try check("bydgoszcz-2020")
        #expect(s.stopTimes(ofTrip: 0).map { s.stopTimeSequence[$0] }.first == 0)
        #expect(network.stopSequences.irregularTripCount == (shifted: 0, gapped: 0))
        #expect(network.stopSequences.irregularBytes == 0)
        #expect(network.stopSequences.bytes == 4 * s.trips.count + 4 + 8)
        // What keeping them adds to the build (debug build; printed, not asserted).
        let clock = ContinuousClock()
        let t0 = clock.now
        _ = try TimetableBuilder.build(s)
        let t1 = clock.now
        let again = StopSequences(s, boardable: Array(network.timetable.stopBoardable))
        let t2 = clock.now
        #expect(again.bytes == network.stopSequences.bytes)
        print("StopSequences bydgoszcz-2020: built in \(t2 - t1) of a whole network build of \(t1 - t0) (debug)")
    }

    @Test("vilnius-2015 and mexico-city-2018: a few trips numbered from elsewhere")
    func shifted() throws {
        #expect(try check("vilnius-2015").network.stopSequences.irregularTripCount == (shifted: 3, gapped: 0))
        #expect(try check("mexico-city-2018").network.stopSequences.irregularTripCount == (shifted: 4, gapped: 0))
    }

    /// A built network: gaps, a stop passed through (a station in stop_times), frequency
    /// runs and a trip left out, each against values worked out by hand.
    @Test("Built in code: gaps, a stop passed through, frequency runs, a left-out trip")
    func builtInCode() throws {
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.stop("X", at: NetworkBuilder.offset(b.coordinate("C"), north: 50), type: 1)
        b.trip("plain", route: "R", "A 0:01, B 0:05, C 0:10")
        b.trip("gaps", route: "R", direction: 1, "A 0:01 seq=10, B 0:05 seq=20, X 0:07 seq=25, C 0:10 seq=30")
        b.trip("freq", route: "F", direction: 0, "A 0:00 seq=0, B 0:04, D 0:09")
        b.frequency("freq", start: "6:00", end: "7:00", headwaySeconds: 1200)
        b.trip("out", route: "R", "A - seq=3, B 0:05 seq=7")
        let n = try b.network()
        let trip = Dictionary(uniqueKeysWithValues: n.snapshot.trips.enumerated().map { ($1.tripId, $0) })
        func seqs(_ id: String) -> [Int32] {
            (0..<n.stopSequences.stopTimeCount(ofSourceTrip: trip[id]!)).map { n.stopSequence(ofSourceTrip: trip[id]!, position: $0) }
        }
        #expect(seqs("plain") == [1, 2, 3] && seqs("gaps") == [10, 20, 25, 30] && seqs("freq") == [0, 1, 2] && seqs("out") == [3, 7])
        #expect(n.position(ofStopSequence: 25, inSourceTrip: trip["gaps"]!) == 2)
        #expect(n.position(ofStopSequence: 15, inSourceTrip: trip["gaps"]!) == nil)
        #expect(n.position(ofStopSequence: 0, inSourceTrip: trip["plain"]!) == nil)
        #expect(n.position(ofStopSequence: 4, inSourceTrip: trip["plain"]!) == nil)
        #expect(n.position(ofStopSequence: 2, inSourceTrip: trip["freq"]!) == 2)
        #expect(n.position(ofStopSequence: 7, inSourceTrip: trip["out"]!) == 1)
        // X is a station: passed through, not in the route; C is route position 2.
        let g = trip["gaps"]!
        #expect((0..<4).map { n.stopSequences.routePosition(ofSourceTrip: g, position: $0) } == [0, 1, nil, 2])
        #expect(n.stopSequences.routePosition(ofSourceTrip: trip["plain"]!, position: 2) == 2)
        // Three runs of "freq", each naming it as source.
        #expect(n.timetable.tripSource.filter { $0.index == trip["freq"]! }.count == 3)
        #expect(n.snapshot.trips.map(\.directionId) == [nil, 1, 0, nil])
        // Costs: 4 trips' counts, 1 feed (its usual first sequence: 1); "gaps" and "out"
        // (values), "freq" (from 0); "gaps" passes through X.
        #expect(n.stopSequences.irregularTripCount == (shifted: 3, gapped: 2))
        #expect(n.stopSequences.bytes == 4 * (4 + 1 + 3 + 3 + 4 + 6 + 1 + 2 + 4))
    }

    @Test("FeedSnapshot.merging keeps sequences parallel, numbering parts built without them")
    func merging() throws {
        var b = NetworkBuilder()
        b.line("A", "B", "C")
        b.trip("t", route: "R", "A 0:01 seq=5, B 0:02 seq=9")
        var bare = b.snapshot
        bare.stopTimeSequence = []
        let merged = FeedSnapshot.merging([b.snapshot, bare])
        #expect(merged.stopTimeSequence == [5, 9, 1, 2])
        #expect(merged.stopSequence(3, trip: 1) == 2 && bare.stopSequence(1, trip: 0) == 2)
    }
}
