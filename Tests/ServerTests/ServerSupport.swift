import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TransitStore
import TransitTesting

/// A `transit serve` process on a loopback port, and a plain HTTP client for it.
final class ServerProcess: @unchecked Sendable {
    let running: ProcessRunner.Running
    let port: Int

    /// Starts the server on a free port and waits until it listens (not until it has a
    /// timetable: see `waitUntil`). The tests send many plans from one address, faster
    /// than the per-client limit a public server has: unless `limitPlans`, it is lifted
    /// (`--plan-rate 0`); `SecurityTests` set their own.
    init(databaseURL: String, arguments: [String] = [], limitPlans: Bool = false, setting: [String: String] = [:]) throws {
        running = try TransitBinary.start(["serve", "--port", "0"] + (limitPlans ? [] : ["--plan-rate", "0"]) + arguments,
                                          databaseURL: databaseURL, setting: setting)
        let deadline = Date().addingTimeInterval(120)
        var found: Int?
        while found == nil && Date() < deadline && running.isRunning {
            if let r = running.stderrSoFar.range(of: #"listening on http://[0-9.]+:(\d+)"#, options: .regularExpression) {
                found = Int(running.stderrSoFar[r].split(separator: ":").last!)
            } else {
                usleep(50_000)
            }
        }
        guard let found else {
            let out = running.wait(timeout: 5)
            throw TestSetupError("transit serve did not start listening: \(out.stderr)")
        }
        port = found
    }

    deinit { running.kill(SIGKILL) }

    struct Reply: Sendable {
        let status: Int
        let contentType: String?
        let body: Data
        let headers: [String: String]
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var text: String { String(decoding: body, as: UTF8.self) }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
        var errorDetails: [String: Any]? { (json?["error"] as? [String: Any])?["details"] as? [String: Any] }
    }

    /// GET (or another method) of a path with its query string, as given (already encoded).
    func request(_ pathAndQuery: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 60) throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!)
        request.httpMethod = method
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        request.timeoutInterval = timeout
        let box = ReplyBox()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (k, v) in http.allHeaderFields { headers[String(describing: k).lowercased()] = String(describing: v) }
                box.value = .success(Reply(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                                           body: data ?? Data(), headers: headers))
            } else {
                box.value = .failure(error ?? TestSetupError("no HTTP response"))
            }
            done.signal()
        }.resume()
        done.wait()
        return try box.value!.get()
    }

    /// Polls `/v1/health` until `condition` holds for its JSON (or fails after `timeout`).
    func waitUntil(_ what: String, timeout: Double = 180, _ condition: ([String: Any]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let r = try? request("/v1/health"), let json = r.json, condition(json) { return }
            usleep(200_000)
        }
        throw TestSetupError("the server never got to: \(what); log:\n\(running.stderrSoFar.suffix(3000))")
    }

    /// Health's feeds as id -> version.
    func versions() throws -> [String: Int] {
        let feeds = try request("/v1/health").json?["feeds"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: feeds.compactMap { f in (f["id"] as? String).map { ($0, f["version"] as? Int ?? 0) } })
    }

    /// Sends SIGTERM and waits for the process to end.
    func stop(timeout: Double = 60) -> ProcessRunner.Result {
        running.kill(SIGTERM)
        return running.wait(timeout: timeout)
    }
}

private final class ReplyBox: @unchecked Sendable {
    var value: Result<ServerProcess.Reply, Error>?
}

/// The contract: the committed OpenAPI document (`Sources/Server/Resources/openapi.json`),
/// which the server must serve byte for byte; its answers are held to the file, not to
/// whatever it serves.
func validator(_ server: ServerProcess) throws -> OpenAPIValidator {
    let committed = try Data(contentsOf: URL(fileURLWithPath: OpenAPIDocumentTests.committedPath))
    let doc = try server.request("/openapi.json")
    #expect(doc.status == 200)
    #expect(doc.body == committed, "the server serves a document other than the committed openapi.json")
    return try OpenAPIValidator(document: committed)
}

/// Checks a reply against the document: path, status, content type and body schema.
func expectConforms(_ v: OpenAPIValidator, _ path: String, _ r: ServerProcess.Reply, method: String = "GET",
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let bare = String(path.prefix { $0 != "?" })
    let problems = v.validateResponse(method: method, path: bare, status: r.status, contentType: r.contentType, body: r.body)
    #expect(problems.isEmpty, "\(method) \(path) → \(r.status): \(problems.joined(separator: "; "))\n\(r.text.prefix(600))",
            sourceLocation: sourceLocation)
}

/// BART's static feed and real GTFS-Realtime messages of 2019-08-07 in the shared data
/// (`gtfs-rt/bart`), if they are there.
func bartRealtime() -> URL? {
    guard let dir = try? FeedFixtures.sharedDataDirectory() else { return nil }
    let url = dir.appendingPathComponent("gtfs-rt/bart")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("bart-trip-updates.pb").path) ? url : nil
}

/// A trip tokens' key the tests give servers and commands alike, so that their tokens agree.
let testTokenSecret = ["TRANSIT_TOKEN_SECRET": "the tests' token key, 32 bytes"]
