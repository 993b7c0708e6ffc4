import Foundation

/// What the executables in Fuzz/ call from libFuzzer's two entry points.
public enum LibFuzzer {
    /// From `LLVMFuzzerInitialize`. With `TRANSIT_FUZZ_SEEDS=DIR` set, writes every
    /// target's seed corpus (`DIR/<target>/`) and dictionary (`DIR/<target>.dict`) from the
    /// feeds in `TRANSIT_FUZZ_FEEDS` (zip paths, `:`-separated) and exits: the seeds are
    /// made by the same code the tests use, and a sanitized build cannot hold a second
    /// `main` for a separate tool.
    public static func initialize() {
        let env = ProcessInfo.processInfo.environment
        guard let dir = env["TRANSIT_FUZZ_SEEDS"], !dir.isEmpty else { return }
        let zips = (env["TRANSIT_FUZZ_FEEDS"] ?? "").split(separator: ":").map(String.init)
        let spread = Int(env["TRANSIT_FUZZ_SPREAD_LINES"] ?? "") ?? 24
        do {
            var samples: [FeedSample] = []
            for zip in zips {
                do { samples.append(try FeedSample.read(zip: zip, firstLines: 12, spreadLines: spread)) } catch {
                    FileHandle.standardError.write(Data("fuzz seeds: \(zip) skipped: \(error)\n".utf8))
                }
            }
            for target in FuzzTarget.all {
                let folder = URL(fileURLWithPath: dir).appendingPathComponent(target.name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let seeds = target.seeds(samples)
                for (i, seed) in seeds.enumerated() {
                    try Data(seed).write(to: folder.appendingPathComponent(String(format: "seed-%05d", i)))
                }
                let dict = target.dictionary(samples).map { "\"\(escape($0))\"" }.joined(separator: "\n") + "\n"
                try Data(dict.utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent(target.name + ".dict"))
                FileHandle.standardError.write(Data("fuzz seeds: \(target.name): \(seeds.count) seeds from \(samples.count) feeds\n".utf8))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("fuzz seeds: \(error)\n".utf8))
            exit(1)
        }
    }

    /// libFuzzer's dictionary syntax: `\\`, `\"` and `\xNN` for anything not printable ASCII.
    static func escape(_ s: String) -> String {
        s.utf8.map { b -> String in
            switch b {
            case 0x5C: return "\\\\"
            case 0x22: return "\\\""
            case 0x20...0x7E: return String(UnicodeScalar(b))
            default: return String(format: "\\x%02X", b)
            }
        }.joined()
    }

    /// From `LLVMFuzzerTestOneInput`: a broken property traps with its message, so that
    /// libFuzzer keeps the input as a crash.
    public static func run(_ target: FuzzTarget, _ data: UnsafeRawPointer?, _ count: Int) -> CInt {
        do {
            try target.check(UnsafeRawBufferPointer(start: count > 0 ? data : nil, count: count))
        } catch {
            fatalError("fuzz finding: \(error)")
        }
        return 0
    }
}
