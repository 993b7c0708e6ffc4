import Foundation
import Planner
import Server
import Testing

/// The API's error codes: each with its status, and every code the planner throws mapped.
@Suite("API error codes")
struct APIErrorCodeTests {
    /// Every `PlanError("CODE"` written in Sources/Planner.
    static func plannerCodes() throws -> Set<String> {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Planner")
        var codes = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"PlanError\("([A-Z_]+)""#)
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                codes.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        return codes
    }

    @Test("every code the planner can throw maps to an API code, with the status it had")
    func plannerCodesMap() throws {
        let codes = try Self.plannerCodes()
        #expect(codes.count >= 10, "found \(codes.sorted())")
        let statuses: [String: Int] = ["BAD_PARAMETER": 400, "BAD_QUERY": 400, "AMBIGUOUS_STOP": 400, "UNKNOWN_STOP": 404,
                                       "SAME_PLACE": 422, "OUTSIDE_COVERAGE": 422, "NO_STOP_NEARBY": 422, "OUTSIDE_SERVICE_PERIOD": 422,
                                       "NO_CONNECTION": 422, "STOP_WITHOUT_LOCATION": 422, "BAD_ANSWER": 500]
        for code in codes {
            let e = APIError.from(PlanError(code, "m"))
            #expect(e.code.rawValue == code, "\(code) maps to itself, not \(e.code)")
            #expect(e.status == statuses[code], "\(code): \(e.status)")
            #expect(e.cause == nil)
        }
    }

    @Test("a code the API does not know is a logged internal error, not a 422")
    func unknownCode() {
        for code in ["NEW_REASON", "", "INTERNAL"] {
            let e = APIError.from(PlanError(code, "secret detail"))
            #expect(e.code == .internalError && e.status == 500)
            #expect(e.cause?.contains("code \(code) has no") == true, "\(e.cause ?? "")")
            #expect(!e.message.contains("secret"))
        }
    }

    @Test("each code's status")
    func statuses() {
        let byStatus = Dictionary(grouping: APIErrorCode.allCases, by: \.status).mapValues { Set($0.map(\.rawValue)) }
        #expect(byStatus[404] == ["UNKNOWN_STOP", "UNKNOWN_FEED", "NOT_FOUND"])
        #expect(byStatus[503] == ["NOT_READY", "COVERAGE_UNAVAILABLE"])
        #expect(byStatus[429] == ["RATE_LIMITED"] && byStatus[405] == ["METHOD_NOT_ALLOWED"] && byStatus[413] == ["BODY_TOO_LARGE"])
        #expect(byStatus[422]?.contains("PARAMETER_CONFLICT") == true && byStatus[400]?.contains("BAD_PARAMETER") == true)
        #expect(APIError(.rateLimited, "m").json["error"].map { ($0 as? [String: Any])?["code"] as? String } == "RATE_LIMITED")
    }
}
