import Foundation
import Planner
import Raptor

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
            throw APIError(400, "BAD_PARAMETER", "The query string is \(query.utf8.count) bytes long; at most \(Self.maxQueryLength) are accepted.",
                           details: ["allowed": .text("at most \(Self.maxQueryLength) bytes")])
        }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = Self.percentDecoded
            guard let name = decode(parts[0]) else {
                throw APIError(400, "BAD_PARAMETER", "A parameter name in the query string is not valid percent-encoded UTF-8.")
            }
            guard allowed.contains(name) else {
                let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
                throw APIError(400, "UNKNOWN_PARAMETER", "The parameter \"\(shown)\" is not known here; known are: \(allowed.joined(separator: ", ")).",
                               details: ["parameter": .text(shown), "allowed": .list(allowed.map { .text($0) })])
            }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw APIError.badParameter(name, nil, "a value in valid percent-encoded UTF-8")
            }
            // A rider's place is never repeated back, not even in these two (fuzz-query found them).
            let hidden = Self.places.contains(name)
            guard values[name] == nil else { throw APIError.badParameter(name, value, "one value only (it is given twice)", private: hidden) }
            guard value.count <= Self.maxValueLength else {
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

    /// `feed`: a feed id (not empty), or nil when not given.
    public func feed() throws(APIError) -> String? {
        guard let f = values["feed"] else { return nil }
        guard !f.isEmpty, f.count <= 63 else { throw APIError.badParameter("feed", f, "a feed id (see /v1/health)") }
        return f
    }

    public func bool(_ name: String) throws(APIError) -> Bool? {
        guard let v = values[name] else { return nil }
        switch v.lowercased() {
        case "true", "1", "yes", "": return true
        case "false", "0", "no": return false
        default: throw APIError.badParameter(name, v, "true or false")
        }
    }

    public func int(_ name: String, _ range: ClosedRange<Int>, unit: String = "") throws(APIError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let i = Int(v.trimmingCharacters(in: .whitespaces)), range.contains(i) else {
            throw APIError.badParameter(name, v, "a whole number from \(range.lowerBound) to \(range.upperBound)\(unit)")
        }
        return i
    }

    public func double(_ name: String, _ range: ClosedRange<Double>, unit: String = "") throws(APIError) -> Double? {
        guard let v = values[name] else { return nil }
        guard let d = Double(v.trimmingCharacters(in: .whitespaces)), d.isFinite, range.contains(d) else {
            throw APIError.badParameter(name, v, "a number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))\(unit)")
        }
        return d
    }

    static func plain(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    /// `lat,lon` with both in range.
    public func coordinate(_ name: String, hidden: Bool = true) throws(APIError) -> (latitude: Double, longitude: Double)? {
        guard let v = values[name] else { return nil }
        let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
            throw APIError.badParameter(name, v, "lat,lon in degrees, e.g. 37.8044,-122.2712", private: hidden)
        }
        return (lat, lon)
    }
}

/// `/v1/plan`'s parameters, read into a plan query.
public enum PlanParameters {
    /// Every parameter `/v1/plan` takes: the request's own, then the routing model's by
    /// their names in the model.
    public static let names = ["from", "to", "feed", "time", "arriveBy", "window", "numItineraries", "modes", "wheelchair"]
        + RoutingParameters.names
    /// Minutes; the server's limit (the command line allows a day).
    public static let maxWindow = 180

    public static func query(_ q: QueryParameters, now: Int64) throws(APIError) -> (PlanQuery, numItineraries: Int) {
        let feed = try q.feed()
        func place(_ name: String) throws(APIError) -> Place {
            guard let v = q[name] else { throw APIError.badParameter(name, nil, "lat,lon or stop:ID") }
            guard var p = Place.parse(v) else {
                throw APIError.badParameter(name, v, "lat,lon (e.g. 37.8044,-122.2712) or stop:ID (e.g. stop:12TH)", private: true)
            }
            if case .stop(nil, let id) = p, let feed { p = .stop(feed: feed, id: id) }
            return p
        }
        let from = try place("from"), to = try place("to")
        var time = QueryTime.instant(now)
        if let t = q["time"] {
            guard let parsed = QueryTime.parse(t) else {
                throw APIError.badParameter("time", t, "ISO 8601 such as 2018-06-05T08:30:00 (local time of the feed) or 2018-06-05T15:30:00Z")
            }
            time = parsed
        }
        var p = RoutingParameters()
        if let v = try q.double("walkSpeed", 0.1...10, unit: " m/s") { p.walkSpeed = v }
        if let v = try q.double("walkDetourFactor", 1...3) { p.walkDetourFactor = v }
        if let v = try q.double("maxAccessWalk", 0...5000, unit: " m") { p.maxAccessWalk = v }
        if let v = try q.double("maxTransferWalk", 0...5000, unit: " m") { p.maxTransferWalk = v }
        if let v = try q.double("maxDirectWalk", 0...20_000, unit: " m") { p.maxDirectWalk = v }
        if let v = try q.int("transferSlack", 0...3600, unit: " s") { p.transferSlack = v }
        if let v = try q.int("maxTransfers", 0...12) { p.maxTransfers = v }
        let window = try q.int("window", 0...maxWindow, unit: " minutes")
        let n = try q.int("numItineraries", 1...JourneyPlanner.maxItineraries) ?? JourneyPlanner.defaultItineraries
        var modes: ModeFilter?
        if let m = q["modes"] {
            do { modes = try ModeFilter.parse(m) } catch {
                throw APIError.badParameter("modes", m, error.message)
            }
        }
        let query = PlanQuery(from: from, to: to, time: time, arriveBy: try q.bool("arriveBy") ?? false, parameters: p,
                              window: window.map { $0 * 60 }, modes: modes, wheelchair: try q.bool("wheelchair") ?? false)
        return (query, n)
    }
}
