import Foundation
import Planner
import Raptor
import Streets
import TransitModel

/// The API's OpenAPI 3.1 document, made from the parameters' declarations
/// (`APIParameters`, `PlanRequestParameters`, `RoutingParameters.Spec`) and the response
/// schemas below. The committed copy is `Sources/Server/Resources/openapi.json`, which the
/// server serves; regenerate it with
///
///     swift run transit openapi > Sources/Server/Resources/openapi.json
///
/// (`OpenAPIDocumentTests` fails while the two differ).
public enum OpenAPIGenerator {
    /// The document's text, ending in a newline.
    public static func document() -> String { json().rendered() + "\n" }

    public static let regenerate = "swift run transit openapi > Sources/Server/Resources/openapi.json"

    // MARK: Parameters, from their declarations

    static func schema(_ spec: ParameterSpec) -> OpenAPIJSON {
        switch spec.kind {
        case .integer(let r, _): return ["type": "integer", "minimum": .integer(r.lowerBound), "maximum": .integer(r.upperBound)]
        case .number(let r, _): return ["type": "number", "minimum": .number(r.lowerBound), "maximum": .number(r.upperBound)]
        case .boolean: return ["type": "boolean"]
        case .text(let minLength, let maxLength, let pattern):
            var s: OpenAPIJSON = ["type": "string", "minLength": .integer(minLength), "maxLength": .integer(maxLength)]
            if let pattern { s = s.merging(["pattern": .string(pattern)]) }
            return s
        }
    }

    static func parameter(_ spec: ParameterSpec, in place: String = "query", prefix: String = "") -> OpenAPIJSON {
        var description = "\(prefix)\(spec.description)."
        if let d = spec.defaultText { description += " Default: \(d)." }
        return ["name": .string(spec.name), "in": .string(place), "required": .bool(spec.required || place == "path"),
                "description": .string(description), "schema": schema(spec)]
    }

    static func planParameters() -> [OpenAPIJSON] {
        let model = Set(RoutingParameters.names)
        return APIParameters.plan.map { parameter($0, prefix: model.contains($0.name) ? "Routing model: " : "") }
    }

    // MARK: Schemas

    static let modes: OpenAPIJSON = .array(LegMode.allCases.map { .string($0.rawValue) })
    static func ref(_ name: String) -> OpenAPIJSON { ["$ref": .string("#/components/schemas/\(name)")] }
    static func error(_ description: String) -> OpenAPIJSON {
        ["description": .string(description), "content": ["application/json": ["schema": ref("Error")]]]
    }
    static let iso: OpenAPIJSON = ["type": "string", "pattern": #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$"#]
    static let date: OpenAPIJSON = ["type": "string", "pattern": #"^\d{4}-\d{2}-\d{2}$"#]
    static let num: OpenAPIJSON = ["type": "number"]
    static let integer: OpenAPIJSON = ["type": "integer"]
    static let string: OpenAPIJSON = ["type": "string"]
    static let boolean: OpenAPIJSON = ["type": "boolean"]

    static func object(_ required: [String], _ properties: OpenAPIJSON, additional: Bool = true) -> OpenAPIJSON {
        var o: OpenAPIJSON = ["type": "object", "required": .array(required.map { .string($0) }), "properties": properties]
        if !additional { o = o.merging(["additionalProperties": false]) }
        return o
    }
    static func array(_ items: OpenAPIJSON) -> OpenAPIJSON { ["type": "array", "items": items] }

    static func schemas() -> OpenAPIJSON {
        let place = object(["name", "lat", "lon"], [
            "name": string, "lat": num, "lon": num, "stopId": string, "feed": string, "platformCode": string])
        let leg = object(["mode", "from", "to", "departure", "arrival", "durationSeconds", "distanceMeters", "instruction"], [
            "mode": ["enum": modes], "from": ref("ItineraryPlace"), "to": ref("ItineraryPlace"),
            "departure": iso, "arrival": iso, "durationSeconds": integer, "distanceMeters": num, "instruction": string,
            "change": boolean, "waitSeconds": integer,
            "agency": string, "routeId": string, "route": string, "routeShortName": string, "routeLongName": string,
            "routeColor": string, "routeTextColor": string, "headsign": string, "trip": string, "serviceDate": date,
            "geometrySource": ["enum": ["shape", "stops"]], "shapeId": string,
            "intermediateStops": array(["allOf": [ref("ItineraryPlace"), object(["arrival", "departure"], ["arrival": iso, "departure": iso])]]),
            "walkModel": ["enum": .array([WalkModel.streets, .beeline].map { .string($0.rawValue) }), "description":
                "How a walk's length was found (routing model, \"Streets\"): along the streets, or the beeline × walkDetourFactor."],
            "walkSteps": ["type": "array", "items": ref("WalkStep"), "description":
                "A walk's turn-by-turn steps along the streets, in order (empty for a beeline walk)."],
            "realtime": ["type": "boolean", "description":
                "A ride of an answer planned on realtime: whether an applied GTFS-Realtime TripUpdate names its trip and date (routing model, \"Realtime\")."],
            "scheduledDeparture": iso, "scheduledArrival": iso,
            "departureDelaySeconds": ["type": "integer", "description": "Expected minus scheduled departure (a realtime ride)."],
            "arrivalDelaySeconds": ["type": "integer", "description": "Expected minus scheduled arrival (a realtime ride)."],
            "skippedStops": ["type": "array", "items": string, "description": "stop_ids the trip passes without stopping that day (SKIPPED)."],
            "alerts": array(ref("Alert")),
            "vehicle": ref("Vehicle"),
        ])
        let vehicle = object(["id", "feed", "lat", "lon"], [
            "id": string, "label": string, "feed": string, "lat": num, "lon": num, "bearing": num, "speed": num,
            "routeId": string, "tripId": string, "stopId": string,
            "currentStatus": ["enum": ["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"]], "timestamp": iso,
        ])
        let alert = object(["id", "activePeriods"], [
            "id": string, "header": string, "description": string, "url": string, "cause": string, "effect": string,
            "activePeriods": array(object([], ["start": iso, "end": iso])),
        ])
        let walkStep = object(["action", "street", "kind", "meters", "instruction", "point"], [
            "action": ["enum": .array(WalkStep.Action.allCases.map { .string($0.rawValue) })],
            "street": ["type": ["string", "null"], "description": "The way's name; null for an unnamed one (kind names it)."],
            "kind": ["enum": .array(StreetKind.allCases.map { .string($0.name) })],
            "meters": num, "heading": ["type": "string", "description": "For depart: the compass direction walked first."],
            "instruction": string, "point": ["type": "array", "items": num, "minItems": 2, "maxItems": 2,
                                             "description": "Where the step starts: longitude, latitude."],
        ], additional: false)
        let position: OpenAPIJSON = ["type": "array", "items": num, "minItems": 2, "maxItems": 3]
        let geometry: OpenAPIJSON = ["oneOf": [
            object(["type", "coordinates"], ["type": ["const": "Point"], "coordinates": position]),
            object(["type", "coordinates"], ["type": ["const": "LineString"], "coordinates": array(position)]),
            object(["type", "coordinates"], ["type": ["const": "MultiPolygon"],
                                             "coordinates": array(array(["type": "array", "items": position, "minItems": 4]))]),
        ]]
        let featureCollection = object(["type", "features"], [
            "type": ["const": "FeatureCollection"],
            "features": array(object(["type", "geometry", "properties"], [
                "type": ["const": "Feature"], "geometry": geometry, "properties": ["type": "object"]]))])
        let summary = object(["departure", "arrival", "durationSeconds", "walkMeters", "walkSeconds", "rides", "changes", "waitingSeconds", "modes"], [
            "departure": iso, "arrival": iso, "durationSeconds": integer, "walkMeters": num, "walkSeconds": integer,
            "rides": integer, "changes": integer, "waitingSeconds": integer, "modes": array(["enum": modes])])
        // The rider's cost (docs/routing-model.md, "What a rider is shown") and its parts.
        let riderCost = object(["seconds", "aboardSeconds", "outsideSeconds", "changes", "gapSeconds"], [
            "seconds": integer, "aboardSeconds": integer, "outsideSeconds": integer, "changes": integer, "gapSeconds": integer])
        let itinerary = object(["labels", "recommended", "departure", "arrival", "durationSeconds", "rides", "summary", "legs", "map"], [
            "labels": ["type": "array", "items": ["type": "string", "description": .string(
                "recommended, walk-only, earliest-arrival, latest-departure, fastest, fewest-changes, least-walking, earliest-departure, "
                + "later-departure, earlier-arrival, alternative, or a trade-off name:value (leaves-later, leaves-earlier, "
                + "longer-ride, more-waiting: seconds; more-changes: changes), as the routing model defines them")]],
            "recommended": boolean, "modelFirst": boolean, "inModelAnswer": boolean, "riderCost": riderCost,
            "departure": iso, "arrival": iso, "durationSeconds": integer, "rides": integer,
            "summary": ref("Summary"), "legs": ["type": "array", "minItems": 1, "items": ref("Leg")], "map": ref("FeatureCollection"),
            "tripToken": ["type": "string", "pattern": "^[A-Za-z0-9_-]+$", "description": .string(
                "What follows this itinerary: `GET /v1/trips/{tripToken}/events`. Signed by the server, self-contained "
                + "(feed versions, trips, service dates, boarding and alighting stops, times; not the origin or destination). "
                + "Absent for the walk-only journey.")]])
        let notice = object(["code", "message"], ["code": string, "message": string])
        let latLon = object(["lat", "lon"], ["lat": num, "lon": num])
        // The answer's own copy of the model's parameters: a number per declared name.
        var parameters: [(key: String, value: OpenAPIJSON)] = []
        for spec in RoutingParameters.Spec.all {
            if case .integer = spec.kind { parameters.append((spec.name, integer)) } else { parameters.append((spec.name, num)) }
        }
        let planAnswer = object(["itineraries", "recommended", "notices", "query", "feeds"], [
            "realtime": ["type": "array", "description": "The GTFS-Realtime messages the answer was planned on (with realtime on): each feed's message time and age.",
                         "items": object(["feed", "tripUpdates", "applied"], ["feed": string, "messageTime": iso, "ageSeconds": integer,
                                                                               "tripUpdates": integer, "applied": integer])],
            "itineraries": ["type": "array", "items": ref("Itinerary"), "minItems": 1],
            "recommended": ["type": "integer", "minimum": 0,
                            "description": "The option a rider is recommended: the least rider's cost (routing model, \"What a rider is shown\")."],
            "modelFirst": ["type": "integer", "minimum": 0,
                           "description": "The routing model's first itinerary: the earliest arrival (arrive-by: the latest departure)."],
            "notices": array(ref("Notice")),
            "query": object(["from", "to", "time", "timeZone", "arriveBy", "window", "numItineraries", "wheelchair", "parameters"], [
                "from": latLon, "to": latLon,
                "time": iso, "timeZone": string, "arriveBy": boolean, "window": integer,
                "numItineraries": integer, "wheelchair": boolean,
                "modes": array(["enum": modes]),
                "parameters": object(RoutingParameters.names, .object(parameters))]),
            "error": ["type": "null"],
            "feeds": array(object(["id", "version"], ["id": string, "version": integer])),
        ])
        let error = object(["error"], ["error": object(["code", "message", "details"], [
            "code": ["enum": .array(APIErrorCode.allCases.map { .string($0.rawValue) })], "message": ["type": "string", "minLength": 1],
            "details": ["type": "object"]])])
        let routeRef = object(["id", "mode"], ["id": string, "shortName": string, "longName": string, "mode": ["enum": modes], "color": string])
        let stop = object(["id", "feed", "name", "lat", "lon", "kind", "routes"], [
            "id": string, "feed": string, "name": string, "lat": num, "lon": num,
            "kind": ["enum": ["stop", "station"]], "platformCode": string, "parentStation": string,
            "routes": array(ref("RouteRef")), "score": num, "distanceMeters": num, "callsPerDay": integer,
            "foundBy": string, "distinction": string])
        let departure = object(["stopId", "route", "trip", "serviceDate", "departure"], [
            "stopId": string, "platformCode": string, "route": ref("RouteRef"), "headsign": string, "trip": string,
            "serviceDate": date, "departure": iso])
        let feedHealth = object(["id", "version", "importedAt", "stops", "routes", "trips", "stopTimes"], [
            "id": string, "version": integer, "importedAt": string, "feedVersion": string, "firstDate": date, "lastDate": date,
            "place": string, "timeZone": string, "stops": integer, "routes": integer, "trips": integer, "stopTimes": integer])
        let health = object(["status", "uptimeSeconds", "database", "memory", "feeds", "streets", "realtime"], [
            "status": ["enum": ["ok", "degraded", "loading"]], "uptimeSeconds": num,
            "database": object(["reachable"], ["reachable": boolean, "checkedAt": string, "problem": string, "reloadProblem": string]),
            "memory": object(["residentBytes"], ["residentBytes": integer]),
            "timetable": object(["loadedAt", "loadSeconds", "stops", "routes", "trips", "stopTimes", "coverage"], [
                "loadedAt": string, "loadSeconds": num, "stops": integer, "routes": integer, "trips": integer,
                "stopTimes": integer, "coverage": ["enum": ["building", "ready", "failed"]], "streetEdges": integer]),
            "feeds": array(ref("FeedHealth")),
            "streets": array(object(["region", "version"], ["region": string, "version": integer])),
            "realtime": array(object(["feed", "entities"], [
                "feed": string, "url": string, "file": string, "lastFetch": string, "lastSuccess": string,
                "messageTime": string, "ageSeconds": integer, "entities": integer, "problem": string,
                "tripUpdates": integer, "applied": integer,
                "rejected": ["type": "object", "additionalProperties": integer] as OpenAPIJSON])),
            "following": object(["trips", "streams", "bytes", "bytesPerTrip", "passes", "lastPassMilliseconds", "clock"], [
                "trips": integer, "streams": integer, "bytes": integer, "bytesPerTrip": integer, "passes": integer,
                "lastPassMilliseconds": num, "medianPassMilliseconds": num, "maxPassMilliseconds": num, "clock": iso]),
            "realtimeState": object(["swaps", "buildMilliseconds"], [
                "swaps": integer, "buildMilliseconds": num, "swappedAt": string])])
        let regionProperties = object(["feed", "name", "agencies", "modes", "stops", "routes", "trips", "exactAreaKm2", "exportAreaKm2", "exportUrl"], [
            "feed": string, "name": string, "place": string, "publisher": string,
            "agencies": array(string), "modes": array(["enum": modes]),
            "tripsPerMode": array(integer), "firstDate": date, "lastDate": date, "busiestDay": date,
            "stops": integer, "routes": integer, "trips": integer, "tripsOnBusiestDay": integer, "radiusMeters": num,
            "exactAreaKm2": num, "exportAreaKm2": num, "exportRatio": num, "polygons": integer, "exportPolygons": integer,
            "exportPoints": integer, "checksFailed": array(string), "exportUrl": string])
        let coverage = object(["type", "features", "unions", "notes"], [
            "type": ["const": "FeatureCollection"],
            "features": array(object(["type", "id", "geometry", "properties"], [
                "type": ["const": "Feature"], "id": string,
                "geometry": object(["type", "coordinates"], ["type": ["const": "MultiPolygon"], "coordinates": ["type": "array"]]),
                "properties": ref("RegionProperties")])),
            "unions": array(object(["feeds", "areaKm2", "polygons"], ["feeds": array(string), "areaKm2": num, "polygons": integer])),
            "notes": array(string)])
        let export = object(["type", "coordinates"], [
            "type": ["const": "MultiPolygon"],
            "coordinates": ["type": "array", "minItems": 1, "maxItems": 20, "items": [
                "type": "array", "minItems": 1, "maxItems": 1, "items": ["type": "array", "minItems": 4, "items": position]]]],
            additional: false)
        // The followed trip's events (docs/routing-model.md, "Following a trip"): each frame's
        // `data`, one schema per `event:` name.
        let common: OpenAPIJSON = ["id": integer, "time": iso, "message": string, "ride": integer, "line": string, "headsign": string]
        func event(_ type: String, _ required: [String], _ description: String, _ extra: OpenAPIJSON = [:]) -> OpenAPIJSON {
            object(["type", "id", "time", "message"] + required, common.merging(["type": ["const": .string(type)]]).merging(extra))
                .merging(["description": .string(description)])
        }
        let continuation = object(["itinerary", "tripToken"], ["itinerary": ref("Itinerary"), "tripToken": string])
        let noWay = object(["code", "message"], ["code": string, "message": string])
        let broken: OpenAPIJSON = ["continuation": continuation, "noWayToContinue": noWay]
        let followEvents: [(String, OpenAPIJSON)] = [
            ("DelayEvent", event("delay", ["ride", "oldDeparture", "oldArrival", "newDeparture", "newArrival"],
                                 "A ride's expected departure (boarding stop) or arrival (alighting stop) moved by at least `threshold` since last told.",
                                 ["oldDeparture": iso, "oldArrival": iso, "newDeparture": iso, "newArrival": iso])),
            ("CancellationEvent", event("cancellation", ["ride"],
                                        "A ride's trip no longer runs that date: `continuation` (a new itinerary from where the rider will be, and the token of the trip followed from now on) or `noWayToContinue`.",
                                        broken)),
            ("SkippedStopEvent", event("skipped-stop", ["ride", "stopId", "moment"],
                                       "A ride no longer stops where the rider boards (`moment`: boarding) or gets off (alighting); with `continuation` or `noWayToContinue`.",
                                       broken.merging(["stopId": string, "stopName": string, "moment": ["enum": ["boarding", "alighting"]]]))),
            ("MissedConnectionEvent", event("missed-connection", ["ride", "newArrival", "newDeparture"],
                                            "The change after ride `ride` no longer works: its expected arrival (`newArrival`) plus the change's time is after the next ride's expected departure (`newDeparture`); with `continuation` or `noWayToContinue`.",
                                            broken.merging(["newArrival": iso, "newDeparture": iso]))),
            ("AlertEvent", event("alert", ["ride", "alert"], "An alert that names the ride's agency, route, trip or its boarding or alighting stop, not told before.",
                                 ["alert": ref("Alert"), "alertFeed": string])),
            ("LegUpcomingEvent", event("leg-upcoming", ["ride", "moment", "minutes"],
                                       "`notice` minutes before a boarding (`moment`: boarding, with `newDeparture`) or, on a ride longer than twice the notice, before getting off (alighting, with `newArrival`).",
                                       ["moment": ["enum": ["boarding", "alighting"]], "minutes": integer, "stopId": string, "stopName": string,
                                        "newDeparture": iso, "newArrival": iso])),
            ("ArrivedEvent", event("arrived", ["newArrival"], "The clock reached the last ride's expected arrival plus the last walk; the stream ends.",
                                   ["newArrival": iso])),
        ]
        let following = object(["type", "message", "rides"], [
            "type": ["const": "following"], "message": string,
            "rides": array(object(["feed", "tripId", "line", "boardStopId", "alightStopId", "plannedDeparture", "plannedArrival"], [
                "feed": string, "tripId": string, "line": string, "headsign": string, "boardStopId": string, "boardStopName": string,
                "alightStopId": string, "alightStopName": string, "plannedDeparture": iso, "plannedArrival": iso]))])
            .merging(["description": "The first frame of every stream (`event: following`, no id): the trip followed."])
        var eventSchemas: OpenAPIJSON = ["Following": following,
                                         "FollowEvent": ["oneOf": .array(followEvents.map { ref($0.0) })]]
        for (name, schema) in followEvents { eventSchemas = eventSchemas.merging([name: schema]) }
        return eventSchemas.merging(["Error": error, "PlanAnswer": planAnswer, "Itinerary": itinerary, "Leg": leg, "WalkStep": walkStep, "Alert": alert, "Vehicle": vehicle, "Summary": summary,
                "ItineraryPlace": place, "Notice": notice, "FeatureCollection": featureCollection,
                "Stop": stop, "RouteRef": routeRef, "Departure": departure, "Health": health, "FeedHealth": feedHealth,
                "Coverage": coverage, "RegionProperties": regionProperties, "Export": export])
    }

    // MARK: The document

    static func merged(_ first: OpenAPIJSON, _ rest: OpenAPIJSON...) -> OpenAPIJSON { rest.reduce(first) { $0.merging($1) } }

    static func json() -> OpenAPIJSON {
        let badRequest = error("A parameter is missing or breaks this document (`BAD_PARAMETER`, `UNKNOWN_PARAMETER`; `AMBIGUOUS_STOP`): `details.parameter` names it, `details.allowed` says what is allowed.")
        let tooLarge = error("`BODY_TOO_LARGE`: the request has a body (chunked, or over 1 KB); this API takes none.")
        let notReady = error("No timetable is loaded yet (starting, or the database is unreachable); retry after `Retry-After` seconds.")
        let common: OpenAPIJSON = ["400": badRequest, "413": tooLarge, "503": notReady]
        // Plans are limited per client address (`transit serve --plan-rate`, `--plan-burst`).
        let rateLimited = error("`RATE_LIMITED`: this address sent more plan requests than the server's rate allows; "
                                + "retry after `Retry-After` seconds (`details`: `retryAfterSeconds`, `ratePerSecond`, `burst`).")
            .merging(["headers": ["Retry-After": ["description": "Seconds until a plan request from this address is accepted again.",
                                                  "required": true, "schema": ["type": "string", "pattern": "^[0-9]+$"]]]])
        func answer(_ description: String, _ type: String, _ schema: OpenAPIJSON) -> OpenAPIJSON {
            ["description": .string(description), "content": .object([(key: type, value: ["schema": schema] as OpenAPIJSON)])]
        }
        let plan: OpenAPIJSON = ["get": [
            "operationId": "plan", "summary": "Plan a trip: itineraries to compare, each with its steps and its map.",
            "parameters": .array(planParameters()),
            "responses": merged(["200": answer("Itineraries (the routing model's answers first, then later departures within the window), ordered by departure.",
                                               "application/json", ref("PlanAnswer"))],
                                common,
                                ["404": error("`UNKNOWN_STOP`: a `stop:ID` that no served feed has."),
                          "422": error("The request is well formed but has no itinerary, and why: `OUTSIDE_COVERAGE`, `NO_STOP_NEARBY`, "
                                       + "`OUTSIDE_SERVICE_PERIOD`, `SAME_PLACE`, `NO_CONNECTION`, `STOP_WITHOUT_LOCATION`; or "
                                       + "`PARAMETER_CONFLICT`: `maxTransferWalk` beyond this timetable's footpath radius × `walkDetourFactor`."),
                          "429": rateLimited])]]
        let coverage: OpenAPIJSON = ["get": [
            "operationId": "coverage", "summary": "Where each feed serves: its exact region and what is declared with it.",
            "responses": merged(["200": answer("One feature per feed.", "application/geo+json", ref("Coverage"))], common)]]
        let coverageExport: OpenAPIJSON = ["get": [
            "operationId": "coverageExport", "summary": "A feed's coverage export for phones (Apple's routing-app coverage file rules).",
            "parameters": [parameter(APIParameters.coverageFeed, in: "path")],
            "responses": merged(["200": answer("One MultiPolygon, at most 20 polygons without holes, counter-clockwise.", "application/geo+json", ref("Export"))],
                                common, ["404": error("`UNKNOWN_FEED`: no such feed is served (`details.feeds` lists those that are).")])]]
        let stops: OpenAPIJSON = ["get": [
            "operationId": "stops", "summary": "Find stops by name (forgiving case, accents and small typos; best first) or near a place.",
            "parameters": .array(APIParameters.stops.map { parameter($0) }),
            "responses": merged(["200": answer("Stops, best match (or nearest) first.", "application/json", object(["stops"], ["stops": array(ref("Stop"))]))],
                                common,
                                ["404": error("`UNKNOWN_FEED`: `feed` is not served (`details.feeds` lists those that are)."),
                          "422": error("`PARAMETER_CONFLICT`: neither `query` nor `near`, both, or `radius` without `near`.")])]]
        let stop: OpenAPIJSON = ["get": [
            "operationId": "stop", "summary": "A stop and its next departures (a station: all its platforms).",
            "parameters": .array([parameter(APIParameters.stopId, in: "path")] + APIParameters.departures.map { parameter($0) }),
            "responses": merged(["200": answer("The stop and departures within 4 hours, in time order.", "application/json",
                                               object(["stop", "departures"], ["stop": ref("Stop"), "departures": array(ref("Departure"))]))],
                                common, ["404": error("`UNKNOWN_STOP`: no stop with this id (in `feed`, when given).")])]]
        let vehicles: OpenAPIJSON = ["get": [
            "operationId": "vehicles", "summary": "Where the realtime sources' VehiclePositions put each vehicle (transit serve --realtime): of one route when asked.",
            "parameters": .array(APIParameters.vehicles.map { parameter($0) }),
            "responses": merged(["200": answer("One Point per vehicle with a position (none without a VehiclePositions source).", "application/geo+json",
                                               object(["type", "features"], ["type": ["const": "FeatureCollection"], "features": array(object(
                                                   ["type", "geometry", "properties"], ["type": ["const": "Feature"],
                                                    "geometry": object(["type", "coordinates"], ["type": ["const": "Point"], "coordinates": ["type": "array"]]),
                                                    "properties": ref("Vehicle")]))]))],
                                common, ["404": error("`UNKNOWN_FEED`: `feed` is not served; `NOT_FOUND`: no such `route`.")])]]
        let network: OpenAPIJSON = ["get": [
            "operationId": "network",
            "summary": "The served network as a map's background: one MultiLineString per route (the segments between consecutive stops of its trips, each once), and one MultiPoint of the stops with service; within `bbox` when given.",
            "parameters": .array(APIParameters.network.map { parameter($0) }),
            "responses": merged(["200": answer("The network.", "application/geo+json",
                                               object(["type", "features"], ["type": ["const": "FeatureCollection"], "features": array(object(
                                                   ["type", "geometry", "properties"], ["type": ["const": "Feature"],
                                                    "geometry": object(["type", "coordinates"], ["type": ["enum": ["MultiLineString", "MultiPoint"]],
                                                                                               "coordinates": ["type": "array"]]),
                                                    "properties": object(["role"], ["role": ["enum": ["route", "stops"]],
                                                                                    "color": ["type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"],
                                                                                    "feed": string, "mode": string, "name": string])]))]))],
                                common)]]
        let health: OpenAPIJSON = ["get": [
            "operationId": "health", "summary": "Feeds loaded (versions, dates, counts), the street versions walked along, memory, uptime, whether the database is reachable.",
            "responses": ["200": answer("Serving.", "application/json", ref("Health")), "400": badRequest, "413": tooLarge,
                          "503": answer("Not serving yet (loading, or no database so far).", "application/json", ref("Health"))]]]
        let events: OpenAPIJSON = ["get": [
            "operationId": "tripEvents",
            "summary": "Follow a planned trip: what changes it, as it happens (Server-Sent Events).",
            "description": .string("A `text/event-stream`: `retry: 5000`, then `event: following` (schema `Following`), then each event "
                                   + "as `id: N`, `event: TYPE`, `data: JSON` (schema `FollowEvent`, one per type: delay, cancellation, "
                                   + "skipped-stop, missed-connection, alert, leg-upcoming, arrived), and a `: heartbeat` comment every 15 s. "
                                   + "The stream ends after `arrived`, or after a break with `noWayToContinue`, or with `event: error` "
                                   + "(`{\"message\"}`) when a new feed version no longer has the trip. A client that reconnects "
                                   + "with `Last-Event-ID` gets the events after that id first (a trip is kept 5 minutes after its last "
                                   + "stream closes). Ids grow. After a `continuation`, the stream follows the new trip (its `tripToken`)."),
            "parameters": .array([parameter(APIParameters.tripToken, in: "path")] + APIParameters.follow.map { parameter($0) }
                                 + [["name": "Last-Event-ID", "in": "header", "required": false,
                                     "description": "The id of the last event seen (as a browser's EventSource sends it).",
                                     "schema": ["type": "string"]]]),
            "responses": merged(["200": answer("The events, as they come.", "text/event-stream",
                                               ["type": "string", "description": "Server-Sent Events; each `data` is a `Following` or `FollowEvent` object."])],
                                common,
                                ["400": error("`INVALID_TOKEN`: not a token this server signed (changed, cut short, another server's key); or a bad parameter."),
                                 "410": error("`TRIP_OVER`: the trip ended (as planned) more than an hour ago (`details.plannedEnd`); `TRIP_NOT_SERVED`: "
                                              + "the timetable served now (a newer feed version) no longer has the trip at the stops and times planned."),
                                 "414": error("`TOKEN_TOO_LONG`: longer than any token this server writes (2048 characters)."),
                                 "429": error("`TOO_MANY_STREAMS`: the server follows as many trips as it may (`transit serve --max-streams`), "
                                              + "or this address has `--max-streams-per-client` open.")
                                    .merging(["headers": ["Retry-After": ["description": "Seconds to wait.", "required": true,
                                                                          "schema": ["type": "string", "pattern": "^[0-9]+$"]]]])])]]
        let openapi: OpenAPIJSON = ["get": [
            "operationId": "openapi", "summary": "This document.",
            "responses": ["200": answer("OpenAPI 3.1.", "application/json", ["type": "object"]), "400": badRequest, "413": tooLarge]]]
        let metrics: OpenAPIJSON = ["get": [
            "operationId": "metrics",
            "summary": "The operators' signals in Prometheus's text format: requests and latencies by endpoint, plan search time, feed versions, the timetable's age, realtime message ages.",
            "responses": ["200": answer("Prometheus text exposition format 0.0.4.", "text/plain", ["type": "string"]), "400": badRequest, "413": tooLarge]]]
        // Every path answers a CORS preflight (`CORSPolicy`): 204, whether or not the
        // page's origin is allowed (only an allowed one gets Access-Control-Allow-Origin).
        func preflight(_ path: OpenAPIJSON, _ id: String) -> OpenAPIJSON {
            let header: OpenAPIJSON = ["required": true, "schema": string]
            return path.merging(["options": [
                "operationId": .string(id + "Preflight"),
                "summary": "CORS preflight: the methods and headers a web page may use (`transit serve --cors-origin` names the pages).",
                "responses": ["204": ["description": "No content; the answer is in the headers.",
                                      "headers": ["Access-Control-Allow-Methods": header, "Access-Control-Allow-Headers": header,
                                                  "Access-Control-Max-Age": header]]]]])
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": "transit routing API", "version": "1.0.0",
                     "description": .string("Trips over public transit, including the walk to the first stop and from the last one, "
                                            + "on the feeds this server has loaded; where it works (coverage); stops and departures. "
                                            + "Errors are `{\"error\": {\"code\", \"message\", \"details\"}}`. "
                                            + "Generated from the parameters' declarations: `\(regenerate)`.")],
            "servers": [["url": "/"]],
            "paths": ["/v1/plan": preflight(plan, "plan"), "/v1/coverage": preflight(coverage, "coverage"),
                      "/v1/coverage/{feed}.geojson": preflight(coverageExport, "coverageExport"),
                      "/v1/stops": preflight(stops, "stops"), "/v1/stops/{id}": preflight(stop, "stop"),
                      "/v1/vehicles": preflight(vehicles, "vehicles"), "/v1/network": preflight(network, "network"),
                      "/v1/trips/{token}/events": preflight(events, "tripEvents"),
                      "/v1/health": preflight(health, "health"), "/openapi.json": preflight(openapi, "openapi"),
                      "/metrics": preflight(metrics, "metrics")],
            "components": ["schemas": schemas()],
        ]
    }
}
