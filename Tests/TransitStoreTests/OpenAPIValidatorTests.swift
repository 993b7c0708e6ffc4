import Foundation
import Testing
import TransitTesting

/// The OpenAPI validator the API tests lean on: it must pass what conforms and say where
/// what does not conform goes wrong. Every test has both a passing and a failing case.
@Suite("OpenAPI validator")
struct OpenAPIValidatorTests {
    // MARK: - The document

    static let document = #"""
    {
      "openapi": "3.1.0",
      "info": { "title": "transit", "version": "1.0.0" },
      "paths": {
        "/v1/plan": {
          "get": {
            "operationId": "plan",
            "parameters": [
              { "name": "from", "in": "query", "required": true, "schema": { "type": "string", "minLength": 1 } },
              { "name": "to", "in": "query", "required": true, "schema": { "type": "string", "minLength": 1 } },
              { "name": "time", "in": "query", "schema": { "type": "string", "format": "date-time" } },
              { "name": "maxTransfers", "in": "query", "schema": { "type": "integer", "minimum": 0, "maximum": 8 } },
              { "name": "walkSpeed", "in": "query", "schema": { "type": "number", "exclusiveMinimum": 0, "maximum": 3 } },
              { "name": "wheelchair", "in": "query", "schema": { "type": "boolean" } },
              { "name": "modes", "in": "query", "explode": false,
                "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Mode" }, "maxItems": 4 } },
              { "$ref": "#/components/parameters/Feed" }
            ],
            "responses": {
              "200": { "description": "itineraries",
                       "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Plan" } } } },
              "400": { "$ref": "#/components/responses/Problem" },
              "5XX": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/v1/coverage": {
          "get": {
            "responses": {
              "200": { "description": "feeds", "content": { "application/json": { "schema": {
                "type": "object", "required": ["feeds"],
                "properties": { "feeds": { "type": "array", "items": { "type": "string" }, "uniqueItems": true } } } } } }
            }
          }
        },
        "/v1/coverage/{feed}.geojson": {
          "parameters": [
            { "name": "feed", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[a-z0-9-]+$" } }
          ],
          "get": {
            "responses": {
              "200": { "description": "coverage region",
                       "content": { "application/geo+json": { "schema": { "$ref": "#/components/schemas/geojson~1FeatureCollection" } } } },
              "404": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/v1/stops": {
          "get": {
            "parameters": [
              { "name": "q", "in": "query", "schema": { "type": "string", "maxLength": 10 } },
              { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 100 } }
            ],
            "responses": {
              "200": { "description": "stops", "content": { "application/json": { "schema": {
                "type": "array", "items": { "$ref": "#/components/schemas/Stop" } } } } }
            }
          }
        },
        "/v1/stops/nearby": {
          "get": { "responses": { "200": { "description": "stops near", "content": { "application/json": { "schema": {
            "type": "array", "items": { "$ref": "#/components/schemas/Stop" } } } } } } }
        },
        "/v1/stops/{id}": {
          "get": {
            "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } } ],
            "responses": {
              "200": { "description": "one stop", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Stop" } } } },
              "404": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/v1/health": {
          "get": {
            "responses": {
              "200": { "description": "up", "content": { "application/json": { "schema": {
                "type": "object", "required": ["status"], "additionalProperties": false,
                "properties": { "status": { "const": "ok" }, "feeds": { "type": "integer", "minimum": 0 },
                                "ready": { "type": "boolean" }, "uptimeSeconds": { "type": "number" } } } } } },
              "204": { "description": "HEAD-style probe, no body" },
              "default": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/openapi.json": {
          "get": { "responses": { "200": { "description": "this document",
            "content": { "application/json": { "schema": { "type": "object", "required": ["openapi", "paths"] } } } } } }
        }
      },
      "components": {
        "parameters": {
          "Feed": { "name": "feed", "in": "query", "schema": { "type": "string", "pattern": "^[a-z0-9-]+$" } }
        },
        "responses": {
          "Problem": { "description": "RFC 9457 problem",
                       "content": { "application/problem+json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
        },
        "schemas": {
          "Error": {
            "type": "object", "required": ["title", "status"],
            "properties": {
              "type": { "type": "string" }, "title": { "type": "string" },
              "status": { "type": "integer", "minimum": 400, "maximum": 599 }, "detail": { "type": "string" }
            }
          },
          "Mode": { "enum": ["WALK", "BUS", "RAIL", "SUBWAY", "FERRY"] },
          "Plan": {
            "type": "object", "required": ["from", "to", "itineraries"],
            "properties": {
              "from": { "$ref": "#/components/schemas/Place" },
              "to": { "$ref": "#/components/schemas/Place" },
              "generatedAt": { "type": "string", "format": "date-time" },
              "itineraries": { "type": "array", "maxItems": 5, "items": { "$ref": "#/components/schemas/Itinerary" } }
            }
          },
          "Itinerary": {
            "type": "object", "required": ["departure", "arrival", "duration", "legs"],
            "properties": {
              "departure": { "type": "string", "format": "date-time" },
              "arrival": { "type": "string", "format": "date-time" },
              "duration": { "type": "integer", "minimum": 0 },
              "transfers": { "type": "integer", "minimum": 0 },
              "fare": { "type": ["number", "null"], "minimum": 0 },
              "legs": { "type": "array", "minItems": 1, "items": { "$ref": "#/components/schemas/Leg" } }
            }
          },
          "Leg": {
            "type": "object", "required": ["mode", "from", "to"], "additionalProperties": false,
            "properties": {
              "mode": { "$ref": "#/components/schemas/Mode" },
              "from": { "$ref": "#/components/schemas/Place" },
              "to": { "$ref": "#/components/schemas/Place" },
              "route": { "type": ["string", "null"] },
              "headsign": { "type": ["string", "null"], "maxLength": 20 },
              "distance": { "type": "number", "minimum": 0 },
              "wheelchair": { "type": "boolean" },
              "stopsPassed": { "type": "array", "items": { "type": "string" } }
            }
          },
          "Place": {
            "oneOf": [ { "$ref": "#/components/schemas/Coordinate" }, { "$ref": "#/components/schemas/StopPlace" } ]
          },
          "Coordinate": {
            "type": "object", "required": ["lat", "lon"],
            "properties": {
              "lat": { "type": "number", "minimum": -90, "maximum": 90 },
              "lon": { "type": "number", "minimum": -180, "maximum": 180 }
            }
          },
          "StopPlace": {
            "type": "object", "required": ["stopId", "name"],
            "properties": {
              "stopId": { "type": "string", "pattern": "^[a-z0-9-]+:[A-Za-z0-9_.-]+$" },
              "name": { "type": "string" }
            }
          },
          "Stop": {
            "type": "object", "required": ["id", "name", "lat", "lon"],
            "properties": {
              "id": { "type": "string" }, "name": { "type": "string" },
              "lat": { "type": "number" }, "lon": { "type": "number" },
              "code": { "type": ["string", "null"] },
              "wheelchairBoarding": { "enum": [0, 1, 2] }
            }
          },
          "geojson/FeatureCollection": {
            "type": "object", "required": ["type", "features"],
            "properties": {
              "type": { "const": "FeatureCollection" },
              "features": { "type": "array", "items": { "$ref": "#/components/schemas/geojson~1Feature" } }
            }
          },
          "geojson/Feature": {
            "type": "object", "required": ["type", "geometry", "properties"],
            "properties": {
              "type": { "const": "Feature" },
              "geometry": { "$ref": "#/components/schemas/Geometry" },
              "properties": { "type": ["object", "null"] },
              "bbox": { "type": "array", "prefixItems": [ { "type": "number" }, { "type": "number" }, { "type": "number" }, { "type": "number" } ],
                        "items": false, "minItems": 4 }
            }
          },
          "Geometry": {
            "oneOf": [
              { "type": "object", "required": ["type", "coordinates"],
                "properties": { "type": { "const": "Polygon" },
                                "coordinates": { "type": "array", "items": { "$ref": "#/components/schemas/Ring" } } } },
              { "type": "object", "required": ["type", "geometries"],
                "properties": { "type": { "const": "GeometryCollection" },
                                "geometries": { "type": "array", "items": { "$ref": "#/components/schemas/Geometry" } } } }
            ]
          },
          "Ring": {
            "type": "array", "minItems": 4,
            "items": { "type": "array", "prefixItems": [ { "type": "number" }, { "type": "number" } ], "minItems": 2, "maxItems": 2 }
          }
        }
      }
    }
    """#

    static let validator: OpenAPIValidator = {
        do { return try OpenAPIValidator(document: Data(document.utf8)) } catch { fatalError("test document: \(error)") }
    }()

    // MARK: - Helpers

    static let validPlan = #"""
    {
      "from": { "lat": 37.80, "lon": -122.27 },
      "to": { "stopId": "bart:12TH", "name": "12th St. Oakland City Center" },
      "generatedAt": "2025-03-01T08:00:00Z",
      "itineraries": [
        {
          "departure": "2025-03-01T08:05:00-08:00", "arrival": "2025-03-01T08:41:30.5-08:00",
          "duration": 2190, "transfers": 1, "fare": null,
          "legs": [
            { "mode": "WALK", "from": { "lat": 37.80, "lon": -122.27 }, "to": { "stopId": "ac:5001", "name": "Broadway" },
              "route": null, "headsign": null, "distance": 120 },
            { "mode": "BUS", "from": { "stopId": "ac:5001", "name": "Broadway" }, "to": { "stopId": "bart:19TH", "name": "19th St." },
              "route": "51A", "headsign": "Fruitvale", "wheelchair": true, "stopsPassed": ["ac:5002", "ac:5003"] },
            { "mode": "RAIL", "from": { "stopId": "bart:19TH", "name": "19th St." }, "to": { "stopId": "bart:12TH", "name": "12th St." },
              "route": "Yellow", "headsign": "SFO", "distance": 800.5 }
          ]
        },
        { "departure": "2025-03-01T08:20:00Z", "arrival": "2025-03-01T08:50:00Z", "duration": 1800, "fare": 2.5,
          "legs": [ { "mode": "WALK", "from": { "lat": 37.80, "lon": -122.27 }, "to": { "lat": 37.81, "lon": -122.26 } } ] }
      ]
    }
    """#

    /// The valid plan with `edit` applied to its parsed form.
    static func plan(_ edit: (inout [String: Any]) -> Void) -> Data {
        var plan = try! JSONSerialization.jsonObject(with: Data(validPlan.utf8)) as! [String: Any]
        edit(&plan)
        return try! JSONSerialization.data(withJSONObject: plan)
    }

    /// Applies `edit` to `plan.itineraries[i]` (and to `legs[leg]` when given).
    static func editItinerary(_ plan: inout [String: Any], _ i: Int = 0, leg: Int? = nil, _ edit: (inout [String: Any]) -> Void) {
        var its = plan["itineraries"] as! [Any]
        var it = its[i] as! [String: Any]
        if let leg {
            var legs = it["legs"] as! [Any]
            var l = legs[leg] as! [String: Any]
            edit(&l)
            legs[leg] = l
            it["legs"] = legs
        } else {
            edit(&it)
        }
        its[i] = it
        plan["itineraries"] = its
    }

    static func planProblems(_ body: Data) -> [String] {
        validator.validateResponse(method: "GET", path: "/v1/plan?from=a&to=b", status: 200, contentType: "application/json; charset=utf-8", body: body)
    }

    static func planProblems(_ text: String) -> [String] { planProblems(Data(text.utf8)) }

    /// A leg body with one field replaced by raw JSON text (to control the number spelling).
    static func legProblems(_ field: String, _ json: String) -> [String] {
        let leg = #"{"mode":"WALK","from":{"lat":1,"lon":2},"to":{"lat":3,"lon":4},"\#(field)":\#(json)}"#
        let body = #"{"from":{"lat":1,"lon":2},"to":{"lat":3,"lon":4},"itineraries":[{"departure":"2025-03-01T08:00:00Z","arrival":"2025-03-01T09:00:00Z","duration":3600,"legs":[\#(leg)]}]}"#
        return planProblems(body)
    }

    static func itineraryProblems(_ field: String, _ json: String) -> [String] {
        let duration = field == "duration" ? "" : #""duration":3600,"#
        let body = #"{"from":{"lat":1,"lon":2},"to":{"lat":3,"lon":4},"itineraries":[{"departure":"2025-03-01T08:00:00Z","arrival":"2025-03-01T09:00:00Z",\#(duration)"legs":[{"mode":"WALK","from":{"lat":1,"lon":2},"to":{"lat":3,"lon":4}}],"\#(field)":\#(json)}]}"#
        return planProblems(body)
    }

    /// Problems of `body` against a one-off schema served at `GET /t`.
    static func check(schema: String, components: String = "{}", _ body: String) throws -> [String] {
        let doc = #"{"openapi":"3.1.1","paths":{"/t":{"get":{"responses":{"200":{"content":{"application/json":{"schema":\#(schema)}}}}}}},"components":{"schemas":\#(components)}}"#
        let v = try OpenAPIValidator(document: Data(doc.utf8))
        return v.validateResponse(method: "GET", path: "/t", status: 200, contentType: "application/json", body: Data(body.utf8))
    }

    // MARK: - Document

    @Test("accepts a 3.1 document with paths, refuses others")
    func documentChecks() throws {
        _ = try OpenAPIValidator(document: Data(Self.document.utf8))
        _ = try OpenAPIValidator(document: Data(#"{"openapi":"3.1","paths":{}}"#.utf8))
        #expect(throws: OpenAPIValidator.DocumentError.unsupportedVersion("3.0.3")) {
            try OpenAPIValidator(document: Data(#"{"openapi":"3.0.3","paths":{}}"#.utf8))
        }
        #expect(throws: OpenAPIValidator.DocumentError.unsupportedVersion(nil)) {
            try OpenAPIValidator(document: Data(#"{"swagger":"2.0","paths":{}}"#.utf8))
        }
        #expect(throws: OpenAPIValidator.DocumentError.missingPaths) {
            try OpenAPIValidator(document: Data(#"{"openapi":"3.1.0","webhooks":{}}"#.utf8))
        }
        #expect(throws: OpenAPIValidator.DocumentError.notAnObject) {
            try OpenAPIValidator(document: Data(#"["openapi"]"#.utf8))
        }
        #expect(throws: OpenAPIValidator.DocumentError.invalidPathTemplate("/v1/stops/{id")) {
            try OpenAPIValidator(document: Data(#"{"openapi":"3.1.0","paths":{"/v1/stops/{id":{}}}"#.utf8))
        }
        #expect(throws: OpenAPIValidator.DocumentError.self) {
            try OpenAPIValidator(document: Data("{\"openapi\": ".utf8))
        }
        // The value can cross concurrency domains.
        let sendable: any Sendable = Self.validator
        _ = sendable
    }

    // MARK: - Paths

    @Test("paths match templates with suffixes, percent-decoded parameters, concrete paths first")
    func pathMatching() throws {
        let v = Self.validator
        let geo = try #require(v.operation(method: "GET", path: "/v1/coverage/bart.geojson"))
        #expect(geo.template == "/v1/coverage/{feed}.geojson")
        #expect(geo.pathParameters == ["feed": "bart"])
        #expect(geo.operation["responses"] != nil)
        // A feed whose name itself has a dot: the suffix is taken from the end.
        #expect(v.operation(method: "GET", path: "/v1/coverage/ac.transit.geojson")?.pathParameters == ["feed": "ac.transit"])
        #expect(v.operation(method: "get", path: "/v1/coverage")?.template == "/v1/coverage")
        #expect(v.operation(method: "GET", path: "/v1/coverage/bart.json") == nil)
        #expect(v.operation(method: "GET", path: "/v1/coverage/.geojson") == nil)

        let stop = try #require(v.operation(method: "GET", path: "/v1/stops/bart%3A12TH"))
        #expect(stop.template == "/v1/stops/{id}")
        #expect(stop.pathParameters == ["id": "bart:12TH"])
        #expect(v.operation(method: "GET", path: "/v1/stops/a%2Fb%20c")?.pathParameters == ["id": "a/b c"])
        #expect(v.operation(method: "GET", path: "/v1/stops/nearby?lat=1")?.template == "/v1/stops/nearby")
        #expect(v.operation(method: "GET", path: "http://localhost:8080/v1/stops/x?y=1")?.pathParameters == ["id": "x"])
        #expect(v.operation(method: "GET", path: "/v1/stops/") == nil)
        #expect(v.operation(method: "GET", path: "/v1/stops/a/b") == nil)
        #expect(v.operation(method: "POST", path: "/v1/stops/x") == nil)
        #expect(v.operation(method: "GET", path: "/v2/health") == nil)

        #expect(v.validateResponse(method: "GET", path: "/v2/health", status: 200, contentType: "application/json", body: Data("{}".utf8))
                == ["GET /v2/health: no path in the document matches"])
        let wrongMethod = v.validateResponse(method: "DELETE", path: "/v1/health", status: 200, contentType: "application/json", body: Data())
        #expect(wrongMethod.count == 1)
        #expect(wrongMethod.first?.contains("DELETE is not documented for /v1/health (documented: GET)") == true)
    }

    // MARK: - Bodies

    @Test("a valid plan passes; a wrong type is reported with its path")
    func validBodyAndWrongType() throws {
        #expect(Self.planProblems(Self.validPlan) == [])
        let wrong = Self.planProblems(Self.plan { p in Self.editItinerary(&p) { $0["duration"] = "2190" } })
        #expect(wrong == [#"$.itineraries[0].duration: expected integer, got string "2190""#])
        let stops = Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 1) { $0["stopsPassed"] = ["ac:5002", 7] } })
        #expect(stops == ["$.itineraries[0].legs[1].stopsPassed[1]: expected string, got integer 7"])
    }

    @Test("missing required properties are reported at the object that lacks them")
    func missingRequired() {
        let problems = Self.planProblems(Self.plan { p in
            Self.editItinerary(&p, 1) { $0["legs"] = nil }
            p["to"] = nil
        })
        #expect(problems.contains(#"$: missing required property "to""#))
        #expect(problems.contains(#"$.itineraries[1]: missing required property "legs""#))
        #expect(problems.count == 2)
        #expect(Self.planProblems(Self.plan { p in Self.editItinerary(&p, 1) { $0["transfers"] = nil } }) == [])
    }

    @Test("a value outside an enum names the value, the path and the choices")
    func enumViolation() {
        let problems = Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 2) { $0["mode"] = "BUSS" } })
        #expect(problems == [#"$.itineraries[0].legs[2].mode: "BUSS" is not one of "WALK", "BUS", "RAIL", "SUBWAY", "FERRY""#])
        #expect(Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 2) { $0["mode"] = "FERRY" } }) == [])
        // Enums compare numbers by value and never equal a boolean.
        let stop = #"{"id":"x","name":"X","lat":1,"lon":2,"wheelchairBoarding":%@}"#
        func stopProblems(_ value: String) -> [String] {
            Self.validator.validateResponse(method: "GET", path: "/v1/stops/x", status: 200, contentType: "application/json",
                                            body: Data(stop.replacingOccurrences(of: "%@", with: value).utf8))
        }
        #expect(stopProblems("1") == [])
        #expect(stopProblems("2.0") == [])
        #expect(stopProblems("true") == ["$.wheelchairBoarding: true is not one of 0, 1, 2"])
        #expect(stopProblems("3") == ["$.wheelchairBoarding: 3 is not one of 0, 1, 2"])
    }

    @Test("additionalProperties: false rejects unknown properties, true or absent allows them")
    func additionalProperties() {
        let problems = Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 0) { $0["color"] = "#ff0000" } })
        #expect(problems == [#"$.itineraries[0].legs[0].color: property "color" is not allowed (additionalProperties: false)"#])
        // Itinerary does not close its properties.
        #expect(Self.planProblems(Self.plan { p in Self.editItinerary(&p, 0) { $0["color"] = "#ff0000" } }) == [])
        let odd = Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 0) { $0["line color"] = 1 } })
        #expect(odd.first?.hasPrefix(#"$.itineraries[0].legs[0]["line color"]: "#) == true)
    }

    @Test("oneOf must match exactly one: zero and two are both reported")
    func oneOf() {
        let none = Self.planProblems(Self.plan { $0["from"] = ["lat": 37.8] })
        #expect(none.count == 1)
        #expect(none.first?.hasPrefix("$.from: matches none of the oneOf schemas") == true)
        #expect(none.first?.contains(#"missing required property "lon""#) == true)
        #expect(none.first?.contains(#"missing required property "stopId""#) == true)

        let both = Self.planProblems(Self.plan { $0["from"] = ["lat": 37.8, "lon": -122.2, "stopId": "bart:12TH", "name": "12th"] })
        #expect(both == ["$.from: matches 2 of the oneOf schemas (#0, #1), exactly one must match"])

        let nested = Self.planProblems(Self.plan { p in Self.editItinerary(&p, leg: 1) { $0["to"] = "bart:19TH" } })
        #expect(nested.first?.hasPrefix("$.itineraries[0].legs[1].to: matches none of the oneOf schemas") == true)
        #expect(Self.planProblems(Self.plan { $0["from"] = ["stopId": "bart:12TH", "name": "12th"] }) == [])
    }

    @Test("integers, numbers and booleans are told apart")
    func numbersAndBooleans() {
        #expect(Self.itineraryProblems("duration", "1") == [])
        #expect(Self.itineraryProblems("duration", "true") == ["$.itineraries[0].duration: expected integer, got boolean true"])
        #expect(Self.itineraryProblems("duration", "false") == ["$.itineraries[0].duration: expected integer, got boolean false"])
        #expect(Self.itineraryProblems("duration", "1.5") == ["$.itineraries[0].duration: expected integer, got number 1.5"])
        // Choice, as in JSON Schema 2020-12: an integer is a number with no fractional part,
        // whatever its spelling, so 2.0 and 2e3 are integers in a body.
        #expect(Self.itineraryProblems("duration", "2.0") == [])
        #expect(Self.itineraryProblems("duration", "2e3") == [])
        #expect(Self.itineraryProblems("duration", "-1") == ["$.itineraries[0].duration: -1 is less than the minimum 0"])
        // An integer is a number; a boolean is not.
        #expect(Self.itineraryProblems("fare", "3") == [])
        #expect(Self.itineraryProblems("fare", "true") == ["$.itineraries[0].fare: expected one of number, null, got boolean true"])
        #expect(Self.legProblems("wheelchair", "true") == [])
        #expect(Self.legProblems("wheelchair", "1") == ["$.itineraries[0].legs[0].wheelchair: expected boolean, got integer 1"])
        #expect(Self.legProblems("wheelchair", "0") == ["$.itineraries[0].legs[0].wheelchair: expected boolean, got integer 0"])
        #expect(Self.legProblems("distance", "\"12\"") == [#"$.itineraries[0].legs[0].distance: expected number, got string "12""#])
    }

    @Test("patterns, lengths, formats and bounds on strings and numbers")
    func patternsAndFormats() {
        let badStop = Self.planProblems(Self.plan { $0["to"] = ["stopId": "12TH", "name": "12th"] })
        #expect(badStop.count == 1)
        #expect(badStop.first?.hasPrefix("$.to: matches none of the oneOf schemas") == true)
        #expect(badStop.first?.contains(#"#1: $.to.stopId: "12TH" does not match pattern "^[a-z0-9-]+:[A-Za-z0-9_.-]+$""#) == true)
        let badTime = Self.planProblems(Self.plan { p in Self.editItinerary(&p) { $0["departure"] = "2025-03-01 8:05" } })
        #expect(badTime == [#"$.itineraries[0].departure: "2025-03-01 8:05" is not a valid date-time"#])
        let badLat = Self.planProblems(Self.plan { $0["from"] = ["lat": 91, "lon": 0] })
        #expect(badLat.first?.contains("$.from.lat: 91 is greater than the maximum 90") == true)
        let longHeadsign = Self.legProblems("headsign", #""Oakland Coliseum via Fruitvale""#)
        #expect(longHeadsign == [#"$.itineraries[0].legs[0].headsign: "Oakland Coliseum via Fruitvale" is longer than 20 characters"#])
        // Code points, not UTF-16 units: 20 emoji fit.
        #expect(Self.legProblems("headsign", "\"" + String(repeating: "🚌", count: 20) + "\"") == [])
    }

    @Test("nullable fields take null through type [\"string\", \"null\"], other fields do not")
    func nullable() {
        #expect(Self.legProblems("headsign", "null") == [])
        #expect(Self.legProblems("route", "null") == [])
        #expect(Self.legProblems("route", "\"51A\"") == [])
        #expect(Self.legProblems("route", "51") == ["$.itineraries[0].legs[0].route: expected one of string, null, got integer 51"])
        #expect(Self.legProblems("distance", "null") == ["$.itineraries[0].legs[0].distance: expected number, got null null"])
        #expect(Self.itineraryProblems("fare", "null") == [])
    }

    // MARK: - Statuses and content types

    @Test("statuses fall back to ranges and default; undocumented ones are reported")
    func statuses() {
        let v = Self.validator
        let problem = Data(#"{"title":"Bad Request","status":400,"detail":"from is required"}"#.utf8)
        #expect(v.validateResponse(method: "GET", path: "/v1/plan", status: 400, contentType: "application/problem+json", body: problem) == [])
        // 503 is documented by "5XX".
        let unavailable = Data(#"{"title":"Unavailable","status":503}"#.utf8)
        #expect(v.validateResponse(method: "GET", path: "/v1/plan", status: 503, contentType: "application/problem+json", body: unavailable) == [])
        #expect(v.validateResponse(method: "GET", path: "/v1/plan", status: 418, contentType: "application/problem+json", body: problem)
                == ["GET /v1/plan: status 418 is not documented (documented: 200, 400, 5XX)"])
        #expect(v.validateResponse(method: "GET", path: "/v1/plan", status: 404, contentType: "application/problem+json", body: problem).count == 1)
        // /v1/health has a default; the body still has to match it.
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 500, contentType: "application/problem+json", body: unavailable) == [])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 500, contentType: "application/problem+json",
                                   body: Data(#"{"title":"Oops","status":200}"#.utf8)) == ["$.status: 200 is less than the minimum 400"])
        // A response documented without content must come without a body.
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 204, contentType: nil, body: Data()) == [])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 204, contentType: "application/json", body: Data("{}".utf8))
                == [#"GET /v1/health: status 204 (response "204") documents no content, but the body has 2 bytes"#])
    }

    @Test("content types must be documented for the status; JSON bodies must parse")
    func contentTypes() {
        let v = Self.validator
        let health = Data(#"{"status":"ok","feeds":3,"ready":true,"uptimeSeconds":12.5}"#.utf8)
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "application/json", body: health) == [])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "Application/JSON; charset=UTF-8", body: health) == [])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "text/html", body: health)
                == [#"GET /v1/health: content type "text/html" is not documented for status 200 (documented: application/json)"#])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: nil, body: health)
                == ["GET /v1/health: status 200 has no Content-Type; documented: application/json"])
        // Problems are application/problem+json here, not application/json.
        let problem = Data(#"{"title":"Bad Request","status":400}"#.utf8)
        #expect(v.validateResponse(method: "GET", path: "/v1/plan", status: 400, contentType: "application/json", body: problem).count == 1)

        let notJSON = v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "application/json", body: Data("{status: ok}".utf8))
        #expect(notJSON.count == 1)
        #expect(notJSON.first?.hasPrefix("GET /v1/health: the body is not valid JSON (application/json)") == true)
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "application/json", body: Data())
                == ["GET /v1/health: the body is empty, expected JSON (application/json)"])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "application/json",
                                   body: Data(#"{"status":"degraded"}"#.utf8)) == [#"$.status: "degraded" is not "ok""#])
        #expect(v.validateResponse(method: "GET", path: "/v1/health", status: 200, contentType: "application/json",
                                   body: Data(#"{"status":"ok","debug":1}"#.utf8)).count == 1)
        let doc = Data(Self.document.utf8)
        #expect(v.validateResponse(method: "GET", path: "/openapi.json", status: 200, contentType: "application/json", body: doc) == [])
        #expect(v.validateResponse(method: "GET", path: "/openapi.json", status: 200, contentType: "application/json", body: Data("[]".utf8))
                == ["$: expected object, got array []"])
    }

    @Test("GeoJSON under a suffix template: +json is JSON, recursive geometry refs, pointer escapes")
    func geojson() {
        let v = Self.validator
        func problems(_ body: String, contentType: String = "application/geo+json") -> [String] {
            v.validateResponse(method: "GET", path: "/v1/coverage/bart.geojson", status: 200, contentType: contentType, body: Data(body.utf8))
        }
        let ring = "[[0,0],[1,0],[1,1],[0,0]]"
        let valid = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,"bbox":[0,0,1,1],"geometry":{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(ring)]},{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(ring)]}]}]}}]}"#
        #expect(problems(valid) == [])
        #expect(problems(valid, contentType: "application/json").first?.contains("content type \"application/json\" is not documented") == true)
        #expect(problems("not json").first?.contains("the body is not valid JSON (application/geo+json)") == true)

        // Deep in the recursion: a point with three numbers.
        let badRing = "[[0,0],[1,0],[1,1,2],[0,0]]"
        let deep = valid.replacingOccurrences(of: #"{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(ring)]}]}"#,
                                              with: #"{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(badRing)]}]}"#)
        let deepProblems = problems(deep)
        #expect(deepProblems.count == 1)
        #expect(deepProblems.first?.hasPrefix("$.features[0].geometry: matches none of the oneOf schemas") == true)
        #expect(deepProblems.first?.contains("$.features[0].geometry.geometries[1].geometries[0].coordinates[0][2]: has 3 items, more than 2") == true)

        #expect(problems(valid.replacingOccurrences(of: "[0,0,1,1]", with: "[0,0,1,1,5]"))
                == ["$.features[0].bbox[4]: no item is allowed beyond the 4 in prefixItems"])
        #expect(problems(valid.replacingOccurrences(of: "[0,0,1,1]", with: #"[0,"0",1,1]"#))
                == [#"$.features[0].bbox[1]: expected number, got string "0""#])
        #expect(problems(valid.replacingOccurrences(of: "FeatureCollection", with: "Collection"))
                == [#"$.type: "Collection" is not "FeatureCollection""#])
    }

    // MARK: - Request parameters

    @Test("query parameters: required, types from strings, enums, bounds; unknown ones allowed")
    func queryParameters() {
        let v = Self.validator
        func problems(_ query: [String: String]) -> [String] {
            v.validateRequestParameters(method: "GET", path: "/v1/plan", query: ["from": "37.8,-122.27", "to": "bart:12TH"].merging(query) { $1 })
        }
        #expect(problems([:]) == [])
        #expect(problems(["maxTransfers": "3", "walkSpeed": "1.4", "wheelchair": "true", "modes": "BUS,RAIL",
                          "time": "2025-03-01T08:00:00Z", "feed": "bart", "debug": "anything"]) == [])
        #expect(v.validateRequestParameters(method: "GET", path: "/v1/plan", query: ["to": "x"])
                == [#"query parameter "from" is required but missing"#])
        #expect(problems(["from": ""]) == [#"query parameter "from": "" is shorter than 1 characters"#])

        #expect(problems(["maxTransfers": "abc"]) == [#"query parameter "maxTransfers": expected integer, got string "abc""#])
        #expect(problems(["maxTransfers": "2.0"]) == [#"query parameter "maxTransfers": expected integer, got string "2.0""#])
        #expect(problems(["maxTransfers": "-1"]) == [#"query parameter "maxTransfers": -1 is less than the minimum 0"#])
        #expect(problems(["maxTransfers": "9"]) == [#"query parameter "maxTransfers": 9 is greater than the maximum 8"#])
        #expect(problems(["walkSpeed": "0"]) == [#"query parameter "walkSpeed": 0 is not greater than the exclusive minimum 0"#])
        #expect(problems(["walkSpeed": "2"]) == [])
        #expect(problems(["walkSpeed": "fast"]).count == 1)
        #expect(problems(["walkSpeed": "nan"]).count == 1)
        #expect(problems(["wheelchair": "yes"]) == [#"query parameter "wheelchair": expected boolean, got string "yes""#])
        #expect(problems(["wheelchair": "1"]).count == 1)
        #expect(problems(["modes": "BUS,BUSS"]) == [#"query parameter "modes"[1]: "BUSS" is not one of "WALK", "BUS", "RAIL", "SUBWAY", "FERRY""#])
        #expect(problems(["modes": "WALK,BUS,RAIL,SUBWAY,FERRY"]) == [#"query parameter "modes": has 5 items, more than 4"#])
        #expect(problems(["time": "tomorrow"]) == [#"query parameter "time": "tomorrow" is not a valid date-time"#])
        // The $ref'd parameter is checked too.
        #expect(problems(["feed": "BART!"]) == [#"query parameter "feed": "BART!" does not match pattern "^[a-z0-9-]+$""#])

        #expect(v.validateRequestParameters(method: "GET", path: "/v1/stops", query: ["limit": "100", "q": "12th"]) == [])
        #expect(v.validateRequestParameters(method: "GET", path: "/v1/stops", query: ["limit": "0", "q": "twelfth street"]).count == 2)
        #expect(v.validateRequestParameters(method: "POST", path: "/v1/stops", query: [:]).count == 1)
    }

    @Test("path parameters are decoded and checked against their schemas")
    func pathParameters() {
        let v = Self.validator
        #expect(v.validateRequestParameters(method: "GET", path: "/v1/coverage/bart-2.geojson", query: [:]) == [])
        #expect(v.validateRequestParameters(method: "GET", path: "/v1/coverage/BART%21.geojson", query: [:])
                == [#"path parameter "feed": "BART!" does not match pattern "^[a-z0-9-]+$""#])
        #expect(v.validateRequestParameters(method: "GET", path: "/v1/stops/bart%3A12TH", query: [:]) == [])
    }

    // MARK: - Schema keywords

    @Test("allOf, anyOf, not, const, array and object keywords")
    func combinators() throws {
        let named = #"{"allOf":[{"type":"object","required":["id"]},{"properties":{"id":{"type":"string","minLength":2}}}]}"#
        #expect(try Self.check(schema: named, #"{"id":"ab"}"#) == [])
        #expect(try Self.check(schema: named, #"{"id":"a"}"#) == [#"$.id: "a" is shorter than 2 characters"#])
        #expect(try Self.check(schema: named, #"{}"#) == [#"$: missing required property "id""#])

        let idOrIndex = #"{"anyOf":[{"type":"string"},{"type":"integer","minimum":0}]}"#
        #expect(try Self.check(schema: idOrIndex, #""x""#) == [])
        #expect(try Self.check(schema: idOrIndex, "3") == [])
        let anyFail = try Self.check(schema: idOrIndex, "-3")
        #expect(anyFail == ["$: matches none of the anyOf schemas (#0: $: expected string, got integer -3; #1: $: -3 is less than the minimum 0)"])

        let notEmpty = #"{"type":"string","not":{"const":""}}"#
        #expect(try Self.check(schema: notEmpty, #""x""#) == [])
        #expect(try Self.check(schema: notEmpty, #""""#) == [#"$: "" must not match the "not" schema"#])

        let pair = #"{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"minItems":2,"maxItems":2,"uniqueItems":true}"#
        #expect(try Self.check(schema: pair, #"["a",1]"#) == [])
        #expect(try Self.check(schema: pair, #"["a"]"#) == ["$: has 1 items, fewer than 2"])
        #expect(try Self.check(schema: pair, #"[1,"a"]"#) == ["$[0]: expected string, got integer 1", #"$[1]: expected number, got string "a""#])

        let tags = #"{"type":"object","additionalProperties":{"type":"string"},"maxProperties":2}"#
        #expect(try Self.check(schema: tags, #"{"a":"x","b":"y"}"#) == [])
        #expect(try Self.check(schema: tags, #"{"a":"x","b":2,"c":"z"}"#) == ["$: has 3 properties, more than 2", "$.b: expected string, got integer 2"])

        let date = #"{"type":"string","format":"date"}"#
        #expect(try Self.check(schema: date, #""2025-02-28""#) == [])
        #expect(try Self.check(schema: date, #""2025-13-01""#) == [#"$: "2025-13-01" is not a valid date"#])
        // Unknown keywords and formats are ignored.
        #expect(try Self.check(schema: #"{"type":"string","format":"uuid","x-internal":true}"#, #""nope""#) == [])
    }

    @Test("$ref: JSON-pointer escapes, recursion, unresolvable and looping refs")
    func references() throws {
        let components: String = ##"{"a/b":{"type":"integer"},"c~d":{"type":"string"},"%e":{"type":"boolean"},"##
            + ##""Tree":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/components/schemas/Tree"}}}},"##
            + ##""Loop":{"$ref":"#/components/schemas/Loop"}}"##
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/a~1b"}"##, components: components, "1") == [])
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/a~1b"}"##, components: components, "\"1\"") == [##"$: expected integer, got string "1""##])
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/c~0d"}"##, components: components, "\"x\"") == [])
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/c~0d"}"##, components: components, "1") == ["$: expected string, got integer 1"])
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/%25e"}"##, components: components, "false") == [])
        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/%25e"}"##, components: components, "0") == ["$: expected boolean, got integer 0"])

        let tree = ##"{"$ref":"#/components/schemas/Tree"}"##
        #expect(try Self.check(schema: tree, components: components, ##"{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}"##) == [])
        #expect(try Self.check(schema: tree, components: components, ##"{"name":"a","children":[{"name":"b","children":[{"name":3}]}]}"##)
                == ["$.children[0].children[0].name: expected string, got integer 3"])

        #expect(try Self.check(schema: ##"{"$ref":"#/components/schemas/Missing"}"##, components: components, "1")
                == [##"$: cannot resolve $ref "#/components/schemas/Missing""##])
        #expect(try Self.check(schema: ##"{"$ref":"other.json#/Thing"}"##, components: components, "1")
                == [##"$: unsupported $ref "other.json#/Thing" (only local "#/…" references)"##])
        let loop = try Self.check(schema: ##"{"$ref":"#/components/schemas/Loop"}"##, components: components, "1")
        #expect(loop.count == 1)
        #expect(loop.first?.contains("schema nesting deeper than") == true)
    }

    @Test("the number of problems is capped")
    func cap() throws {
        let many = "[" + (0..<100).map { _ in "\"x\"" }.joined(separator: ",") + "]"
        let schema = #"{"type":"array","items":{"type":"integer"}}"#
        let problems = try Self.check(schema: schema, many)
        #expect(problems.count == 21)
        #expect(problems.first == #"$[0]: expected integer, got string "x""#)
        #expect(problems.last == "(stopped after 20 problems)")
        #expect(try Self.check(schema: schema, "[1,2,3]") == [])

        var v = Self.validator
        v.maxProblems = 2
        let body = Data(#"{"title":1,"status":"x","detail":false}"#.utf8)
        let capped = v.validateResponse(method: "GET", path: "/v1/plan", status: 400, contentType: "application/problem+json", body: body)
        #expect(capped == ["$.detail: expected string, got boolean false", "$.status: expected integer, got string \"x\"", "(stopped after 2 problems)"])
        let all = Self.validator.validateResponse(method: "GET", path: "/v1/plan", status: 400, contentType: "application/problem+json", body: body)
        #expect(all == ["$.detail: expected string, got boolean false", "$.status: expected integer, got string \"x\"", "$.title: expected string, got integer 1"])
    }
}
