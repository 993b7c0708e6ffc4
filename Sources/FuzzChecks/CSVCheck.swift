import GTFS

/// `fuzz-csv`: `CSVParser` on any bytes.
///
/// Properties: the records are the same whatever the chunk boundaries (one chunk; two,
/// split at a point taken from the input; chunks of 1 to 8 bytes); a parser reused after
/// `finish()` gives the same records again; line numbers start at 1, grow, and stay within
/// the file's line count; and writing the records back out as RFC 4180 CSV (every field
/// quoted) and parsing that gives the same fields.
public enum CSVCheck {
    /// One record, copied out of the parser's buffer.
    struct Record: Equatable, CustomStringConvertible {
        var fields: [[UInt8]]
        var line: Int
        var unterminatedQuote: Bool
        var description: String {
            "line \(line)\(unterminatedQuote ? " (unterminated)" : ""): "
                + fields.map { String(decoding: $0, as: UTF8.self).debugDescription }.joined(separator: ",")
        }
    }

    static func parse(_ parser: CSVParser, _ chunks: [UnsafeRawBufferPointer]) -> [Record] {
        var out: [Record] = []
        let collect = { (r: CSVParser.Record) in
            out.append(Record(fields: (0..<r.count).map { Array(r[$0]) }, line: r.line, unterminatedQuote: r.unterminatedQuote))
        }
        for c in chunks { parser.feed(c, collect) }
        parser.finish(collect)
        return out
    }

    static func chunks(_ b: UnsafeRawBufferPointer, sizes: (Int) -> Int) -> [UnsafeRawBufferPointer] {
        var out: [UnsafeRawBufferPointer] = [], i = 0, k = 0
        while i < b.count {
            let n = min(max(1, sizes(k)), b.count - i)
            out.append(UnsafeRawBufferPointer(rebasing: b[i..<(i + n)]))
            i += n; k += 1
        }
        return out
    }

    static func firstDifference(_ a: [Record], _ b: [Record]) -> String {
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            return "record \(i + 1): \(i < a.count ? a[i].description : "none") vs \(i < b.count ? b[i].description : "none")"
        }
        return "none"
    }

    /// RFC 4180 with every field quoted and quotes doubled; a record ends with LF.
    static func write(_ records: [Record]) -> [UInt8] {
        var out: [UInt8] = []
        for r in records {
            for (i, f) in r.fields.enumerated() {
                if i > 0 { out.append(0x2C) }
                out.append(0x22)
                for c in f { out.append(c); if c == 0x22 { out.append(0x22) } }
                out.append(0x22)
            }
            out.append(0x0A)
        }
        return out
    }

    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        func fail(_ m: String) -> FuzzFailure { FuzzFailure("fuzz-csv", m) }
        let parser = CSVParser(initialCapacity: 64)  // small, so that growing the buffer is exercised too
        let whole = parse(parser, input.isEmpty ? [] : [input])

        let h = inputHash(input)
        let split = input.isEmpty ? 0 : Int(h % UInt64(input.count + 1))
        let two = parse(CSVParser(initialCapacity: 64), [UnsafeRawBufferPointer(rebasing: input[..<split]),
                                                         UnsafeRawBufferPointer(rebasing: input[split...])].filter { !$0.isEmpty })
        guard two == whole else {
            throw fail("the records differ when the bytes come in two chunks split at byte \(split): \(firstDifference(whole, two))")
        }
        let small = parse(CSVParser(initialCapacity: 64), chunks(input) { k in Int((h >> UInt64(3 * (k % 21))) & 7) + 1 })
        guard small == whole else {
            throw fail("the records differ when the bytes come in chunks of 1 to 8 bytes: \(firstDifference(whole, small))")
        }
        let again = parse(parser, input.isEmpty ? [] : [input])
        guard again == whole else {
            throw fail("a parser reused after finish() reads the same bytes differently: \(firstDifference(whole, again))")
        }

        let lineBreaks = input.reduce(0) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
        var previous = 0
        for r in whole {
            guard r.line > previous, r.line <= lineBreaks + 1 else {
                throw fail("record at line \(r.line) after line \(previous), in bytes with \(lineBreaks) line breaks: \(r)")
            }
            previous = r.line
            guard r.fields.count >= 1 else { throw fail("a record with no field at line \(r.line)") }
        }
        for r in whole.dropLast() where r.unterminatedQuote {
            throw fail("a record flagged unterminatedQuote before the last one: \(r)")
        }

        // Unterminated quoting cannot be written back as it was read.
        let complete = whole.filter { !$0.unterminatedQuote }
        let written = write(complete)
        let reread = written.withUnsafeBytes { parse(CSVParser(initialCapacity: 64), [$0]) }
        let fields = { (rs: [Record]) in rs.map { $0.fields } }
        guard fields(reread) == fields(complete) else {
            let a = complete.map { Record(fields: $0.fields, line: 0, unterminatedQuote: false) }
            let b = reread.map { Record(fields: $0.fields, line: 0, unterminatedQuote: $0.unterminatedQuote) }
            throw fail("the records written back as quoted CSV read differently: \(firstDifference(a, b))")
        }
    }

    /// Every sampled file as it is, and hand-made corner cases of the format.
    public static func seeds(_ samples: [FeedSample]) -> [[UInt8]] {
        var out: [[UInt8]] = samples.flatMap { s in s.files.keys.sorted().map { s.files[$0]! } }
        let corners = [
            "a,b,c\n1,2,3\n", "\u{FEFF}stop_id,stop_name\r\nS1,\"Main St, North\"\r\n", "a,b\r1,2\r",
            "a,b\n\"x\"\"y\",\"line\nbreak\"\n", "a,b\n\"open,1\n", "a,b\n\n\n1,2", "a\n\"\"\n", "a,b\n1,\"2\"x\"3\"\n",
            "\u{FEFF}", "a,b\r\n1,2\r\n\r\n", "a, b ,c\n 1 , 2 ,3\n", "\"a\r\nb\",c\r\n",
        ]
        out += corners.map { Array($0.utf8) }
        return out
    }

    public static func dictionary(_ samples: [FeedSample]) -> [String] {
        ["\"", "\"\"", ",", "\r\n", "\r", "\n", "\u{FEFF}", ",\"", "\",", "\"\r\n"]
    }
}
