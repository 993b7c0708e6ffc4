import Crypto
import Foundation
import Hummingbird
import NIOCore
import PlanJSON
import Synchronization
import Timetable
import TransitModel

/// The trip planner page (`/`): its own files (`Resources/page`, plain modules, no build
/// step), Leaflet from Debian's `libjs-leaflet` (no CDN: a deployment may have no
/// internet), the catalogue's page messages (`/page/messages.json`), its settings
/// (`/page/config.json`), and the network drawn as the map's background (`/v1/network`).
///
/// Cache: the page's files and Leaflet's carry an ETag (a hash of their bytes) and are
/// revalidated (`no-cache`: a 304 costs a round trip, never a stale page after an
/// upgrade); Leaflet's, which change only with the Debian package, are kept a day.
public struct TripPage: Sendable {
    /// A file as served: its bytes, type and ETag.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String
        let cacheControl: String

        init(_ bytes: [UInt8], contentType: String, cacheControl: String) {
            self.bytes = bytes; self.contentType = contentType; self.cacheControl = cacheControl
            etag = "\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        }
    }

    /// The page's files by name (`index.html`, `app.js`, …), read once at start.
    let files: [String: File]
    /// Leaflet's files by path under its folder (`leaflet.js`, `images/marker-icon.png`); empty when not installed.
    let leaflet: [String: File]
    /// Where Leaflet was looked for, for the error when it is missing.
    public let leafletDirectory: String
    /// `--tiles`: a raster tile URL template (`https://tile.example/{z}/{x}/{y}.png`), nil: none.
    public let tiles: String?
    public let tilesAttribution: String?

    public static let defaultLeafletDirectory = "/usr/share/javascript/leaflet"

    public init(leafletDirectory: String = TripPage.defaultLeafletDirectory, tiles: String? = nil, tilesAttribution: String? = nil) {
        self.leafletDirectory = leafletDirectory; self.tiles = tiles; self.tilesAttribution = tilesAttribution
        var files: [String: File] = [:]
        if let dir = Bundle.module.url(forResource: "page", withExtension: nil),
           let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) {
            for name in names {
                guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else { continue }
                files[name] = File(Array(data), contentType: Self.type(of: name), cacheControl: "no-cache")
            }
        }
        precondition(files["index.html"] != nil, "Server's resource folder page/ is missing from \(Bundle.module.bundlePath)")
        self.files = files
        var leaflet: [String: File] = [:]
        for name in ["leaflet.js", "leaflet.css", "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png",
                     "images/layers.png", "images/layers-2x.png"] {
            guard let data = FileManager.default.contents(atPath: leafletDirectory + "/" + name) else { continue }
            leaflet[name] = File(Array(data), contentType: Self.type(of: name), cacheControl: "public, max-age=86400")
        }
        self.leaflet = leaflet
    }

    /// Whether Leaflet was found (the page says plainly when the map cannot be drawn).
    public var hasLeaflet: Bool { leaflet["leaflet.js"] != nil && leaflet["leaflet.css"] != nil }

    /// The page's own files together, in bytes (the README's "under 200 KB before Leaflet").
    public var pageBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    static func type(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }

    func response(_ file: File, _ request: Request) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = file.cacheControl
        headers[.eTag] = file.etag
        headers[.xContentTypeOptions] = "nosniff"
        if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    func page(_ name: String, _ request: Request) throws(APIError) -> Response {
        guard let file = files[name] else { throw APIError(.notFound, "No such resource: the page's files are under /page/.") }
        return response(file, request)
    }

    func leafletFile(_ path: String, _ request: Request) throws(APIError) -> Response {
        guard let file = leaflet[path] else {
            throw APIError(.notFound, hasLeaflet ? "No such resource under /leaflet/."
                           : "Leaflet is not installed at \(leafletDirectory) (Debian: apt-get install libjs-leaflet), so the page has no map.")
        }
        return response(file, request)
    }

    /// The catalogue's messages the page shows, in `language`.
    static func messages(_ language: Language) -> [String: Any] {
        var m: [String: Any] = [:]
        for (k, v) in Catalogue.messages(language, prefixes: ["page.", "label.", "mode.", "words.", "day.", "dayShort.", "time.", "text."]) { m[k] = v }
        return ["language": language.rawValue, "messages": m]
    }

    /// What the page needs to know of this server: languages, tiles, whether Leaflet is here.
    func config() -> [String: Any] {
        var c: [String: Any] = ["languages": Language.allCases.map { ["tag": $0.rawValue, "name": $0.name] }, "leaflet": hasLeaflet]
        if let tiles { c["tiles"] = tiles; c["tilesAttribution"] = tilesAttribution ?? "" }
        return c
    }
}

/// The network as the page's background: one MultiLineString per route (the segments
/// between consecutive stops of its stop patterns, each once, in the route's colour) and
/// one MultiPoint of the stops with service. Made once per timetable.
enum NetworkMapJSON {
    static func geoJSON(_ served: ServedTimetable) -> [UInt8] {
        let network = served.planner.network, tt = network.timetable, s = network.snapshot
        var segments: [Int32: Set<UInt64>] = [:]
        for r in 0..<tt.routeCount {
            let stops = tt.stops(onRoute: RouteIndex(raw: Int32(r)))
            let source = tt.routeSourceRoute[r].raw
            var previous: Int32?
            for stop in stops {
                let a = stop.raw
                if let p = previous, p != a {
                    let lo = UInt64(UInt32(min(p, a))), hi = UInt64(UInt32(max(p, a)))
                    segments[source, default: []].insert(lo << 32 | hi)
                }
                previous = a
            }
        }
        func point(_ stop: Int, _ w: inout JSONWriter) {
            w.pair((tt.stopLongitude[stop] * 1e5).rounded() / 1e5, (tt.stopLatitude[stop] * 1e5).rounded() / 1e5)
        }
        var w = JSONWriter(capacity: 1 << 20)
        w.beginObject()
        w.key("features"); w.beginArray()
        for (source, set) in segments.sorted(by: { $0.key < $1.key }) {
            let route = s.routes[Int(source)]
            w.beginObject()
            w.key("geometry"); w.beginObject()
            w.key("coordinates"); w.beginArray()
            for seg in set.sorted() {
                w.beginArray(); point(Int(seg >> 32), &w); point(Int(seg & 0xFFFF_FFFF), &w); w.endArray()
            }
            w.endArray()
            w.field("type", "MultiLineString")
            w.endObject()
            w.key("properties"); w.beginObject()
            w.field("color", "#" + (route.color.flatMap { $0.count == 6 ? $0 : nil } ?? "1565C0"))
            w.field("feed", s.feedIds[Int(route.feed)])
            w.field("mode", LegMode(routeType: Int(route.type)).rawValue)
            w.field("name", route.shortName.flatMap { $0.isEmpty ? nil : $0 } ?? route.longName ?? route.routeId)
            w.field("role", "route")
            w.endObject()
            w.field("type", "Feature")
            w.endObject()
        }
        let served = tt.stopsWithService()
        w.beginObject()
        w.key("geometry"); w.beginObject()
        w.key("coordinates"); w.beginArray()
        for stop in 0..<tt.stopCount where served[stop] && tt.stopBoardable[stop] { point(stop, &w) }
        w.endArray()
        w.field("type", "MultiPoint")
        w.endObject()
        w.key("properties"); w.beginObject(); w.field("role", "stops"); w.endObject()
        w.field("type", "Feature")
        w.endObject()
        w.endArray()
        w.field("type", "FeatureCollection")
        w.endObject()
        return w.bytes
    }
}
