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
    private var buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var used = 0
    private var inCopy = false

    init(db: PGConnection, importId: Int64, feedId: String) {
        self.db = db
        self.importId = importId
        self.feedId = feedId
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    func beginFile(_ spec: GTFSFileSpec) throws {
        let table = StoreSchema.partition(spec, importId: importId)
        let lit = db.literal(feedId)
        let cols = (["feed_id text NOT NULL DEFAULT \(lit) CHECK (feed_id = \(lit))"]
                    + StoreSchema.columnDefinitions(spec)).joined(separator: ", ")
        try db.execute("CREATE TABLE \(table) (\(cols))")
        let names = spec.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        try db.beginCopy("COPY \(table) (\(names)) FROM STDIN")
        inCopy = true
        used = 0
    }

    func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {
        // Worst case for one row: every raw byte escaped (2x) plus separators and numbers.
        var need = values.count * 24 + 2
        for v in values { if case .raw(let b) = v { need += 2 * b.count } }
        if used + need > capacity { try flush() }
        if need > capacity { return try writeLargeRow(values, need) }
        used = CopySink.encode(values, into: buffer, at: used)
    }

    private func writeLargeRow(_ values: UnsafeBufferPointer<GTFSValue>, _ need: Int) throws {
        let big = UnsafeMutablePointer<UInt8>.allocate(capacity: need)
        defer { big.deallocate() }
        let n = CopySink.encode(values, into: big, at: 0)
        try db.putCopyData(UnsafeRawBufferPointer(start: big, count: n))
    }

    func endFile(_ spec: GTFSFileSpec) throws {
        try flush()
        inCopy = false
        try db.endCopy()
    }

    private func flush() throws {
        guard used > 0 else { return }
        try db.putCopyData(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    /// Encodes one row in COPY text format; returns the new end offset.
    static func encode(_ values: UnsafeBufferPointer<GTFSValue>, into out: UnsafeMutablePointer<UInt8>, at start: Int) -> Int {
        var p = start
        for (i, v) in values.enumerated() {
            if i > 0 { out[p] = 0x09; p += 1 }
            switch v {
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
