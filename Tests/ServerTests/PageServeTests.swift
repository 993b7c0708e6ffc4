import Foundation
import GTFS
import Testing
import TransitModel
import TransitStore
import TransitTesting

/// The trip planner page as the server serves it (the browser's own checks are
/// `Tests/Browser/test_page.py`, run by `Scripts/browser-test.sh`), and the API's languages:
/// `lang` and `Accept-Language` on a real feed, answers valid against the OpenAPI document.
@Suite("the page at / and the API's languages", .serialized)
struct PageServeTests {
    static func withServer(_ body: (ServerProcess, OpenAPIValidator) throws -> Void) throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("bart served") { h in (h["feeds"] as? [Any])?.count == 1 }
        try body(server, try validator(server))
    }

    @Test("the page, its modules, Leaflet and the catalogue: types, ETags, 304s, no CDN, under 200 KB")
    func files() throws {
        try Self.withServer { server, _ in
            let page = try server.request("/")
            #expect(page.status == 200 && page.contentType?.hasPrefix("text/html") == true)
            #expect(page.headers["cache-control"] == "no-cache" && page.headers["etag"] != nil)
            // Every file it names is this server's (a deployment may have no internet).
            let refs = page.text.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.output.1) }
            #expect(refs.allSatisfy { $0.hasPrefix("/") || $0.hasPrefix("#") || $0.hasPrefix("data:") }, "\(refs)")
            var total = page.body.count
            for module in ["app.js", "i18n.js", "search.js", "map.js", "style.css"] {
                let r = try server.request("/page/" + module)
                #expect(r.status == 200, "\(module)")
                #expect(r.contentType?.hasPrefix(module.hasSuffix(".js") ? "text/javascript" : "text/css") == true, "\(module): \(r.contentType ?? "")")
                total += r.body.count
                // Unchanged: 304 with no body.
                let again = try server.request("/page/" + module, headers: ["If-None-Match": r.headers["etag"] ?? ""])
                #expect(again.status == 304 && again.body.isEmpty, "\(module)")
                // Modules import only each other, by relative path.
                for m in r.text.matches(of: /from "([^"]+)"/) { #expect(m.output.1.hasPrefix("./"), "\(module) imports \(m.output.1)") }
            }
            #expect(total < 200 * 1024, "the page's own files: \(total) bytes")
            let leaflet = try server.request("/leaflet/leaflet.js")
            #expect(leaflet.status == 200 && leaflet.headers["cache-control"]?.contains("max-age") == true)
            #expect(try server.request("/leaflet/images/marker-icon.png").contentType == "image/png")
            // Nothing outside the page's and Leaflet's own files.
            for path in ["/page/..%2Fopenapi.json", "/page/nothing.js", "/leaflet/..%2F..%2Fetc%2Fpasswd", "/leaflet/images/../../x"] {
                let r = try server.request(path)
                #expect(r.status == 404 || r.status == 400, "\(path): \(r.status)")
            }
            // The catalogue's page messages, in each language, every key in both.
            let en = try server.request("/page/messages.json?lang=en").json?["messages"] as? [String: String] ?? [:]
            let zh = try server.request("/page/messages.json?lang=zh-Hans").json?["messages"] as? [String: String] ?? [:]
            #expect(en["page.plan"] == "Plan trip" && zh["page.plan"] == "规划行程")
            #expect(Set(en.keys) == Set(zh.keys) && en.count > 100)
            let browser = try server.request("/page/messages.json", headers: ["Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"])
            #expect(browser.json?["language"] as? String == "zh-Hans" && browser.headers["content-language"] == "zh-Hans")
            #expect(try server.request("/page/messages.json?lang=fr").errorCode == "BAD_PARAMETER")
            let config = try server.request("/page/config.json").json ?? [:]
            #expect((config["languages"] as? [[String: Any]])?.count == Language.allCases.count && config["leaflet"] as? Bool == true)
        }
    }

    @Test("/v1/network: every route's segments between its stops, in its colour, and the stops, valid GeoJSON per the document")
    func network() throws {
        try Self.withServer { server, v in
            let r = try server.request("/v1/network")
            #expect(r.status == 200 && r.contentType == "application/geo+json")
            expectConforms(v, "/v1/network", r)
            let features = r.json?["features"] as? [[String: Any]] ?? []
            let routes = features.filter { ($0["properties"] as? [String: Any])?["role"] as? String == "route" }
            let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
            // Every route with trips is drawn (BART's routes each run some).
            #expect(routes.count == Set(snapshot.trips.map(\.route)).count, "\(routes.count) routes drawn")
            for f in routes {
                let p = f["properties"] as! [String: Any]
                #expect((p["color"] as? String)?.count == 7 && p["mode"] as? String == "SUBWAY", "\(p)")
                let lines = (f["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] ?? []
                #expect(!lines.isEmpty && lines.allSatisfy { $0.count == 2 && $0[0] != $0[1] })
            }
            let stops = features.first { ($0["properties"] as? [String: Any])?["role"] as? String == "stops" }
            let points = (stops?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]] ?? []
            #expect(points.count == Set(snapshot.stops.filter { $0.locationType == 0 }.map(\.stopId)).count, "\(points.count) stops")
            // Within a box (downtown Oakland): only what lies there, every route through it.
            let box = try server.request("/v1/network?bbox=-122.29,37.79,-122.25,37.82")
            expectConforms(v, "/v1/network", box)
            let inBox = box.json?["features"] as? [[String: Any]] ?? []
            let boxPoints = ((inBox.last?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]) ?? []
            #expect(!boxPoints.isEmpty && boxPoints.count < points.count / 4
                    && boxPoints.allSatisfy { (-122.29...(-122.25)).contains($0[0]) && (37.79...37.82).contains($0[1]) }, "\(boxPoints)")
            #expect(inBox.count > 2 && inBox.count <= features.count)
            for bad in ["1,2,3", "0,0,200,1", "0,-91,1,1", "a,b,c,d"] {
                #expect(try server.request("/v1/network?bbox=\(bad)").errorCode == "BAD_PARAMETER", "\(bad)")
            }
            // Across the 180th meridian (west above east): the world but a strip, so all of BART.
            let wrapped = try server.request("/v1/network?bbox=170,-90,169,90")
            #expect(wrapped.status == 200 && (wrapped.json?["features"] as? [Any])?.count == features.count)
            // South above north: nothing (the stops' point list empty).
            let none = try server.request("/v1/network?bbox=-123,38,-122,37")
            #expect((none.json?["features"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("lang and Accept-Language: the same answer, its words in the language asked; refusals too; Content-Language says which")
    func languages() throws {
        try Self.withServer { server, v in
            let plan = "/v1/plan?from=37.8044,-122.2712&to=37.7700,-122.4180&time=2018-06-05T08:30:00"
            let en = try server.request(plan)
            let zh = try server.request(plan + "&lang=zh-Hans")
            let header = try server.request(plan, headers: ["Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"])
            let weighted = try server.request(plan, headers: ["Accept-Language": "fr, en;q=0.9, zh;q=0.5"])
            for r in [en, zh, header, weighted] { #expect(r.status == 200); expectConforms(v, "/v1/plan", r) }
            #expect(en.headers["content-language"] == "en" && zh.headers["content-language"] == "zh-Hans")
            #expect(header.headers["content-language"] == "zh-Hans" && weighted.headers["content-language"] == "en")
            // The same trips: only the words differ.
            func strip(_ r: ServerProcess.Reply) -> String {
                r.text.replacingOccurrences(of: #""(instruction|message)":"[^"]*""#, with: "", options: .regularExpression)
            }
            #expect(strip(en) == strip(zh) && zh.text == header.text && en.text == weighted.text)
            let legs = ((zh.json?["itineraries"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]]) ?? []
            let chinese = legs.compactMap { $0["instruction"] as? String }
            #expect(!chinese.isEmpty && chinese.allSatisfy { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }, "\(chinese)")
            #expect(chinese.first?.hasPrefix("步行 ") == true, "\(chinese)")
            // A refusal in Chinese, its code and details as in English.
            let far = "/v1/plan?from=37.8044,-122.2712&to=48.8566,2.3522&time=2018-06-05T08:30:00"
            let refusedEn = try server.request(far), refusedZh = try server.request(far + "&lang=zh")
            #expect(refusedEn.errorCode == "OUTSIDE_COVERAGE" && refusedZh.errorCode == "OUTSIDE_COVERAGE")
            #expect(NSDictionary(dictionary: refusedEn.errorDetails ?? [:]) == NSDictionary(dictionary: refusedZh.errorDetails ?? [:]))
            let message = (refusedZh.json?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("终点不在本服务覆盖的区域内") && message.contains("bart-2018"), "\(message)")
            expectConforms(v, "/v1/plan", refusedZh)
            // A language not offered, asked for by name: refused, plainly; by a browser: English.
            let fr = try server.request(plan + "&lang=fr")
            #expect(fr.status == 400 && fr.errorCode == "BAD_PARAMETER")
            #expect(try server.request(plan, headers: ["Accept-Language": "fr-FR"]).headers["content-language"] == "en")
        }
    }
}
