import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An error at the database boundary: a code, a plain message, and libpq's own words.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case connectionFailed = "DATABASE_UNREACHABLE"
        case queryFailed = "QUERY_FAILED"
        case copyFailed = "COPY_FAILED"
        case badFeedId = "BAD_FEED_ID"
        case feedNotFound = "FEED_NOT_FOUND"
        case connectionLost = "DATABASE_CONNECTION_LOST"
    }
    public let code: Code
    public let message: String
    /// PostgreSQL's SQLSTATE, when the server sent one.
    public let sqlState: String?

    public init(_ code: Code, _ message: String, sqlState: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
    }
    public var description: String { message }
}

/// A PostgreSQL connection through libpq. Not shared between threads.
public final class PGConnection {
    private let conn: OpaquePointer

    /// False once the server has gone away (stopped, restarted, network lost).
    public var isConnected: Bool { PQstatus(conn) == CONNECTION_OK }

    /// The connection string with any password hidden, for messages.
    public let displayURL: String

    /// Connects; throws `StoreError.connectionFailed` with libpq's reason and what to do.
    ///
    /// `readOnly`: every transaction of the session is READ ONLY at the database
    /// (`default_transaction_read_only`, sent with the connection's `options`, so that
    /// `duplicate()` connections are read-only too): a reader such as the server cannot
    /// write whatever statement it sends by mistake; PostgreSQL refuses it (SQLSTATE
    /// 25006). Any `options` in `url` are kept.
    public init(url: String, readOnly: Bool = false) throws {
        displayURL = PGConnection.redact(url)
        let connection: OpaquePointer?
        if readOnly {
            var options = "-c default_transaction_read_only=on"
            if let parsed = PQconninfoParse(url, nil) {
                var i = 0
                while let keyword = parsed[i].keyword {
                    if String(cString: keyword) == "options", let v = parsed[i].val { options = String(cString: v) + " " + options }
                    i += 1
                }
                PQconninfoFree(parsed)
            }
            // The URL expanded first (expand_dbname), then `options` over its own.
            let texts: [String] = ["dbname", "options", url, options]
            let owned = texts.map { strdup($0) }
            defer { owned.forEach { free($0) } }
            let keywords: [UnsafePointer<CChar>?] = [UnsafePointer(owned[0]), UnsafePointer(owned[1]), nil]
            let values: [UnsafePointer<CChar>?] = [UnsafePointer(owned[2]), UnsafePointer(owned[3]), nil]
            connection = PQconnectdbParams(keywords, values, 1)
        } else {
            connection = PQconnectdb(url)
        }
        guard let c = connection else {
            throw StoreError(.connectionFailed, "cannot reach PostgreSQL at \(PGConnection.redact(url)): out of memory")
        }
        if PQstatus(c) != CONNECTION_OK {
            let reason = String(cString: PQerrorMessage(c))
                .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            PQfinish(c)
            throw StoreError(.connectionFailed,
                             "cannot reach PostgreSQL at \(PGConnection.redact(url)): \(reason); start one with Scripts/postgres.sh start")
        }
        conn = c
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(conn) }

    /// Hides the password of a `postgresql://user:password@host/db` URL or `password=…` pair.
    public static func redact(_ url: String) -> String {
        var s = url
        if let r = s.range(of: #"://[^/@:]*:[^/@]*@"#, options: .regularExpression) {
            let user = s[r].dropFirst(3).prefix { $0 != ":" }
            s.replaceSubrange(r, with: "://\(user):***@")
        }
        if let r = s.range(of: #"password=[^ &]*"#, options: .regularExpression) { s.replaceSubrange(r, with: "password=***") }
        return s
    }

    private func lastError() -> String {
        String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func check(_ result: OpaquePointer?, _ sql: String, code: StoreError.Code = .queryFailed) throws {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN else {
            let message = result.map { String(cString: PQresultErrorMessage($0)) } ?? lastError()
            let state = result.flatMap { r in PQresultErrorField(r, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } }
            PQclear(result)
            if PQstatus(conn) != CONNECTION_OK {
                throw StoreError(.connectionFailed, "lost the connection to PostgreSQL at \(displayURL): \(message.trimmingCharacters(in: .whitespacesAndNewlines))", sqlState: state)
            }
            let shortSQL = sql.count > 200 ? String(sql.prefix(200)) + "…" : sql
            throw StoreError(code, "\(message.trimmingCharacters(in: .whitespacesAndNewlines)) (in: \(shortSQL))", sqlState: state)
        }
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws {
        let r = PQexec(conn, sql)
        try check(r, sql)
        PQclear(r)
    }

    /// Runs a statement with text parameters ($1, $2, …) and returns rows of text values.
    @discardableResult
    public func query(_ sql: String, _ params: [String?] = []) throws -> [[String?]] {
        var cStrings: [UnsafeMutablePointer<CChar>?] = params.map { $0.map { strdup($0) } ?? nil }
        defer { cStrings.forEach { free($0) } }
        let r = cStrings.withUnsafeMutableBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(buf.count, 1)) { p in
                PQexecParams(conn, sql, Int32(params.count), nil, params.isEmpty ? nil : p, nil, nil, 0)
            }
        }
        try check(r, sql)
        defer { PQclear(r) }
        let rows = Int(PQntuples(r)), cols = Int(PQnfields(r))
        var out: [[String?]] = []
        out.reserveCapacity(rows)
        for i in 0..<rows {
            var row: [String?] = []
            for j in 0..<cols {
                row.append(PQgetisnull(r, Int32(i), Int32(j)) == 1 ? nil : String(cString: PQgetvalue(r, Int32(i), Int32(j))))
            }
            out.append(row)
        }
        return out
    }

    /// The first column of the first row, or nil.
    public func scalar(_ sql: String, _ params: [String?] = []) throws -> String? {
        try query(sql, params).first?.first ?? nil
    }

    /// Quotes a string as an SQL literal ('…'), for DDL that cannot take parameters.
    public func literal(_ s: String) -> String {
        guard let p = PQescapeLiteral(conn, s, s.utf8.count) else { return "''" }
        defer { PQfreemem(p) }
        return String(cString: p)
    }

    /// Quotes a name as an SQL identifier ("…").
    public func identifier(_ s: String) -> String {
        guard let p = PQescapeIdentifier(conn, s, s.utf8.count) else { return "\"\"" }
        defer { PQfreemem(p) }
        return String(cString: p)
    }

    // MARK: COPY

    /// Starts `COPY … FROM STDIN`.
    public func beginCopy(_ sql: String) throws {
        let r = PQexec(conn, sql)
        guard PQresultStatus(r) == PGRES_COPY_IN else { try check(r, sql, code: .copyFailed); return }
        PQclear(r)
    }

    /// Sends bytes of COPY data (blocking connection: returns once libpq has queued them).
    public func putCopyData(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        let ok = PQputCopyData(conn, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        if ok != 1 { throw StoreError(.copyFailed, "sending COPY data failed: \(lastError())") }
    }

    /// Ends the COPY and reports the server's verdict.
    public func endCopy(errorMessage: String? = nil) throws {
        let ok = errorMessage.map { PQputCopyEnd(conn, $0) } ?? PQputCopyEnd(conn, nil)
        if ok != 1 { throw StoreError(.copyFailed, "ending COPY failed: \(lastError())") }
        var firstError: Error?
        while let r = PQgetResult(conn) {
            if firstError == nil {
                do { try check(r, "COPY", code: .copyFailed); PQclear(r) } catch { firstError = error }
            } else { PQclear(r) }
        }
        if let firstError { throw firstError }
    }

    // MARK: COPY TO STDOUT

    /// Runs `COPY (SELECT …) TO STDOUT` (text format) and hands every row to `row`: its raw
    /// bytes as the server sent them, tab-separated fields in COPY text escaping, ending
    /// with a newline. The bytes are valid only during the call.
    ///
    /// When `row` throws, the rest of the data is read and dropped (so the connection stays
    /// usable) and the first error is rethrown. A server error ends the COPY with
    /// `StoreError.copyFailed`.
    public func copyOut(_ sql: String, row: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let r = PQexec(conn, sql)
        guard PQresultStatus(r) == PGRES_COPY_OUT else {
            let copyIn = PQresultStatus(r) == PGRES_COPY_IN
            try check(r, sql, code: .copyFailed)  // throws for an error status
            PQclear(r)
            if copyIn {  // COPY … FROM STDIN: end it, send nothing
                PQputCopyEnd(conn, "not a COPY TO STDOUT")
                while let r = PQgetResult(conn) { PQclear(r) }
            }
            throw StoreError(.copyFailed, "not a COPY … TO STDOUT statement (in: \(sql.prefix(200)))")
        }
        PQclear(r)
        var bodyError: Error?
        var readError: String?
        while true {
            var data: UnsafeMutablePointer<CChar>?
            let n = PQgetCopyData(conn, &data, 0)
            if n > 0, let data {
                if bodyError == nil {
                    do {
                        try row(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self),
                                                    count: Int(n)))
                    } catch { bodyError = error }
                }
                PQfreemem(data)
                continue
            }
            if n == -2 { readError = lastError() }
            break  // -1: the COPY is over; its result follows
        }
        var firstError: Error?
        while let r = PQgetResult(conn) {
            if firstError == nil {
                do { try check(r, sql, code: .copyFailed); PQclear(r) } catch { firstError = error }
            } else { PQclear(r) }
        }
        if let bodyError { throw bodyError }
        if let firstError { throw firstError }
        if let readError { throw StoreError(.copyFailed, "reading COPY data failed: \(readError)") }
    }

    // MARK: Another connection

    /// A new connection with this one's parameters (host, port, database, user, password,
    /// options…), for work side by side on another thread. Throws
    /// `StoreError.connectionFailed` with libpq's reason.
    public func duplicate() throws -> PGConnection {
        guard let options = PQconninfo(conn) else {
            throw StoreError(.connectionFailed, "cannot reach PostgreSQL at \(displayURL): out of memory")
        }
        defer { PQconninfoFree(options) }
        var keywords: [UnsafePointer<CChar>?] = [], values: [UnsafePointer<CChar>?] = []
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val { keywords.append(UnsafePointer(keyword)); values.append(UnsafePointer(value)) }
            i += 1
        }
        keywords.append(nil)
        values.append(nil)
        guard let c = PQconnectdbParams(keywords, values, 0) else {
            throw StoreError(.connectionFailed, "cannot reach PostgreSQL at \(displayURL): out of memory")
        }
        if PQstatus(c) != CONNECTION_OK {
            let reason = String(cString: PQerrorMessage(c))
                .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            PQfinish(c)
            throw StoreError(.connectionFailed, "cannot reach PostgreSQL at \(displayURL) again: \(reason)")
        }
        let other = PGConnection(connection: c, displayURL: displayURL)
        try other.execute("SET client_min_messages = warning")
        return other
    }

    private init(connection: OpaquePointer, displayURL: String) {
        conn = connection
        self.displayURL = displayURL
    }

    /// This connection's parameters as a libpq conninfo string (`host='…' port='…' …`), for
    /// a tool that connects by itself (osm2pgsql). Holds the password, if any: never print it.
    var conninfo: String {
        guard let options = PQconninfo(conn) else { return "" }
        defer { PQconninfoFree(options) }
        var parts: [String] = []
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val, options[i].val.pointee != 0 {
                let v = String(cString: value).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                parts.append("\(String(cString: keyword))='\(v)'")
            }
            i += 1
        }
        return parts.joined(separator: " ")
    }

    /// The server's process id (tests use it to find the backend).
    public var backendPID: Int32 { PQbackendPID(conn) }

    // MARK: LISTEN / NOTIFY

    /// Waits up to `timeout` seconds for notifications on channels this connection
    /// LISTENs to; returns those that arrived (empty after a quiet `timeout`). Throws
    /// `StoreError.connectionFailed` when the connection is lost.
    public func waitForNotifications(timeout: Double) throws -> [(channel: String, payload: String)] {
        func take() -> [(channel: String, payload: String)] {
            var out: [(channel: String, payload: String)] = []
            while let n = PQnotifies(conn) {
                out.append((String(cString: n.pointee.relname), String(cString: n.pointee.extra)))
                PQfreemem(n)
            }
            return out
        }
        func consume() throws {
            if PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK {
                throw StoreError(.connectionFailed, "lost the connection to PostgreSQL at \(displayURL): \(lastError())")
            }
        }
        try consume()
        var got = take()
        if !got.isEmpty { return got }
        let socket = PQsocket(conn)
        guard socket >= 0 else { throw StoreError(.connectionFailed, "lost the connection to PostgreSQL at \(displayURL)") }
        var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fd, 1, Int32(max(0, timeout) * 1000))
        if ready > 0 {
            try consume()
            got = take()
        }
        return got
    }
}
