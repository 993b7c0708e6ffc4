import Foundation
import Planner
import Raptor
import Server
import Testing
import TransitModel
import TransitTesting

/// The OpenAPI document is made from the parameters' declarations: the committed file is
/// what they generate, the server serves that file, and what each declaration's pattern
/// and range allow is what the server's checks accept (both ways).
@Suite("OpenAPI document from the declarations")
struct OpenAPIDocumentTests {
    static var committedPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Server/Resources/openapi.json").path
    }

    static func committed() throws -> String { try String(contentsOfFile: committedPath, encoding: .utf8) }

    @Test("the committed openapi.json is what the declarations generate")
    func committedIsGenerated() throws {
        let generated = OpenAPIGenerator.document(), file = try Self.committed()
        let a = generated.split(separator: "\n", omittingEmptySubsequences: false), b = file.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil && a.count == b.count, """
            Sources/Server/Resources/openapi.json is not what the declarations generate \
            (first difference at line \(first.map { $0.offset + 1 } ?? min(a.count, b.count) + 1): \
            generated \(first.map { String($0.element.0).debugDescription } ?? "-"), committed \(first.map { String($0.element.1).debugDescription } ?? "-")); \
            run: \(OpenAPIGenerator.regenerate)
            """)
    }

    @Test("the server's resource is the committed file, and a valid OpenAPI 3.1 document")
    func resourceIsCommitted() throws {
        #expect(OpenAPIDocument.served == (try Self.committed()))
        _ = try OpenAPIValidator(document: Data(OpenAPIDocument.served.utf8))
    }

    static func parameters(_ path: String) throws -> [String: [String: Any]] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(Self.committed().utf8)) as? [String: Any])
        let op = try #require(((doc["paths"] as? [String: Any])?[path] as? [String: Any])?["get"] as? [String: Any])
        let list = op["parameters"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
    }

    @Test("each endpoint documents exactly its declared parameters, with their ranges and patterns",
          arguments: ["/v1/plan", "/v1/stops", "/v1/stops/{id}"])
    func declaredParameters(_ path: String) throws {
        let specs = path == "/v1/plan" ? APIParameters.plan : path == "/v1/stops" ? APIParameters.stops
            : [APIParameters.stopId] + APIParameters.departures
        let documented = try Self.parameters(path)
        #expect(Set(documented.keys) == Set(specs.map(\.name)))
        for spec in specs {
            let schema = try #require(documented[spec.name]?["schema"] as? [String: Any])
            switch spec.kind {
            case .integer(let r, _):
                #expect(schema["type"] as? String == "integer" && schema["minimum"] as? Int == r.lowerBound && schema["maximum"] as? Int == r.upperBound, "\(spec.name)")
            case .number(let r, _):
                #expect(schema["type"] as? String == "number" && (schema["minimum"] as? NSNumber)?.doubleValue == r.lowerBound
                        && (schema["maximum"] as? NSNumber)?.doubleValue == r.upperBound, "\(spec.name)")
            case .boolean:
                #expect(schema["type"] as? String == "boolean", "\(spec.name)")
            case .text(let lo, let hi, let pattern):
                #expect(schema["minLength"] as? Int == lo && schema["maxLength"] as? Int == hi && schema["pattern"] as? String == pattern, "\(spec.name)")
            }
        }
        // The only other place the model's parameters were written: PlanParameters reads all of them.
        if path == "/v1/plan" { #expect(PlanParameters.names == APIParameters.plan.map(\.name)) }
    }

    /// Values on both sides of each pattern's edges, with whether the server reads them.
    static let texts: [(spec: ParameterSpec, value: String, accepted: Bool)] = [
        (APIParameters.planTime, "2018-06-05T08:30:00", true), (APIParameters.planTime, "2018-06-05 08:30", true),
        (APIParameters.planTime, " 2018-06-05T08:30Z\t", true), (APIParameters.planTime, "2018-06-05T08:30:59+23:59", true),
        (APIParameters.planTime, "2020-02-29T00:00", true), (APIParameters.planTime, "2000-02-29T00:00", true),
        (APIParameters.planTime, "1900-01-01T00:00", true), (APIParameters.planTime, "2999-12-31T23:59:59-00:00", true),
        (APIParameters.planTime, "0000-00-00T00:00", false), (APIParameters.planTime, "1899-12-31T23:59", false),
        (APIParameters.planTime, "3000-01-01T00:00", false), (APIParameters.planTime, "2019-02-29T08:00", false),
        (APIParameters.planTime, "1900-02-29T08:00", false), (APIParameters.planTime, "2018-04-31T08:00", false),
        (APIParameters.planTime, "2018-06-05T24:00", false), (APIParameters.planTime, "2018-06-05T08:60", false),
        (APIParameters.planTime, "2018-06-05T08:30+24:00", false), (APIParameters.planTime, "2018-06-05T08:30z", false),
        (APIParameters.planTime, "2018-06-05T08:30\n", false), (APIParameters.planTime, "٢٠١٨-06-05T08:30", false),
        (APIParameters.from, "stop:12TH", true), (APIParameters.from, " stop: x ", true), (APIParameters.from, "stop: ", false),
        (APIParameters.from, "37.8044,-122.2712", true), (APIParameters.from, " +90 , -180.000 ", true), (APIParameters.from, ".5,5.", true),
        (APIParameters.from, "007,0179.9", true), (APIParameters.from, "90.0001,0", false), (APIParameters.from, "0,180.5", false),
        (APIParameters.from, "1e1,2", false), (APIParameters.from, ",37,-122", false), (APIParameters.from, "nan,0", false),
        (APIParameters.near, "37.8,-122.2", true), (APIParameters.near, "91,0", false),
        (APIParameters.modes, "TRAM,SUBWAY", true), (APIParameters.modes, "-bus, !Ferry,", true), (APIParameters.modes, ",metro,,train", true),
        (APIParameters.modes, "CABLE_CAR", true), (APIParameters.modes, "light-rail,Streetcar", true), (APIParameters.modes, "-water taxi", true), (APIParameters.modes, "WALK", false), (APIParameters.modes, "-BUS,TRAM", false),
        (APIParameters.modes, "ROCKET", false), (APIParameters.modes, "traın", false), (APIParameters.modes, ",", false),
        (APIParameters.query, "embarcadero", true), (APIParameters.query, " \t", false), (APIParameters.query, "\u{3000}", false),
        (APIParameters.planFeed, "bart-2018", true), (APIParameters.planFeed, "bart 2018", false), (APIParameters.planFeed, "", false),
    ]

    @Test("a value is read exactly when its declaration's pattern allows it")
    func patternsAreWhatTheServerReads() throws {
        for (spec, value, accepted) in Self.texts {
            let q = try QueryParameters(spec.name + "=" + value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, allowed: [spec.name])
            var read: Bool
            do {
                switch spec.name {
                case "from":
                    let plan = try QueryParameters("from=" + value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&to=stop:X",
                                                   allowed: PlanParameters.names)
                    read = (try? PlanParameters.query(plan, now: 0)) != nil
                case "time": read = (try? PlanParameters.time(q, spec)) != nil
                case "near": read = (try? q.coordinate(spec)) != nil
                case "modes":
                    let plan = try QueryParameters("from=stop:A&to=stop:B&modes=" + value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                                                   allowed: PlanParameters.names)
                    read = (try? PlanParameters.query(plan, now: 0)) != nil
                default: read = (try? q.text(spec)) != nil
                }
            }
            #expect(read == accepted, "\(spec.name)=\(value.debugDescription): read \(read)")
            guard case .text(_, _, let pattern?) = spec.kind else { continue }
            #expect(QueryParameters.matches(value, pattern) == accepted, "\(spec.name)=\(value.debugDescription): the pattern says \(!accepted)")
        }
    }

    @Test("numbers are read within their declared range and refused just outside it, saying the range",
          arguments: (APIParameters.plan + APIParameters.stops + APIParameters.departures).indices)
    func ranges(_ index: Int) throws {
        let spec = (APIParameters.plan + APIParameters.stops + APIParameters.departures)[index]
        func read(_ v: String) throws(APIError) -> Bool {
            let q = try QueryParameters("\(spec.name)=\(v)", allowed: [spec.name])
            switch spec.kind {
            case .integer: return try q.int(spec) != nil
            case .number: return try q.double(spec) != nil
            case .boolean, .text: return true
            }
        }
        let edges: (inside: [String], outside: [String])
        switch spec.kind {
        case .integer(let r, _): edges = (["\(r.lowerBound)", "\(r.upperBound)"], ["\(r.lowerBound - 1)", "\(r.upperBound + 1)"])
        case .number(let r, _): edges = (["\(r.lowerBound)", "\(r.upperBound)"], ["\(r.lowerBound.nextDown)", "\(r.upperBound.nextUp)", "NaN", "inf"])
        case .boolean, .text: return
        }
        for v in edges.inside { #expect(try read(v), "\(spec.name)=\(v) is inside the declared range") }
        for v in edges.outside {
            do { _ = try read(v); Issue.record("\(spec.name)=\(v) was read") } catch {
                #expect(error.code == .badParameter && error.details["allowed"] == .text(spec.allowed), "\(spec.name)=\(v): \(error.details)")
            }
        }
    }

    @Test("the routing model's check and the command line's help come from the same declarations")
    func modelAndHelp() throws {
        for spec in RoutingParameters.Spec.all {
            var p = RoutingParameters()
            switch spec.kind {
            case .integer(let r, _):
                let key = spec.name == "transferSlack" ? \RoutingParameters.transferSlack : \RoutingParameters.maxTransfers
                p[keyPath: key] = r.upperBound + 1
                #expect(p[keyPath: key] != RoutingParameters()[keyPath: key])
            case .number(let r, _):
                let keys: [String: WritableKeyPath<RoutingParameters, Double>] = [
                    "walkSpeed": \.walkSpeed, "walkDetourFactor": \.walkDetourFactor, "maxAccessWalk": \.maxAccessWalk,
                    "maxTransferWalk": \.maxTransferWalk, "maxDirectWalk": \.maxDirectWalk]
                let key = try #require(keys[spec.name])
                #expect(RoutingParameters()[keyPath: key] == spec.numberDefault, "\(spec.name)'s default is the declared one")
                p[keyPath: key] = r.upperBound.nextUp
            case .boolean, .text: continue
            }
            #expect(throws: ParameterError.self, "\(spec.name) past its range") { try p.validate() }
            #expect(spec.help.contains("default \(spec.defaultText!)"))
        }
        #expect(PlanRequestParameters.window.integerRange == 0...180, "one window limit, the one the API documented")
    }
}
