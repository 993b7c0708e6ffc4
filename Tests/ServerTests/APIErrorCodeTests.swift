import Foundation
import Planner
import Server
import Testing

/// The API's error codes: each with its status, and every reason the planner gives mapped.
@Suite("API error codes")
struct APIErrorCodeTests {
    @Test("every reason the planner gives maps to the API code of the same name, with the status it had")
    func plannerReasonsMap() {
        let statuses: [String: Int] = ["BAD_PARAMETER": 400, "BAD_QUERY": 400, "AMBIGUOUS_STOP": 400, "UNKNOWN_STOP": 404,
                                       "SAME_PLACE": 422, "OUTSIDE_COVERAGE": 422, "NO_STOP_NEARBY": 422, "OUTSIDE_SERVICE_PERIOD": 422,
                                       "NO_CONNECTION": 422, "STOP_WITHOUT_LOCATION": 422,
                                       "MODE_NOT_IN_REGION": 422, "NO_ACCESSIBILITY_DATA": 422]
        #expect(Set(PlanReason.allCases.map(\.rawValue)) == Set(statuses.keys))
        for reason in PlanReason.allCases {
            let e = APIError.from(PlanError(reason, "m"))
            #expect(e.code.rawValue == reason.rawValue, "\(reason) maps to itself, not \(e.code)")
            #expect(e.status == statuses[reason.rawValue], "\(reason): \(e.status)")
            #expect(e.cause == nil)
        }
    }

    @Test("each code's status")
    func statuses() {
        let byStatus = Dictionary(grouping: APIErrorCode.allCases, by: \.status).mapValues { Set($0.map(\.rawValue)) }
        #expect(byStatus[404] == ["UNKNOWN_STOP", "UNKNOWN_FEED", "NOT_FOUND"])
        #expect(byStatus[503] == ["NOT_READY", "COVERAGE_UNAVAILABLE"])
        #expect(byStatus[410] == ["TRIP_OVER", "TRIP_NOT_SERVED"] && byStatus[414] == ["TOKEN_TOO_LONG"])
        #expect(byStatus[400]?.contains("INVALID_TOKEN") == true)
        #expect(byStatus[429] == ["RATE_LIMITED", "TOO_MANY_STREAMS"] && byStatus[405] == ["METHOD_NOT_ALLOWED"] && byStatus[413] == ["BODY_TOO_LARGE"])
        #expect(byStatus[422]?.contains("PARAMETER_CONFLICT") == true && byStatus[400]?.contains("BAD_PARAMETER") == true)
        #expect(APIError(.rateLimited, "m").json["error"].map { ($0 as? [String: Any])?["code"] as? String } == "RATE_LIMITED")
    }
}
