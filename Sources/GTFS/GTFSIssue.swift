/// A problem found in a feed, with where it is: file, line, field and the offending value,
/// and the code MobilityData's canonical validator gives the same problem (`canonical`).
///
/// Problems are values, collected as the feed streams by (as Conveyal R5 does), not thrown
/// one at a time: an import reports every kind of problem with its first examples.
public struct GTFSIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What the importer does about the problem. The canonical severity decides it: an
    /// ERROR in a row's key, a required value or a reference routing needs skips the row
    /// (or leaves the trip out); an ERROR in an optional value that riders only see or that
    /// routing can do without (a colour, a shape, a parent station, a pathway's time) drops
    /// that value and keeps the row; a WARNING is kept and reported; INFO is listed.
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        /// The import stops and the database is left exactly as it was.
        case fatal
        /// The row is skipped and counted (fatal with `--strict`); for a trip whose times
        /// go backwards, the whole trip is left out.
        case rowError = "row error"
        /// The value is not used (stored as empty, or read as the rule requires); the row is loaded.
        case fieldError = "field error"
        /// The row is loaded; something in it is suspicious.
        case warning
        /// For information: a file or column that is not loaded.
        case note

        private var rank: Int {
            switch self { case .fatal: 0; case .rowError: 1; case .fieldError: 2; case .warning: 3; case .note: 4 }
        }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public let severity: Severity
    /// A stable machine-readable code, e.g. `BAD_TIME`, `UNKNOWN_TRIP`, `MISSING_COLUMN`.
    public let code: String
    /// MobilityData's notice code for the same problem (`invalid_time`, `foreign_key_violation`),
    /// nil for a problem the canonical rules do not have (`CanonicalNotice`).
    public let canonical: String?
    /// File name inside the feed (or the feed itself for archive problems).
    public let file: String
    /// 1-based line in the file, when the problem is in a row or the header.
    public let line: Int?
    /// The column, when one column is at fault.
    public let field: String?
    /// The offending value, shortened to 80 characters.
    public let value: String?
    /// A plain sentence saying what is wrong.
    public let message: String

    /// `canonical`: the MobilityData code, when it is not the one `CanonicalNotice.code(for:)`
    /// gives for `code`.
    public init(_ severity: Severity, _ code: String, canonical: String? = nil, file: String, line: Int? = nil,
                field: String? = nil, value: String? = nil, _ message: String) {
        self.severity = severity
        self.code = code
        self.canonical = canonical ?? CanonicalNotice.code(for: code)
        self.file = file
        self.line = line
        self.field = field
        if let value, value.count > 80 { self.value = String(value.prefix(77)) + "..." } else { self.value = value }
        self.message = message
    }

    /// `stop_times.txt:1234 field arrival_time ("25:6x:00"): not a time H:MM:SS`
    public var location: String {
        var s = file
        if let line { s += ":\(line)" }
        if let field { s += " field \(field)" }
        if let value { s += " (\"\(value)\")" }
        return s
    }

    public var description: String { "\(severity.rawValue) \(code) at \(location): \(message)" }

    /// The canonical severity of `canonical` (nil when there is none).
    public var canonicalSeverity: CanonicalNotice.Severity? { canonical.flatMap { CanonicalNotice.rules[$0]?.severity } }
}

/// Counts issues by kind and keeps the first few examples of each, so that a feed with a
/// million bad rows still uses a few kilobytes for its report.
public struct GTFSIssueLog: Sendable, Codable {
    public struct Kind: Sendable, Codable, Hashable {
        public let severity: GTFSIssue.Severity
        public let code: String
        public let file: String
        /// `GTFSIssue.canonical`.
        public let canonical: String?
    }
    public struct Entry: Sendable, Codable {
        public let kind: Kind
        public var count: Int
        public var examples: [GTFSIssue]
    }

    /// Examples kept per kind.
    public let examplesPerKind: Int
    public private(set) var entries: [Entry] = []
    private var index: [Kind: Int] = [:]

    public init(examplesPerKind: Int = 3) { self.examplesPerKind = examplesPerKind }

    public mutating func add(_ issue: GTFSIssue) {
        let kind = Kind(severity: issue.severity, code: issue.code, file: issue.file, canonical: issue.canonical)
        if let i = index[kind] {
            entries[i].count += 1
            if entries[i].examples.count < examplesPerKind { entries[i].examples.append(issue) }
        } else {
            index[kind] = entries.count
            entries.append(Entry(kind: kind, count: 1, examples: [issue]))
        }
    }

    /// Total number of issues of a severity.
    public func count(_ severity: GTFSIssue.Severity) -> Int {
        entries.filter { $0.kind.severity == severity }.reduce(0) { $0 + $1.count }
    }

    /// Number of issues with a code (any file, any severity).
    public func count(code: String) -> Int { entries.filter { $0.kind.code == code }.reduce(0) { $0 + $1.count } }

    /// The first example of the most severe kind, if any.
    public var first: GTFSIssue? { entries.min { $0.kind.severity < $1.kind.severity }?.examples.first }

    /// Entries ordered for a report: most severe first, then by count.
    public var sorted: [Entry] {
        entries.sorted { ($0.kind.severity, -$0.count, $0.kind.file) < ($1.kind.severity, -$1.count, $1.kind.file) }
    }
}

/// The import stops: a fatal problem, or a row error under `--strict`.
public struct GTFSFatalError: Error, Sendable, CustomStringConvertible {
    public let issue: GTFSIssue
    public init(_ issue: GTFSIssue) { self.issue = issue }
    public var description: String { "\(issue.code) at \(issue.location): \(issue.message)" }
}
