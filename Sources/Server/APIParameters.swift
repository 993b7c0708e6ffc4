import Planner
import Raptor
import TransitModel

/// The declarations of the API's own parameters (the routing model's are
/// `RoutingParameters.Spec`, the planner's `numItineraries` and `window` are
/// `PlanRequestParameters`): the one place each is written. `QueryParameters` reads them,
/// `OpenAPIGenerator` documents them, `QueryCheck` fuzzes them.
///
/// Text parameters carry the pattern the server checks before parsing, so that what the
/// document says is what the server accepts: the patterns are written to match only what
/// the parsers (`Place.parse`, `QueryTime.parse`, `ModeFilter.parse`) accept, and the
/// parsers then only refuse what no pattern can say (a feed or stop that is not served).
public enum APIParameters {
    // MARK: Patterns

    /// What `trimmingCharacters(in: .whitespaces)` removes: tab and Unicode's space separators.
    static let space = #"[\t \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]"#
    static let notSpace = #"[^\t \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]"#
    /// Degrees as Swift's `Double` reads them (sign, digits, one point), within ±90 and ±180.
    static let latitude = #"[+-]?(?:0*(?:90(?:\.0*)?|[1-8]?[0-9](?:\.[0-9]*)?)|\.[0-9]+)"#
    static let longitude = #"[+-]?(?:0*(?:180(?:\.0*)?|(?:1[0-7][0-9]|[1-9]?[0-9])(?:\.[0-9]*)?)|\.[0-9]+)"#
    static let coordinate = "\(space)*\(latitude)\(space)*,\(space)*\(longitude)\(space)*"
    /// `stop:` and an id with something besides spaces in it.
    static let stop = #"\#(space)*stop:[\s\S]*\#(notSpace)[\s\S]*"#
    /// A Gregorian date from 1900 to 2999 (`ServiceDate`'s years), leap days included.
    static let date = "(?:(?:19[0-9]{2}|2[0-9]{3})-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
        + "|(?:(?:19|2[0-9])(?:0[48]|[2468][048]|[13579][26])|2[048]00)-02-29)"
    static let clock = "(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?"
    static let offset = "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    static let time = "\(space)*\(date)[T ]\(clock)\(offset)?\(space)*"
    /// Transit mode names, any case, and the aliases `ModeFilter.parse` takes.
    public static let modeNames = LegMode.allCases.filter { $0 != .walk }.map(\.rawValue) + ModeFilter.aliases.map(\.key)
    static let modeList: String = {
        // Letters in any case; `_` as `-`, `_` or a space (ModeFilter.mode(named:) reads them alike).
        func character(_ c: Character) -> String {
            if c.isLetter { return "[\(c)\(c.lowercased())]" }
            return c == "_" ? "[-_ ]" : String(c)
        }
        let words: [String] = modeNames.sorted { $0.count > $1.count }.map { $0.map(character).joined() }
        let name = "(?:" + words.joined(separator: "|") + ")"
        let empty = "\(space)*", only = "\(space)*\(name)\(space)*", except = "\(space)*[-!]\(name)\(space)*"
        func list(_ item: String) -> String { "(?:\(empty),)*\(item)(?:,(?:\(empty),)*\(item))*(?:,\(empty))*" }
        return "(?:\(list(only))|\(list(except)))"
    }()
    static let feedId = "[A-Za-z0-9._-]+"

    static func whole(_ pattern: String) -> String { "^(?:\(pattern))$" }

    static let placeAllowed = "lat,lon (e.g. 37.8044,-122.2712) or stop:ID (e.g. stop:12TH)"
    static let timeAllowed = "ISO 8601 such as 2018-06-05T08:30:00 (local time of the feed) or 2018-06-05T15:30:00Z"
    static let feedAllowed = "a feed id (see /v1/health)"

    // MARK: /v1/plan

    public static let from = ParameterSpec("from", .text(minLength: 1, maxLength: 200, pattern: whole("\(stop)|\(coordinate)")), required: true,
                                           allowed: placeAllowed, "Origin: `lat,lon` or `stop:ID` (or `stop:FEED:ID`)")
    public static let to = ParameterSpec("to", .text(minLength: 1, maxLength: 200, pattern: whole("\(stop)|\(coordinate)")), required: true,
                                         allowed: placeAllowed, "Destination: `lat,lon` or `stop:ID` (or `stop:FEED:ID`)")
    public static let planFeed = ParameterSpec("feed", .text(minLength: 1, maxLength: 63, pattern: whole(feedId)), allowed: feedAllowed,
                                               "Scopes `stop:ID` places to this feed")
    public static let planTime = ParameterSpec("time", .text(minLength: 1, maxLength: 200, pattern: whole(time)), defaultWords: "now",
                                               allowed: timeAllowed,
                                               "ISO 8601; without an offset, local time of the feed where the trip starts")
    public static let arriveBy = ParameterSpec("arriveBy", .boolean(default: false), "Arrive by `time` instead of leaving at it")
    public static let modes = ParameterSpec("modes", .text(minLength: 1, maxLength: 200, pattern: whole(modeList)),
                                                allowed: "transit modes such as TRAM,SUBWAY, or -BUS for all but buses",
                                                "Only these transit modes (`TRAM,SUBWAY`), or all but these (`-BUS`); any case, `-`, `_` or a space alike; the common names METRO, UNDERGROUND, TUBE (SUBWAY), TRAIN (RAIL), STREETCAR, LIGHT_RAIL, LIGHTRAIL (TRAM), BOAT, WATER_TAXI (FERRY), CABLE_CAR (CABLE_TRAM), AERIAL_LIFT, CABLE_WAY (GONDOLA), TROLLEY (TROLLEYBUS), PLANE, AIR (AIRPLANE) are accepted; a mode the region does not have is MODE_NOT_IN_REGION")
    /// The offered languages' tags, any region or script after them (`Language(tag:)`).
    public static let lang = ParameterSpec("lang", .text(minLength: 2, maxLength: 35, pattern: whole("(?:[Ee][Nn]|[Zz][Hh])(?:[-_][A-Za-z0-9]{1,8})*")),
                                           defaultWords: "the request's Accept-Language, else en",
                                           allowed: "en or zh-Hans (zh, zh-CN alike)",
                                           "The language of the instructions, notices and refusals: `en` or `zh-Hans`; without it, the first offered one of `Accept-Language`, else English. The answer's `Content-Language` says which")
    public static let wheelchair = ParameterSpec("wheelchair", .boolean(default: false), "Only stops and trips marked wheelchair accessible")

    /// Every parameter `/v1/plan` takes, in the document's order: the request's own, then
    /// the routing model's.
    public static let plan: [ParameterSpec] = [from, to, planFeed, planTime, arriveBy, PlanRequestParameters.window,
                                               PlanRequestParameters.numItineraries, modes, wheelchair, PlanRequestParameters.streets,
                                               PlanRequestParameters.realtime, lang]
        + RoutingParameters.Spec.all

    // MARK: /v1/stops

    public static let query = ParameterSpec("query", .text(minLength: 1, maxLength: 200, pattern: whole(#"[\s\S]*\#(notSpace)[\s\S]*"#)),
                                            allowed: "some letters of a stop's name", "Part of a stop's name. Give `query` or `near`")
    public static let near = ParameterSpec("near", .text(minLength: 1, maxLength: 200, pattern: whole(coordinate)),
                                           allowed: "lat,lon in degrees, e.g. 37.8044,-122.2712", "`lat,lon`. Give `query` or `near`")
    public static let radius = ParameterSpec("radius", .number(1...2000, default: 500), unit: .meters, "Meters around `near`")
    public static let stopsFeed = ParameterSpec("feed", .text(minLength: 1, maxLength: 63, pattern: whole(feedId)), allowed: feedAllowed,
                                                "Only this feed's stops")
    public static let stopsLimit = ParameterSpec("limit", .integer(1...50, default: 10), "At most this many stops")
    public static let stops: [ParameterSpec] = [query, near, radius, stopsFeed, stopsLimit]

    // MARK: /v1/network

    public static let bbox = ParameterSpec("bbox", .text(minLength: 7, maxLength: 200, pattern: whole("\(longitude),\(latitude),\(longitude),\(latitude)")),
                                           allowed: "west,south,east,north in degrees, e.g. -122.5,37.7,-122.2,37.9",
                                           "Only what lies in this box: `west,south,east,north` (degrees; west greater than east: a box across the 180th meridian; south above north: nothing); without it, the whole network")
    public static let network: [ParameterSpec] = [bbox]

    // MARK: /v1/vehicles

    public static let vehiclesRoute = ParameterSpec("route", .text(minLength: 1, maxLength: 255, pattern: nil),
                                                    "Only the vehicles of this route (its route_id)")
    public static let vehiclesFeed = ParameterSpec("feed", .text(minLength: 1, maxLength: 63, pattern: whole(feedId)), allowed: feedAllowed,
                                                   "Only this feed's vehicles")
    public static let vehicles: [ParameterSpec] = [vehiclesRoute, vehiclesFeed]

    // MARK: /v1/stops/{id}

    public static let stopFeed = ParameterSpec("feed", .text(minLength: 1, maxLength: 63, pattern: whole(feedId)), allowed: feedAllowed,
                                               "The feed, when several have this stop id")
    public static let departuresTime = ParameterSpec("time", .text(minLength: 1, maxLength: 200, pattern: whole(time)), defaultWords: "now",
                                                     allowed: timeAllowed, "Departures after this time")
    public static let departuresLimit = ParameterSpec("limit", .integer(1...50, default: 10), "At most this many departures")
    public static let departures: [ParameterSpec] = [stopFeed, departuresTime, departuresLimit]

    // MARK: /v1/trips/{token}/events

    public static let followThreshold = ParameterSpec("threshold", .integer(0...3600, default: 60), unit: .seconds,
                                                      "A `delay` is told when a ride's expected departure or arrival moves by at least this much")
    public static let followNotice = ParameterSpec("notice", .integer(1...60, default: 5), unit: .minutes,
                                                   "`leg-upcoming` comes this long before a boarding (and before getting off a long ride)")
    public static let follow: [ParameterSpec] = [followThreshold, followNotice, lang]

    // MARK: Path parameters

    public static let coverageFeed = ParameterSpec("feed", .text(minLength: 1, maxLength: 63, pattern: whole(feedId)), required: true,
                                                   allowed: feedAllowed, "A served feed's id")
    public static let tripToken = ParameterSpec("token", .text(minLength: 1, maxLength: 2048, pattern: whole("[A-Za-z0-9_-]+")),
                                                required: true, allowed: "a tripToken from a plan answer",
                                                "An itinerary's `tripToken` from `/v1/plan`")
    public static let stopId = ParameterSpec("id", .text(minLength: 1, maxLength: 200, pattern: nil), required: true, allowed: "a stop id",
                                             "A stop's id (`stop_id`)")
}

extension APIParameters {
    /// Every declaration the API reads, for compiling the patterns once.
    static let all: [ParameterSpec] = plan + stops + departures + vehicles + follow + network + [coverageFeed, stopId, tripToken]
}
