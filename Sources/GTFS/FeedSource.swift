import Foundation
import ZIPFoundation

/// Where a feed's files come from: a zip archive or a folder (or memory). Files are streamed in
/// chunks, never read whole, so memory stays flat whatever the feed size.
public protocol GTFSFeedSource {
    /// What to call the feed in messages (its path).
    var name: String { get }
    /// Names of the files at the feed's root (`stops.txt`, …).
    var fileNames: [String] { get }
    /// Uncompressed size of a file in bytes, if known.
    func size(of file: String) -> Int?
    /// Calls `chunk` with successive pieces of the file's bytes.
    func read(_ file: String, chunk: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// Opens a feed: a folder, or a zip archive. A path that is neither is a fatal issue.
public func openFeed(at path: String) throws -> any GTFSFeedSource {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw GTFSFatalError(GTFSIssue(.fatal, "FEED_NOT_FOUND", file: path, "no file or folder at this path"))
    }
    if isDirectory.boolValue { return try DirectoryFeedSource(path: path) }
    return try ZipFeedSource(path: path)
}

/// A feed unpacked in a folder.
public struct DirectoryFeedSource: GTFSFeedSource {
    public let name: String
    public let fileNames: [String]
    private let root: URL

    public init(path: String) throws {
        name = path
        let root = URL(fileURLWithPath: path, isDirectory: true)
        self.root = root
        let all = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        fileNames = all.filter { name in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDir) && !isDir.boolValue
        }.sorted()
    }

    public func size(of file: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(file).path))?[.size] as? Int
    }

    public func read(_ file: String, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: root.appendingPathComponent(file).path) else {
            throw GTFSFatalError(GTFSIssue(.fatal, "UNREADABLE_FILE", file: file, "the file cannot be opened"))
        }
        defer { try? handle.close() }
        while true {
            let data = try handle.read(upToCount: 1 << 20) ?? Data()
            if data.isEmpty { break }
            try data.withUnsafeBytes { try chunk($0) }
        }
    }
}

/// A feed held in memory, handed out in chunks of `chunkSize` bytes: for readers of bytes
/// that never were a file (the fuzz targets), and for choosing the chunk boundaries a zip's
/// inflater or a folder's reads would otherwise choose.
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
            for start in stride(from: 0, to: all.count, by: chunkSize) {
                try chunk(UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + chunkSize)]))
            }
        }
    }
}

/// A feed in a zip archive. Files may sit at the root or in one folder inside it.
public final class ZipFeedSource: GTFSFeedSource {
    public let name: String
    public let fileNames: [String]
    private let archive: Archive
    private var entries: [String: Entry] = [:]

    public init(path: String) throws {
        name = path
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw GTFSFatalError(GTFSIssue(.fatal, "NOT_A_ZIP", file: (path as NSString).lastPathComponent,
                                           "the file is not a readable zip archive (\(error))"))
        }
        var all: [(String, Entry)] = []
        for entry in archive where entry.type == .file {
            all.append((entry.path, entry))
        }
        // Real feeds are sometimes zipped with their folder: use the folder that holds
        // stops.txt when there is none at the root.
        var prefix = ""
        if !all.contains(where: { $0.0 == "stops.txt" }),
           let nested = all.first(where: { $0.0.hasSuffix("/stops.txt") && !$0.0.hasPrefix("__MACOSX") }) {
            prefix = String(nested.0.dropLast("stops.txt".count))
        }
        for (path, entry) in all where path.hasPrefix(prefix) {
            let rest = String(path.dropFirst(prefix.count))
            if !rest.isEmpty && !rest.contains("/") { entries[rest] = entry }
        }
        fileNames = entries.keys.sorted()
    }

    public func size(of file: String) -> Int? { entries[file].map { Int($0.uncompressedSize) } }

    public func read(_ file: String, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = entries[file] else { return }
        var thrown: Error?
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 18, skipCRC32: false) { data in
                do { try data.withUnsafeBytes { try chunk($0) } } catch { thrown = error; throw error }
            }
        } catch {
            if let thrown { throw thrown }
            throw GTFSFatalError(GTFSIssue(.fatal, "BAD_ZIP_ENTRY", file: file,
                                           "the file cannot be unpacked from the zip archive (\(error))"))
        }
    }
}
