import Foundation
import PlanJSON
import Planner
import TransitModel

/// Every error code the API answers, each with its HTTP status (README, "Errors"). The
/// switch has no default: a new code must be given its status here.
public enum APIErrorCode: String, CaseIterable, Sendable {
    /// A parameter breaks the document (missing, out of range, not the pattern).
    case badParameter = "BAD_PARAMETER"
    case unknownParameter = "UNKNOWN_PARAMETER"
    /// A request the HTTP layer refused before any route saw it.
    case badRequest = "BAD_REQUEST"
    /// The planner's: a `--batch` line that is not a query (not answered by the server).
    case badQuery = "BAD_QUERY"
    /// `stop:ID` in several feeds: write `stop:FEED:ID`.
    case ambiguousStop = "AMBIGUOUS_STOP"
    case unknownStop = "UNKNOWN_STOP"
    case unknownFeed = "UNKNOWN_FEED"
    case notFound = "NOT_FOUND"
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case bodyTooLarge = "BODY_TOO_LARGE"
    /// Parameters each allowed by the document but not together (`/v1/stops`: `query`
    /// or `near`, `radius` only with `near`), or not with the timetable served
    /// (`maxTransferWalk` beyond its footpaths).
    case parameterConflict = "PARAMETER_CONFLICT"
    // The request is fine; there is no itinerary, and why.
    case outsideCoverage = "OUTSIDE_COVERAGE"
    case noStopNearby = "NO_STOP_NEARBY"
    case outsideServicePeriod = "OUTSIDE_SERVICE_PERIOD"
    case samePlace = "SAME_PLACE"
    case noConnection = "NO_CONNECTION"
    case stopWithoutLocation = "STOP_WITHOUT_LOCATION"
    /// `modes` allows none of the modes that run where the trip would be.
    case modeNotInRegion = "MODE_NOT_IN_REGION"
    /// `wheelchair=true` where the feeds carry no accessibility data at all.
    case noAccessibilityData = "NO_ACCESSIBILITY_DATA"
    case rateLimited = "RATE_LIMITED"
    /// A trip token that is not one this server signed (changed, cut, another key's).
    case invalidToken = "INVALID_TOKEN"
    /// A trip token longer than any this server writes.
    case tokenTooLong = "TOKEN_TOO_LONG"
    /// The followed trip ended (as planned) more than an hour ago.
    case tripOver = "TRIP_OVER"
    /// The followed trip is not in the timetable served now (a new feed version changed it).
    case tripNotServed = "TRIP_NOT_SERVED"
    /// Too many open trip streams, on the server or from one address.
    case tooManyStreams = "TOO_MANY_STREAMS"
    case notReady = "NOT_READY"
    case coverageUnavailable = "COVERAGE_UNAVAILABLE"
    /// Something went wrong on our side; logged.
    case internalError = "INTERNAL"

    public var status: Int {
        switch self {
        case .badParameter, .unknownParameter, .badRequest, .badQuery, .ambiguousStop, .invalidToken: 400
        case .unknownStop, .unknownFeed, .notFound: 404
        case .methodNotAllowed: 405
        case .tripOver, .tripNotServed: 410
        case .bodyTooLarge: 413
        case .tokenTooLong: 414
        case .parameterConflict, .outsideCoverage, .noStopNearby, .outsideServicePeriod, .samePlace, .noConnection,
             .stopWithoutLocation, .modeNotInRegion, .noAccessibilityData: 422
        case .rateLimited, .tooManyStreams: 429
        case .internalError: 500
        case .notReady, .coverageUnavailable: 503
        }
    }
}

/// An error answered as `{"error": {"code", "message", "details"}}` with its code's HTTP
/// status. Messages are plain and say what to do; they never hold a rider's exact place.
/// `cause` is for the log only (never answered).
public struct APIError: Error, Sendable {
    public let code: APIErrorCode
    public let message: String
    public let details: [String: PlanDetail]
    public let cause: String?

    public var status: Int { code.status }

    public init(_ code: APIErrorCode, _ message: String, details: [String: PlanDetail] = [:], cause: String? = nil) {
        self.code = code; self.message = message; self.details = details; self.cause = cause
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
        return APIError(.badParameter, message, details: details)
    }

    /// The planner's reasons, with their codes' statuses: a request that is well formed
    /// but has no itinerary is 422; a stop that does not exist is 404.
    public static func from(_ e: PlanError, language: Language = .en) -> APIError {
        APIError(code(of: e.code), e.message(language), details: e.details)
    }

    /// The API's code for each of the planner's reasons (the same words; no default, so a
    /// new reason must be given its code and status here).
    static func code(of reason: PlanReason) -> APIErrorCode {
        switch reason {
        case .badParameter: .badParameter
        case .badQuery: .badQuery
        case .unknownStop: .unknownStop
        case .ambiguousStop: .ambiguousStop
        case .stopWithoutLocation: .stopWithoutLocation
        case .samePlace: .samePlace
        case .outsideCoverage: .outsideCoverage
        case .noStopNearby: .noStopNearby
        case .outsideServicePeriod: .outsideServicePeriod
        case .noConnection: .noConnection
        case .modeNotInRegion: .modeNotInRegion
        case .noAccessibilityData: .noAccessibilityData
        }
    }

    public var json: [String: Any] {
        var body: [String: Any] = ["code": code.rawValue, "message": message]
        body["details"] = details.mapValues(\.json)
        return ["error": body]
    }
}
