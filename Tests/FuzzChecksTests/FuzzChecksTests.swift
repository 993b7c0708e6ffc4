import Foundation
import FuzzChecks
import Testing
import TransitTesting

/// The fuzz targets' checks (Fuzz/, `Scripts/fuzz.sh`) as ordinary tests: over each
/// target's seeds from the bundled feeds, then over seeded random byte-level mutations of
/// them (the kinds libFuzzer makes), so that every test run keeps the properties.
@Suite("Fuzz checks on seeds and mutations")
struct FuzzChecksTests {
    static var repoRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Bundled feeds only: the shared folder's big zips would slow every run for little.
    static let samples: [FeedSample] = FeedSample.feedZips(repositoryRoot: repoRoot, shared: false).compactMap {
        try? FeedSample.read(zip: $0, firstLines: 12)
    }

    /// Mutations per target; GTFS inputs load a feed three times each, so fewer of them.
    static let mutations = ["fuzz-csv": 1500, "fuzz-gtfs": 400, "fuzz-time": 2000, "fuzz-query": 1500, "fuzz-realtime": 2000]

    @Test("the bundled feeds give seeds to every target")
    func seedsExist() {
        #expect(Self.samples.count == 3, "expected the three zips in Data/")
        for target in FuzzTarget.all {
            #expect(target.seeds(Self.samples).count >= 20, "\(target.name) has few seeds")
        }
    }

    @Test("seeds and mutated seeds keep every property", arguments: FuzzTarget.all.map(\.name))
    func mutatedSeeds(_ name: String) throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        let seeds = target.seeds(Self.samples)
        let tokens = target.dictionary(Self.samples).map { Array($0.utf8) }
        var random = SeededRandom(seed: 0x5EED_F022 ^ UInt64(name.utf8.count))
        var inputs = seeds
        for _ in 0..<Self.mutations[name, default: 1000] {
            inputs.append(ByteMutator.mutate(seeds.randomElement(using: &random)!, other: seeds.randomElement(using: &random)!,
                                             tokens: tokens, using: &random))
        }
        for input in inputs {
            do { try target.check(input) } catch {
                Issue.record("\(error)\ninput (base64): \(Data(input).base64EncodedString())")
                return  // the first failure says enough; the rest would repeat it
            }
        }
    }

    /// fuzz-realtime's seeds from the real messages (BART's TripUpdates and alert, as
    /// Scripts/fuzz.sh gives them) and mutations of them, as libFuzzer starts.
    @Test("fuzz-realtime: the real BART messages, their parts and mutations keep every property")
    func realtimeRealMessages() throws {
        let dir = try FeedFixtures.sharedDataDirectory().appendingPathComponent("gtfs-rt/bart")
        let messages = try ["bart-trip-updates.pb", "bart-alerts.pb"].map { [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))) }
        let seeds = RealtimeCheck.seeds([], messages: messages)
        // Whole, 91 trip updates in parts of 1, 2 and 4 (24 parts of each at most), the alert
        // whole and as its own part, and the two messages made in code (empty, differential).
        #expect(seeds.count == 1 + 24 + 24 + 23 + 1 + 1 + 2)
        let tokens = RealtimeCheck.dictionary([]).map { Array($0.utf8) }
        var random = SeededRandom(seed: 0x5EED_0B0B)
        var inputs = seeds
        for _ in 0..<1500 {
            inputs.append(ByteMutator.mutate(seeds.randomElement(using: &random)!, other: seeds.randomElement(using: &random)!,
                                             tokens: tokens, using: &random))
        }
        for input in inputs {
            do { try FuzzTarget.realtime.check(input) } catch {
                Issue.record("\(error)\ninput (base64): \(Data(input).base64EncodedString())")
                return
            }
        }
    }

    /// fuzz-query's third finding: a place given twice or over 200 characters was repeated in
    /// the 400's message and details (fixed in `QueryParameters.init`).
    @Test("fuzz finding: a place given twice or too long is not repeated in the 400",
          arguments: ["from=stop:12TH&from=stop:CIVC&to=stop:SFIA", "near=37.8,-122.2&near=37.9,-122.3",
                      "from=stop:" + String(repeating: "Q", count: 200) + "&to=stop:SFIA"])
    func placeNotEchoed(_ query: String) throws {
        try Array(query.utf8).withUnsafeBytes { b in try QueryCheck.check(b) }
    }
}

/// Byte-level mutations like libFuzzer's: flip a bit, set a byte to an edge value, insert
/// or erase bytes, copy a range, insert a dictionary token, splice with another input.
enum ByteMutator {
    static func mutate(_ seed: [UInt8], other: [UInt8], tokens: [[UInt8]], using r: inout SeededRandom) -> [UInt8] {
        var b = seed
        for _ in 0..<Int.random(in: 1...4, using: &r) {
            let at = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &r)
            switch Int.random(in: 0..<7, using: &r) {
            case 0 where !b.isEmpty: b[at] ^= 1 << UInt8.random(in: 0..<8, using: &r)
            case 1 where !b.isEmpty: b[at] = [0, 0x0A, 0x0D, 0x22, 0x2C, 0x20, 0x7F, 0x80, 0xC3, 0xFF, 0x30, 0x39, 0x3A, 0x2D].randomElement(using: &r)!
            case 2: b.insert(contentsOf: (0..<Int.random(in: 1...8, using: &r)).map { _ in UInt8.random(in: 0...255, using: &r) }, at: at)
            case 3 where !b.isEmpty: b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...16, using: &r)))
            case 4 where !b.isEmpty:
                let from = Int.random(in: 0..<b.count, using: &r)
                b.insert(contentsOf: b[from..<min(b.count, from + Int.random(in: 1...32, using: &r))], at: at)
            case 5 where !tokens.isEmpty: b.insert(contentsOf: tokens.randomElement(using: &r)!, at: at)
            case 6 where !other.isEmpty:
                let cut = Int.random(in: 0...other.count, using: &r)
                b = Array(b[..<at]) + other[cut...]
            default: break
            }
        }
        return b
    }
}
