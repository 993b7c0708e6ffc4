import Foundation
import Planner
import Raptor
import Server
import TransitModel

/// `fuzz-query`: the API's query parsing on any query string, as each endpoint reads it:
/// `QueryParameters` with each endpoint's names, then `/v1/plan`'s `PlanParameters.query`,
/// `/v1/stops`' and `/v1/stops/{id}`'s parameter reads (the same calls `TransitAPI` makes,
/// short of the timetable).
///
/// Properties: the outcome is a value or an `APIError`, never another error; an error is a
/// 400 with a code and a message, and a `BAD_PARAMETER` names a parameter the endpoint
/// takes; a place (`from`, `to`, `near`) is never repeated in an error; the values read are
/// within the limits (lengths, ranges, a valid clock time) and encoding them again reads
/// back the same.
public enum QueryCheck {
    static let endpoints: [(path: String, names: [String])] = [
        ("/v1/plan", PlanParameters.names),
        ("/v1/stops", APIParameters.stops.map(\.name)),
        ("/v1/stops/{id}", APIParameters.departures.map(\.name)),
        ("/v1/health", []),
    ]

    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let query = String(decoding: input, as: UTF8.self)
        for (path, names) in endpoints {
            func fail(_ m: String) -> FuzzFailure { FuzzFailure("fuzz-query", "\(path)?\(query.debugDescription): \(m)") }
            do {
                let q = try QueryParameters(query, allowed: names)
                try checkValues(q, names, fail)
                try checkPatterns(q, path, fail)
                switch path {
                case "/v1/plan": try checkPlan(q, fail)
                case "/v1/stops":
                    try checkInteger(q, APIParameters.stopsLimit, fail)
                    _ = try q.feed(APIParameters.stopsFeed)
                    _ = try q.text(APIParameters.query)
                    if let near = try q.coordinate(APIParameters.near) {
                        guard abs(near.latitude) <= 90, abs(near.longitude) <= 180 else { throw fail("near read as \(near)") }
                    }
                    if let r = try q.double(APIParameters.radius), !APIParameters.radius.numberRange.contains(r) { throw fail("radius read as \(r)") }
                case "/v1/stops/{id}":
                    _ = try q.feed(APIParameters.stopFeed)
                    if let t = try PlanParameters.time(q, APIParameters.departuresTime) { try TimeCheck.checkQueryTime(t, fail) }
                    try checkInteger(q, APIParameters.departuresLimit, fail)
                default: break
                }
            } catch {
                try checkError(error, query, names, fail)
            }
        }
    }

    /// What the document's patterns allow, the parsers accept: a text value within its
    /// declared length that matches its pattern is read (only a place or feed that is not
    /// served can still be refused, by the timetable).
    static func checkPatterns(_ q: QueryParameters, _ path: String, _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        let specs = path == "/v1/plan" ? APIParameters.plan : path == "/v1/stops" ? APIParameters.stops
            : path == "/v1/stops/{id}" ? APIParameters.departures : []
        for spec in specs {
            guard case .text(let minLength, let maxLength, let pattern?) = spec.kind, let v = q[spec.name],
                  (minLength...maxLength).contains(v.unicodeScalars.count), QueryParameters.matches(v, pattern) else { continue }
            let read: Bool
            switch spec.name {
            case "from", "to": read = Place.parse(v) != nil
            case "time": read = QueryTime.parse(v) != nil
            case "modes": read = (try? ModeFilter.parse(v)) != nil
            case "near": read = (try? q.coordinate(spec)) != nil
            default: read = (try? q.text(spec)) != nil
            }
            guard read else { throw fail("the document's pattern for \(spec.name) allows \(v.debugDescription), which the server refuses") }
        }
    }

    /// An integer parameter read within its declared range, or refused.
    static func checkInteger(_ q: QueryParameters, _ spec: ParameterSpec, _ fail: (String) -> FuzzFailure) throws {
        if let n = try q.int(spec), !spec.integerRange.contains(n) { throw fail("\(spec.name) read as \(n)") }
    }

    static func checkValues(_ q: QueryParameters, _ names: [String], _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        for (name, value) in q.values {
            guard names.contains(name) else { throw fail("accepted the parameter \(name.debugDescription), which is not one of \(names)") }
            guard value.unicodeScalars.count <= QueryParameters.maxValueLength else { throw fail("accepted a value of \(value.count) characters for \(name)") }
        }
        // Percent-encode every value again: the same values must come back.
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        func encode(_ s: String) -> String {
            s.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        }
        let again = q.values.keys.sorted().map { "\(encode($0))=\(encode(q.values[$0]!))" }.joined(separator: "&")
        guard again.utf8.count <= QueryParameters.maxQueryLength else { return }
        let reread: [String: String]
        do { reread = try QueryParameters(again, allowed: names).values } catch {
            throw fail("the values, percent-encoded again as \(again.debugDescription), are refused: \(error.message)")
        }
        guard reread == q.values else { throw fail("the values \(q.values), percent-encoded again, read as \(reread)") }
    }

    static func checkPlan(_ q: QueryParameters, _ fail: (String) -> FuzzFailure) throws {
        let (plan, n) = try PlanParameters.query(q, now: 1_528_212_600)
        let problem: String? = {
            if !PlanRequestParameters.numItineraries.integerRange.contains(n) { return "numItineraries \(n)" }
            let minutes = PlanRequestParameters.window.integerRange
            if let w = plan.window, !(minutes.lowerBound * 60...minutes.upperBound * 60).contains(w) { return "window \(w) s" }
            // Every value read is within its declaration (the timetable's own cap aside).
            let p = plan.parameters
            do { try p.validate() } catch { return "routing parameters \(p): \(error)" }
            for place in [plan.from, plan.to] {
                switch place {
                case .coordinate(let c):
                    if !c.isValid || abs(c.latitude) > 90 || abs(c.longitude) > 180 { return "place \(c)" }
                case .stop(_, let id):
                    if id.isEmpty { return "an empty stop id" }
                }
            }
            return nil
        }()
        if let problem { throw fail("read \(problem)") }
        if q["time"] != nil { try TimeCheck.checkQueryTime(plan.time, fail) }
    }

    static func checkError(_ error: Error, _ query: String, _ names: [String],
                           _ fail: (String) -> FuzzFailure) throws(FuzzFailure) {
        if let f = error as? FuzzFailure { throw f }
        guard let e = error as? APIError else { throw fail("threw \(type(of: error)), not an APIError: \(error)") }
        guard e.status == 400, !e.message.isEmpty else { throw fail("answered \(e.status) \(e.code.rawValue): \(e.message)") }
        if e.code == .badParameter, case .text(let name)? = e.details["parameter"] {
            guard names.contains(name) || name == "id" else { throw fail("BAD_PARAMETER names \(name.debugDescription), not a parameter here") }
            guard e.message.contains(name) else { throw fail("BAD_PARAMETER for \(name) does not say so: \(e.message)") }
            if QueryParameters.places.contains(name) {
                guard e.details["value"] == nil else { throw fail("the error repeats the place given for \(name): \(e.details)") }
                let allowed: String = { if case .text(let a)? = e.details["allowed"] { return a } else { return "" } }()
                // The value given for the place, decoded as the server decodes it.
                if let value = try? QueryParameters(query, allowed: names)[name], value.count >= 4,
                   e.message.contains(value), !allowed.contains(value), !"The parameter \(name) is not allowed: .".contains(value) {
                    throw fail("the message repeats the place given for \(name): \(e.message)")
                }
            }
        }
    }

    /// Real query strings: the README's and the API tests', and plans between real stops and
    /// coordinates of the sampled feeds on their dates.
    public static func seeds(_ samples: [FeedSample]) -> [[UInt8]] {
        var texts = [
            "from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00",
            "from=37.8044,-122.2712&to=37.7700,-122.4180&time=2018-06-05T09:30:00&arriveBy=true",
            "from=stop:POWL&to=stop:CIVC&time=2018-06-05T17:10:00&numItineraries=3&window=30&walkSpeed=1.1&maxTransfers=2&transferSlack=60",
            "from=stop:12TH&to=stop:SFIA&time=2018-06-05T15:30:00Z&modes=SUBWAY&feed=bart&wheelchair=false",
            "from=stop:caltrain:San%20Francisco%20Caltrain&to=stop:caltrain:Palo+Alto+Caltrain&time=2009-03-03T08:00:00",
            "from=stop:12TH&to=stop:SFIA&numItineraries=50", "from=somewhere&to=stop:SFIA", "from=91,0&to=stop:SFIA",
            "from=stop:12TH&to=stop:SFIA&time=tomorrow", "from=stop:12TH&to=stop:SFIA&walkSpeed=NaN",
            "from=stop:12TH&to=stop:SFIA&modes=-BUS,!TRAM", "from=stop:12TH&from=stop:CIVC&to=stop:SFIA", "from=%ZZ&to=stop:SFIA",
            "from=stop:12TH&to=stop:SFIA&maxAccessWalk=800&maxTransferWalk=400&maxDirectWalk=2000&walkDetourFactor=1.3",
            "query=embarcadro&limit=5", "near=37.8044,-122.2712&radius=800&feed=bart", "query=Dworzec+G%C5%82%C3%B3wny",
            "time=2018-06-05T08:30:00&limit=3&feed=bart", "",
            // Edges of the declared patterns: no year 0000, leap days, offsets, spaces, mode names.
            "from=stop:12TH&to=stop:SFIA&time=0000-00-00T00:00", "from=stop:12TH&to=stop:SFIA&time=2020-02-29T08:00",
            "from=stop:12TH&to=stop:SFIA&time=2019-02-29T08:00", "from=stop:12TH&to=stop:SFIA&time=2000-02-29%2023:59:59%2B23:59",
            "from=stop:12TH&to=stop:SFIA&time=%092018-06-05T08:30%C2%A0", "from=stop:%20&to=%2090,-180.0%20",
            "from=1e1,2&to=0x10,5&modes=%20metro,,Train%09", "query=embarcadero&feed=0", "near=,37.8,-122.2,&radius=2000",
            "from=stop:12TH&to=stop:SFIA&modes=-bus,!ferry,&window=180&numItineraries=20",
        ]
        for s in samples {
            let feed = String(s.feed.dropLast(4))
            let ids = s.column("stops.txt", "stop_id"), lats = s.column("stops.txt", "stop_lat"), lons = s.column("stops.txt", "stop_lon")
            let dates = s.column("calendar.txt", "start_date") + s.column("calendar_dates.txt", "date")
            let day = dates.compactMap({ ServiceDate.parse($0) }).first?.iso8601 ?? "2018-06-05"
            if ids.count >= 2 {
                let a = encode(ids[0]), b = encode(ids[ids.count - 1])
                texts.append("from=stop:\(a)&to=stop:\(b)&time=\(day)T08:30:00&feed=\(feed)")
                texts.append("from=stop:\(feed):\(a)&to=stop:\(feed):\(b)&time=\(day)T17:45:00Z&arriveBy=true&window=60")
            }
            if lats.count >= 2, lons.count >= 2 {
                texts.append("from=\(lats[0]),\(lons[0])&to=\(lats[1]),\(lons[1])&time=\(day)T07:15:00-05:00&numItineraries=2&wheelchair=true")
                texts.append("near=\(lats[0]),\(lons[0])&radius=500&limit=10")
            }
            if let name = s.column("stops.txt", "stop_name").first { texts.append("query=\(encode(name))&feed=\(feed)") }
        }
        return Array(Set(texts)).sorted().map { Array($0.utf8) }
    }

    static func encode(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
    }

    public static func dictionary(_ samples: [FeedSample]) -> [String] {
        Array(Set(endpoints.flatMap(\.names))).sorted().flatMap { ["\($0)=", "&\($0)="] }
            + [ "stop:", "%20", "%C3%B3", "+", "&", "=", ",", "true", "false", "NaN", "inf", "1e3",
               "-BUS", "SUBWAY", "2018-06-05T08:30:00", "Z", "+02:00"]
    }
}
