import Foundation
import TransitModel

/// A checked value of one column, handed to a `GTFSRowSink`. `raw` bytes are valid only
/// during the `row` call that receives them.
public enum GTFSValue {
    case null
    /// integer, enumeration, time (seconds since noon minus 12 h) or line number.
    case int(Int)
    case date(ServiceDate)
    /// Text, an id, a colour, or a checked decimal number: the bytes as written, trimmed.
    case raw(UnsafeBufferPointer<UInt8>)
}

/// Receives the rows that passed validation, file by file, in `GTFSSchema.files` order.
/// Every file in the schema gets a `beginFile`/`endFile` pair, also when the feed lacks it.
public protocol GTFSRowSink: AnyObject {
    func beginFile(_ spec: GTFSFileSpec) throws
    /// Called once the header is read, before the first row: the indexes into
    /// `spec.columns` that can hold a value (named in the header, or filled by the loader
    /// such as `line_number`), ascending. Every other column is always `.null`.
    func beginRows(_ spec: GTFSFileSpec, columns: [Int]) throws
    /// One row; `values` has one entry per `spec.columns`, in that order.
    func row(_ values: UnsafeBufferPointer<GTFSValue>) throws
    /// Before `endFile` of stop_times.txt, when some trips are left out (their times go
    /// backwards): the stop times of these trips, already handed over, must not be kept.
    func leaveOut(trips: [String]) throws
    func endFile(_ spec: GTFSFileSpec) throws
}

extension GTFSRowSink {
    public func beginRows(_ spec: GTFSFileSpec, columns: [Int]) throws {}
}

/// Rows read and loaded for one file.
public struct GTFSFileStats: Sendable, Codable, Equatable {
    public var file: String
    public var present: Bool
    public var rowsRead = 0
    public var rowsLoaded = 0
    public var rowsSkipped: Int { rowsRead - rowsLoaded }
    public var bytes = 0
    public var seconds = 0.0
}

/// What the loader reports while it works.
public enum GTFSLoadEvent: Sendable {
    case fileStarted(file: String, totalBytes: Int?)
    case progress(file: String, rows: Int, bytesRead: Int, totalBytes: Int?, seconds: Double)
    case fileFinished(GTFSFileStats)
}

/// The outcome of reading a whole feed (fatal problems are thrown instead).
public struct GTFSLoadSummary: Sendable {
    public var files: [GTFSFileStats] = []
    public var issues = GTFSIssueLog()
    /// First and last date on which at least one trip runs.
    public var firstServiceDate: ServiceDate?
    public var lastServiceDate: ServiceDate?
    /// `feed_info.feed_version`, when given.
    public var feedVersion: String?
    /// Time zones of the agencies, in file order.
    public var agencyTimezones: [String] = []

    public func stats(_ file: String) -> GTFSFileStats? { files.first { $0.file == file } }
    /// Rows loaded per table name (`stop_times` → 583,164).
    public var rowsLoaded: [String: Int] {
        Dictionary(uniqueKeysWithValues: files.map { (String($0.file.dropLast(4)), $0.rowsLoaded) })
    }
}

/// Reads a feed file by file, checks every row against `GTFSSchema` and the references
/// between files, and hands the rows that pass to a sink.
///
/// Three outcomes per problem (see `GTFSIssue.Severity`): fatal problems throw
/// `GTFSFatalError` (the caller rolls back); row errors skip the row and are counted
/// (thrown as fatal when `strict`); warnings and notes are only recorded.
public final class GTFSFeedLoader {
    public let source: any GTFSFeedSource
    public let strict: Bool
    /// The day the feed is judged on for the rules about dates (services that have ended,
    /// a feed about to expire); nil: those rules are not run (an import's report does not
    /// change with the day it runs). `transit validate --today`.
    public let today: ServiceDate?
    private let onEvent: ((GTFSLoadEvent) -> Void)?

    private var summary: GTFSLoadSummary
    /// The rules that need more than one row (`FeedRules`).
    private let rules = FeedRules()
    /// feed_info.txt's first row: its line and its dates.
    private var feedStart: ServiceDate?
    /// feed_info.txt's (first) row.
    private var feedInfoLine = 0

    // Ids of rows that were loaded, per file (dense indexes).
    private var agencies = IdTable(capacity: 16)
    private var agencyLines: [Int] = []
    private var agenciesUsed: [Bool] = []
    private var levels = IdTable(capacity: 16)
    private var stops = IdTable(capacity: 4096)       // every stop_id in stops.txt (first pass)
    private var stopLoaded: [Bool] = []
    private var stopHasCoordinates: [Bool] = []  // by the first pass, per stop index
    private var stopLocationType: [Int8] = []    // by the first pass, per stop index (-1: not a location type)
    private var platformsWithBoardingAreas = Set<Int32>()
    private var routes = IdTable(capacity: 256)
    private var routeTypes: [Int] = []
    private var calendarServices = IdTable(capacity: 64)
    private var services = IdTable(capacity: 64)      // calendar ∪ calendar_dates
    private var shapes = IdTable(capacity: 1024)
    private var trips = IdTable(capacity: 16_384)
    private var tripService: [Int32] = []
    /// Per trip, bit s set when stop_sequence s (< 64) was seen: the duplicate check for
    /// the common case without touching a large hash set; larger values use `compositeKeys`.
    private var tripSequenceMask: [UInt64] = []
    /// The stop_times rows of the trip being read, for `checkTimesGoForward`.
    private var tripRun: (trip: Int32, rows: [(sequence: Int, arrival: Int?, departure: Int?, line: Int, stop: Int32, distance: Double?)]) = (-1, [])
    /// Per trip, its stop_times rows handed to the sink; trips left out (times going backwards).
    private var tripStopTimes: [Int32] = []
    private var tripRoute: [Int32] = []
    /// Per trip, its stop time of the lowest and of the highest stop_sequence: whether it has
    /// a time, and its line.
    private var tripFirst: [(sequence: Int32, timed: Bool, line: Int32)] = []
    private var tripLast: [(sequence: Int32, timed: Bool, line: Int32)] = []
    /// Per trip, its frequencies.txt periods so far (start, end), for overlaps.
    private var tripPeriods: [Int32: [(start: Int, end: Int, line: Int)]] = [:]
    private var leftOutTrips = Set<Int32>()
    /// The shapes.txt rows of the shape being read, for `flushShapeRun`.
    private var shapeRun: (shape: Int32, rows: [(sequence: Int, lat: Double, lon: Double, distance: Double?, line: Int)]) = (-1, [])
    private var pathways = IdTable(capacity: 64)
    private var compositeKeys = UInt64Set()

    private struct CalendarRow { var service: Int32; var weekdays: [Bool]; var start: ServiceDate; var end: ServiceDate }
    private var calendarRows: [CalendarRow] = []
    private var calendarLines: [Int] = []
    /// Per service, the line of its first calendar_dates.txt row (0: none).
    private var serviceDatesLine: [Int] = []
    /// feed_info.txt's feed_end_date and its line.
    private var feedEnd: (date: ServiceDate, line: Int)?
    private var calendarExceptions: [(service: Int32, date: ServiceDate, added: Bool)] = []

    /// `examplesPerKind`: the problems of each kind kept with their place (all are counted).
    public init(source: any GTFSFeedSource, strict: Bool = false, today: ServiceDate? = nil, examplesPerKind: Int = 3,
                onEvent: ((GTFSLoadEvent) -> Void)? = nil) {
        self.source = source
        self.strict = strict
        self.today = today
        self.onEvent = onEvent
        summary = GTFSLoadSummary(issues: GTFSIssueLog(examplesPerKind: examplesPerKind))
    }

    /// Reads the whole feed into `sink`. Throws `GTFSFatalError` on a fatal problem (and on
    /// the first row error when `strict`); errors thrown by the sink pass through.
    public func load(into sink: GTFSRowSink) throws -> GTFSLoadSummary {
        let present = Set(source.fileNames)
        for spec in GTFSSchema.files where spec.required && !present.contains(spec.fileName) {
            throw GTFSFatalError(GTFSIssue(.fatal, "MISSING_FILE", file: spec.fileName,
                                           "this required file is not in the feed"))
        }
        if !present.contains("calendar.txt") && !present.contains("calendar_dates.txt") {
            throw GTFSFatalError(GTFSIssue(.fatal, "MISSING_FILE", canonical: "missing_calendar_and_calendar_date_files", file: "calendar.txt",
                                           "the feed has neither calendar.txt nor calendar_dates.txt, so no trip has a service day"))
        }
        for name in source.fileNames where GTFSSchema.spec(forFile: name) == nil {
            let known = GTFSSchema.knownButSkipped.contains(name)
            summary.issues.add(GTFSIssue(.note, known ? "FILE_NOT_LOADED" : "UNKNOWN_FILE", file: name,
                                         known ? "a GTFS file this importer does not load yet; skipped"
                                               : "not a GTFS Schedule file; ignored"))
        }
        for spec in GTFSSchema.files {
            try loadFile(spec, present: present.contains(spec.fileName), sink: sink)
        }
        for i in 0..<agencies.count where !agenciesUsed[i] {
            summary.issues.add(GTFSIssue(.warning, "UNUSED_AGENCY", canonical: "unused_agency", file: "agency.txt", line: agencyLines[i],
                                         field: "agency_id", value: agencies.key(Int32(i)), "no route refers to this agency"))
        }
        computeServicePeriod()
        if !present.contains("feed_info.txt") {
            summary.issues.add(GTFSIssue(.warning, "RECOMMENDED_FILE_MISSING", canonical: "missing_recommended_file", file: "feed_info.txt",
                                         "no feed_info.txt: who publishes the feed, its version and the dates it covers are unknown"))
        }
        let days = serviceDays()
        checkServices(days)
        rules.finish(stopLoaded: stopLoaded, shapeCount: shapes.count, shapeId: { self.shapes.key($0) }, tripId: { self.trips.key($0) },
                     tripStopTimes: tripStopTimes, leftOut: leftOutTrips, serviceDays: days)
        for issue in rules.issues { summary.issues.add(issue) }
        if let today { checkDates(today) }
        return summary
    }

    // MARK: - One file

    /// Which file a row belongs to, decided once per file (not by comparing names per row).
    private enum FileKind {
        case agency, levels, stops, routes, calendar, calendarDates, shapes, trips, stopTimes, frequencies,
             transfers, pathways, feedInfo, other

        init(_ fileName: String) {
            switch fileName {
            case "agency.txt": self = .agency
            case "levels.txt": self = .levels
            case "stops.txt": self = .stops
            case "routes.txt": self = .routes
            case "calendar.txt": self = .calendar
            case "calendar_dates.txt": self = .calendarDates
            case "shapes.txt": self = .shapes
            case "trips.txt": self = .trips
            case "stop_times.txt": self = .stopTimes
            case "frequencies.txt": self = .frequencies
            case "transfers.txt": self = .transfers
            case "pathways.txt": self = .pathways
            case "feed_info.txt": self = .feedInfo
            default: self = .other
            }
        }
    }

    /// A column's checks flattened into plain values, so the per-field loop touches no
    /// `String` or array (copying `GTFSColumn` per field cost a third of the import).
    private struct FieldPlan {
        enum Code: UInt8 { case text, time, integer, enumeration, double, nonNegativeDouble, latitude, longitude, date, color, lineNumber }
        var code: Code
        var lower = 0, upper = 0
        /// Bit i set when enumeration value i is allowed.
        var allowedMask: UInt64 = 0
        var lenient: Bool
        var required: Bool
        /// An id (canonical: should be printable ASCII).
        var isId = false

        init(_ column: GTFSColumn) {
            lenient = column.rule == .optionalLenient
            required = column.rule == .required
            switch column.kind {
            case .text: code = .text
            case .id: code = .text; isId = true
            case .time: code = .time
            case .integer(let r): code = .integer; lower = r.lowerBound; upper = r.upperBound
            case .enumeration(let values): code = .enumeration; for v in values { allowedMask |= 1 << UInt64(v) }
            case .double: code = .double
            case .nonNegativeDouble: code = .nonNegativeDouble
            case .latitude: code = .latitude
            case .longitude: code = .longitude
            case .date: code = .date
            case .color: code = .color
            case .lineNumber: code = .lineNumber
            }
        }
    }

    /// The state of the file being read.
    private final class FileRun {
        let spec: GTFSFileSpec
        let kind: FileKind
        let plans: [FieldPlan]
        /// Header column position -> spec column index (or -1: not loaded).
        var map: [Int] = []
        var headerFields = 0
        var headerNames: [String] = []
        var sawHeader = false
        /// Spec column index -> whether the header has it.
        var hasColumn: [Bool] = []
        var stats: GTFSFileStats
        let values: UnsafeMutableBufferPointer<GTFSValue>

        init(_ spec: GTFSFileSpec, present: Bool) {
            self.spec = spec
            kind = FileKind(spec.fileName)
            plans = spec.columns.map(FieldPlan.init)
            stats = GTFSFileStats(file: spec.fileName, present: present)
            values = .allocate(capacity: spec.columns.count)
        }
        deinit { values.deallocate() }
    }

    private func loadFile(_ spec: GTFSFileSpec, present: Bool, sink: GTFSRowSink) throws {
        let started = Date()
        let run = FileRun(spec, present: present)
        try sink.beginFile(spec)
        guard present else {
            try sink.endFile(spec)
            summary.files.append(run.stats)
            onEvent?(.fileFinished(run.stats))
            return
        }
        let total = source.size(of: spec.fileName)
        onEvent?(.fileStarted(file: spec.fileName, totalBytes: total))
        if run.kind == .stops { try prescanStops() }

        let parser = CSVParser()
        var nextProgress = 100_000
        let handle: (CSVParser.Record) throws -> Void = { record in
            guard run.sawHeader else {
                try self.readHeader(record, run, sink)
                return
            }
            run.stats.rowsRead += 1
            if try self.validateRow(record, run) {
                try sink.row(UnsafeBufferPointer(run.values))
                run.stats.rowsLoaded += 1
            }
            if run.stats.rowsRead >= nextProgress {
                nextProgress += 100_000
                self.onEvent?(.progress(file: spec.fileName, rows: run.stats.rowsRead, bytesRead: parser.bytesConsumed,
                                        totalBytes: total, seconds: Date().timeIntervalSince(started)))
            }
        }
        // The first 4 KiB are checked for a NUL byte before any of them is parsed, however
        // the source chunks them: checking only the first chunk made the outcome depend on
        // its size (a fuzz finding; FuzzRegressionTests in GTFSTests).
        var head: [UInt8] = [], headChecked = false
        func checkHead() throws {
            headChecked = true
            if head.contains(0) {
                throw GTFSFatalError(GTFSIssue(.fatal, "NOT_CSV", file: spec.fileName, line: 1,
                                               "the file holds binary data (a NUL byte), not comma-separated text"))
            }
            try head.withUnsafeBytes { try parser.feed($0, handle) }
        }
        try source.read(spec.fileName) { chunk in
            var rest = chunk
            if !headChecked {
                let n = min(4096 - head.count, chunk.count)
                head += chunk.prefix(n)
                rest = UnsafeRawBufferPointer(rebasing: chunk[n...])
                if head.count < 4096 { return }
                try checkHead()
            }
            try parser.feed(rest, handle)
        }
        if !headChecked { try checkHead() }
        try parser.finish(handle)
        if run.kind == .shapes { flushShapeRun(run); rules.shapesRead() }
        if run.kind == .stopTimes {
            try flushTripRun(run)
            try checkTripEdges(run)
            if !leftOutTrips.isEmpty {
                try sink.leaveOut(trips: leftOutTrips.sorted().map { trips.key($0) })
                run.stats.rowsLoaded -= leftOutTrips.reduce(0) { $0 + Int(tripStopTimes[Int($1)]) }
            }
        }
        run.stats.bytes = parser.bytesConsumed
        if !run.sawHeader && spec.required {
            throw GTFSFatalError(GTFSIssue(.fatal, "MISSING_HEADER", file: spec.fileName, line: 1,
                                           "the file is empty: a header line naming the columns is required"))
        }
        try sink.endFile(spec)
        run.stats.seconds = Date().timeIntervalSince(started)
        summary.files.append(run.stats)
        onEvent?(.fileFinished(run.stats))
    }

    private func readHeader(_ record: CSVParser.Record, _ run: FileRun, _ sink: GTFSRowSink) throws {
        run.sawHeader = true
        let file = run.spec.fileName
        run.map = Array(repeating: -1, count: record.count)
        run.headerFields = record.count
        var seen = Set<String>()
        for i in 0..<record.count {
            let bytes = trim(record[i])
            guard let name = String(validating: bytes, as: UTF8.self), !name.contains("\0") else {
                throw GTFSFatalError(GTFSIssue(.fatal, "NOT_CSV", file: file, line: record.line, field: "column \(i + 1)",
                                               "the header line is not UTF-8 text"))
            }
            run.headerNames.append(name)
            if name.isEmpty {
                // (An empty name after the last comma is a trailing comma, read as nothing.)
                if i < record.count - 1 || record.count == 1 {
                    summary.issues.add(GTFSIssue(.warning, "EMPTY_COLUMN_NAME", canonical: "empty_column_name", file: file, line: record.line,
                                                 field: "column \(i + 1)", "a column without a name; its values are ignored"))
                }
                continue
            }
            if !seen.insert(name).inserted {
                summary.issues.add(GTFSIssue(.warning, "DUPLICATE_COLUMN", file: file, line: record.line, field: name,
                                             "this column is named twice; the first one is used"))
                continue
            }
            if let col = run.spec.columnIndex(name), run.spec.columns[col].kind != .lineNumber {
                run.map[i] = col
                if run.hasColumn.count < run.spec.columns.count { run.hasColumn = Array(repeating: false, count: run.spec.columns.count) }
                run.hasColumn[col] = true
            } else {
                summary.issues.add(GTFSIssue(.note, "EXTRA_COLUMN", file: file, line: record.line, field: name,
                                             "not a column this importer loads; ignored"))
            }
        }
        for column in run.spec.columns where column.headerRequired && !run.headerNames.contains(column.name) {
            throw GTFSFatalError(GTFSIssue(.fatal, "MISSING_COLUMN", file: file, line: record.line, field: column.name,
                                           "the required column \(column.name) is not in the header"))
        }
        let named = Set(run.map.filter { $0 >= 0 })
        let columns = run.spec.columns.indices.filter { named.contains($0) || run.spec.columns[$0].kind == .lineNumber }
        try sink.beginRows(run.spec, columns: columns)
    }

    // MARK: - Rows

    private func rowError(_ code: String, canonical: String? = nil, _ run: FileRun, _ line: Int, field: String?, value: String?,
                          _ message: String) throws {
        let issue = GTFSIssue(.rowError, code, canonical: canonical, file: run.spec.fileName, line: line, field: field, value: value, message)
        if strict { throw GTFSFatalError(issue) }
        summary.issues.add(issue)
    }

    private func warning(_ code: String, canonical: String? = nil, _ run: FileRun, _ line: Int, field: String?, value: String?,
                         _ message: String) {
        summary.issues.add(GTFSIssue(.warning, code, canonical: canonical, file: run.spec.fileName, line: line, field: field, value: value, message))
    }

    /// An optional value that must have a form (a URL, an e-mail address, a language code,
    /// a time zone): when it has not, a field error and the value stored as empty.
    private func checkForm(_ v: UnsafeMutableBufferPointer<GTFSValue>, _ col: Int, _ run: FileRun, _ line: Int, _ form: ValueForm) {
        guard let b = text(v[col]) else { return }
        let ok: Bool
        switch form {
        case .url: ok = FieldParsing.isURL(b)
        case .email: ok = FieldParsing.isEmail(b)
        case .language: ok = FieldParsing.isLanguageCode(b)
        case .timeZone: ok = TimeZone(identifier: String(decoding: b, as: UTF8.self)) != nil
        case .phone: ok = FieldParsing.isPhoneNumber(b)
        }
        guard !ok else { return }
        let (code, canonical, what) = switch form {
        case .url: ("BAD_URL", "invalid_url", "not a web address (http:// or https:// and a host)")
        case .email: ("BAD_EMAIL", "invalid_email", "not an e-mail address")
        case .language: ("BAD_LANGUAGE", "invalid_language_code", "not a language code (BCP 47, such as en or pt-BR)")
        case .timeZone: ("BAD_TIMEZONE", "invalid_timezone", "not an IANA time zone name such as Europe/Warsaw")
        case .phone: ("BAD_PHONE", "invalid_phone_number", "not a phone number (digits, optionally a leading +, spaces, dashes, dots, brackets)")
        }
        fieldError(code, canonical: canonical, run, line, field: run.spec.columns[col].name, value: string(v[col]), what + "; stored as empty")
        v[col] = .null
    }
    enum ValueForm { case url, email, language, timeZone, phone }

    /// A canonical ERROR in an optional value: the value is not used, the row is kept.
    private func fieldError(_ code: String, canonical: String? = nil, _ run: FileRun, _ line: Int, field: String?, value: String?,
                            _ message: String) {
        summary.issues.add(GTFSIssue(.fieldError, code, canonical: canonical, file: run.spec.fileName, line: line, field: field, value: value, message))
    }

    /// Fills `run.values` from the record; returns false (after recording why) when the
    /// row is skipped.
    private func validateRow(_ record: CSVParser.Record, _ run: FileRun) throws -> Bool {
        let line = record.line
        let values = run.values
        if record.unterminatedQuote {
            try rowError("UNTERMINATED_QUOTE", run, line, field: nil, value: nil,
                         "a quoted field is never closed before the end of the file")
            return false
        }
        let headerFields = run.headerFields
        if record.count != headerFields {
            var extraIsEmpty = record.count > headerFields
            if extraIsEmpty { for i in headerFields..<record.count where !trim(record[i]).isEmpty { extraIsEmpty = false } }
            if !extraIsEmpty {
                try rowError("WRONG_FIELD_COUNT", run, line, field: nil, value: nil,
                             "the row has \(record.count) fields but the header has \(headerFields)"
                             + (record.count < headerFields ? " (a cut-off line?)" : ""))
                return false
            }
        }
        for i in 0..<values.count { values[i] = .null }
        let ok: Bool = try run.plans.withUnsafeBufferPointer { plans in
            try run.map.withUnsafeBufferPointer { map in
                for i in 0..<min(record.count, headerFields) {
                    let col = map[i]
                    if col < 0 { continue }
                    let whole = record[i], bytes = trim(whole)
                    if bytes.isEmpty { continue }
                    // Canonical: only a quoted value's spaces are a problem (a CSV reader
                    // trims unquoted ones); both are loaded without them.
                    if bytes.count != whole.count && record.isQuoted(i) {
                        rules.whitespace(file: run.spec.fileName, line: line, field: run.spec.columns[col].name, value: String(decoding: whole, as: UTF8.self))
                    }
                    // Only a quoted value can hold a line break. Canonical ERROR; kept as
                    // written: the text is still the agency's, one line on a sign or screen.
                    if record.isQuoted(i) && bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                        warning("LINE_BREAK_IN_VALUE", canonical: "new_line_in_value", run, line, field: run.spec.columns[col].name,
                                value: String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n"),
                                "a line break inside the value: GTFS text is one line (a sign, a screen, a CSV reader splitting rows)")
                    }
                    // Text is checked here, in one pass that also tells whether it is all
                    // printable ASCII (an id should be); other kinds by `parse`.
                    let parsed: GTFSValue?, printable: Bool
                    if plans[col].code == .text {
                        let kind = FieldParsing.textKind(bytes)
                        parsed = kind == .invalid ? nil : .raw(bytes); printable = kind == .printableASCII
                    } else {
                        parsed = parse(bytes, plans[col]); printable = true
                    }
                    if let value = parsed {
                        values[col] = value
                        if !printable && plans[col].isId {
                            warning("ID_NOT_ASCII", canonical: "non_ascii_or_non_printable_char", run, line, field: run.spec.columns[col].name,
                                    value: String(decoding: bytes, as: UTF8.self), "an id with a character outside printable ASCII: other systems may not match it")
                        }
                        if bytes.count > Self.longestSensibleValue {
                            let column = run.spec.columns[col]
                            warning("VERY_LONG_VALUE", run, line, field: column.name, value: String(decoding: bytes.prefix(80), as: UTF8.self),
                                    "\(bytes.count) bytes long; stored, but no screen or sign shows that much: a broken export?")
                        }
                    } else {
                        let column = run.spec.columns[col]
                        let (code, canonical, message) = describeInvalid(column.kind, bytes)
                        let shown = String(decoding: bytes, as: UTF8.self)
                        if plans[col].lenient {
                            // A canonical ERROR: a field error; a WARNING (a number outside an
                            // enumeration): a warning. Either way the row is kept and the value,
                            // which cannot be stored as it is, is stored as empty.
                            if CanonicalNotice.rules[canonical]?.severity == .error {
                                fieldError(code, canonical: canonical, run, line, field: column.name, value: shown, message + "; stored as empty")
                            } else {
                                warning(code, canonical: canonical, run, line, field: column.name, value: shown, message + "; stored as empty")
                            }
                        } else {
                            try rowError(code, canonical: canonical, run, line, field: column.name, value: shown, message)
                            return false
                        }
                    }
                }
                for col in 0..<plans.count {
                    if plans[col].code == .lineNumber { values[col] = .int(line); continue }
                    if plans[col].required, case .null = values[col] {
                        try rowError("MISSING_VALUE", run, line, field: run.spec.columns[col].name, value: nil, "a value is required here")
                        return false
                    }
                }
                return true
            }
        }
        return try ok && checkReferences(run, line: line, values: values)
    }

    // MARK: - Rules between files

    private func text(_ v: GTFSValue) -> UnsafeBufferPointer<UInt8>? {
        if case .raw(let b) = v { return b }
        return nil
    }
    private func int(_ v: GTFSValue) -> Int? {
        if case .int(let i) = v { return i }
        return nil
    }
    private func string(_ v: GTFSValue) -> String? { text(v).map { String(decoding: $0, as: UTF8.self) } }

    /// A trip's times must not go backwards: checked over each run of rows of one trip, put
    /// in stop_sequence order first (real feeds list a trip's rows in any order: Caltrain's
    /// go by stop name). Memory stays one trip long; a trip whose rows are split into
    /// several runs has each run checked on its own. A trip that goes backwards is left out
    /// whole (a canonical error: no rider can take it as written), with one row error at its
    /// first bad stop time; its rows already handed over are taken back (`GTFSRowSink.leaveOut`).
    private func checkTimesGoForward(_ run: FileRun, _ line: Int, trip: Int32, sequence: Int, arrival: Int?, departure: Int?, stop: Int32,
                                     distance: Double?) throws {
        if tripRun.trip != trip { try flushTripRun(run) }
        tripRun.trip = trip
        tripRun.rows.append((sequence, arrival, departure, line, stop, distance))
    }

    /// A trip needs two stop times, and times at its first and last (canonical errors: it
    /// cannot be timed): else it is left out, with one row error. Judged over all of a
    /// trip's rows, once stop_times.txt is read.
    private func checkTripEdges(_ run: FileRun) throws {
        for t in 0..<trips.count where tripStopTimes[t] > 0 && !leftOutTrips.contains(Int32(t)) {
            let id = trips.key(Int32(t))
            if tripStopTimes[t] == 1 {
                leftOutTrips.insert(Int32(t))
                try rowError("ONE_STOP_TIME", canonical: "missing_stop_times_record", run, Int(tripFirst[t].line), field: "trip_id", value: id,
                             "the trip's only stop time: a trip goes from one stop to another; trip \(id) is left out")
            } else if !tripFirst[t].timed || !tripLast[t].timed {
                leftOutTrips.insert(Int32(t))
                let first = !tripFirst[t].timed
                try rowError("TRIP_END_WITHOUT_TIME", canonical: "missing_trip_edge", run, Int(first ? tripFirst[t].line : tripLast[t].line),
                             field: "arrival_time", value: nil,
                             "the trip's \(first ? "first" : "last") stop time has no time: it cannot be timed; trip \(id) is left out")
            }
        }
    }

    private func flushTripRun(_ run: FileRun) throws {
        defer { tripRun.rows.removeAll(keepingCapacity: true); tripRun.trip = -1 }
        guard tripRun.rows.count > 0, !leftOutTrips.contains(tripRun.trip) else { return }
        func clock(_ t: Int) -> String { Self.clock(t) }
        let trip = tripRun.trip
        func id() -> String { trips.key(trip) }
        if !tripRun.rows.indices.dropFirst().allSatisfy({ tripRun.rows[$0 - 1].sequence < tripRun.rows[$0].sequence }) {
            let first = tripRun.rows.indices.dropFirst().first { tripRun.rows[$0 - 1].sequence >= tripRun.rows[$0].sequence }!
            summary.issues.add(GTFSIssue(.note, "STOP_TIMES_NOT_IN_ORDER", canonical: "unsorted_stop_times", file: run.spec.fileName,
                                         line: tripRun.rows[first].line, field: "stop_sequence", value: String(tripRun.rows[first].sequence),
                                         "trip \(id())'s rows are not in stop_sequence order (this one follows \(tripRun.rows[first - 1].sequence)); read in order"))
            tripRun.rows.sort { $0.sequence < $1.sequence }
        }
        // The trip's first and last stop times so far (its rows may come in several runs),
        // for `checkTripEdges` once the file is read.
        let first = tripRun.rows.first!, last = tripRun.rows.last!
        if first.sequence < tripFirst[Int(trip)].sequence {
            tripFirst[Int(trip)] = (Int32(first.sequence), first.arrival != nil || first.departure != nil, Int32(first.line))
        }
        if last.sequence > tripLast[Int(trip)].sequence {
            tripLast[Int(trip)] = (Int32(last.sequence), last.arrival != nil || last.departure != nil, Int32(last.line))
        }
        var previous: Int?
        for r in tripRun.rows {
            if let a = r.arrival, let d = r.departure, d < a {
                leftOutTrips.insert(tripRun.trip)
                try rowError("TIME_GOES_BACKWARDS", canonical: "start_and_end_range_out_of_order", run, r.line, field: "departure_time", value: clock(d),
                             "before this stop's arrival_time \(clock(a)); trip \(id()) is left out")
                return
            } else if let previous, let t = r.arrival ?? r.departure, t < previous {
                leftOutTrips.insert(tripRun.trip)
                try rowError("TIME_GOES_BACKWARDS", run, r.line, field: r.arrival != nil ? "arrival_time" : "departure_time", value: clock(t),
                             "earlier than the trip's time at the stop before it (\(clock(previous))); trip \(id()) is left out")
                return
            }
            previous = r.departure ?? r.arrival ?? previous   // an untimed stop holds the next to the last time
        }
        // shape_dist_traveled must grow along the trip (canonical ERROR; reported, kept: the
        // distances only place stops along the shape).
        var lastDistance: (value: Double, sequence: Int)?
        for r in tripRun.rows {
            guard let d = r.distance else { continue }
            if let last = lastDistance, d <= last.value {
                warning("DISTANCE_NOT_GROWING", canonical: "decreasing_or_equal_stop_time_distance", run, r.line, field: "shape_dist_traveled",
                        value: Self.shownNumber(d), "not more than at the trip's stop before it (sequence \(last.sequence): \(last.value)); trip \(id())")
                break
            }
            lastDistance = (d, r.sequence)
        }
        rules.tripStops(tripRun.trip, id: id, rows: tripRun.rows.map { ($0.stop, $0.arrival, $0.departure, $0.line, $0.sequence, $0.distance) })
    }

    /// Two consecutive points of a shape (by shape_pt_sequence) at the same
    /// shape_dist_traveled must be at the same place: 1.11 m or more apart is a canonical
    /// error, less a warning, the same point a warning. Checked over each run of one shape's
    /// rows, as `flushTripRun` does for trips. The points are kept (a shape is drawn from its
    /// coordinates; the distances only place stops along it).
    private func flushShapeRun(_ run: FileRun) {
        defer { shapeRun.rows.removeAll(keepingCapacity: true); shapeRun.shape = -1 }
        guard shapeRun.rows.count > 0 else { return }
        if !shapeRun.rows.indices.dropFirst().allSatisfy({ shapeRun.rows[$0 - 1].sequence < shapeRun.rows[$0].sequence }) {
            shapeRun.rows.sort { $0.sequence < $1.sequence }
        }
        rules.shapePoints(shapeRun.shape, sequence: shapeRun.rows.map(\.sequence), lat: shapeRun.rows.map(\.lat), lon: shapeRun.rows.map(\.lon),
                          distance: shapeRun.rows.map(\.distance))
        for i in 1..<shapeRun.rows.count {
            let a = shapeRun.rows[i - 1], b = shapeRun.rows[i]
            guard let da = a.distance, let db = b.distance, da >= db else { continue }
            if db < da {
                warning("SHAPE_DISTANCE_DECREASES", canonical: "decreasing_shape_distance", run, b.line, field: "shape_dist_traveled", value: Self.shownNumber(db),
                        "less than at the point before it (sequence \(a.sequence): \(da)): distances must grow along a shape")
                continue
            }
            let meters = Self.haversineMeters(a.lat, a.lon, b.lat, b.lon)
            let shown = b.distance.map(Self.shownNumber)
            if meters == 0 {
                warning("SHAPE_DISTANCE_NOT_MOVING", canonical: "equal_shape_distance_same_coordinates", run, b.line, field: "shape_dist_traveled",
                        value: shown, "the same point as the one before (sequence \(a.sequence)), repeated")
            } else {
                warning("SHAPE_DISTANCE_NOT_MOVING",
                        canonical: meters >= 1.11 ? "equal_shape_distance_diff_coordinates" : "equal_shape_distance_diff_coordinates_distance_below_threshold",
                        run, b.line, field: "shape_dist_traveled", value: shown,
                        "the same shape_dist_traveled as the point before (sequence \(a.sequence)), \(String(format: "%.1f", meters)) m away")
            }
        }
    }

    /// A decimal read from a feed, shown as it was most likely written ("100", not "100.0").
    static func shownNumber(_ d: Double) -> String {
        if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
        // A decimal read digit by digit may be a unit off in its last place
        // ("10.517000000000001"): 15 significant digits are the ones written.
        let s = String(d)
        return s.count > 16 ? String(format: "%.15g", d) : s
    }

    /// Great-circle distance on a sphere of the Earth's mean radius.
    static func haversineMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    /// "H:MM:SS" of seconds since noon minus 12 h.
    static func clock(_ t: Int) -> String { String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) }

    private func duplicate(_ run: FileRun, _ line: Int, _ field: String, _ value: GTFSValue, shown: String? = nil) throws -> Bool {
        let text: String? = switch value {
        case .int(let i): String(i)
        case .date(let d): d.description
        default: string(value)
        }
        try rowError("DUPLICATE_KEY", run, line, field: field, value: shown ?? text,
                     "this \(run.spec.key.joined(separator: " and ")) is already used by an earlier row; the first is kept")
        return false
    }

    /// Longer than any name, headsign or URL a rider could be shown (a 10 MB stop name came
    /// out of a broken export in the mutation tests and went in without a word).
    static let longestSensibleValue = 4096

    private static var emptyBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

    private func checkReferences(_ run: FileRun, line: Int, values v: UnsafeMutableBufferPointer<GTFSValue>) throws -> Bool {
        let ctx = run
        switch run.kind {
        case .stopTimes:
            guard let trip = trips.find(text(v[0])!) else {
                try rowError("UNKNOWN_TRIP", ctx, line, field: "trip_id", value: string(v[0]), "no trip with this trip_id in trips.txt")
                return false
            }
            guard let stop = stops.find(text(v[3])!), stopLoaded[Int(stop)] else {
                try rowError("UNKNOWN_STOP", ctx, line, field: "stop_id", value: string(v[3]), "no stop with this stop_id in stops.txt")
                return false
            }
            if stopLocationType[Int(stop)] != 0 {
                try rowError("NOT_A_STOP", canonical: "location_with_unexpected_stop_time", ctx, line, field: "stop_id", value: string(v[3]),
                             "a station, entrance, node or boarding area (location_type \(stopLocationType[Int(stop)])): a trip stops at a stop or platform")
                return false
            }
            let sequence = int(v[4])!
            if sequence < 64 {
                let bit = UInt64(1) << UInt64(sequence)
                let seen = tripSequenceMask[Int(trip)]
                if seen & bit != 0 { return try duplicate(ctx, line, "stop_sequence", v[4]) }
                tripSequenceMask[Int(trip)] = seen | bit
            } else if !compositeKeys.insert(UInt64(UInt32(bitPattern: trip)) << 32 | UInt64(sequence)) {
                return try duplicate(ctx, line, "stop_sequence", v[4])
            }
            let hasArrival = int(v[1]) != nil, hasDeparture = int(v[2]) != nil
            if hasArrival != hasDeparture {
                // Canonical ERROR; kept: the one time given is read for both.
                warning("ONE_TIME_ONLY", canonical: "stop_time_with_only_arrival_or_departure_time", ctx, line,
                        field: hasArrival ? "departure_time" : "arrival_time", value: nil,
                        "only \(hasArrival ? "arrival_time" : "departure_time") is given: both or neither; read as both")
            } else if !hasArrival, int(v[11]) == 1 {
                warning("TIMEPOINT_WITHOUT_TIMES", canonical: "stop_time_timepoint_without_times", ctx, line, field: "timepoint", value: "1",
                        "a timepoint (timepoint 1) without times; its time is interpolated")
            }
            if hasArrival || hasDeparture, int(v[11]) == nil, ctx.hasColumn.count > 11 && ctx.hasColumn[11] {
                warning("NO_TIMEPOINT_VALUE", canonical: "missing_timepoint_value", ctx, line, field: "timepoint", value: nil,
                        "timed, but timepoint is empty: say whether the time is exact (1) or approximate (0)")
            }
            try checkTimesGoForward(ctx, line, trip: trip, sequence: sequence, arrival: int(v[1]), departure: int(v[2]), stop: stop,
                                    distance: text(v[10]).flatMap(FieldParsing.decimal))
            tripStopTimes[Int(trip)] += 1
            rules.served(stop: stop)
            return true

        case .agency:
            let id = text(v[0]) ?? Self.emptyBytes
            if TimeZone(identifier: string(v[3])!) == nil {
                try rowError("BAD_TIMEZONE", ctx, line, field: "agency_timezone", value: string(v[3]),
                             "not an IANA time zone name such as Europe/Warsaw")
                return false
            }
            guard agencies.insert(id).inserted else { return try duplicate(ctx, line, "agency_id", v[0]) }
            for (col, form) in [(2, ValueForm.url), (4, .language), (5, .phone), (6, .url), (7, .email)] { checkForm(v, col, ctx, line, form) }
            if let first = summary.agencyTimezones.first, first != string(v[3])! {
                // Canonical ERROR; kept: each route keeps its agency's time zone here.
                warning("AGENCY_TIMEZONES_DIFFER", canonical: "inconsistent_agency_timezone", ctx, line, field: "agency_timezone", value: string(v[3]),
                        "not the first agency's time zone (\(first)): GTFS wants one; each agency's routes are read in its own")
            }
            agencyLines.append(line)
            agenciesUsed.append(false)
            summary.agencyTimezones.append(string(v[3])!)
            rules.agency(line: line, url: string(v[2]), lang: string(v[4]))
            return true

        case .levels:
            return levels.insert(text(v[0])!).inserted ? true : try duplicate(ctx, line, "level_id", v[0])

        case .stops:
            let locationType = int(v[9]) ?? 0
            let namesParent = text(v[10]) != nil  // before a wrong parent is dropped
            let hasLat: Bool = { if case .null = v[5] { return false }; return true }()
            let hasLon: Bool = { if case .null = v[6] { return false }; return true }()
            let idx = Int(stops.find(text(v[0])!)!)  // the first pass saw every stop_id
            // A parent can lend its coordinates when it has its own (the first pass read
            // them) and is not the stop itself.
            var parentHasCoordinates = false
            if let parent = text(v[10]) {
                // A parent that is not there, or not of the type this location needs: the
                // stop is kept without it (canonical errors).
                if let p = stops.find(parent) {
                    let parentType = Int(stopLocationType[Int(p)])
                    // A stop, entrance or node needs a station; a boarding area, a platform (a stop).
                    let needed = locationType == 4 ? 0 : 1
                    if locationType == 1 {
                        fieldError("STATION_WITH_PARENT", ctx, line, field: "parent_station", value: string(v[10]),
                                   "a station (location_type 1) cannot have a parent station; the parent is not used")
                        v[10] = .null
                    } else if parentType != needed {
                        let names = ["a stop or platform", "a station", "an entrance", "a generic node", "a boarding area"]
                        let parentName = (0..<names.count).contains(parentType) ? names[parentType] : "a location of an unknown type"
                        fieldError("WRONG_PARENT_TYPE", ctx, line, field: "parent_station", value: string(v[10]),
                                   "the parent is \(parentName) (location_type \(parentType)); \(names[min(max(locationType, 0), 4)]) needs "
                                   + (needed == 1 ? "a station (1)" : "a platform (0)") + " as its parent; the parent is not used")
                        v[10] = .null
                    } else {
                        parentHasCoordinates = Int(p) != idx && stopHasCoordinates[Int(p)]
                    }
                } else {
                    fieldError("DANGLING_PARENT", ctx, line, field: "parent_station", value: string(v[10]),
                               "no stop with this id in stops.txt; the stop is kept without a parent station")
                    v[10] = .null
                }
            }
            if hasLat != hasLon {
                try rowError("NO_COORDINATES", ctx, line, field: hasLat ? "stop_lon" : "stop_lat", value: nil,
                             "stop_lat and stop_lon must be given together")
                return false
            }
            if !hasLat && locationType <= 2 && !parentHasCoordinates {
                try rowError("NO_COORDINATES", ctx, line, field: "stop_lat", value: nil,
                             "a stop, station or entrance needs coordinates, or a parent station with coordinates to take them from")
                return false
            }
            // 0,0 is in the Gulf of Guinea: an exporter's missing coordinates, not a stop
            // (MobilityData's validator calls it an error too). Kept, it would stretch the
            // coverage region across the Atlantic and draw walks to nowhere.
            if hasLat, let lat = text(v[5]).flatMap(FieldParsing.decimal), let lon = text(v[6]).flatMap(FieldParsing.decimal),
               abs(lat) < 1e-6 && abs(lon) < 1e-6 {
                try rowError("COORDINATES_AT_ORIGIN", ctx, line, field: "stop_lat", value: "\(string(v[5]) ?? ""),\(string(v[6]) ?? "")",
                             "latitude and longitude are both 0 (off the coast of Africa): the coordinates are missing")
                return false
            }
            if hasLat, let lat = text(v[5]).flatMap(FieldParsing.decimal), abs(lat) > 89 {
                try rowError("COORDINATES_AT_POLE", canonical: "point_near_pole", ctx, line, field: "stop_lat", value: string(v[5]),
                             "a latitude past 89 degrees: no transit stop is there; the coordinates are wrong")
                return false
            }
            if (2...4).contains(locationType) && !namesParent {
                try rowError("NO_PARENT_STATION", canonical: "location_without_parent_station", ctx, line, field: "parent_station", value: nil,
                             "an entrance, generic node or boarding area (location_type \(locationType)) needs a parent_station")
                return false
            }
            if stopLoaded[idx] { return try duplicate(ctx, line, "stop_id", v[0]) }
            checkForm(v, 8, ctx, line, .url)
            checkForm(v, 11, ctx, line, .timeZone)
            if locationType <= 2, case .null = v[2] {
                // Canonical ERROR; kept: the stop still serves its trips, shown by its id.
                warning("NO_STOP_NAME", canonical: "missing_stop_name", ctx, line, field: "stop_name", value: nil,
                        "a stop, station or entrance without a name: riders are shown its id")
            }
            if locationType == 4, let parent = text(v[10]).flatMap({ stops.find($0) }) {
                platformsWithBoardingAreas.insert(parent)
            }
            if let level = text(v[13]), levels.find(level) == nil {
                fieldError("UNKNOWN_LEVEL", canonical: "foreign_key_violation", ctx, line, field: "level_id", value: string(v[13]),
                           "no level with this level_id in levels.txt; stored as empty")
                v[13] = .null
            }
            stopLoaded[idx] = true
            // The type of the row loaded (the first pass kept the first row's, which may
            // have been rejected): what the children after it are checked against.
            stopLocationType[idx] = Int8(locationType)
            rules.stop(Int32(idx), id: string(v[0])!, line: line, name: string(v[2]), description: string(v[4]), type: locationType,
                       parent: text(v[10]).flatMap { stops.find($0) }, lat: text(v[5]).flatMap(FieldParsing.decimal), lon: text(v[6]).flatMap(FieldParsing.decimal),
                       level: text(v[13]) != nil, url: string(v[8]), platformCode: text(v[14]) != nil)
            return true

        case .routes:
            if let agency = text(v[1]) {
                guard let a = agencies.find(agency) else {
                    try rowError("UNKNOWN_AGENCY", ctx, line, field: "agency_id", value: string(v[1]), "no agency with this agency_id in agency.txt")
                    return false
                }
                agenciesUsed[Int(a)] = true
            } else if agencies.count > 1 {
                try rowError("MISSING_VALUE", canonical: "missing_required_agency_id", ctx, line, field: "agency_id", value: nil,
                             "agency_id is required when the feed has several agencies")
                return false
            } else if agencies.count == 1 {
                agenciesUsed[0] = true
            }
            let type = int(v[5])!
            if !(0...7).contains(type) && type != 11 && type != 12 && !(100...1799).contains(type) {
                try rowError("BAD_VALUE", canonical: "unexpected_enum_value", ctx, line, field: "route_type", value: String(type),
                             "not a GTFS route type (0–7, 11, 12, or an extended type 100–1799)")
                return false
            }
            if (100...1799).contains(type) {
                warning("EXTENDED_ROUTE_TYPE", canonical: "unexpected_enum_value", ctx, line, field: "route_type", value: String(type),
                        "an extended route type (Google's list), not one of the GTFS reference's; loaded, read by its family (\(type / 100 * 100))")
            }
            guard routes.insert(text(v[0])!).inserted else { return try duplicate(ctx, line, "route_id", v[0]) }
            routeTypes.append(type)
            checkForm(v, 6, ctx, line, .url)
            if case .null = v[2], case .null = v[3] {
                // Canonical ERROR; kept: its trips still run, shown by the route's id.
                warning("NO_ROUTE_NAME", canonical: "route_both_short_and_long_name_missing", ctx, line, field: "route_short_name", value: nil,
                        "neither route_short_name nor route_long_name: riders are shown the route's id")
            }
            rules.route(Int32(routes.count - 1), id: string(v[0])!, line: line, agency: string(v[1]), agencyGiven: text(v[1]) != nil, type: type,
                        shortName: string(v[2]), longName: string(v[3]), description: string(v[4]),
                        url: string(v[6]), color: string(v[7]), textColor: string(v[8]))
            return true

        case .calendar:
            guard case .date(let start) = v[8], case .date(let end) = v[9] else { return false }
            if end < start {
                try rowError("BAD_DATE_RANGE", ctx, line, field: "end_date", value: end.description, "end_date is before start_date")
                return false
            }
            guard calendarServices.insert(text(v[0])!).inserted else { return try duplicate(ctx, line, "service_id", v[0]) }
            let service = services.insert(text(v[0])!).index
            calendarRows.append(CalendarRow(service: service, weekdays: (1...7).map { int(v[$0]) == 1 }, start: start, end: end))
            if !calendarRows.last!.weekdays.contains(true) {
                warning("NO_WEEKDAY", canonical: "service_has_no_active_day_of_the_week", ctx, line, field: "monday", value: "0",
                        "no day of the week is 1: the service runs only on dates calendar_dates.txt adds")
            }
            calendarLines.append(line)
            return true

        case .calendarDates:
            guard case .date(let date) = v[1] else { return false }
            let service = services.insert(text(v[0])!).index
            if serviceDatesLine.count <= Int(service) { serviceDatesLine += Array(repeating: 0, count: Int(service) + 1 - serviceDatesLine.count) }
            if serviceDatesLine[Int(service)] == 0 { serviceDatesLine[Int(service)] = line }
            let key = UInt64(3) << 62 | UInt64(UInt32(bitPattern: service)) << 32 | UInt64(UInt32(bitPattern: date.daysSinceEpoch))
            guard compositeKeys.insert(key) else { return try duplicate(ctx, line, "date", v[1]) }
            calendarExceptions.append((service, date, int(v[2]) == 1))
            return true

        case .shapes:
            let shape = shapes.insert(text(v[0])!).index
            let key = UInt64(1) << 62 | UInt64(UInt32(bitPattern: shape)) << 32 | UInt64(int(v[3])!)
            guard compositeKeys.insert(key) else { return try duplicate(ctx, line, "shape_pt_sequence", v[3]) }
            if shapeRun.shape != shape { flushShapeRun(ctx) }
            rules.shapeRow(shape, line: line)
            shapeRun.shape = shape
            shapeRun.rows.append((int(v[3])!, text(v[1]).flatMap(FieldParsing.decimal) ?? 0, text(v[2]).flatMap(FieldParsing.decimal) ?? 0,
                                  text(v[4]).flatMap(FieldParsing.decimal), line))
            return true

        case .trips:
            guard routes.find(text(v[0])!) != nil else {
                try rowError("UNKNOWN_ROUTE", ctx, line, field: "route_id", value: string(v[0]), "no route with this route_id in routes.txt")
                return false
            }
            guard let service = services.find(text(v[1])!) else {
                try rowError("UNKNOWN_SERVICE", ctx, line, field: "service_id", value: string(v[1]),
                             "no service with this service_id in calendar.txt or calendar_dates.txt")
                return false
            }
            if let shape = text(v[7]), shapes.find(shape) == nil {
                fieldError("UNKNOWN_SHAPE", ctx, line, field: "shape_id", value: string(v[7]),
                           "no shape with this shape_id in shapes.txt; the trip is kept without a shape")
                v[7] = .null
            }
            guard trips.insert(text(v[2])!).inserted else { return try duplicate(ctx, line, "trip_id", v[2]) }
            tripService.append(service)
            tripSequenceMask.append(0)
            tripStopTimes.append(0)
            tripRoute.append(routes.find(text(v[0])!)!)
            tripFirst.append((Int32.max, false, 0)); tripLast.append((Int32.min, false, 0))
            rules.trip(Int32(trips.count - 1), line: line, headsign: text(v[3]), shape: text(v[7]).flatMap { shapes.find($0) },
                       routeType: routeTypes[Int(routes.find(text(v[0])!)!)], route: routes.find(text(v[0])!)!, block: text(v[6]), service: service,
                       bikesAllowed: int(v[9]) != nil, id: self.string(v[2])!)
            return true

        case .frequencies:
            guard let trip = trips.find(text(v[0])!) else {
                try rowError("UNKNOWN_TRIP", ctx, line, field: "trip_id", value: string(v[0]), "no trip with this trip_id in trips.txt")
                return false
            }
            if int(v[2])! <= int(v[1])! {
                try rowError("BAD_TIME_RANGE", canonical: int(v[2])! == int(v[1])! ? "start_and_end_range_equal" : nil, ctx, line,
                             field: "end_time", value: nil, "end_time is not after start_time")
                return false
            }
            let key = UInt64(2) << 62 | UInt64(UInt32(bitPattern: trip)) << 32 | UInt64(int(v[1])!)
            guard compositeKeys.insert(key) else { return try duplicate(ctx, line, "start_time", .raw(Self.emptyBytes), shown: Self.clock(int(v[1])!)) }
            let (start, end) = (int(v[1])!, int(v[2])!)
            if let other = tripPeriods[trip]?.first(where: { $0.start < end && start < $0.end }) {
                try rowError("FREQUENCIES_OVERLAP", canonical: "overlapping_frequency", ctx, line, field: "start_time", value: Self.clock(start),
                             "overlaps the period of line \(other.line) of the same trip: the trip would run twice at once")
                return false
            }
            tripPeriods[trip, default: []].append((start, end, line))
            return true

        case .transfers:
            // A transfer naming a stop, route or trip that is not there cannot be used: skipped.
            for (col, name) in [(0, "from_stop_id"), (1, "to_stop_id")] {
                if let id = text(v[col]), stops.find(id).map({ stopLoaded[Int($0)] }) != true {
                    try rowError("UNKNOWN_STOP", ctx, line, field: name, value: string(v[col]), "no stop with this id in stops.txt")
                    return false
                }
            }
            for (col, name) in [(2, "from_route_id"), (3, "to_route_id")] {
                if let id = text(v[col]), routes.find(id) == nil {
                    try rowError("UNKNOWN_ROUTE", ctx, line, field: name, value: string(v[col]), "no route with this id in routes.txt")
                    return false
                }
            }
            for (col, name) in [(4, "from_trip_id"), (5, "to_trip_id")] {
                if let id = text(v[col]), trips.find(id) == nil {
                    try rowError("UNKNOWN_TRIP", ctx, line, field: name, value: string(v[col]), "no trip with this id in trips.txt")
                    return false
                }
            }
            for (col, name) in [(0, "from_stop_id"), (1, "to_stop_id")] {
                if let s = text(v[col]).flatMap({ stops.find($0) }), stopLocationType[Int(s)] != 0 && stopLocationType[Int(s)] != 1 {
                    try rowError("TRANSFER_AT_WRONG_TYPE", canonical: "transfer_with_invalid_stop_location_type", ctx, line, field: name, value: string(v[col]),
                                 "a transfer is between stops or stations, not location_type \(stopLocationType[Int(s)])")
                    return false
                }
            }
            for (tripCol, routeCol, name) in [(4, 2, "from_trip_id"), (5, 3, "to_trip_id")] {
                if let t = text(v[tripCol]).flatMap({ trips.find($0) }), let r = text(v[routeCol]).flatMap({ routes.find($0) }), tripRoute[Int(t)] != r {
                    try rowError("TRANSFER_TRIP_NOT_ON_ROUTE", canonical: "transfer_with_invalid_trip_and_route", ctx, line, field: name, value: string(v[tripCol]),
                                 "this trip is not on the route the transfer names (\(string(v[routeCol])!))")
                    return false
                }
            }
            for (tripCol, stopCol, name) in [(4, 0, "from_trip_id"), (5, 1, "to_trip_id")] {
                if let t = text(v[tripCol]).flatMap({ trips.find($0) }), let s = text(v[stopCol]).flatMap({ stops.find($0) }), rules.trip(t, serves: s) == false {
                    try rowError("TRANSFER_TRIP_NOT_AT_STOP", canonical: "transfer_with_invalid_trip_and_stop", ctx, line, field: name, value: string(v[tripCol]),
                                 "this trip does not stop at \(stopCol == 0 ? "from_stop_id" : "to_stop_id") \(string(v[stopCol])!) (nor in that station): the transfer can never happen")
                    return false
                }
            }
            rules.transfer(line: line, from: text(v[0]).flatMap { stops.find($0) }, to: text(v[1]).flatMap { stops.find($0) },
                           fromTrip: text(v[4]).flatMap { trips.find($0) }, toTrip: text(v[5]).flatMap { trips.find($0) }, type: int(v[6]),
                           tripId: { self.trips.key($0) })
            return true

        case .pathways:
            for (col, name) in [(1, "from_stop_id"), (2, "to_stop_id")] {
                guard let s = stops.find(text(v[col])!), stopLoaded[Int(s)] else {
                    try rowError("UNKNOWN_STOP", ctx, line, field: name, value: string(v[col]), "no stop with this id in stops.txt")
                    return false
                }
                if stopLocationType[Int(s)] == 1 {
                    try rowError("PATHWAY_TO_STATION", canonical: "pathway_to_wrong_location_type", ctx, line, field: name, value: string(v[col]),
                                 "a station: a pathway joins platforms, entrances, nodes and boarding areas inside it")
                    return false
                }
                if stopLocationType[Int(s)] == 0 && platformsWithBoardingAreas.contains(s) {
                    try rowError("PATHWAY_TO_PLATFORM", canonical: "pathway_to_platform_with_boarding_areas", ctx, line, field: name, value: string(v[col]),
                                 "a platform with boarding areas: the pathway must end at one of them")
                    return false
                }
            }
            guard pathways.insert(text(v[0])!).inserted else { return try duplicate(ctx, line, "pathway_id", v[0]) }
            if stops.find(text(v[1])!) == stops.find(text(v[2])!) {
                warning("PATHWAY_LOOP", canonical: "pathway_loop", ctx, line, field: "to_stop_id", value: string(v[2]),
                        "the pathway starts and ends at the same location")
            }
            if int(v[3]) == 7 && int(v[4]) == 1 {
                fieldError("TWO_WAY_EXIT_GATE", ctx, line, field: "is_bidirectional", value: "1",
                           "an exit gate (pathway_mode 7) lets people out only; read as one-way (is_bidirectional 0)")
                v[4] = .int(0)
            }
            rules.pathway(from: stops.find(text(v[1])!)!, to: stops.find(text(v[2])!)!, mode: int(v[3])!, twoWay: int(v[4]) == 1, line: line)
            return true

        case .feedInfo:
            for (col, form) in [(1, ValueForm.url), (2, .language), (3, .language), (7, .email), (8, .url)] { checkForm(v, col, ctx, line, form) }
            if summary.feedVersion == nil { summary.feedVersion = string(v[6]) }
            if feedEnd == nil, case .date(let end) = v[5] { feedEnd = (end, line) }
            if run.stats.rowsLoaded > 0 {
                warning("MORE_THAN_ONE_ROW", canonical: "more_than_one_entity", ctx, line, field: nil, value: nil,
                        "feed_info.txt has one row; this one is loaded, the first one's dates and version are used")
            }
            if summary.files.last?.file != "feed_info.txt" && run.stats.rowsLoaded == 0 {  // the first row
                rules.feedInfo(line: line, lang: string(v[2]))
                feedInfoLine = line
                if case .date(let start) = v[4] { feedStart = start }
                let hasStart: Bool = { if case .null = v[4] { return false }; return true }()
                let hasEnd: Bool = { if case .null = v[5] { return false }; return true }()
                if hasStart != hasEnd {
                    warning("ONE_FEED_DATE", canonical: "missing_feed_info_date", ctx, line, field: hasStart ? "feed_end_date" : "feed_start_date", value: nil,
                            "feed_start_date and feed_end_date go together")
                }
                for (col, name) in [(4, "feed_start_date"), (5, "feed_end_date"), (6, "feed_version")] {
                    if case .null = v[col] {
                        warning("RECOMMENDED_VALUE_MISSING", canonical: "missing_recommended_field", ctx, line, field: name, value: nil,
                                "empty: the dates a feed covers and its version tell its users which one they have")
                    }
                }
                if case .null = v[7], case .null = v[8] {
                    warning("NO_CONTACT", canonical: "missing_feed_contact_email_and_url", ctx, line, field: "feed_contact_email", value: nil,
                            "neither feed_contact_email nor feed_contact_url: whoever finds a problem cannot tell the publisher")
                }
            }
            return true

        case .other:
            return true
        }
    }

    /// First pass over stops.txt: every stop_id, and whether its row has valid
    /// coordinates, so that parent_station can name a station that comes later in the
    /// file, and a stop without coordinates can be checked against its parent's. Uses the
    /// first `stop_id` column, as the header reader does.
    private func prescanStops() throws {
        let parser = CSVParser()
        var idColumn = -1, latColumn = -1, lonColumn = -1, typeColumn = -1
        var header = true
        let handle: (CSVParser.Record) throws -> Void = { record in
            if header {
                header = false
                for i in 0..<record.count {
                    switch String(decoding: self.trim(record[i]), as: UTF8.self) {
                    case "stop_id" where idColumn < 0: idColumn = i
                    case "stop_lat" where latColumn < 0: latColumn = i
                    case "stop_lon" where lonColumn < 0: lonColumn = i
                    case "location_type" where typeColumn < 0: typeColumn = i
                    default: break
                    }
                }
                return
            }
            guard idColumn >= 0 && idColumn < record.count else { return }
            let id = self.trim(record[idColumn])
            guard !id.isEmpty else { return }
            let (index, inserted) = self.stops.insert(id)
            guard inserted else { return }  // a duplicate row: the first one counts
            var hasCoordinates = false
            if latColumn >= 0 && lonColumn >= 0 && latColumn < record.count && lonColumn < record.count,
               let lat = FieldParsing.decimal(self.trim(record[latColumn])),
               let lon = FieldParsing.decimal(self.trim(record[lonColumn])) {
                // As the stops' own checks judge them: not at 0,0, not past 89 degrees.
                hasCoordinates = abs(lat) <= 89 && abs(lon) <= 180 && !(abs(lat) < 1e-6 && abs(lon) < 1e-6)
            }
            assert(Int(index) == self.stopHasCoordinates.count)
            self.stopHasCoordinates.append(hasCoordinates)
            var type: Int8 = 0  // empty: a stop
            if typeColumn >= 0 && typeColumn < record.count {
                let t = self.trim(record[typeColumn])
                if !t.isEmpty { type = FieldParsing.integer(t).flatMap { (0...4).contains($0) ? Int8($0) : nil } ?? -1 }
            }
            self.stopLocationType.append(type)
        }
        try source.read("stops.txt") { try parser.feed($0, handle) }
        try parser.finish(handle)
        stopLoaded = Array(repeating: false, count: stops.count)
    }

    // MARK: - Services

    /// The days each service used by a trip runs, ascending (calendar weekdays in its range,
    /// minus removed dates, plus added ones). A range "until further notice" (to 2099, or
    /// 9999) counts its first 40,000 days (109 years), so that it still shares days with others.
    private func serviceDays() -> [Int32: [Int32]] {
        let used = Set(tripService)
        var days: [Int32: Set<Int32>] = [:]
        var removed = Set<Int64>()
        for e in calendarExceptions where !e.added { removed.insert(Int64(e.service) << 32 | Int64(e.date.daysSinceEpoch)) }
        for row in calendarRows where used.contains(row.service) && row.weekdays.contains(true) {
            var d = row.start
            let end = min(row.end, row.start.adding(days: 40_000))
            while d <= end {
                if row.weekdays[d.weekday] && !removed.contains(Int64(row.service) << 32 | Int64(d.daysSinceEpoch)) {
                    days[row.service, default: []].insert(d.daysSinceEpoch)
                }
                d = d.adding(days: 1)
            }
        }
        for e in calendarExceptions where e.added && used.contains(e.service) { days[e.service, default: []].insert(e.date.daysSinceEpoch) }
        return days.mapValues { $0.sorted() }
    }

    /// Services of calendar.txt with a gap of more than 13 days between two days they run, and services
    /// running outside feed_info.txt's dates (infos: the feed loads as it is).
    private func checkServices(_ days: [Int32: [Int32]]) {
        if let end = feedEnd, let last = summary.lastServiceDate, end.date.daysSinceEpoch - last.daysSinceEpoch > 14 {
            summary.issues.add(GTFSIssue(.note, "FEED_OUTLASTS_SERVICE", canonical: "feed_valid_beyond_total_service_window", file: "feed_info.txt", line: end.line,
                                         field: "feed_end_date", value: end.date.iso8601,
                                         "\(end.date.daysSinceEpoch - last.daysSinceEpoch) days after the last day any trip runs (\(last.iso8601))"))
        }
        // A service's place: its calendar.txt row, else its first calendar_dates.txt row.
        var place: [Int32: (file: String, line: Int)] = [:]
        for s in days.keys where Int(s) < serviceDatesLine.count && serviceDatesLine[Int(s)] > 0 { place[s] = ("calendar_dates.txt", serviceDatesLine[Int(s)]) }
        for (i, row) in calendarRows.enumerated() { place[row.service] = ("calendar.txt", calendarLines[i]) }
        for s in days.keys.sorted(by: { place[$0].map { ($0.file, $0.line) } ?? ("", 0) < place[$1].map { ($0.file, $0.line) } ?? ("", 0) }) {
            let d = days[s]!, at = place[s] ?? ("calendar.txt", 0)
            // Gaps only in a calendar.txt range: a service of single dates (a holiday, a
            // Sunday a month) is meant to run now and then.
            for i in d.indices.dropFirst() where at.file == "calendar.txt" && d[i] - d[i - 1] - 1 > 13 {
                let from = ServiceDate(daysSinceEpoch: d[i - 1] + 1), to = ServiceDate(daysSinceEpoch: d[i] - 1)
                summary.issues.add(GTFSIssue(.note, "SERVICE_GAP", canonical: "big_gap_in_service", file: at.file, line: at.line, field: "service_id",
                                             value: services.key(s), "no day of this service from \(from.iso8601) to \(to.iso8601) (\(d[i] - d[i - 1] - 1) days)"))
            }
            if let first = d.first, let last = d.last, let start = feedStart ?? feedEnd.map({ _ in ServiceDate(daysSinceEpoch: Int32.min / 2) }),
               let end = feedEnd?.date ?? (feedStart != nil ? ServiceDate(daysSinceEpoch: Int32.max / 2) : nil),
               first < start.daysSinceEpoch || last > end.daysSinceEpoch {
                summary.issues.add(GTFSIssue(.note, "SERVICE_OUTSIDE_FEED_DATES", canonical: "service_window_outside_feed_period", file: at.file, line: at.line,
                                             field: "service_id", value: services.key(s),
                                             "runs from \(ServiceDate(daysSinceEpoch: first).iso8601) to \(ServiceDate(daysSinceEpoch: last).iso8601), "
                                             + "outside feed_info.txt's \(feedStart?.iso8601 ?? "…") to \(feedEnd?.date.iso8601 ?? "…")"))
            }
        }
    }

    // MARK: - Dates

    /// The rules about the day the feed is judged on (`today`): a calendar whose every day
    /// has passed, a feed that expires within 7 or 30 days, no trip running on some day of
    /// the coming week. Warnings: the feed loads as it is.
    private func checkDates(_ today: ServiceDate) {
        // Last day each service runs (calendar weekdays, minus removed dates, plus added ones).
        var removed = Set<Int64>()
        var lastAdded = [ServiceDate?](repeating: nil, count: services.count)
        for e in calendarExceptions {
            if e.added { if lastAdded[Int(e.service)].map({ e.date > $0 }) ?? true { lastAdded[Int(e.service)] = e.date } }
            else { removed.insert(Int64(e.service) << 32 | Int64(e.date.daysSinceEpoch)) }
        }
        // A service's place: its calendar.txt row, else its first calendar_dates.txt row.
        var place: [(file: String, line: Int)?] = (0..<services.count).map { s in
            s < serviceDatesLine.count && serviceDatesLine[s] > 0 ? ("calendar_dates.txt", serviceDatesLine[s]) : nil
        }
        var last = lastAdded
        for (i, row) in calendarRows.enumerated() {
            place[Int(row.service)] = ("calendar.txt", calendarLines[i])
            guard row.weekdays.contains(true) else { continue }
            var d = row.end
            while d >= row.start && !(row.weekdays[d.weekday] && !removed.contains(Int64(row.service) << 32 | Int64(d.daysSinceEpoch))) {
                d = d.adding(days: -1)
            }
            if d >= row.start, last[Int(row.service)].map({ d > $0 }) ?? true { last[Int(row.service)] = d }
        }
        // With calendar.txt, its date ranges are what expires (a service of calendar_dates.txt
        // alone there is a set of extra days); without it, the services of calendar_dates.txt.
        let ranged = Set(calendarRows.map { Int($0.service) })
        let ended = (0..<services.count).filter { s in
            last[s].map { $0 < today } ?? false && place[s] != nil && (ranged.isEmpty || ranged.contains(s))
        }
        for s in ended.sorted(by: { (place[$0]!.file, place[$0]!.line) < (place[$1]!.file, place[$1]!.line) }) {
            summary.issues.add(GTFSIssue(.warning, "SERVICE_ENDED", canonical: "expired_calendar", file: place[s]!.file, line: place[s]!.line,
                                         field: "service_id", value: services.key(Int32(s)),
                                         "this service's last day, \(last[s]!.iso8601), is before \(today.iso8601)"))
        }
        if let end = feedEnd {
            let days = Int(end.date.daysSinceEpoch - today.daysSinceEpoch)
            if days < 30 {
                summary.issues.add(GTFSIssue(.warning, "FEED_EXPIRES", canonical: days < 7 ? "feed_expiration_date7_days" : "feed_expiration_date30_days",
                                             file: "feed_info.txt", line: end.line, field: "feed_end_date", value: end.date.iso8601,
                                             days < 0 ? "the feed ended \(-days) days before \(today.iso8601)"
                                                      : "the feed ends \(days) days after \(today.iso8601): publish the next one at least 30 days ahead"))
            }
        }
        if let start = feedStart, start > today {
            summary.issues.add(GTFSIssue(.note, "FEED_NOT_STARTED", canonical: "future_feed", file: "feed_info.txt", line: feedInfoLine,
                                         field: "feed_start_date", value: start.iso8601, "the feed starts after \(today.iso8601): it is for the future only"))
        }
        if let first = summary.firstServiceDate, first > today {
            summary.issues.add(GTFSIssue(.note, "SERVICE_NOT_STARTED", canonical: "future_calendar", file: "trips.txt",
                                         "no trip runs before \(first.iso8601): every service starts after \(today.iso8601)"))
        }
        // Some day of the coming week without any trip.
        if let first = summary.firstServiceDate, let last = summary.lastServiceDate,
           first > today || last < today.adding(days: 6) {
            summary.issues.add(GTFSIssue(.warning, "NO_SERVICE_THIS_WEEK", canonical: "trip_coverage_not_active_for_next7_days", file: "trips.txt",
                                         "trips run from \(first.iso8601) to \(last.iso8601): not on every day of the 7 from \(today.iso8601)"))
        }
    }

    // MARK: - Service period

    /// First and last date on which a trip of the feed runs (calendar with its weekdays,
    /// minus removed dates, plus added dates), over services that trips use.
    private func computeServicePeriod() {
        var used = Array(repeating: false, count: services.count)
        for s in tripService { used[Int(s)] = true }
        var removed = Set<Int64>()
        var first: ServiceDate?, last: ServiceDate?
        func note(_ d: ServiceDate) {
            if first == nil || d < first! { first = d }
            if last == nil || d > last! { last = d }
        }
        for e in calendarExceptions {
            if e.added { if used[Int(e.service)] { note(e.date) } } else {
                removed.insert(Int64(e.service) << 32 | Int64(e.date.daysSinceEpoch))
            }
        }
        for row in calendarRows where used[Int(row.service)] && row.weekdays.contains(true) {
            func runs(_ d: ServiceDate) -> Bool {
                row.weekdays[d.weekday] && !removed.contains(Int64(row.service) << 32 | Int64(d.daysSinceEpoch))
            }
            var d = row.start
            while d <= row.end && !runs(d) { d = d.adding(days: 1) }
            if d <= row.end { note(d) }
            var e = row.end
            while e >= row.start && !runs(e) { e = e.adding(days: -1) }
            if e >= row.start { note(e) }
        }
        summary.firstServiceDate = first
        summary.lastServiceDate = last
    }

    // MARK: - Field parsing

    @inline(__always)
    func trim(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = b.count
        while lo < hi && (b[lo] == 0x20 || b[lo] == 0x09) { lo += 1 }
        while hi > lo && (b[hi - 1] == 0x20 || b[hi - 1] == 0x09) { hi -= 1 }
        if lo == 0 && hi == b.count { return b }
        return UnsafeBufferPointer(rebasing: b[lo..<hi])
    }

    @inline(__always)
    private func parse(_ b: UnsafeBufferPointer<UInt8>, _ plan: FieldPlan) -> GTFSValue? {
        switch plan.code {
        case .text:
            return FieldParsing.isValidText(b) ? .raw(b) : nil
        case .time:
            return ServiceTime.parse(b).map { .int(Int($0.seconds)) }
        case .integer:
            guard let i = FieldParsing.integer(b), i >= plan.lower && i <= plan.upper else { return nil }
            return .int(i)
        case .enumeration:
            guard let i = FieldParsing.integer(b), i >= 0 && i < 64, plan.allowedMask & (1 << UInt64(i)) != 0 else { return nil }
            return .int(i)
        case .double:
            return FieldParsing.decimal(b) != nil ? .raw(b) : nil
        case .nonNegativeDouble:
            guard let d = FieldParsing.decimal(b), d >= 0 else { return nil }
            return .raw(b)
        case .latitude:
            guard let d = FieldParsing.decimal(b), d >= -90 && d <= 90 else { return nil }
            return .raw(b)
        case .longitude:
            guard let d = FieldParsing.decimal(b), d >= -180 && d <= 180 else { return nil }
            return .raw(b)
        case .date:
            return ServiceDate.parse(b).map { .date($0) }
        case .color:
            guard b.count == 6, b.allSatisfy({ FieldParsing.isHexDigit($0) }) else { return nil }
            return .raw(b)
        case .lineNumber:
            return nil
        }
    }

    /// Our code, the canonical code and a sentence for a value that does not parse.
    private func describeInvalid(_ kind: GTFSFieldKind, _ b: UnsafeBufferPointer<UInt8>) -> (String, String, String) {
        // A number that reads but is outside the field's values, or one that does not read.
        let isInteger = FieldParsing.integer(b) != nil, isDecimal = FieldParsing.decimal(b) != nil
        switch kind {
        case .text, .id:
            return b.contains(0) ? ("INVALID_TEXT", "invalid_character", "text may not contain a NUL byte")
                                 : ("INVALID_UTF8", "invalid_character", "not valid UTF-8 text")
        case .time: return ("BAD_TIME", "invalid_time", "not a time of the form H:MM:SS (hours may pass 23)")
        case .integer(let r):
            return ("BAD_NUMBER", isInteger ? "number_out_of_range" : "invalid_integer",
                    r.upperBound >= Int(Int32.max) ? "not a whole number of \(r.lowerBound) or more" : "not a whole number from \(r.lowerBound) to \(r.upperBound)")
        case .enumeration(let a):
            return ("BAD_VALUE", isInteger ? "unexpected_enum_value" : "invalid_integer",
                    "not one of the allowed values \(a.map(String.init).joined(separator: ", "))")
        case .double: return ("BAD_NUMBER", "invalid_float", "not a decimal number")
        case .nonNegativeDouble: return ("BAD_NUMBER", isDecimal ? "number_out_of_range" : "invalid_float", "not a decimal number of 0 or more")
        case .latitude: return ("BAD_COORDINATE", isDecimal ? "number_out_of_range" : "invalid_float", "not a latitude from -90 to 90 degrees")
        case .longitude: return ("BAD_COORDINATE", isDecimal ? "number_out_of_range" : "invalid_float", "not a longitude from -180 to 180 degrees")
        case .date: return ("BAD_DATE", "invalid_date", "not a date of the form YYYYMMDD")
        case .color: return ("BAD_COLOR", "invalid_color", "not a colour of six hex digits such as FFCC00")
        case .lineNumber: return ("BAD_VALUE", "invalid_integer", "")
        }
    }
}

/// Allocation-free checks of field bytes.
public enum FieldParsing {
    /// http:// or https://, then a host (letters, digits, '.', '-', or a bracketed IPv6
    /// address), then anything without spaces: the web addresses riders are sent to.
    public static func isURL(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }
        var i = 0
        for c in Array("http".utf8) { guard i < b.count, lower(b[i]) == c else { return false }; i += 1 }
        if i < b.count && lower(b[i]) == 0x73 { i += 1 }  // https
        for c in Array("://".utf8) { guard i < b.count, b[i] == c else { return false }; i += 1 }
        // Host: letters, digits, '.', '-', '_' or non-ASCII (an internationalised name), or
        // a bracketed IPv6 address; then an optional port of digits.
        var host = 0
        if i < b.count && b[i] == 0x5B {
            i += 1
            while i < b.count, b[i] != 0x5D { guard FieldParsing.isHexDigit(b[i]) || b[i] == 0x3A || b[i] == 0x2E else { return false }; host += 1; i += 1 }
            guard i < b.count else { return false }
            i += 1
        } else {
            while i < b.count {
                let c = b[i]
                guard (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x2D || c == 0x5F || c >= 0x80
                else { break }
                host += 1; i += 1
            }
        }
        guard host > 0 else { return false }
        if i < b.count && b[i] == 0x3A {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { digits += 1; i += 1 }
            guard digits > 0 else { return false }
        }
        guard i == b.count || b[i] == 0x2F || b[i] == 0x3F || b[i] == 0x23 else { return false }
        while i < b.count { guard b[i] > 0x20 && b[i] != 0x7F else { return false }; i += 1 }
        return true
    }

    /// local@domain.tld, no spaces, one '@'.
    public static func isEmail(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = b.firstIndex(of: 0x40), at > 0, at < b.count - 1, b[(at + 1)...].firstIndex(of: 0x40) == nil else { return false }
        let domain = b[(at + 1)...]
        guard let dot = domain.lastIndex(of: 0x2E), dot > at + 1, dot < b.count - 1 else { return false }
        return b.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != 0x2C && $0 != 0x3B }
    }

    /// A BCP 47 tag's shape: a primary subtag of 2–3 letters (or 4–8), then subtags of
    /// 1–8 letters or digits, joined by '-'.
    public static func isLanguageCode(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = true, length = 0, letters = true
        func isAlnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
        func endSubtag() -> Bool {
            defer { first = false; length = 0; letters = true }
            return first ? letters && length >= 2 && length <= 8 : length >= 1 && length <= 8
        }
        for c in b {
            if c == 0x2D { guard endSubtag() else { return false }; continue }
            guard isAlnum(c) else { return false }
            if c >= 0x30 && c <= 0x39 { letters = false }
            length += 1
        }
        return endSubtag()
    }

    @inline(__always)
    /// A phone number as riders dial it: 3 to 20 digits, a leading '+', separators (space,
    /// '-', '.', '/', brackets, ','), and letters for a vanity number or an extension
    /// ("916-321-BUSS", "555 0100 ext. 12"). Our reading of the canonical rule, which parses
    /// with the rules of the feed's country: without a country only the form can be judged.
    public static func isPhoneNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0, letters = 0
        for (i, c) in b.enumerated() {
            switch c {
            case 0x30...0x39: digits += 1
            case 0x41...0x5A, 0x61...0x7A: letters += 1
            case 0x20, 0x2D, 0x2E, 0x2F, 0x28, 0x29, 0x2C: break
            case 0x2B: if i != 0 { return false }
            default: return false
            }
        }
        return (3...20).contains(digits) && letters <= 10
    }

    public enum TextKind: Sendable { case invalid, printableASCII, other }

    /// Valid text (as `isValidText`), and whether every byte is printable ASCII (space to
    /// '~'), in one pass: one comparison per byte while the bytes are printable.
    @inline(__always)
    public static func textKind(_ b: UnsafeBufferPointer<UInt8>) -> TextKind {
        var printable = true, ascii = true
        for c in b where c &- 0x20 >= 0x5F {
            if c == 0 { return .invalid }
            printable = false
            if c >= 0x80 { ascii = false }
        }
        if printable { return .printableASCII }
        return ascii || String(validating: b, as: UTF8.self) != nil ? .other : .invalid
    }

    public static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// True for UTF-8 text without NUL bytes (PostgreSQL's text cannot hold one).
    @inline(__always)
    public static func isValidText(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for c in b {
            if c == 0 { return false }
            if c >= 0x80 { ascii = false }
        }
        return ascii || String(validating: b, as: UTF8.self) != nil
    }

    /// An optionally signed decimal integer, or nil.
    public static func integer(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0, negative = false
        if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) { negative = b[i] == 0x2D; i += 1 }
        guard i < b.count, b.count - i <= 18 else { return nil }
        var v = 0
        while i < b.count {
            let d = Int(b[i]) &- 0x30
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
            i += 1
        }
        return negative ? -v : v
    }

    /// A decimal number as PostgreSQL's `float8in` reads it (`-12.5`, `.5`, `1e-3`), or nil.
    /// The value is approximate (good for range checks); the stored value is the text.
    public static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, negative = false
        if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) { negative = b[i] == 0x2D; i += 1 }
        var mantissa = 0.0, digits = 0, scale = 0
        while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { mantissa = mantissa * 10 + Double(b[i] - 0x30); digits += 1; i += 1 }
        if i < b.count && b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                mantissa = mantissa * 10 + Double(b[i] - 0x30); digits += 1; scale -= 1; i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < b.count && (b[i] == 0x65 || b[i] == 0x45) {
            i += 1
            var expNegative = false
            if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) { expNegative = b[i] == 0x2D; i += 1 }
            var e = 0, expDigits = 0
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39, e < 10_000 { e = e * 10 + Int(b[i] - 0x30); expDigits += 1; i += 1 }
            guard expDigits > 0 else { return nil }
            scale += expNegative ? -e : e
        }
        guard i == b.count, scale > -300 && scale < 300 else { return nil }
        let v = mantissa * pow(10.0, Double(scale))
        guard v.isFinite else { return nil }
        return negative ? -v : v
    }
}
