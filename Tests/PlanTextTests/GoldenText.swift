import Foundation
import PlanJSON
import Planner
import PlanText
import Testing
import TransitModel

/// The golden texts of this target (`Tests/Golden/NAME`): compares a text with its
/// recorded file and reports the first line that differs; with `TRANSIT_RECORD_GOLDEN=1`
/// set, writes the text instead (review the diff before committing it).
enum GoldenText {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func check(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TRANSIT_RECORD_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let recorded = try #require(try? String(contentsOf: url, encoding: .utf8),
                                    "no golden file \(url.path): record it with TRANSIT_RECORD_GOLDEN=1",
                                    sourceLocation: sourceLocation)
        guard recorded != text else { return }
        let a = recorded.split(separator: "\n", omittingEmptySubsequences: false)
        let b = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        Issue.record("""
            the text differs from \(name) at line \(line + 1):
              recorded: \(line < a.count ? String(a[line]) : "(end)")
              now:      \(line < b.count ? String(b[line]) : "(end)")
            """, sourceLocation: sourceLocation)
    }

    /// A plan's outcome as `transit plan` prints it: from the answer's document (made in
    /// process, and checked equal to the one its JSON reads back as), places given as
    /// `stop:…` named as their stops are; or its error line.
    static func text(_ outcome: PlanOutcome, from: String, to: String, option: Int? = nil, planner: JourneyPlanner,
                     language: Language = .en, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        func name(_ p: String) -> String {
            guard case .stop(let feed, let id)? = Place.parse(p), let i = try? planner.resolveStop(feed, id) else { return p }
            return planner.network.snapshot.stops[i.index].name
        }
        switch outcome {
        case .itineraries(let answer):
            let doc = AnswerDocument(answer, language: language)
            #expect(try AnswerDocument.read(PlanAnswerJSON.answerBytes(answer, language: language)) == doc, "\(from) → \(to)",
                    sourceLocation: sourceLocation)
            if let o = option {
                try #require(o < doc.itineraries.count, "option \(o + 1) of \(doc.itineraries.count)", sourceLocation: sourceLocation)
            }
            return PlanAnswerText.render(doc, from: name(from), to: name(to), option: option, language: language)
        case .noItinerary(let error):
            return "error: \(error.code.rawValue): \(error.message(language))\n"
        }
    }
}
