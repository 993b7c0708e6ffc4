#!/usr/bin/env python3
"""Writes Sources/Server/OpenAPIDocument.swift from the description below: the API's
OpenAPI 3.1 document, which the server serves at /openapi.json and the tests hold it to.
Edit here, run `python3 Scripts/tools/openapi.py`, commit both."""
import json, os

MODES = ["WALK", "TRAM", "SUBWAY", "RAIL", "BUS", "FERRY", "CABLE_TRAM", "GONDOLA", "FUNICULAR",
         "TROLLEYBUS", "MONORAIL", "COACH", "AIRPLANE", "TAXI"]
ref = lambda n: {"$ref": f"#/components/schemas/{n}"}
err = lambda d: {"description": d, "content": {"application/json": {"schema": ref("Error")}}}
iso = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$"}
date = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
num = {"type": "number"}
integer = {"type": "integer"}
string = {"type": "string"}

def obj(required, props, additional=True):
    o = {"type": "object", "required": required, "properties": props}
    if not additional:
        o["additionalProperties"] = False
    return o

def qparam(name, schema, description, required=False):
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}

coordinate_pattern = r"[ \t]*[+-]?(\d+\.?\d*|\.\d+)[ \t]*,[ \t]*[+-]?(\d+\.?\d*|\.\d+)[ \t]*"
place_param = {"type": "string", "maxLength": 200, "pattern": r"^(stop:.+|" + coordinate_pattern + ")$"}
near_param = {"type": "string", "maxLength": 200, "pattern": "^" + coordinate_pattern + "$"}
time_param = {"type": "string", "maxLength": 200,
              "pattern": r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?$"}
bool_param = {"type": "boolean"}
feed_param = {"type": "string", "minLength": 1, "maxLength": 63, "pattern": r"^[A-Za-z0-9._-]+$"}

plan_params = [
    qparam("from", place_param, "Origin: `lat,lon` or `stop:ID` (or `stop:FEED:ID`).", True),
    qparam("to", place_param, "Destination: `lat,lon` or `stop:ID` (or `stop:FEED:ID`).", True),
    qparam("feed", feed_param, "Scopes `stop:ID` places to this feed."),
    qparam("time", time_param, "ISO 8601. Without an offset: local time of the feed where the trip starts. Default: now."),
    qparam("arriveBy", bool_param, "Arrive by `time` instead of leaving at it."),
    qparam("window", {"type": "integer", "minimum": 0, "maximum": 180},
           "Minutes after (arrive-by: before) `time` in which later (earlier) departures are offered as alternatives. Default 60."),
    qparam("numItineraries", {"type": "integer", "minimum": 1, "maximum": 20}, "At most this many itineraries. Default 5."),
    qparam("modes", {"type": "string", "maxLength": 200, "pattern": r"^-?[A-Za-z_]+(,[A-Za-z_]+)*$"},
           "Only these transit modes (`TRAM,SUBWAY`), or all but these (`-BUS`)."),
    qparam("wheelchair", bool_param, "Only stops and trips marked wheelchair accessible."),
    qparam("walkSpeed", {"type": "number", "minimum": 0.1, "maximum": 10}, "Routing model: meters per second (1.33)."),
    qparam("walkDetourFactor", {"type": "number", "minimum": 1, "maximum": 3}, "Routing model: walked over beeline distance (1.3)."),
    qparam("maxAccessWalk", {"type": "number", "minimum": 0, "maximum": 5000}, "Routing model: longest walk to the first and from the last stop, meters (1000)."),
    qparam("maxTransferWalk", {"type": "number", "minimum": 0, "maximum": 5000}, "Routing model: longest walk between two stops, meters (500; at most the timetable's footpath radius × walkDetourFactor)."),
    qparam("maxDirectWalk", {"type": "number", "minimum": 0, "maximum": 20000}, "Routing model: longest walk-only itinerary, meters (2000)."),
    qparam("transferSlack", {"type": "integer", "minimum": 0, "maximum": 3600}, "Routing model: seconds added to every change (120)."),
    qparam("maxTransfers", {"type": "integer", "minimum": 0, "maximum": 12}, "Routing model: most changes (6)."),
]

place_schema = obj(["name", "lat", "lon"], {
    "name": string, "lat": num, "lon": num, "stopId": string, "feed": string, "platformCode": string})
leg = obj(["mode", "from", "to", "departure", "arrival", "durationSeconds", "distanceMeters", "instruction"], {
    "mode": {"enum": MODES}, "from": ref("ItineraryPlace"), "to": ref("ItineraryPlace"),
    "departure": iso, "arrival": iso, "durationSeconds": integer, "distanceMeters": num, "instruction": string,
    "change": {"type": "boolean"}, "waitSeconds": integer,
    "agency": string, "routeId": string, "route": string, "routeShortName": string, "routeLongName": string,
    "routeColor": string, "routeTextColor": string, "headsign": string, "trip": string, "serviceDate": date,
    "geometrySource": {"enum": ["shape", "stops"]}, "shapeId": string,
    "intermediateStops": {"type": "array", "items": {"allOf": [ref("ItineraryPlace"),
                                                               obj(["arrival", "departure"], {"arrival": iso, "departure": iso})]}},
})
position = {"type": "array", "items": num, "minItems": 2, "maxItems": 3}
geometry = {"oneOf": [
    obj(["type", "coordinates"], {"type": {"const": "Point"}, "coordinates": position}),
    obj(["type", "coordinates"], {"type": {"const": "LineString"}, "coordinates": {"type": "array", "items": position}}),
    obj(["type", "coordinates"], {"type": {"const": "MultiPolygon"}, "coordinates": {"type": "array", "items": {"type": "array", "items": {"type": "array", "items": position, "minItems": 4}}}}),
]}
feature_collection = obj(["type", "features"], {
    "type": {"const": "FeatureCollection"},
    "features": {"type": "array", "items": obj(["type", "geometry", "properties"], {
        "type": {"const": "Feature"}, "geometry": geometry, "properties": {"type": "object"}})}})
summary = obj(["departure", "arrival", "durationSeconds", "walkMeters", "walkSeconds", "rides", "changes", "waitingSeconds", "modes"], {
    "departure": iso, "arrival": iso, "durationSeconds": integer, "walkMeters": num, "walkSeconds": integer,
    "rides": integer, "changes": integer, "waitingSeconds": integer, "modes": {"type": "array", "items": {"enum": MODES}}})
itinerary = obj(["labels", "recommended", "departure", "arrival", "durationSeconds", "rides", "summary", "legs", "map"], {
    "labels": {"type": "array", "items": string}, "recommended": {"type": "boolean"},
    "departure": iso, "arrival": iso, "durationSeconds": integer, "rides": integer,
    "summary": ref("Summary"), "legs": {"type": "array", "minItems": 1, "items": ref("Leg")}, "map": ref("FeatureCollection")})
notice = obj(["code", "message"], {"code": string, "message": string})
plan_answer = obj(["itineraries", "recommended", "notices", "query", "feeds"], {
    "itineraries": {"type": "array", "items": ref("Itinerary"), "minItems": 1},
    "recommended": {"type": "integer", "minimum": 0},
    "notices": {"type": "array", "items": ref("Notice")},
    "query": obj(["from", "to", "time", "timeZone", "arriveBy", "window", "numItineraries", "wheelchair", "parameters"], {
        "from": obj(["lat", "lon"], {"lat": num, "lon": num}), "to": obj(["lat", "lon"], {"lat": num, "lon": num}),
        "time": iso, "timeZone": string, "arriveBy": {"type": "boolean"}, "window": integer,
        "numItineraries": integer, "wheelchair": {"type": "boolean"},
        "modes": {"type": "array", "items": {"enum": MODES}},
        "parameters": obj(["walkSpeed", "walkDetourFactor", "maxAccessWalk", "maxTransferWalk", "maxDirectWalk", "transferSlack", "maxTransfers"], {
            "walkSpeed": num, "walkDetourFactor": num, "maxAccessWalk": num, "maxTransferWalk": num,
            "maxDirectWalk": num, "transferSlack": integer, "maxTransfers": integer})}),
    "error": {"type": "null"},
    "feeds": {"type": "array", "items": obj(["id", "version"], {"id": string, "version": integer})},
})
error = obj(["error"], {"error": obj(["code", "message", "details"], {
    "code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"}, "message": {"type": "string", "minLength": 1},
    "details": {"type": "object"}})})
route_ref = obj(["id", "mode"], {"id": string, "shortName": string, "longName": string, "mode": {"enum": MODES}, "color": string})
stop = obj(["id", "feed", "name", "lat", "lon", "kind", "routes"], {
    "id": string, "feed": string, "name": string, "lat": num, "lon": num,
    "kind": {"enum": ["stop", "station"]}, "platformCode": string, "parentStation": string,
    "routes": {"type": "array", "items": ref("RouteRef")}, "score": num, "distanceMeters": num})
departure = obj(["stopId", "route", "trip", "serviceDate", "departure"], {
    "stopId": string, "platformCode": string, "route": ref("RouteRef"), "headsign": string, "trip": string,
    "serviceDate": date, "departure": iso})
feed_health = obj(["id", "version", "importedAt", "stops", "routes", "trips", "stopTimes"], {
    "id": string, "version": integer, "importedAt": string, "feedVersion": string, "firstDate": date, "lastDate": date,
    "place": string, "stops": integer, "routes": integer, "trips": integer, "stopTimes": integer})
health = obj(["status", "uptimeSeconds", "database", "memory", "feeds"], {
    "status": {"enum": ["ok", "degraded", "loading"]}, "uptimeSeconds": num,
    "database": obj(["reachable"], {"reachable": {"type": "boolean"}, "checkedAt": string, "problem": string, "reloadProblem": string}),
    "memory": obj(["residentBytes"], {"residentBytes": integer}),
    "timetable": obj(["loadedAt", "loadSeconds", "stops", "routes", "trips", "stopTimes", "coverage"], {
        "loadedAt": string, "loadSeconds": num, "stops": integer, "routes": integer, "trips": integer,
        "stopTimes": integer, "coverage": {"enum": ["building", "ready", "failed"]}}),
    "feeds": {"type": "array", "items": ref("FeedHealth")}})
region_props = obj(["feed", "name", "agencies", "modes", "stops", "routes", "trips", "exactAreaKm2", "exportAreaKm2", "exportUrl"], {
    "feed": string, "name": string, "place": string, "publisher": string,
    "agencies": {"type": "array", "items": string}, "modes": {"type": "array", "items": {"enum": MODES}},
    "tripsPerMode": {"type": "array", "items": integer}, "firstDate": date, "lastDate": date, "busiestDay": date,
    "stops": integer, "routes": integer, "trips": integer, "tripsOnBusiestDay": integer, "radiusMeters": num,
    "exactAreaKm2": num, "exportAreaKm2": num, "exportRatio": num, "polygons": integer, "exportPolygons": integer,
    "exportPoints": integer, "checksFailed": {"type": "array", "items": string}, "exportUrl": string})
coverage = obj(["type", "features", "unions", "notes"], {
    "type": {"const": "FeatureCollection"},
    "features": {"type": "array", "items": obj(["type", "id", "geometry", "properties"], {
        "type": {"const": "Feature"}, "id": string,
        "geometry": obj(["type", "coordinates"], {"type": {"const": "MultiPolygon"}, "coordinates": {"type": "array"}}),
        "properties": ref("RegionProperties")})},
    "unions": {"type": "array", "items": obj(["feeds", "areaKm2", "polygons"], {
        "feeds": {"type": "array", "items": string}, "areaKm2": num, "polygons": integer})},
    "notes": {"type": "array", "items": string}})
export = obj(["type", "coordinates"], {
    "type": {"const": "MultiPolygon"},
    "coordinates": {"type": "array", "minItems": 1, "maxItems": 20, "items": {
        "type": "array", "minItems": 1, "maxItems": 1, "items": {"type": "array", "minItems": 4, "items": position}}}},
    additional=False)

common_errors = {"400": err("A parameter is missing or not allowed: `details.parameter` names it, `details.allowed` says what is."),
                 "413": err("`BODY_TOO_LARGE`: the request has a body (chunked, or over 1 KB); this API takes none."),
                 "503": err("No timetable is loaded yet (starting, or the database is unreachable); retry after `Retry-After` seconds.")}
# Plans are limited per client address (`transit serve --plan-rate`, `--plan-burst`).
rate_limited = {**err("`RATE_LIMITED`: this address sent more plan requests than the server's rate allows; "
                      "retry after `Retry-After` seconds (`details`: `retryAfterSeconds`, `ratePerSecond`, `burst`)."),
                "headers": {"Retry-After": {"description": "Seconds until a plan request from this address is accepted again.",
                                            "required": True, "schema": {"type": "string", "pattern": "^[0-9]+$"}}}}

doc = {
    "openapi": "3.1.0",
    "info": {"title": "transit routing API", "version": "1.0.0",
             "description": "Trips over public transit, including the walk to the first stop and from the last one, "
                            "on the feeds this server has loaded; where it works (coverage); stops and departures. "
                            "Errors are `{\"error\": {\"code\", \"message\", \"details\"}}`."},
    "servers": [{"url": "/"}],
    "paths": {
        "/v1/plan": {"get": {
            "operationId": "plan", "summary": "Plan a trip: itineraries to compare, each with its steps and its map.",
            "parameters": plan_params,
            "responses": {
                "200": {"description": "Itineraries (the routing model's answers first, then later departures within the window), ordered by departure.",
                        "content": {"application/json": {"schema": ref("PlanAnswer")}}},
                **common_errors,
                "404": err("`UNKNOWN_STOP`: a `stop:ID` that no served feed has."),
                "422": err("No itinerary, and why: `OUTSIDE_COVERAGE`, `NO_STOP_NEARBY`, `OUTSIDE_SERVICE_PERIOD`, `SAME_PLACE`, `NO_CONNECTION`."),
                "429": rate_limited,
            }}},
        "/v1/coverage": {"get": {
            "operationId": "coverage", "summary": "Where each feed serves: its exact region and what is declared with it.",
            "responses": {"200": {"description": "One feature per feed.", "content": {"application/geo+json": {"schema": ref("Coverage")}}},
                          **common_errors}}},
        "/v1/coverage/{feed}.geojson": {"get": {
            "operationId": "coverageExport", "summary": "A feed's coverage export for phones (Apple's routing-app coverage file rules).",
            "parameters": [{"name": "feed", "in": "path", "required": True, "schema": feed_param}],
            "responses": {"200": {"description": "One MultiPolygon, at most 20 polygons without holes, counter-clockwise.",
                                  "content": {"application/geo+json": {"schema": ref("Export")}}},
                          **common_errors, "404": err("No such feed is served.")}}},
        "/v1/stops": {"get": {
            "operationId": "stops", "summary": "Find stops by name (forgiving case, accents and small typos; best first) or near a place.",
            "parameters": [
                qparam("query", {"type": "string", "minLength": 1, "maxLength": 200}, "Part of a stop's name. Give `query` or `near`."),
                qparam("near", near_param, "`lat,lon`. Give `query` or `near`."),
                qparam("radius", {"type": "number", "minimum": 1, "maximum": 2000}, "Meters around `near` (default 500)."),
                qparam("feed", feed_param, "Only this feed's stops."),
                qparam("limit", {"type": "integer", "minimum": 1, "maximum": 50}, "At most this many (default 10)."),
            ],
            "responses": {"200": {"description": "Stops, best match (or nearest) first.",
                                  "content": {"application/json": {"schema": obj(["stops"], {"stops": {"type": "array", "items": ref("Stop")}})}}},
                          **common_errors}}},
        "/v1/stops/{id}": {"get": {
            "operationId": "stop", "summary": "A stop and its next departures (a station: all its platforms).",
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1, "maxLength": 200}},
                qparam("feed", feed_param, "The feed, when several have this stop id."),
                qparam("time", time_param, "Departures after this time (default: now)."),
                qparam("limit", {"type": "integer", "minimum": 1, "maximum": 50}, "At most this many departures (default 10)."),
            ],
            "responses": {"200": {"description": "The stop and departures within 4 hours, in time order.",
                                  "content": {"application/json": {"schema": obj(["stop", "departures"], {
                                      "stop": ref("Stop"), "departures": {"type": "array", "items": ref("Departure")}})}}},
                          **common_errors, "404": err("No stop with this id.")}}},
        "/v1/health": {"get": {
            "operationId": "health", "summary": "Feeds loaded (versions, dates, counts), memory, uptime, whether the database is reachable.",
            "responses": {"200": {"description": "Serving.", "content": {"application/json": {"schema": ref("Health")}}},
                          "400": common_errors["400"], "413": common_errors["413"],
                          "503": {"description": "Not serving yet (loading, or no database so far).",
                                  "content": {"application/json": {"schema": ref("Health")}}}}}},
        "/openapi.json": {"get": {
            "operationId": "openapi", "summary": "This document.",
            "responses": {"200": {"description": "OpenAPI 3.1.", "content": {"application/json": {"schema": {"type": "object"}}}},
                          "400": common_errors["400"], "413": common_errors["413"]}}},
    },
    "components": {"schemas": {
        "Error": error, "PlanAnswer": plan_answer, "Itinerary": itinerary, "Leg": leg, "Summary": summary,
        "ItineraryPlace": place_schema, "Notice": notice, "FeatureCollection": feature_collection,
        "Stop": stop, "RouteRef": route_ref, "Departure": departure, "Health": health, "FeedHealth": feed_health,
        "Coverage": coverage, "RegionProperties": region_props, "Export": export,
    }},
}

text = json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False)
assert '"""' not in text
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(root, "Sources/Server/OpenAPIDocument.swift"), "w") as f:
    f.write("// Generated by Scripts/tools/openapi.py: edit that, run it, commit both.\n\n")
    f.write("/// The API's OpenAPI 3.1 document, served at /openapi.json; the tests hold the server to it.\n")
    f.write("public enum OpenAPIDocument {\n    public static let json = #\"\"\"\n")
    f.write(text)
    f.write("\n\"\"\"#\n}\n")
print("wrote Sources/Server/OpenAPIDocument.swift")
