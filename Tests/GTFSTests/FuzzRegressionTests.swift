import Foundation
import Testing
import GTFS

/// The files of a bundled zip, with some replaced, in memory in chunks of `chunkSize`
/// bytes, as a zip's inflater may hand them out.
func bundledFeedInMemory(_ zip: String, replacing changed: [String: [UInt8]], chunkSize: Int) throws -> MemoryFeedSource {
    let source = try ZipFeedSource(path: bundledFeed(zip))
    var files: [String: [UInt8]] = [:]
    for name in source.fileNames {
        var bytes: [UInt8] = []
        try source.read(name) { bytes += $0 }
        files[name] = bytes
    }
    return MemoryFeedSource(files: files.merging(changed) { $1 }, chunkSize: chunkSize)
}

/// Inputs with which the fuzz targets (`Scripts/fuzz.sh`, checks in Sources/FuzzChecks)
/// found faults in the GTFS readers: one test each, the input inlined.
@Suite("GTFS: fuzz findings")
struct FuzzRegressionTests {
    /// fuzz-gtfs, 2026-11-22, input `0a 32 04 00` (transfers.txt = "2\u{4}\0"). Only the
    /// first chunk was searched for a NUL byte: in one chunk the file was refused as binary
    /// data; in chunks of 2 bytes the NUL came later and the header was refused instead
    /// ("not UTF-8 text", the wrong reason). The outcome must not depend on chunk sizes.
    @Test("a NUL byte in the first 4 KiB refuses the file as binary data, whatever the chunk sizes",
          arguments: [1, 2, 3, 64, 4095, 4096, 1 << 20])
    func nulAfterASmallFirstChunk(chunkSize: Int) throws {
        for bytes: [UInt8] in [[0x32, 0x04, 0x00], Array("from_stop_id,to_stop_id,transfer_type\nA,B,0\n".utf8) + [0x00, 0x31]] {
            let source = try bundledFeedInMemory("google-sample.zip", replacing: ["transfers.txt": bytes], chunkSize: chunkSize)
            let issue = thrownFatal { _ = try GTFSFeedLoader(source: source).load(into: RecordingSink()) }
            #expect(issue?.code == "NOT_CSV" && issue?.file == "transfers.txt" && issue?.line == 1 && issue?.field == nil,
                    "chunks of \(chunkSize): \(issue.map(\.description) ?? "no fatal issue")")
        }
    }
}
