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
/// one MultiPoint of the stops with service; within a box when one is given (the page asks
/// for what it shows: a whole country's network is not drawn at once). The segments are
/// gathered once per timetable (`ServedTimetable.networkMap`).
public struct NetworkMap: Sendable {
    struct Route: Sendable {
        let properties: [UInt8]
        /// lon, lat, lon, lat of each segment.
        let segments: [Double]
    }
    let routes: [Route]
    /// lon, lat of each stop with service.
    let stops: [Double]

    init(_ served: ServedTimetable) {
        let network = served.planner.network, tt = network.timetable, s = network.snapshot
        var segments: [Int32: Set<UInt64>] = [:]
        for r in 0..<tt.routeCount {
            let source = tt.routeSourceRoute[r].raw
            var previous: Int32?
            for stop in tt.stops(onRoute: RouteIndex(raw: Int32(r))) {
                let a = stop.raw
                if let p = previous, p != a {
                    segments[source, default: []].insert(UInt64(UInt32(min(p, a))) << 32 | UInt64(UInt32(max(p, a))))
                }
                previous = a
            }
        }
        func lonLat(_ stop: Int) -> (Double, Double) {
            ((tt.stopLongitude[stop] * 1e5).rounded() / 1e5, (tt.stopLatitude[stop] * 1e5).rounded() / 1e5)
        }
        routes = segments.sorted { $0.key < $1.key }.map { source, set in
            let route = s.routes[Int(source)]
            var w = JSONWriter(capacity: 256)
            w.beginObject()
            w.field("color", "#" + (route.color.flatMap { $0.count == 6 ? $0 : nil } ?? "1565C0"))
            w.field("feed", s.feedIds[Int(route.feed)])
            w.field("mode", LegMode(routeType: Int(route.type)).rawValue)
            w.field("name", route.shortName.flatMap { $0.isEmpty ? nil : $0 } ?? route.longName ?? route.routeId)
            w.field("role", "route")
            w.endObject()
            var coordinates: [Double] = []
            for seg in set.sorted() {
                let a = lonLat(Int(seg >> 32)), b = lonLat(Int(seg & 0xFFFF_FFFF))
                coordinates += [a.0, a.1, b.0, b.1]
            }
            return Route(properties: w.bytes, segments: coordinates)
        }
        let served = tt.stopsWithService()
        var stops: [Double] = []
        for stop in 0..<tt.stopCount where served[stop] && tt.stopBoardable[stop] {
            let p = lonLat(stop)
            stops += [p.0, p.1]
        }
        self.stops = stops
    }

    /// West, south, east, north.
    public typealias Box = (west: Double, south: Double, east: Double, north: Double)

    /// The GeoJSON of what lies in `box` (a segment when its own box meets it), all without one.
    func geoJSON(in box: Box?) -> [UInt8] {
        // West above east: the box crosses the 180th meridian (two boxes, each side of it).
        let boxes: [Box] = box.map { b in b.west <= b.east ? [b] : [(b.west, b.south, 180, b.north), (-180, b.south, b.east, b.north)] } ?? []
        func inside(_ lon: Double, _ lat: Double) -> Bool {
            box == nil || boxes.contains { lon >= $0.west && lon <= $0.east && lat >= $0.south && lat <= $0.north }
        }
        func meets(_ c: ArraySlice<Double>) -> Bool {
            let i = c.startIndex
            return box == nil || boxes.contains { b in
                max(c[i], c[i + 2]) >= b.west && min(c[i], c[i + 2]) <= b.east && max(c[i + 1], c[i + 3]) >= b.south && min(c[i + 1], c[i + 3]) <= b.north
            }
        }
        var w = JSONWriter(capacity: 1 << 16)
        w.beginObject()
        w.key("features"); w.beginArray()
        for route in routes {
            var any = false
            for k in stride(from: 0, to: route.segments.count, by: 4) where meets(route.segments[k..<k + 4]) {
                if !any {
                    any = true
                    w.beginObject()
                    w.key("geometry"); w.beginObject()
                    w.key("coordinates"); w.beginArray()
                }
                w.beginArray(); w.pair(route.segments[k], route.segments[k + 1]); w.pair(route.segments[k + 2], route.segments[k + 3]); w.endArray()
            }
            guard any else { continue }
            w.endArray()
            w.field("type", "MultiLineString")
            w.endObject()
            w.key("properties"); w.raw(route.properties)
            w.field("type", "Feature")
            w.endObject()
        }
        w.beginObject()
        w.key("geometry"); w.beginObject()
        w.key("coordinates"); w.beginArray()
        for k in stride(from: 0, to: stops.count, by: 2) where inside(stops[k], stops[k + 1]) { w.pair(stops[k], stops[k + 1]) }
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
