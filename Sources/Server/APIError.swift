import Foundation
import PlanJSON
import Planner

/// An error answered as `{"error": {"code", "message", "details"}}` with its HTTP status.
/// Messages are plain and say what to do; they never hold a rider's exact place.
public struct APIError: Error, Sendable {
    public let status: Int
    public let code: String
    public let message: String
    public let details: [String: PlanDetail]

    public init(_ status: Int, _ code: String, _ message: String, details: [String: PlanDetail] = [:]) {
        self.status = status; self.code = code; self.message = message; self.details = details
    }

    /// A bad query parameter: names it, the value (shortened) and what is allowed.
    /// `private`: a place, whose value is not repeated (riders' places stay out of errors).
    public static func badParameter(_ name: String, _ value: String?, _ allowed: String, private hidden: Bool = false) -> APIError {
        var details: [String: PlanDetail] = ["parameter": .text(name), "allowed": .text(allowed)]
        var message = "The parameter \(name) "
        if hidden && value != nil {
            message += "is not allowed: \(allowed)."
        } else if let value {
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            details["value"] = .text(shown)
            message += "\"\(shown)\" is not allowed: \(allowed)."
        } else {
            message += "is missing: \(allowed)."
        }
        return APIError(400, "BAD_PARAMETER", message, details: details)
    }

    /// The planner's reasons, with the status that fits: a request that is well formed
    /// but has no itinerary is 422; a stop that does not exist is 404.
    public static func from(_ e: PlanError) -> APIError {
        let status: Int
        switch e.code {
        case .badParameter, .badQuery, .ambiguousStop: status = 400
        case .unknownStop: status = 404
        case .stopWithoutLocation, .samePlace, .outsideCoverage, .noStopNearby, .outsideServicePeriod, .noConnection: status = 422
        }
        return APIError(status, e.code.rawValue, e.message, details: e.details)
    }

    public var json: [String: Any] {
        var body: [String: Any] = ["code": code, "message": message]
        body["details"] = details.mapValues(\.json)
        return ["error": body]
    }
}
