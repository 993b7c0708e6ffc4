import Foundation

/// Counts the data rows of a CSV file: the oracle of the row-count tests.
///
/// Written on purpose without looking at the importer's parser (Sources/GTFS/CSVParser.swift)
/// and as simply as possible: a four-state machine over bytes.
///
/// - A record ends at a line end (LF, CRLF or a lone CR) outside quotes.
/// - A field that starts with `"` is quoted: line ends and commas inside it belong to it,
///   `""` is a literal quote, and the closing quote ends the quoted part.
/// - Empty lines (no byte between two line ends) are not records.
/// - The first record is the header and is not counted.
/// - A file may end without a line end, or inside quotes (that last record still counts).
public enum CSVRowCounter {
    public struct Counts: Equatable, Sendable {
        /// Records after the header.
        public var dataRows = 0
        /// Physical line (1-based) where each data record starts, when asked for.
        public var recordLines: [Int] = []
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    public static func countDataRows(in data: Data) -> Int { scan(data, keepLines: false).dataRows }

    public static func countDataRows(file path: String) throws -> Int {
        countDataRows(in: try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
    }

    /// Data records and the physical line each starts on.
    public static func scan(_ data: Data, keepLines: Bool = true) -> Counts {
        var counts = Counts()
        var records = 0            // the header included
        var line = 1               // physical line of the current byte
        var recordLine = 1
        var recordHasBytes = false // a byte since the last record end
        var state = State.fieldStart
        var skipLF = false         // the byte before was a CR: an LF now is part of that line end

        func endRecord() {
            if recordHasBytes {
                records += 1
                if records > 1 {
                    counts.dataRows += 1
                    if keepLines { counts.recordLines.append(recordLine) }
                }
            }
            recordHasBytes = false
            state = .fieldStart
        }

        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for c in raw {
                if skipLF {
                    skipLF = false
                    if c == 0x0A { continue }
                }
                let isLineEnd = c == 0x0A || c == 0x0D
                if isLineEnd { skipLF = c == 0x0D }
                if state == .quoted {
                    if c == 0x22 { state = .quoteInQuoted } else if isLineEnd { line += 1 }
                    continue
                }
                if isLineEnd {
                    endRecord()
                    line += 1
                    continue
                }
                if !recordHasBytes {
                    recordHasBytes = true
                    recordLine = line
                }
                switch (state, c) {
                case (_, 0x2C): state = .fieldStart
                case (.fieldStart, 0x22), (.quoteInQuoted, 0x22): state = .quoted
                default: state = .unquoted
                }
            }
        }
        endRecord()
        return counts
    }
}
