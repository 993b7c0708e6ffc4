import Foundation
import Testing
import TransitTesting
import GTFS

/// A record copied out of the parser's callback (records are only valid inside it).
private struct Rec: Equatable, CustomStringConvertible {
    var fields: [[UInt8]]
    var line: Int
    var unterminated: Bool = false

    init(_ fields: [[UInt8]], line: Int, unterminated: Bool = false) {
        self.fields = fields; self.line = line; self.unterminated = unterminated
    }
    init(_ strings: [String], line: Int, unterminated: Bool = false) {
        self.init(strings.map { Array($0.utf8) }, line: line, unterminated: unterminated)
    }
    var strings: [String] { fields.map { String(decoding: $0, as: UTF8.self) } }
    var description: String { "line \(line)\(unterminated ? " (unterminated)" : ""): \(strings)" }
}

/// Feeds `bytes` to a parser in chunks that end at `cuts` (ascending offsets), then finishes.
private func parse(_ bytes: [UInt8], cuts: [Int] = [], parser: CSVParser = CSVParser(initialCapacity: 64)) -> [Rec] {
    var out: [Rec] = []
    let collect: (CSVParser.Record) -> Void = { r in
        var fields: [[UInt8]] = []
        for i in 0..<r.count { fields.append(Array(r[i])) }
        out.append(Rec(fields, line: r.line, unterminated: r.unterminatedQuote))
    }
    bytes.withUnsafeBytes { raw in
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            parser.feed(UnsafeRawBufferPointer(rebasing: raw[start..<cut]), collect)
            start = cut
        }
    }
    parser.finish(collect)
    return out
}

private func parse(_ text: String, cuts: [Int] = []) -> [Rec] { parse(Array(text.utf8), cuts: cuts) }

/// Independent reference splitter (RFC 4180 plus CR / CRLF / LF line ends, a leading BOM,
/// blank lines skipped, a quote left open at the end flagged). Only meant for well-formed
/// quoting: a quoted field is quoted from its first to its last byte.
private func referenceSplit(_ input: [UInt8]) -> [Rec] {
    let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
    let a = input.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input.dropFirst(3)) : input
    var records: [Rec] = []
    var line = 1
    var i = 0
    func isBreak(_ c: UInt8) -> Bool { c == cr || c == lf }
    while i < a.count {
        let startLine = line
        var fields: [[UInt8]] = []
        var unterminated = false
        while true {
            var field: [UInt8] = []
            if i < a.count && a[i] == quote {
                i += 1
                var closed = false
                while i < a.count {
                    let c = a[i]
                    if c == quote {
                        if i + 1 < a.count && a[i + 1] == quote { field.append(quote); i += 2; continue }
                        closed = true; i += 1; break
                    }
                    if c == lf || (c == cr && !(i + 1 < a.count && a[i + 1] == lf)) { line += 1 }
                    field.append(c); i += 1
                }
                if !closed { unterminated = true }
            }
            while i < a.count && a[i] != comma && !isBreak(a[i]) { field.append(a[i]); i += 1 }
            fields.append(field)
            if i >= a.count { break }
            if a[i] == comma { i += 1; continue }
            i += (a[i] == cr && i + 1 < a.count && a[i + 1] == lf) ? 2 : 1
            line += 1
            break
        }
        if !(fields.count == 1 && fields[0].isEmpty && !unterminated) {
            records.append(Rec(fields, line: startLine, unterminated: unterminated))
        }
    }
    return records
}

/// A small input with every tricky feature: BOM, CRLF, CR, LF, quotes, doubled quotes,
/// commas and line breaks inside quotes, blank lines, empty fields, no final line end.
private let trickyInput: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
    "id,name,note\r\n"
    + "1,\"Main St, North\",\"say \"\"hi\"\"\"\r\n"
    + "2,plain,\"two\r\nlines\"\r\n"
    + "\r\n"
    + "3,,\r"
    + "4,\"cr\ronly\",\"lf\nonly\"\n"
    + "\n"
    + "5,\"\",\"\"\"\"\r\n"
    + "6,é日本,\"\r\n\"\r\n"
    + "7,last,no newline"
).utf8)

/// The same, but ending inside a quoted field.
private let trickyUnterminated: [UInt8] = trickyInput + Array("\r\n8,\"open, never\r\nclosed".utf8)

private func readFromZip(_ zip: String, _ file: String) throws -> [UInt8] {
    let source = try ZipFeedSource(path: zip)
    var bytes: [UInt8] = []
    try source.read(file) { bytes.append(contentsOf: $0) }
    return bytes
}

@Suite("CSVParser")
struct CSVParserTests {
    @Test("plain LF file")
    func plain() {
        #expect(parse("a,b,c\nd,e,f\n") == [Rec(["a", "b", "c"], line: 1), Rec(["d", "e", "f"], line: 2)])
    }

    @Test("CRLF line ends")
    func crlf() {
        #expect(parse("a,b\r\nc,d\r\n") == [Rec(["a", "b"], line: 1), Rec(["c", "d"], line: 2)])
    }

    @Test("CR-only line ends")
    func crOnly() {
        #expect(parse("a,b\rc,d\re,f\r") == [Rec(["a", "b"], line: 1), Rec(["c", "d"], line: 2), Rec(["e", "f"], line: 3)])
    }

    @Test("mixed line ends")
    func mixed() {
        #expect(parse("a\r\nb\rc\nd\r\n\re") == [
            Rec(["a"], line: 1), Rec(["b"], line: 2), Rec(["c"], line: 3), Rec(["d"], line: 4), Rec(["e"], line: 6),
        ])
    }

    @Test("UTF-8 BOM is removed")
    func bom() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\n1,x\n".utf8)
        let expected = [Rec(["stop_id", "stop_name"], line: 1), Rec(["1", "x"], line: 2)]
        #expect(parse(bytes) == expected)
        // BOM bytes split across chunks, in every possible way.
        #expect(parse(bytes, cuts: [1]) == expected)
        #expect(parse(bytes, cuts: [2]) == expected)
        #expect(parse(bytes, cuts: [1, 2]) == expected)
        #expect(parse(bytes, cuts: [1, 2, 3, 4]) == expected)
        #expect(parse(bytes, cuts: [0, 0, 1, 1, 2, 3]) == expected)
    }

    @Test("a BOM only at the start of the file is removed; other bytes are kept")
    func bomOnlyAtStart() {
        // Not a BOM: the first bytes merely start like one.
        let fake: [UInt8] = [0xEF, 0xBB, 0x41, 0x0A]
        #expect(parse(fake) == [Rec([[0xEF, 0xBB, 0x41]], line: 1)])
        #expect(parse(fake, cuts: [1, 2]) == [Rec([[0xEF, 0xBB, 0x41]], line: 1)])
        // A BOM after the start is data.
        let second: [UInt8] = Array("a\n".utf8) + [0xEF, 0xBB, 0xBF, 0x62, 0x0A]
        #expect(parse(second, cuts: [2]) == [Rec(["a"], line: 1), Rec([[0xEF, 0xBB, 0xBF, 0x62]], line: 2)])
        // A file that is only a BOM has no records; one with a BOM prefix only, keeps it.
        #expect(parse([0xEF, 0xBB, 0xBF]).isEmpty)
        #expect(parse([0xEF, 0xBB]) == [Rec([[0xEF, 0xBB]], line: 1)])
    }

    @Test("quoted fields: commas, doubled quotes, embedded line breaks")
    func quoted() {
        let text = "\"a,b\",\"he said \"\"hi\"\"\",\"line1\nline2\",\"\"\n"
            + "next,\"x\r\ny\r\nz\"\r\n"
            + "third,row\n"
        #expect(parse(text) == [
            Rec(["a,b", "he said \"hi\"", "line1\nline2", ""], line: 1),
            Rec(["next", "x\r\ny\r\nz"], line: 3),     // the quoted LF moved the next record to line 3
            Rec(["third", "row"], line: 6),            // two CRLFs inside quotes
        ])
        #expect(parse("\"\"\"\"\n") == [Rec(["\""], line: 1)])
        #expect(parse("\"cr\ronly\"\nx\n") == [Rec(["cr\ronly"], line: 1), Rec(["x"], line: 3)])
    }

    @Test("last line without a line end")
    func lastLine() {
        #expect(parse("a,b\nc,d") == [Rec(["a", "b"], line: 1), Rec(["c", "d"], line: 2)])
        #expect(parse("a,b\nc,") == [Rec(["a", "b"], line: 1), Rec(["c", ""], line: 2)])
        #expect(parse("a,\"q\"") == [Rec(["a", "q"], line: 1)])
        #expect(parse("single") == [Rec(["single"], line: 1)])
    }

    @Test("blank lines are skipped but counted")
    func blankLines() {
        #expect(parse("\n\na\n\n\r\n\rb\n\n") == [Rec(["a"], line: 3), Rec(["b"], line: 7)])
        #expect(parse("").isEmpty)
        #expect(parse("\n\r\n\r").isEmpty)
        // A line of commas is not blank.
        #expect(parse(",\n") == [Rec(["", ""], line: 1)])
    }

    @Test("a quote left open at the end of the file is flagged")
    func unterminated() {
        let records = parse("h1,h2\na,\"bc\nd,e")
        #expect(records == [Rec(["h1", "h2"], line: 1), Rec(["a", "bc\nd,e"], line: 2, unterminated: true)])
        #expect(parse("\"") == [Rec([""], line: 1, unterminated: true)])
        #expect(parse("a,b\n").allSatisfy { !$0.unterminated })
    }

    @Test("fields past the end of a record are empty; string(_:) decodes")
    func beyondCount() {
        let parser = CSVParser()
        var checked = 0
        let bytes = Array("x,\"y, z\",é\n".utf8)
        bytes.withUnsafeBytes { raw in
            parser.feed(raw) { r in
                #expect(r.count == 3)
                #expect(r[3].count == 0)
                #expect(r[100].isEmpty)
                #expect(r.string(3) == "")
                #expect(r.string(0) == "x")
                #expect(r.string(1) == "y, z")
                #expect(r.string(2) == "é")
                #expect(!r.unterminatedQuote)
                checked += 1
            }
        }
        parser.finish { _ in Issue.record("no record left for finish") }
        #expect(checked == 1)
        #expect(parser.bytesConsumed == bytes.count)
    }

    @Test("finish resets the parser for the next file")
    func reuse() {
        let parser = CSVParser(initialCapacity: 64)
        let first = parse([0xEF, 0xBB, 0xBF] + Array("a\nb\r".utf8), parser: parser)
        let second = parse([0xEF, 0xBB, 0xBF] + Array("\nc\nd".utf8), parser: parser)
        #expect(first == [Rec(["a"], line: 1), Rec(["b"], line: 2)])
        // The BOM is stripped again, the line count restarts, and the pending CR of the
        // first file does not swallow the LF that starts the second.
        #expect(second == [Rec(["c"], line: 2), Rec(["d"], line: 3)])
    }

    @Test("long records and fields grow the buffers")
    func longRecords() {
        let manyFields = (0..<1000).map { String($0) }.joined(separator: ",")
        let longField = String(repeating: "x", count: 200_000)
        let text = manyFields + "\n\"" + longField + "\"\n" + longField + "\n"
        let records = parse(text)
        #expect(records.count == 3)
        #expect(records.first?.fields.count == 1000)
        #expect(records.first?.strings.last == "999")
        #expect(records.dropFirst().allSatisfy { $0.fields == [Array(longField.utf8)] })
        #expect(records == parse(Array(text.utf8), cuts: Array(stride(from: 7, to: text.utf8.count, by: 4099))))
    }

    @Test("the reference splitter agrees with hand-written expectations")
    func referenceSanity() {
        #expect(referenceSplit(Array("a,b\r\n\r\n\"c\nd\",e\rf".utf8))
                == [Rec(["a", "b"], line: 1), Rec(["c\nd", "e"], line: 3), Rec(["f"], line: 5)])
        #expect(referenceSplit(trickyInput).count == 8)
    }

    // MARK: - The key property: chunking never changes the result

    @Test("tricky input: whole parse equals the reference", arguments: [trickyInput, trickyUnterminated])
    func wholeEqualsReference(input: [UInt8]) {
        let whole = parse(input)
        #expect(whole == referenceSplit(input))
        #expect(whole.count >= 8)
    }

    @Test("tricky input: split at every single offset, and byte by byte", arguments: [trickyInput, trickyUnterminated])
    func everySingleSplit(input: [UInt8]) {
        let expected = referenceSplit(input)
        var failures: [Int] = []
        for cut in 0...input.count where parse(input, cuts: [cut]) != expected { failures.append(cut) }
        #expect(failures.isEmpty, "results differ when split at offsets \(failures)")
        #expect(parse(input, cuts: Array(1..<input.count)) == expected, "byte by byte")
    }

    @Test("tricky input: split at every pair of offsets")
    func everyPairOfSplits() {
        let input = trickyInput
        let expected = referenceSplit(input)
        var failures: [(Int, Int)] = []
        for a in 0...input.count {
            for b in a...input.count where parse(input, cuts: [a, b]) != expected { failures.append((a, b)) }
        }
        #expect(failures.isEmpty, "results differ for \(failures.count) pairs, first \(failures.prefix(5))")
    }

    @Test("synthetic inputs: random chunk sizes", arguments: 0..<4)
    func syntheticRandomChunks(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &+ 1000)
        // Random CSV built from pieces that stress quotes and line ends.
        let pieces = ["a", "bc", ",", "\r\n", "\n", "\r", "\"q,\"", "\"x\"\"y\"", "\"l\nm\"", "\"c\r\nd\"", "", "é", "\"\""]
        var text = ""
        for _ in 0..<400 { text += pieces.randomElement(using: &rng)! }
        let input = (seed % 2 == 0 ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        let whole = parse(input)
        for _ in 0..<50 {
            #expect(parse(input, cuts: randomCuts(input.count, maxChunk: 16, using: &rng)) == whole)
        }
    }

    @Test("real files: random chunk sizes 1…4096 give the same records as the whole file", arguments: [
        ("caltrain.zip", "stop_times.txt"),
        ("caltrain.zip", "stops.txt"),
        ("google-sample.zip", "stop_times.txt"),
        ("google-sample.zip", "feed_info.txt"),
    ])
    func realFileRandomChunks(zip: String, file: String) throws {
        let input = try readFromZip(repoRoot.appendingPathComponent("Data/\(zip)").path, file)
        #expect(input.count > 0)
        let whole = parse(input)
        #expect(whole == referenceSplit(input))
        #expect(whole.count == input.split(separator: 0x0A, omittingEmptySubsequences: true).count)
        var rng = SeededRandom(seed: 42)
        for round in 0..<12 {
            let cuts = randomCuts(input.count, maxChunk: round < 6 ? 4096 : 64, using: &rng)
            let chunked = parse(input, cuts: cuts)
            #expect(chunked == whole, "round \(round): \(cuts.count) chunks")
            if chunked != whole { break }
        }
    }

    @Test("a real file with a BOM and CRLF (shared data), random chunks")
    func sharedBOMFile() throws {
        let zip = try requireSharedFeed("vilnius-2015.zip")
        let input = try readFromZip(zip, "routes.txt")
        #expect(input.starts(with: [0xEF, 0xBB, 0xBF]))
        let whole = parse(input)
        #expect(whole == referenceSplit(input))
        #expect(whole.first?.fields.first?.starts(with: [0xEF]) == false)
        var rng = SeededRandom(seed: 7)
        for _ in 0..<10 { #expect(parse(input, cuts: randomCuts(input.count, maxChunk: 4096, using: &rng)) == whole) }
    }
}

/// Ascending chunk boundaries with chunk sizes 1…maxChunk.
private func randomCuts<R: RandomNumberGenerator>(_ count: Int, maxChunk: Int, using rng: inout R) -> [Int] {
    var cuts: [Int] = []
    var at = 0
    while true {
        at += Int.random(in: 1...maxChunk, using: &rng)
        if at >= count { return cuts }
        cuts.append(at)
    }
}
