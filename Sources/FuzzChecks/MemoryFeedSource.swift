import GTFS

/// A feed held in memory, handed out in chunks of `chunkSize` bytes: the loader reads a
/// fuzz input without a file system, and with chunk boundaries the input chooses.
public final class MemoryFeedSource: GTFSFeedSource {
    public let name: String
    public let files: [String: [UInt8]]
    public let chunkSize: Int
    public let fileNames: [String]

    public init(name: String = "memory", files: [String: [UInt8]], chunkSize: Int = 1 << 20) {
        self.name = name
        self.files = files
        self.chunkSize = max(1, chunkSize)
        fileNames = files.keys.sorted()
    }

    public func size(of file: String) -> Int? { files[file]?.count }

    public func read(_ file: String, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let bytes = files[file] else { return }
        try bytes.withUnsafeBytes { all in
            var i = 0
            while i < all.count {
                let n = min(chunkSize, all.count - i)
                try chunk(UnsafeRawBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
    }
}
