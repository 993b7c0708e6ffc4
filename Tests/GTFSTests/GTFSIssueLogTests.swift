import Foundation
import Testing
import GTFS

@Suite("GTFSIssue and GTFSIssueLog")
struct GTFSIssueLogTests {
    private func issue(_ severity: GTFSIssue.Severity, _ code: String, _ file: String = "stop_times.txt", line: Int) -> GTFSIssue {
        GTFSIssue(severity, code, file: file, line: line, field: "arrival_time", value: "x", "message \(line)")
    }

    @Test("keeps at most examplesPerKind examples but counts every issue", arguments: [0, 1, 3, 10])
    func examplesCapped(perKind: Int) {
        var log = GTFSIssueLog(examplesPerKind: perKind)
        for line in 1...25 { log.add(issue(.rowError, "BAD_TIME", line: line)) }
        for line in 1...4 { log.add(issue(.warning, "UNKNOWN_SHAPE", "trips.txt", line: line)) }
        log.add(issue(.rowError, "BAD_TIME", "frequencies.txt", line: 7))   // same code, other file: other kind
        #expect(log.entries.count == 3)
        let badTimes = try! #require(log.entries.first { $0.kind.code == "BAD_TIME" && $0.kind.file == "stop_times.txt" })
        #expect(badTimes.count == 25)
        // The first example of a kind is always kept (it is what a report shows first).
        let kept = max(perKind, 1)
        #expect(badTimes.examples.count == min(25, kept))
        #expect(badTimes.examples.map { $0.line } == Array(1...min(25, kept)))
        #expect(log.count(.rowError) == 26)
        #expect(log.count(.warning) == 4)
        #expect(log.count(.fatal) == 0)
        #expect(log.count(.note) == 0)
        #expect(log.count(code: "BAD_TIME") == 26)
        #expect(log.count(code: "UNKNOWN_SHAPE") == 4)
        #expect(log.count(code: "NOPE") == 0)
    }

    @Test("first is the first example of the most severe kind; sorted puts severe and frequent first")
    func ordering() {
        var log = GTFSIssueLog()
        #expect(log.first == nil)
        #expect(log.examplesPerKind == 3)
        log.add(GTFSIssue(.note, "EXTRA_COLUMN", file: "stops.txt", line: 1, field: "x", "note"))
        log.add(issue(.warning, "W1", line: 5))
        log.add(issue(.rowError, "E_RARE", line: 9))
        log.add(issue(.rowError, "E_OFTEN", line: 10))
        log.add(issue(.rowError, "E_OFTEN", line: 11))
        #expect(log.first?.severity == .rowError)
        #expect(log.sorted.map(\.kind.code) == ["E_OFTEN", "E_RARE", "W1", "EXTRA_COLUMN"])
        log.add(GTFSIssue(.fatal, "F", file: "x", "fatal"))
        #expect(log.first?.code == "F")
    }

    @Test("severity order and raw values")
    func severity() {
        #expect(GTFSIssue.Severity.fatal < .rowError)
        #expect(GTFSIssue.Severity.rowError < .fieldError)
        #expect(GTFSIssue.Severity.fieldError < .warning)
        #expect(GTFSIssue.Severity.warning < .note)
        #expect(GTFSIssue.Severity.allCases.sorted() == [.fatal, .rowError, .fieldError, .warning, .note])
        #expect(GTFSIssue.Severity.rowError.rawValue == "row error")
        #expect(GTFSIssue.Severity.fieldError.rawValue == "field error")
    }

    @Test("an issue: location, description, long values shortened")
    func issueText() {
        let i = GTFSIssue(.rowError, "BAD_TIME", file: "stop_times.txt", line: 1234, field: "arrival_time", value: "25:6x:00",
                          "not a time H:MM:SS")
        #expect(i.location == "stop_times.txt:1234 field arrival_time (\"25:6x:00\")")
        #expect(i.description == "row error BAD_TIME at stop_times.txt:1234 field arrival_time (\"25:6x:00\"): not a time H:MM:SS")
        #expect(GTFSIssue(.fatal, "X", file: "f.txt", "m").location == "f.txt")
        let long = GTFSIssue(.warning, "X", file: "f", value: String(repeating: "é", count: 200), "m")
        #expect(long.value?.count == 80)
        #expect(long.value?.hasSuffix("...") == true)
        let exact = GTFSIssue(.warning, "X", file: "f", value: String(repeating: "a", count: 80), "m")
        #expect(exact.value?.count == 80 && exact.value?.hasSuffix("...") == false)
        #expect(GTFSFatalError(i).description == "BAD_TIME at stop_times.txt:1234 field arrival_time (\"25:6x:00\"): not a time H:MM:SS")
    }

    @Test("canonical: the code CanonicalNotice gives ours unless one is given; its severity; kinds differ by it")
    func canonical() throws {
        let byDefault = GTFSIssue(.rowError, "BAD_TIME", file: "stop_times.txt", line: 2, "m")
        #expect(byDefault.canonical == "invalid_time" && byDefault.canonicalSeverity == .error)
        let given = GTFSIssue(.rowError, "BAD_TIME_RANGE", canonical: "start_and_end_range_equal", file: "frequencies.txt", line: 2, "m")
        #expect(given.canonical == "start_and_end_range_equal")
        let none = GTFSIssue(.warning, "VERY_LONG_VALUE", file: "stops.txt", line: 2, "m")
        #expect(none.canonical == nil && none.canonicalSeverity == nil)
        #expect(GTFSIssue(.warning, "EXTENDED_ROUTE_TYPE", file: "routes.txt", "m").canonicalSeverity == .warning)
        #expect(GTFSIssue(.note, "EXTRA_COLUMN", file: "routes.txt", "m").canonicalSeverity == .info)

        // One code, two canonical codes (frequencies' end before / at its start): two kinds.
        var log = GTFSIssueLog()
        log.add(GTFSIssue(.rowError, "BAD_TIME_RANGE", file: "frequencies.txt", line: 2, "m"))
        log.add(GTFSIssue(.rowError, "BAD_TIME_RANGE", canonical: "start_and_end_range_equal", file: "frequencies.txt", line: 3, "m"))
        log.add(GTFSIssue(.fieldError, "BAD_COLOR", file: "routes.txt", line: 4, "m"))
        #expect(log.entries.map(\.kind.canonical) == ["start_and_end_range_out_of_order", "start_and_end_range_equal", "invalid_color"])
        #expect(log.count(code: "BAD_TIME_RANGE") == 2)
        #expect(log.count(.fieldError) == 1)
        let decoded = try JSONDecoder().decode(GTFSIssueLog.self, from: try JSONEncoder().encode(log))
        #expect(decoded.entries.map(\.kind) == log.entries.map(\.kind))
        #expect(decoded.entries.last?.examples.first?.severity == .fieldError)
        #expect(decoded.entries.last?.examples.first?.canonical == "invalid_color")
    }

    @Test("the log survives a JSON round trip")
    func codable() throws {
        var log = GTFSIssueLog(examplesPerKind: 2)
        for line in 1...5 { log.add(issue(.rowError, "BAD_TIME", line: line)) }
        let decoded = try JSONDecoder().decode(GTFSIssueLog.self, from: try JSONEncoder().encode(log))
        #expect(decoded.count(code: "BAD_TIME") == 5)
        #expect(decoded.entries.first?.examples == log.entries.first?.examples)
        // Adding after decoding still finds the existing kind.
        var again = decoded
        again.add(issue(.rowError, "BAD_TIME", line: 6))
        #expect(again.entries.count == 1)
        #expect(again.count(code: "BAD_TIME") == 6)
    }
}
