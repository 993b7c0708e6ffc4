import Foundation
import GTFS
import TransitModel

/// Streams checked rows into PostgreSQL with `COPY … FROM STDIN` in text format.
///
/// Text rather than binary: measured on bydgoszcz-2020 (see README, "Import speed"), the
/// server parses integer text about as fast as binary, and text lets decimal numbers pass
/// through as the feed wrote them (no float formatting in the client, no rounding). Rows
/// are encoded straight into a 1 MiB buffer that is handed to libpq when full, so memory
/// stays flat whatever the file size.
final class CopySink: GTFSRowSink {
    private let db: PGConnection
    private let importId: Int64
    private let feedId: String
    private static let bufferBytes = 1 << 20
    private var buffer: UnsafeMutablePointer<UInt8>
    private var used = 0
    private var sender: CopySender?
    /// Indexes into the file's columns that are sent (those the file has); the others
    /// are left to the table's NULL default, so the server parses no `\N` for them.
    private var columns: [Int] = []
    private var table = ""

    init(db: PGConnection, importId: Int64, feedId: String) {
        self.db = db
        self.importId = importId
        self.feedId = feedId
        buffer = .allocate(capacity: CopySink.bufferBytes)
    }

    deinit {
        try? sender?.finish()
        buffer.deallocate()
    }

    func beginFile(_ spec: GTFSFileSpec) throws {
        let table = StoreSchema.partition(spec, importId: importId)
        let lit = db.literal(feedId)
        let cols = (["feed_id text NOT NULL DEFAULT \(lit) CHECK (feed_id = \(lit))"]
                    + StoreSchema.columnDefinitions(spec)).joined(separator: ", ")
        try db.execute("CREATE TABLE \(table) (\(cols))")
        self.table = table
        columns = []
    }

    func beginRows(_ spec: GTFSFileSpec, columns: [Int]) throws {
        guard !columns.isEmpty else { return }
        self.columns = columns
        let names = columns.map { "\"\(spec.columns[$0].name)\"" }.joined(separator: ", ")
        // FREEZE: the table was created in this transaction, so its rows can be written
        // already frozen (no hint-bit rewrite or anti-wraparound vacuum later).
        try db.beginCopy("COPY \(table) (\(names)) FROM STDIN WITH (FREEZE)")
        sender = CopySender(db: db, bufferBytes: CopySink.bufferBytes)
        used = 0
    }

    func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {
        // Worst case for one row: every raw byte escaped (2x) plus separators and numbers.
        var need = columns.count * 24 + 2
        for v in values { if case .raw(let b) = v { need += 2 * b.count } }
        if used + need > CopySink.bufferBytes { try flush() }
        if need > CopySink.bufferBytes { return try writeLargeRow(values, need) }
        used = columns.withUnsafeBufferPointer { CopySink.encode(values, columns: $0, into: buffer, at: used) }
    }

    private func writeLargeRow(_ values: UnsafeBufferPointer<GTFSValue>, _ need: Int) throws {
        let big = UnsafeMutablePointer<UInt8>.allocate(capacity: need)
        defer { big.deallocate() }
        let n = columns.withUnsafeBufferPointer { CopySink.encode(values, columns: $0, into: big, at: 0) }
        var offset = 0
        while offset < n {
            let count = min(CopySink.bufferBytes, n - offset)
            (buffer).update(from: big + offset, count: count)
            used = count
            try flush()
            offset += count
        }
    }

    func endFile(_ spec: GTFSFileSpec) throws {
        guard let s = sender else { return }  // no header, no rows: the table stays empty
        try flush()
        sender = nil
        try s.finish()  // every chunk is with libpq before COPY ends on this thread
        try db.endCopy()
        if !leftOut.isEmpty {
            // In the import's transaction, before the table is attached: never seen.
            try db.execute("DELETE FROM \(table) WHERE trip_id IN (\(leftOut.map { db.literal($0) }.joined(separator: ", ")))")
            leftOut = []
        }
    }

    /// Trips whose stop times are deleted once the file is copied.
    private var leftOut: [String] = []
    func leaveOut(trips: [String]) throws { leftOut = trips }

    private func flush() throws {
        guard used > 0 else { return }
        buffer = try sender!.send(buffer, count: used)
        used = 0
    }

    /// Encodes one row in COPY text format; returns the new end offset.
    static func encode(_ values: UnsafeBufferPointer<GTFSValue>, columns: UnsafeBufferPointer<Int>,
                       into out: UnsafeMutablePointer<UInt8>, at start: Int) -> Int {
        var p = start
        for (i, column) in columns.enumerated() {
            if i > 0 { out[p] = 0x09; p += 1 }
            switch values[column] {
            case .null:
                out[p] = 0x5C; out[p + 1] = 0x4E; p += 2  // \N
            case .int(let n):
                p = writeInt(n, out, p)
            case .date(let d):
                let (y, m, day) = d.components
                p = writeInt(y, out, p)
                out[p] = 0x2D; out[p + 1] = UInt8(0x30 + m / 10); out[p + 2] = UInt8(0x30 + m % 10)
                out[p + 3] = 0x2D; out[p + 4] = UInt8(0x30 + day / 10); out[p + 5] = UInt8(0x30 + day % 10)
                p += 6
            case .raw(let b):
                for c in b {
                    switch c {
                    case 0x5C: out[p] = 0x5C; out[p + 1] = 0x5C; p += 2
                    case 0x09: out[p] = 0x5C; out[p + 1] = 0x74; p += 2
                    case 0x0A: out[p] = 0x5C; out[p + 1] = 0x6E; p += 2
                    case 0x0D: out[p] = 0x5C; out[p + 1] = 0x72; p += 2
                    default: out[p] = c; p += 1
                    }
                }
            }
        }
        out[p] = 0x0A
        return p + 1
    }

    @inline(__always)
    static func writeInt(_ value: Int, _ out: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
        var p = start
        var n = value
        if n < 0 { out[p] = 0x2D; p += 1; n = -n }
        if n < 10 { out[p] = UInt8(0x30 + n); return p + 1 }
        var digits = 0, t = n
        while t > 0 { digits += 1; t /= 10 }
        var q = p + digits - 1
        while n > 0 { out[q] = UInt8(0x30 + n % 10); n /= 10; q -= 1 }
        return p + digits
    }
}

/// Hands filled COPY buffers to libpq on a thread of its own, so that parsing the next
/// rows overlaps with PostgreSQL reading the previous ones.
///
/// A blocking `PQputCopyData` returns only once the server has taken most of the chunk:
/// called on the parsing thread, parsing and the server's COPY ran one after the other
/// (measured: 1.1 s for bydgoszcz-2020's copy phase, against 0.52 s for the server's
/// COPY alone). At most `depth` buffers are in flight, so memory stays bounded. While a
/// sender runs, only its thread touches the connection.
final class CopySender: @unchecked Sendable {
    private let db: PGConnection
    private let bufferBytes: Int
    private let condition = NSCondition()
    private var queue: [(UnsafeMutablePointer<UInt8>, Int)] = []
    private var free: [UnsafeMutablePointer<UInt8>] = []
    private var closed = false
    private var done = false
    private var failure: Error?
    private let depth = 4

    init(db: PGConnection, bufferBytes: Int) {
        self.db = db
        self.bufferBytes = bufferBytes
        for _ in 0..<depth { free.append(.allocate(capacity: bufferBytes)) }
        let thread = Thread { [self] in run() }
        thread.name = "copy-sender"
        thread.start()
    }

    deinit {
        for b in free { b.deallocate() }
        for (b, _) in queue { b.deallocate() }
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty && closed {
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let (buffer, count) = queue.removeFirst()
            let failed = failure != nil
            condition.unlock()
            var error: Error?
            if !failed {
                do { try db.putCopyData(UnsafeRawBufferPointer(start: buffer, count: count)) } catch let e { error = e }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            free.append(buffer)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues `buffer` (the caller gives it up) and returns an empty one to fill next.
    func send(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> UnsafeMutablePointer<UInt8> {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        queue.append((buffer, count))
        condition.broadcast()
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure { throw failure }
        return free.removeLast()
    }

    /// Waits until every queued buffer was handed to libpq and the thread has ended.
    func finish() throws {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        if let failure { throw failure }
    }
}
