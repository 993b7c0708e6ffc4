import Foundation
import Planner
import Raptor
import TransitModel

/// A request's query string, decoded (`+` is a space, `%XX` escapes UTF-8), with checks
/// that name the parameter at fault: unknown names, repeats, lengths.
public struct QueryParameters: Sendable {
    public private(set) var values: [String: String] = [:]
    /// Longest value accepted; longest query string.
    public static let maxValueLength = 200
    public static let maxQueryLength = 4096
    /// The parameters that hold a rider's place.
    public static let places: Set<String> = ["from", "to", "near"]

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    public init(_ query: String?, allowed: [String]) throws(APIError) {
        guard let query, !query.isEmpty else { return }
        guard query.utf8.count <= Self.maxQueryLength else {
            throw APIError(.badParameter, "The query string is \(query.utf8.count) bytes long; at most \(Self.maxQueryLength) are accepted.",
                           details: ["allowed": .text("at most \(Self.maxQueryLength) bytes")])
        }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = Self.percentDecoded
            guard let name = decode(parts[0]) else {
                throw APIError(.badParameter, "A parameter name in the query string is not valid percent-encoded UTF-8.")
            }
            guard allowed.contains(name) else {
                let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
                throw APIError(.unknownParameter, "The parameter \"\(shown)\" is not known here; known are: \(allowed.joined(separator: ", ")).",
                               details: ["parameter": .text(shown), "allowed": .list(allowed.map { .text($0) })])
            }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw APIError.badParameter(name, nil, "a value in valid percent-encoded UTF-8")
            }
            // A rider's place is never repeated back, not even in these two (fuzz-query found them).
            let hidden = Self.places.contains(name)
            guard values[name] == nil else { throw APIError.badParameter(name, value, "one value only (it is given twice)", private: hidden) }
            guard value.unicodeScalars.count <= Self.maxValueLength else {
                throw APIError.badParameter(name, String(value.prefix(40)), "at most \(Self.maxValueLength) characters", private: hidden)
            }
            values[name] = value
        }
    }

    public subscript(_ name: String) -> String? { values[name] }

    /// `+` as a space and `%XX` as a byte, then UTF-8; nil for a broken escape or bytes
    /// that are not UTF-8. (Foundation's `removingPercentEncoding` did the same at a few
    /// percent of the server's time per plan request.)
    static func percentDecoded(_ s: Substring) -> String? {
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            switch b {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = it.next().flatMap(hex), let low = it.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A text parameter's value when given: checked against its declared pattern and
    /// length, so that the server accepts exactly what the document says.
    public func text(_ spec: ParameterSpec, private hidden: Bool = false) throws(APIError) -> String? {
        guard let v = values[spec.name] else { return nil }
        guard case .text(let minLength, let maxLength, let pattern) = spec.kind else { preconditionFailure("\(spec.name) is not text") }
        let length = v.unicodeScalars.count
        guard length >= minLength, length <= maxLength, pattern.map({ Self.matches(v, $0) }) ?? true else {
            throw APIError.badParameter(spec.name, v, spec.allowed, private: hidden)
        }
        return v
    }

    /// Whole-string match with ICU (`NSRegularExpression`), each pattern compiled once.
    public static func matches(_ value: String, _ pattern: String) -> Bool {
        guard let regex = compiled[pattern] else { preconditionFailure("pattern not declared: \(pattern)") }
        let whole = NSRange(value.startIndex..., in: value)
        return regex.firstMatch(in: value, options: [.anchored], range: whole)?.range == whole
    }

    static let compiled: [String: NSRegularExpression] = {
        var out: [String: NSRegularExpression] = [:]
        for spec in APIParameters.all {
            guard case .text(_, _, let pattern?) = spec.kind, out[pattern] == nil else { continue }
            do { out[pattern] = try NSRegularExpression(pattern: pattern) } catch { preconditionFailure("\(spec.name)'s pattern: \(error)") }
        }
        return out
    }()

    /// `feed`: a feed id, or nil when not given.
    public func feed(_ spec: ParameterSpec = APIParameters.planFeed) throws(APIError) -> String? {
        try text(spec)
    }

    public func bool(_ spec: ParameterSpec) throws(APIError) -> Bool? {
        guard let v = values[spec.name] else { return nil }
        switch v.lowercased() {
        case "true", "1", "yes", "": return true
        case "false", "0", "no": return false
        default: throw APIError.badParameter(spec.name, v, spec.allowed)
        }
    }

    public func int(_ spec: ParameterSpec) throws(APIError) -> Int? {
        guard let v = values[spec.name] else { return nil }
        guard let i = Int(v.trimmingCharacters(in: .whitespaces)), spec.integerRange.contains(i) else {
            throw APIError.badParameter(spec.name, v, spec.allowed)
        }
        return i
    }

    public func double(_ spec: ParameterSpec) throws(APIError) -> Double? {
        guard let v = values[spec.name] else { return nil }
        guard let d = Double(v.trimmingCharacters(in: .whitespaces)), d.isFinite, spec.numberRange.contains(d) else {
            throw APIError.badParameter(spec.name, v, spec.allowed)
        }
        return d
    }

    static func plain(_ d: Double) -> String { ParameterSpec.plain(d) }

    /// `lat,lon` with both in range (a place: never repeated in an error).
    public func coordinate(_ spec: ParameterSpec) throws(APIError) -> (latitude: Double, longitude: Double)? {
        guard let v = try text(spec, private: true) else { return nil }
        let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
            throw APIError.badParameter(spec.name, v, spec.allowed, private: true)
        }
        return (lat, lon)
    }
}

/// `/v1/plan`'s parameters, read into a plan query.
public enum PlanParameters {
    /// Every parameter `/v1/plan` takes (`APIParameters.plan`).
    public static let names = APIParameters.plan.map(\.name)

    public static func query(_ q: QueryParameters, now: Int64) throws(APIError) -> (PlanQuery, numItineraries: Int) {
        let feed = try q.feed(APIParameters.planFeed)
        func place(_ spec: ParameterSpec) throws(APIError) -> Place {
            guard let v = try q.text(spec, private: true) else { throw APIError.badParameter(spec.name, nil, "lat,lon or stop:ID") }
            guard var p = Place.parse(v) else { throw APIError.badParameter(spec.name, v, spec.allowed, private: true) }
            if case .stop(nil, let id) = p, let feed { p = .stop(feed: feed, id: id) }
            return p
        }
        let from = try place(APIParameters.from), to = try place(APIParameters.to)
        let time = try Self.time(q, APIParameters.planTime) ?? .instant(now)
        var p = RoutingParameters()
        let model = RoutingParameters.Spec.self
        if let v = try q.double(model.walkSpeed) { p.walkSpeed = v }
        if let v = try q.double(model.walkDetourFactor) { p.walkDetourFactor = v }
        if let v = try q.double(model.maxAccessWalk) { p.maxAccessWalk = v }
        if let v = try q.double(model.maxTransferWalk) { p.maxTransferWalk = v }
        if let v = try q.double(model.maxDirectWalk) { p.maxDirectWalk = v }
        if let v = try q.int(model.transferSlack) { p.transferSlack = v }
        if let v = try q.int(model.maxTransfers) { p.maxTransfers = v }
        let window = try q.int(PlanRequestParameters.window)
        let n = try q.int(PlanRequestParameters.numItineraries) ?? PlanRequestParameters.numItineraries.integerDefault
        var modes: ModeFilter?
        if let m = q["modes"] {
            // The parser's message names the item at fault; the pattern then refuses the
            // rest of what the document does not allow.
            do { modes = try ModeFilter.parse(m) } catch {
                throw APIError.badParameter("modes", m, error.message)
            }
            _ = try q.text(APIParameters.modes)
        }
        let query = PlanQuery(from: from, to: to, time: time, arriveBy: try q.bool(APIParameters.arriveBy) ?? false, parameters: p,
                              window: window.map { $0 * 60 }, modes: modes, wheelchair: try q.bool(APIParameters.wheelchair) ?? false,
                              streets: try q.bool(PlanRequestParameters.streets) ?? true)
        var withRealtime = query
        withRealtime.realtime = try q.bool(PlanRequestParameters.realtime) ?? true
        return (withRealtime, n)
    }

    /// A time parameter (`time` of a plan or of departures), or nil when not given.
    public static func time(_ q: QueryParameters, _ spec: ParameterSpec) throws(APIError) -> QueryTime? {
        guard let t = try q.text(spec) else { return nil }
        guard let parsed = QueryTime.parse(t) else { throw APIError.badParameter(spec.name, t, spec.allowed) }
        return parsed
    }
}
