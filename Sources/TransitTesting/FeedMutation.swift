import Foundation

/// Ways agencies break their feeds, each a small edit of an unzipped real feed's CSV files
/// (`FeedFolder`): what the importer must answer with one of its three outcomes (imported,
/// rows skipped or warned about, refused) and a message naming the place, never a crash,
/// a hang or a half-changed database.
public enum FeedMutation: String, CaseIterable, Sendable {
    case dropColumn = "drop stop_times.stop_id"
    case shuffleColumns = "shuffle every file's columns"
    case duplicateId = "duplicate a stop id"
    case negativeNumber = "negative stop_sequence"
    case hugeNumber = "stop_sequence of 24 digits"
    case invalidUTF8 = "invalid UTF-8 in a stop name"
    case tenMegabyteField = "a 10 MB stop name"
    case truncatedLine = "stop_times.txt cut in the middle of a line"
    case stopTimesOutOfOrder = "a trip's times going backwards"
    case tripWithOneStop = "a trip with one stop"
    case calendarWithNoDays = "a calendar row with no days"
    case coordinatesAtZero = "a stop at 0,0"
    case coordinatesOutOfRange = "a stop at latitude 123.4, longitude -200"
    case missingFile = "routes.txt missing"
    case binaryGarbage = "trips.txt replaced by binary data"
    case emptyFile = "stop_times.txt empty"

    /// Whether the importer must say something (a refusal, a skipped row or a warning):
    /// all but the valid if odd feeds (columns in another order, a trip with one stop or a
    /// calendar row without days is odd but not wrong).
    public var mustBeReported: Bool { !isValidFeed }

    /// Whether what comes out is a valid GTFS feed, if an odd one: it must import.
    public var isValidFeed: Bool { [.shuffleColumns, .tripWithOneStop, .calendarWithNoDays].contains(self) }

    /// Whether the import must be refused as a whole.
    public var mustBeFatal: Bool { [.dropColumn, .missingFile, .binaryGarbage].contains(self) }

    /// Breaks the feed in `f`; a sentence saying where, or nil when the feed has nothing to
    /// break this way (no calendar.txt, say).
    public func apply(to f: FeedFolder) throws -> String? {
        switch self {
        case .dropColumn:
            return try editTable(f, "stop_times.txt") { t in
                guard let c = t.header.firstIndex(of: "stop_id") else { return nil }
                t.header.remove(at: c)
                for i in t.rows.indices where c < t.rows[i].count { t.rows[i].remove(at: c) }
                return "stop_times.txt without its stop_id column"
            }
        case .shuffleColumns:
            var done: [String] = []
            for file in f.fileNames where file.hasSuffix(".txt") {
                _ = try editTable(f, file) { t in
                    guard t.header.count > 1 else { return nil }
                    // A fixed permutation (reversed), so a failure can be run again.
                    let order = Array(t.header.indices.reversed())
                    t.header = order.map { t.header[$0] }
                    for i in t.rows.indices where t.rows[i].count == order.count { t.rows[i] = order.map { t.rows[i][$0] } }
                    done.append(file)
                    return file
                }
            }
            return done.isEmpty ? nil : "columns reversed in \(done.joined(separator: ", "))"
        case .duplicateId:
            return try editTable(f, "stops.txt") { t in
                guard let row = t.rows.first else { return nil }
                t.rows.append(row)
                return "stops.txt line \(t.rows.count + 1) repeats line 2"
            }
        case .negativeNumber, .hugeNumber:
            return try editTable(f, "stop_times.txt") { t in
                guard let c = t.header.firstIndex(of: "stop_sequence"), !t.rows.isEmpty, c < t.rows[0].count else { return nil }
                t.rows[0][c] = Data((self == .negativeNumber ? "-3" : "999999999999999999999999").utf8)
                return "stop_times.txt line 2: stop_sequence \(String(decoding: t.rows[0][c], as: UTF8.self))"
            }
        case .invalidUTF8, .tenMegabyteField:
            return try editTable(f, "stops.txt") { t in
                guard let c = t.header.firstIndex(of: "stop_name"), !t.rows.isEmpty, c < t.rows[0].count else { return nil }
                t.rows[0][c] = self == .invalidUTF8 ? Data([0x42, 0xFF, 0xFE, 0x43, 0xC3]) : Data(repeating: UInt8(ascii: "A"), count: 10_000_000)
                return "stops.txt line 2: stop_name " + (self == .invalidUTF8 ? "with bytes FF FE and a cut-off sequence" : "of 10 MB")
            }
        case .truncatedLine:
            var lines = try f.lines("stop_times.txt")
            guard lines.count > 2 else { return nil }
            let last = FeedFolder.splitLineEnd(lines[lines.count - 1]).content
            lines[lines.count - 1] = last.prefix(last.count / 2)
            try f.write("stop_times.txt", FeedFolder.joined(lines))
            return "stop_times.txt line \(lines.count) cut after \(last.count / 2) bytes"
        case .stopTimesOutOfOrder:
            return try editTable(f, "stop_times.txt") { t in
                guard let a = t.header.firstIndex(of: "arrival_time"), let d = t.header.firstIndex(of: "departure_time"),
                      let trip = t.header.firstIndex(of: "trip_id"), t.rows.count > 1,
                      let i = t.rows.indices.dropLast().first(where: { t.rows[$0].count == t.header.count && t.rows[$0 + 1].count == t.header.count
                          && t.rows[$0][trip] == t.rows[$0 + 1][trip] && !t.rows[$0][a].isEmpty && !t.rows[$0 + 1][a].isEmpty
                          // Two stops a minute apart often share a time (Sacramento's first two do):
                          // swapping those would change nothing.
                          && t.rows[$0][a] != t.rows[$0 + 1][a] }) else { return nil }
                // The later stop time gets the earlier one's times and the other way round.
                (t.rows[i][a], t.rows[i + 1][a]) = (t.rows[i + 1][a], t.rows[i][a])
                (t.rows[i][d], t.rows[i + 1][d]) = (t.rows[i + 1][d], t.rows[i][d])
                return "stop_times.txt lines \(i + 2) and \(i + 3): times swapped"
            }
        case .tripWithOneStop:
            return try editTable(f, "stop_times.txt") { t in
                guard let trip = t.header.firstIndex(of: "trip_id"), let first = t.rows.first, trip < first.count else { return nil }
                var kept = false
                t.rows.removeAll { row in
                    guard row.count > trip, row[trip] == first[trip] else { return false }
                    defer { kept = true }
                    return kept
                }
                return "trip \(String(decoding: first[trip], as: UTF8.self)) keeps one stop time"
            }
        case .calendarWithNoDays:
            guard f.contains("calendar.txt") else { return nil }
            return try editTable(f, "calendar.txt") { t in
                guard !t.rows.isEmpty else { return nil }
                for day in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] {
                    if let c = t.header.firstIndex(of: day), c < t.rows[0].count { t.rows[0][c] = Data("0".utf8) }
                }
                return "calendar.txt line 2: no days"
            }
        case .coordinatesAtZero, .coordinatesOutOfRange:
            return try editTable(f, "stops.txt") { t in
                guard let la = t.header.firstIndex(of: "stop_lat"), let lo = t.header.firstIndex(of: "stop_lon"),
                      let i = t.rows.firstIndex(where: { $0.count == t.header.count && !$0[la].isEmpty }) else { return nil }
                let (lat, lon) = self == .coordinatesAtZero ? ("0", "0") : ("123.4", "-200")
                t.rows[i][la] = Data(lat.utf8); t.rows[i][lo] = Data(lon.utf8)
                return "stops.txt line \(i + 2): \(lat),\(lon)"
            }
        case .missingFile:
            guard f.contains("routes.txt") else { return nil }
            try f.delete("routes.txt")
            return "routes.txt deleted"
        case .binaryGarbage:
            var g = SeededRandom(seed: 7)
            try f.write("trips.txt", Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: g.next()) }))
            return "trips.txt: 4 KB of random bytes"
        case .emptyFile:
            try f.write("stop_times.txt", Data())
            return "stop_times.txt: 0 bytes"
        }
    }

    // MARK: CSV editing

    /// A file as a header and rows of raw fields (quotes kept as written), for edits that
    /// leave everything else byte for byte; written back with the file's own line end.
    struct Table {
        var header: [String]
        var rows: [[Data]]
        var headerFields: [Data]
    }

    private func editTable(_ f: FeedFolder, _ file: String, _ edit: (inout Table) throws -> String?) throws -> String? {
        guard f.contains(file) else { return nil }
        let data = try f.read(file)
        let lineEnd = data.contains(0x0D) ? Data([0x0D, 0x0A]) : Data([0x0A])
        var records = Self.records(data)
        guard !records.isEmpty else { return nil }
        let headerFields = records.removeFirst()
        var bom = false
        let header = headerFields.enumerated().map { i, d -> String in
            var s = String(decoding: d, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if i == 0 && s.hasPrefix("\u{FEFF}") { s.removeFirst(); bom = true }
            return s.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var t = Table(header: header, rows: records, headerFields: headerFields)
        guard let what = try edit(&t) else { return nil }
        var out = Data()
        if bom { out.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
        out.append(contentsOf: Array(t.header.map { Data($0.utf8) }.joined(separator: Data([0x2C]))))
        out.append(lineEnd)
        for row in t.rows { out.append(contentsOf: Array(row.joined(separator: Data([0x2C])))); out.append(lineEnd) }
        try f.write(file, out)
        return what
    }

    /// Records of raw fields: commas and line ends inside quotes belong to the field; a
    /// blank line is dropped.
    public static func records(_ data: Data) -> [[Data]] {
        var out: [[Data]] = [], fields: [Data] = [], field = Data(), quoted = false
        let bytes = [UInt8](data)
        var i = 0
        func endRecord() {
            fields.append(field); field = Data()
            if !(fields.count == 1 && fields[0].isEmpty) { out.append(fields) }
            fields = []
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 { quoted.toggle(); field.append(b) } else if !quoted && b == 0x2C { fields.append(field); field = Data() } else if !quoted && (b == 0x0A || b == 0x0D) {
                if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                endRecord()
            } else { field.append(b) }
            i += 1
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return out
    }
}
