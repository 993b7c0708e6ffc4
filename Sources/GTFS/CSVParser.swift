/// A streaming CSV parser for GTFS files (RFC 4180 plus what real feeds do).
///
/// Written by hand rather than taken from a CSV package because it sits on the
/// importer's hot path (hundreds of thousands of rows a second): it works on raw UTF-8
/// bytes, never builds a `String`, and hands each record to the caller as views into its
/// own buffer. Bytes are pushed in chunks of any size (a zip entry is inflated piece by
/// piece), so memory stays flat whatever the file size.
///
/// Accepts: a UTF-8 byte order mark, LF, CRLF or CR line ends (also mixed, also a CRLF
/// split between two chunks), quoted fields with commas, doubled quotes and line breaks,
/// a last line without a line end, and blank lines (skipped). A quote left open at the end
/// of the file yields a record flagged `unterminatedQuote`.
public final class CSVParser {
    /// One record, valid only inside the callback that received it.
    public struct Record {
        @usableFromInline let base: UnsafePointer<UInt8>
        @usableFromInline let bounds: UnsafePointer<Int>
        /// Number of fields in this record.
        public let count: Int
        /// 1-based line number (in the file) where the record starts.
        public let line: Int
        /// True when the file ended inside a quoted field.
        public let unterminatedQuote: Bool
        /// Bit i set when field i (< 64) was written in double quotes.
        public let quotedFields: UInt64

        /// Whether field `i` was written in double quotes (always false past field 63).
        @inlinable public func isQuoted(_ i: Int) -> Bool { i < 64 && quotedFields & (1 << UInt64(i)) != 0 }

        /// The bytes of field `i`, quotes removed and doubled quotes undone; empty when
        /// `i` is past the end of the record.
        @inlinable
        public subscript(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            guard i < count else { return UnsafeBufferPointer(start: nil, count: 0) }
            let start = bounds[2 * i], end = bounds[2 * i + 1]
            return UnsafeBufferPointer(start: base + start, count: end - start)
        }

        /// Field `i` as a `String` (invalid UTF-8 repaired): for messages and headers only.
        public func string(_ i: Int) -> String { String(decoding: self[i], as: UTF8.self) }
    }

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    private var bounds: UnsafeMutablePointer<Int>
    private var boundsCapacity = 64
    private var line = 1
    private var atFileStart = true
    private var pendingCR = false
    /// Total bytes consumed so far (for progress reporting).
    public private(set) var bytesConsumed = 0

    public init(initialCapacity: Int = 1 << 20) {
        capacity = max(initialCapacity, 64)
        buffer = .allocate(capacity: capacity)
        bounds = .allocate(capacity: boundsCapacity)
    }

    deinit {
        buffer.deallocate()
        bounds.deallocate()
    }

    /// Adds a chunk of bytes and reports every record that is now complete.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ onRecord: (Record) throws -> Void) rethrows {
        guard chunk.count > 0 else { return }
        bytesConsumed += chunk.count
        var src = chunk.bindMemory(to: UInt8.self)
        if pendingCR {
            pendingCR = false
            if src.first == 0x0A { src = UnsafeBufferPointer(rebasing: src.dropFirst()) }
        }
        if used + src.count > capacity {
            var newCapacity = capacity
            while used + src.count > newCapacity { newCapacity *= 2 }
            let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBuffer.update(from: buffer, count: used)
            buffer.deallocate()
            buffer = newBuffer
            capacity = newCapacity
        }
        if let s = src.baseAddress { (buffer + used).update(from: s, count: src.count) }
        used += src.count
        if atFileStart {
            if used < 3 && [0xEF, 0xBB, 0xBF].starts(with: UnsafeBufferPointer(start: buffer, count: used)) {
                return  // could still be a BOM: wait for more bytes
            }
            atFileStart = false
            if used >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
                (buffer).update(from: buffer + 3, count: used - 3)
                used -= 3
            }
        }
        let consumed = try parse(final: false, onRecord)
        if consumed > 0 {
            if consumed < used { buffer.update(from: buffer + consumed, count: used - consumed) }
            used -= consumed
        }
    }

    /// Reports the last record (a file need not end with a line break) and resets.
    public func finish(_ onRecord: (Record) throws -> Void) rethrows {
        atFileStart = false
        _ = try parse(final: true, onRecord)
        used = 0
        line = 1
        atFileStart = true
        pendingCR = false
    }

    @inline(__always)
    private func ensureBounds(_ n: Int) {
        if n > boundsCapacity {
            var c = boundsCapacity
            while c < n { c *= 2 }
            let nb = UnsafeMutablePointer<Int>.allocate(capacity: c)
            nb.update(from: bounds, count: boundsCapacity)
            bounds.deallocate()
            bounds = nb
            boundsCapacity = c
        }
    }

    /// Parses complete records from `buffer[0..<used]`; returns how many bytes they used.
    private func parse(final: Bool, _ onRecord: (Record) throws -> Void) rethrows -> Int {
        let buf = buffer
        let end = used
        var recordStart = 0
        var i = 0
        while recordStart < end {
            // Parse one record starting at recordStart.
            i = recordStart
            var fieldCount = 0
            var newlinesInside = 0
            var complete = false
            var unterminated = false
            var needsUnescape = false
            var lineEnd = 0
            fieldLoop: while true {
                ensureBounds(2 * (fieldCount + 1))
                let fieldStart = i
                var fieldNeedsUnescape = false
                if i < end && buf[i] == 0x22 {
                    // Quoted field: scan to the closing quote, then to the delimiter.
                    fieldNeedsUnescape = true
                    i += 1
                    var inQuotes = true
                    while i < end {
                        let c = buf[i]
                        if inQuotes {
                            if c == 0x22 { inQuotes = false }
                            else if c == 0x0A { newlinesInside += 1 }
                            else if c == 0x0D && !(i + 1 < end && buf[i + 1] == 0x0A) { newlinesInside += 1 }
                        } else {
                            if c == 0x22 { inQuotes = true }  // doubled quote, or stray quote
                            else if c == 0x2C || c == 0x0A || c == 0x0D { break }
                        }
                        i += 1
                    }
                    if inQuotes {
                        guard final else { break fieldLoop }  // wait for more bytes
                        unterminated = true
                    }
                } else {
                    while i < end {
                        let c = buf[i]
                        if c == 0x2C || c == 0x0A || c == 0x0D { break }
                        i += 1
                    }
                }
                bounds[2 * fieldCount] = fieldStart
                bounds[2 * fieldCount + 1] = i
                if fieldNeedsUnescape {
                    // Remember it; quoting is undone only once the record is complete, so an
                    // incomplete record is re-parsed later from untouched bytes.
                    bounds[2 * fieldCount] = ~fieldStart
                    needsUnescape = true
                }
                fieldCount += 1
                if i >= end {
                    guard final else { break fieldLoop }
                    lineEnd = end
                    complete = true
                    break fieldLoop
                }
                let c = buf[i]
                if c == 0x2C { i += 1; continue fieldLoop }
                // Line end: LF, CRLF or CR.
                if c == 0x0D {
                    if i + 1 < end {
                        lineEnd = buf[i + 1] == 0x0A ? i + 2 : i + 1
                    } else {
                        lineEnd = i + 1
                        if !final { pendingCR = true }
                    }
                } else {
                    lineEnd = i + 1
                }
                complete = true
                break fieldLoop
            }
            guard complete else { break }  // wait for the rest of the record
            var quoted: UInt64 = 0
            if needsUnescape {
                for f in 0..<fieldCount where bounds[2 * f] < 0 {
                    if f < 64 { quoted |= 1 << UInt64(f) }
                    let start = ~bounds[2 * f], stop = bounds[2 * f + 1]
                    // Undo quoting in place: the result is never longer than the source.
                    var w = start, r = start, q = false
                    while r < stop {
                        let c = buf[r]
                        if c == 0x22 {
                            if q && r + 1 < stop && buf[r + 1] == 0x22 { buf[w] = 0x22; w += 1; r += 2; continue }
                            q.toggle(); r += 1; continue
                        }
                        buf[w] = c; w += 1; r += 1
                    }
                    bounds[2 * f] = start
                    bounds[2 * f + 1] = w
                }
            }
            let blank = fieldCount == 1 && bounds[0] == bounds[1] && !unterminated
            if !blank {
                try onRecord(Record(base: buf, bounds: bounds, count: fieldCount, line: line,
                                    unterminatedQuote: unterminated, quotedFields: quoted))
            }
            line += 1 + newlinesInside
            recordStart = lineEnd
        }
        return recordStart
    }
}
