import Foundation
import GTFS
import TransitModel

/// A few real lines of each text file of a real feed: the seeds' raw material.
///
/// The fuzzer mutates what it is given, so seeds from real feeds (their quoting, line ends,
/// byte order marks, ids, times, dates) reach the paths real files take far sooner than
/// random bytes would.
public struct FeedSample: Sendable {
    /// The zip's file name (`bart-2018.zip`).
    public let feed: String
    /// File name -> its header line and the sampled lines, with their own line ends.
    public let files: [String: [UInt8]]

    public init(feed: String, files: [String: [UInt8]]) { self.feed = feed; self.files = files }

    private struct EnoughRead: Error {}

    /// Reads `zip`: each `.txt` file's header, its first `firstLines` lines and, when
    /// `spreadLines` > 0, that many more drawn evenly at random (seeded, so the same feed
    /// always gives the same sample) from the rest of its first `scanBytes` bytes.
    public static func read(zip: String, firstLines: Int = 12, spreadLines: Int = 0,
                            scanBytes: Int = 8 << 20) throws -> FeedSample {
        let source = try ZipFeedSource(path: zip)
        var files: [String: [UInt8]] = [:]
        for name in source.fileNames where name.hasSuffix(".txt") {
            var head: [UInt8] = [], headLines = 0
            var reservoir: [[UInt8]] = [], seen = 0
            var line: [UInt8] = []
            var random = SeededRandom(seed: UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
            var scanned = 0
            func take(_ l: [UInt8]) {
                if headLines <= firstLines { head += l; headLines += 1; return }
                seen += 1
                if reservoir.count < spreadLines { reservoir.append(l) } else {
                    let j = Int(random.next() % UInt64(seen))
                    if j < spreadLines { reservoir[j] = l }
                }
            }
            do {
                try source.read(name) { chunk in
                    for b in chunk {
                        line.append(b)
                        if b == 0x0A { take(line); line.removeAll(keepingCapacity: true) }
                    }
                    scanned += chunk.count
                    if (headLines > firstLines && spreadLines == 0) || scanned >= scanBytes { throw EnoughRead() }
                }
            } catch is EnoughRead {
                line = []  // a line cut by the end of the scan is not a real line
            }
            if !line.isEmpty { take(line) }
            files[name] = head + reservoir.joined()
        }
        return FeedSample(feed: (zip as NSString).lastPathComponent, files: files)
    }

    /// The zips in `Data/` and, when it is there, `../shared/data/gtfs/` of the repository
    /// at `root`, sorted by name (a feed in both is taken once).
    public static func feedZips(repositoryRoot root: String, shared: Bool = true) -> [String] {
        var byName: [String: String] = [:]
        var dirs = [root + "/Data"]
        if shared { dirs.append(root + "/../shared/data/gtfs") }
        for dir in dirs {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".zip") {
                if byName[name] == nil { byName[name] = (dir + "/" + name as NSString).standardizingPath }
            }
        }
        return byName.keys.sorted().map { byName[$0]! }
    }

    /// Values of one column in a sampled file (trimmed; quotes not undone: ids rarely have them).
    public func column(_ file: String, _ name: String) -> [String] {
        guard let bytes = files[file] else { return [] }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard var header = lines.first else { return [] }
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        guard let i = header.firstIndex(of: name) else { return [] }
        return lines.dropFirst().compactMap { i < $0.count && !$0[i].isEmpty ? $0[i] : nil }
    }
}

/// FNV-1a of the input: choices a check derives from its input (a split point, a chunk
/// size) must depend on the input alone, so that a crash replays.
func inputHash(_ b: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01B3 }
    return h
}
