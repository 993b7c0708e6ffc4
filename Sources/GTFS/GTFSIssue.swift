/// A problem found in a feed, with where it is: file, line, field and the offending value.
///
/// Problems are values, collected as the feed streams by (as Conveyal R5 does), not thrown
/// one at a time: an import reports every kind of problem with its first examples.
public struct GTFSIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        /// The import stops and the database is left exactly as it was.
        case fatal
        /// The row is skipped and counted (fatal with `--strict`).
        case rowError = "row error"
        /// The row is loaded; something in it is suspicious.
        case warning
        /// For information: a file or column that is not loaded.
        case note

        private var rank: Int {
            switch self { case .fatal: 0; case .rowError: 1; case .warning: 2; case .note: 3 }
        }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public let severity: Severity
    /// A stable machine-readable code, e.g. `BAD_TIME`, `UNKNOWN_TRIP`, `MISSING_COLUMN`.
    public let code: String
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

    public init(_ severity: Severity, _ code: String, file: String, line: Int? = nil,
                field: String? = nil, value: String? = nil, _ message: String) {
        self.severity = severity
        self.code = code
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
}

/// Counts issues by kind and keeps the first few examples of each, so that a feed with a
/// million bad rows still uses a few kilobytes for its report.
public struct GTFSIssueLog: Sendable, Codable {
    public struct Kind: Sendable, Codable, Hashable {
        public let severity: GTFSIssue.Severity
        public let code: String
        public let file: String
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
        let kind = Kind(severity: issue.severity, code: issue.code, file: issue.file)
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
