import Testing
import GTFS

private func bytes<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    Array(text.utf8).withUnsafeBufferPointer(body)
}

@Suite("FieldParsing")
struct FieldParsingTests {
    @Test("integer: valid", arguments: [
        ("0", 0), ("7", 7), ("42", 42), ("-42", -42), ("+42", 42), ("-0", 0), ("007", 7),
        ("2147483647", 2_147_483_647), ("-2147483648", -2_147_483_648),
        ("999999999999999999", 999_999_999_999_999_999),       // 18 digits: the longest accepted
        ("-999999999999999999", -999_999_999_999_999_999),
        ("+000000000000000001", 1),
    ])
    func integerValid(text: String, value: Int) {
        #expect(bytes(text) { FieldParsing.integer($0) } == value, "\(text)")
    }

    @Test("integer: rejected", arguments: [
        "", "-", "+", "--1", "+-1", "1-", "1.0", "1e3", " 1", "1 ", "1,000", "0x10", "abc", "½",
        "1000000000000000000",       // 19 digits: could overflow, rejected by length
        "9999999999999999999999999",
        "-1000000000000000000",
    ])
    func integerRejected(text: String) {
        #expect(bytes(text) { FieldParsing.integer($0) } == nil, "\(text.debugDescription)")
    }

    @Test("decimal: valid", arguments: [
        ("-12.5", -12.5), (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001), ("1E3", 1000.0), ("0", 0.0),
        ("-0", 0.0), ("+1.5", 1.5), ("-.25", -0.25), ("1.5e2", 150.0), ("1e+3", 1000.0),
        ("37.7764393371", 37.7764393371), ("-122.394322993", -122.394322993), ("00012", 12.0),
        ("6.02E23", 6.02e23), ("1e-299", 1e-299),
    ])
    func decimalValid(text: String, value: Double) throws {
        let parsed = try #require(bytes(text) { FieldParsing.decimal($0) }, "\(text)")
        #expect(abs(parsed - value) <= abs(value) * 1e-12, "\(text) → \(parsed)")
    }

    @Test("decimal: rejected", arguments: [
        "1e", "--1", "1.2.3", "nan", "NaN", "inf", "-inf", "Infinity", "0x10", "", ".", "-", "+", "-.",
        "e3", "1e-", "1e+", "1,5", " 1", "1 ", "1.0f", "1e3.5", "1ee3", "abc", "1e400", "1e-400",
    ])
    func decimalRejected(text: String) {
        #expect(bytes(text) { FieldParsing.decimal($0) } == nil, "\(text.debugDescription)")
    }

    @Test("isValidText")
    func validText() {
        func valid(_ b: [UInt8]) -> Bool { b.withUnsafeBufferPointer { FieldParsing.isValidText($0) } }
        #expect(valid([]))
        #expect(valid(Array("Stagecoach Hotel & Casino (Demo)".utf8)))
        #expect(valid(Array("Žirmūnų g.".utf8)))          // two-byte sequences
        #expect(valid(Array("東京駅".utf8)))                 // three-byte sequences
        #expect(valid(Array("🚆 Caltrain".utf8)))          // four-byte sequence
        #expect(!valid([0xFF]))
        #expect(!valid(Array("ab".utf8) + [0xFF] + Array("cd".utf8)))
        #expect(!valid([0x61, 0x00, 0x62]))                 // NUL
        #expect(!valid([0x00]))
        #expect(!valid(Array("é".utf8) + [0x00]))           // NUL after non-ASCII
        #expect(!valid([0xC3]))                             // truncated sequence
        #expect(!valid([0xC3, 0x41]))                       // bad continuation byte
        #expect(!valid([0xC0, 0x80]))                       // overlong
        #expect(!valid([0xED, 0xA0, 0x80]))                 // UTF-16 surrogate
        #expect(!valid([0xF4, 0x90, 0x80, 0x80]))           // past U+10FFFF
        #expect(!valid([0x80]))                             // lone continuation byte
        #expect(valid([0x09, 0x20, 0x7F]))                  // tab, space, DEL are fine
    }

    @Test("isHexDigit")
    func hexDigits() {
        let hex = Set(Array("0123456789abcdefABCDEF".utf8))
        for c in UInt8.min...UInt8.max { #expect(FieldParsing.isHexDigit(c) == hex.contains(c), "\(c)") }
    }
}
