import Coverage
import FeedNetwork
import Foundation
import Geo
import GTFS
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG picture of coverage regions: well-formed XML with what a person expects to see
/// (exact areas filled, export outlines, a dot per served stop, route lines, a scale bar
/// and a legend), and rendered to PNG by rsvg-convert. The PNGs are also left in /tmp for
/// looking at (with the SVGs beside them): /tmp/coverage-bart.png,
/// /tmp/coverage-sacramento.png, /tmp/coverage-bart-caltrain.png.
@Suite(.serialized) struct CoverageSVGTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var sharedGTFS: String {
        ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"].map { $0 + "/gtfs" }
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data/gtfs").path
    }
    static let rsvgConvert = "/usr/bin/rsvg-convert"

    // MARK: Reading the document

    /// One element of the document: name, attributes, the ids of the enclosing elements
    /// (nearest last) and its text (with that of its children).
    struct Element {
        var name: String
        var attributes: [String: String]
        var ancestors: [String]
        var text: String
        func inside(_ id: String) -> Bool { ancestors.contains(id) }
    }

    final class Reader: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [Int] = []  // indexes of the open elements
        var error: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let ancestors = open.compactMap { elements[$0].attributes["id"] }
            elements.append(Element(name: name, attributes: attributes, ancestors: ancestors, text: ""))
            open.append(elements.count - 1)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            for i in open { elements[i].text += string }
        }
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            error = "\(parseError) at line \(parser.lineNumber), column \(parser.columnNumber)"
        }
    }

    /// The document's elements, or the parse error.
    static func parse(_ svg: String) -> (elements: [Element], error: String?) {
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        let ok = parser.parse()
        return (reader.elements, ok ? reader.error : (reader.error ?? "not well-formed: \(String(describing: parser.parserError))"))
    }

    static func load(_ paths: [(path: String, feedId: String)]) throws -> (TransitNetwork, [CoverageRegion]) {
        let parts = try paths.map { try SnapshotSink.load(path: $0.path, feedId: $0.feedId).0 }
        let snapshot = parts.count == 1 ? parts[0] : FeedSnapshot.merging(parts)
        let network = try TimetableBuilder.build(snapshot)
        return (network, try CoverageBuilder.regions(network))
    }

    /// The routes the picture should draw: each distinct first-trip shape (or stop
    /// sequence, without a shape) of a route of the regions' feeds through a served stop.
    static func expectedLines(_ network: TransitNetwork, _ regions: [CoverageRegion]) -> (count: Int, colors: Set<String>) {
        let tt = network.timetable
        let feeds = Set(regions.compactMap { r in network.snapshot.feedIds.firstIndex(of: r.feedId).map(Int32.init) })
        let served = Set(regions.flatMap(\.servedStops))
        var shapes = Set<ShapeIndex>(), sequences = Set<[StopIndex]>(), colors = Set<String>()
        for r in 0..<tt.routeCount {
            let route = network.snapshot.routes[tt.routeSourceRoute[r].index]
            let stops = Array(tt.routeStops[Int(tt.routeStopOffsets[r])..<Int(tt.routeStopOffsets[r + 1])])
            guard feeds.contains(route.feed), stops.contains(where: served.contains) else { continue }
            let shape = tt.shape(ofTrip: TripIndex(raw: tt.routeTripOffsets[r]))
            let added = if let shape, network.shapes.points(shape).count >= 2 { shapes.insert(shape).inserted } else { sequences.insert(stops).inserted }
            if added { colors.insert(route.color.map { "#" + $0.lowercased() } ?? "grey") }
        }
        return (shapes.count + sequences.count, colors)
    }

    // MARK: Checks

    /// Checks the document against the regions; returns the elements for more checks.
    @discardableResult
    static func check(_ svg: String, _ network: TransitNetwork, _ regions: [CoverageRegion], label: String) -> [Element] {
        let tt = network.timetable
        let (elements, error) = parse(svg)
        #expect(error == nil, "\(label): the SVG is not well-formed XML: \(error ?? "")")
        #expect(elements.first?.name == "svg", "\(label): the root is \(elements.first?.name ?? "nothing")")

        // Exact areas: one filled path per polygon, every ring in it, the even-odd rule.
        let exactGroup = elements.first { $0.attributes["id"] == "exact" }
        #expect(exactGroup?.attributes["fill-rule"] == "evenodd", "\(label): exact areas without fill-rule evenodd")
        let exact = elements.filter { $0.name == "path" && $0.inside("exact") }
        #expect(exact.count == regions.reduce(0) { $0 + $1.exact.count }, "\(label): \(exact.count) exact paths")
        let subpaths = exact.reduce(0) { $0 + $1.attributes["d", default: ""].filter { $0 == "M" }.count }
        #expect(subpaths == regions.reduce(0) { $0 + $1.exact.reduce(0) { $0 + $1.count } }, "\(label): \(subpaths) rings drawn")
        let regionGroups = elements.filter { $0.name == "g" && $0.attributes["class"] == "region" }
        #expect(regionGroups.count == regions.count)
        #expect(regionGroups.allSatisfy { ($0.attributes["fill-opacity"].flatMap(Double.init) ?? 1) < 0.5 },
                "\(label): exact fills are not translucent")
        #expect(Set(regionGroups.compactMap { $0.attributes["fill"] }).count == regions.count, "\(label): regions share a hue")

        // Export outlines: dashed, not filled, one path per polygon.
        let exportGroup = elements.first { $0.attributes["id"] == "export" }
        #expect(exportGroup?.attributes["fill"] == "none" && exportGroup?.attributes["stroke-dasharray"] != nil,
                "\(label): the export outline is not a dashed stroke without fill")
        let export = elements.filter { $0.name == "path" && $0.inside("export") }
        #expect(export.count == regions.reduce(0) { $0 + $1.export.count }, "\(label): \(export.count) export paths")

        // A dot per served stop.
        let stops = elements.filter { $0.name == "circle" && $0.inside("stops") }
        #expect(stops.count == regions.reduce(0) { $0 + $1.servedStops.count }, "\(label): \(stops.count) stop dots")

        // Routes: each distinct shape or stop sequence once, thin, in the routes' colours.
        let routes = elements.filter { $0.name == "path" && $0.inside("routes") }
        let expected = expectedLines(network, regions)
        #expect(routes.count == expected.count, "\(label): \(routes.count) route lines, expected \(expected.count)")
        #expect(elements.first { $0.attributes["id"] == "routes" }?.attributes["stroke-width"] == "1.5")
        let drawnColors = Set(routes.compactMap { $0.attributes["stroke"] })
        let wantedColors = Set(expected.colors.filter { $0 != "grey" })
        #expect(wantedColors.isSubset(of: drawnColors), "\(label): route colours missing: \(wantedColors.subtracting(drawnColors))")
        #expect(drawnColors.allSatisfy { $0.range(of: "^#[0-9a-f]{6}$", options: .regularExpression) != nil })

        // Scale bar: a round number of km.
        let scale = elements.filter { $0.name == "text" && $0.inside("scale") }.map(\.text)
        #expect(scale.count == 1 && scale.allSatisfy { $0.hasSuffix(" km") }, "\(label): scale \(scale)")
        if let km = scale.first.flatMap({ Double($0.dropLast(3)) }) {
            let mantissa = km / pow(10, floor(log10(km)))
            #expect([1.0, 2, 5].contains { abs(mantissa - $0) < 1e-9 }, "\(label): scale of \(km) km is not round")
        }

        // Legend: each region's feed id, name, modes and areas; the key.
        let legend = elements.filter { $0.name == "text" && $0.inside("legend") }.map(\.text).joined(separator: "\n")
        for r in regions {
            #expect(legend.contains(r.feedId) && legend.contains(String(r.name.prefix(40))), "\(label): \(r.feedId) / \(r.name) not in the legend")
            #expect(r.modes.allSatisfy { legend.contains($0.noun) }, "\(label): modes of \(r.feedId) not in the legend")
            #expect(legend.contains("exact \(String(format: "%.1f", r.exactAreaKm2)) km²") || r.exactAreaKm2 >= 1000)
        }
        for key in ["exact area", "export outline", "stop", "route"] { #expect(legend.contains(key), "\(label): no key for \(key)") }
        #expect(elements.contains { $0.attributes["id"] == "title" && $0.text.contains(regions.first?.feedId ?? "") })

        // The legend lies below the map, inside the picture.
        let frame = elements.first { $0.attributes["id"] == "frame" }
        let frameBottom = (frame?.attributes["y"].flatMap(Double.init) ?? 0) + (frame?.attributes["height"].flatMap(Double.init) ?? .infinity)
        let legendTops = elements.filter { ($0.inside("legend") || $0.inside("scale")) && $0.name != "tspan" }
            .compactMap { $0.attributes["y"].flatMap(Double.init) ?? $0.attributes["cy"].flatMap(Double.init) }
        let height = elements.first?.attributes["height"].flatMap(Double.init) ?? 0
        #expect(legendTops.allSatisfy { $0 > frameBottom && $0 < height }, "\(label): legend overlaps the map or leaves the picture")
        return elements
    }

    /// Renders to PNG with rsvg-convert into a temporary directory, checks it, and copies
    /// it to `copy` for looking at.
    static func renderPNG(_ svg: String, name: String, copy: String) throws {
        guard FileManager.default.isExecutableFile(atPath: rsvgConvert) else {
            Issue.record("\(rsvgConvert) is missing: run Scripts/setup.sh (it installs librsvg2-bin)")
            return
        }
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "coverage-svg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let svgURL = dir.appendingPathComponent(name + ".svg"), pngURL = dir.appendingPathComponent(name + ".png")
        try Data(svg.utf8).write(to: svgURL)
        let result = try ProcessRunner.run(executable: rsvgConvert, ["--format=png", "--output", pngURL.path, svgURL.path], timeout: 120)
        #expect(result.status == 0, "rsvg-convert failed: \(result.stderr)")
        let png = try Data(contentsOf: pngURL)
        #expect(png.count > 10_000, "\(name).png has only \(png.count) bytes")
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name).png is not a PNG")
        #expect(result.stderr.isEmpty, "rsvg-convert warned: \(result.stderr)")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(at: pngURL, to: URL(fileURLWithPath: copy))
        // The SVG beside it, for zooming in.
        try? Data(svg.utf8).write(to: URL(fileURLWithPath: copy).deletingPathExtension().appendingPathExtension("svg"))
        print("\(name): SVG \(svg.utf8.count) bytes, PNG \(png.count) bytes → \(copy)")
    }

    // MARK: Tests

    @Test("bart-2018: regions, outline, stops, routes, scale, legend; PNG")
    func bart() throws {
        let (network, regions) = try Self.load([(Self.root.appendingPathComponent("Data/bart-2018.zip").path, "bart-2018")])
        try #require(regions.count == 1)
        let svg = CoverageSVG.render(regions, timetable: network)
        let elements = Self.check(svg, network, regions, label: "bart-2018")
        // BART's six lines in their own colours.
        let colors = Set(elements.filter { $0.name == "path" && $0.inside("routes") }.compactMap { $0.attributes["stroke"] })
        #expect(colors.isSuperset(of: ["#ffff33", "#ff9933", "#339933", "#ff0000", "#0099cc"]), "\(colors)")
        #expect(svg.utf8.count < 1_000_000, "\(svg.utf8.count) bytes")
        try Self.renderPNG(svg, name: "coverage-bart", copy: "/tmp/coverage-bart.png")
    }

    @Test("sacramento-sacrt-2024 (shared): regions, outline, stops, routes, scale, legend; PNG under 4 MB of SVG")
    func sacramento() throws {
        let path = Self.sharedGTFS + "/sacramento-sacrt-2024.zip"
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("\(path) is missing: set TRANSIT_SHARED_DATA to the shared data folder")
            return
        }
        let (network, regions) = try Self.load([(path, "sacramento-sacrt-2024")])
        try #require(regions.count == 1)
        let svg = CoverageSVG.render(regions, timetable: network)
        Self.check(svg, network, regions, label: "sacramento")
        #expect(svg.utf8.count < 4_000_000, "\(svg.utf8.count) bytes")
        try Self.renderPNG(svg, name: "coverage-sacramento", copy: "/tmp/coverage-sacramento.png")
    }

    @Test("two feeds in one timetable: a hue each, both in the legend; PNG")
    func bartAndCaltrain() throws {
        let (network, regions) = try Self.load([(Self.root.appendingPathComponent("Data/bart-2018.zip").path, "bart-2018"),
                                           (Self.root.appendingPathComponent("Data/caltrain.zip").path, "caltrain")])
        try #require(regions.count == 2)
        let svg = CoverageSVG.render(regions, timetable: network, width: 1000)
        Self.check(svg, network, regions, label: "bart + caltrain")
        #expect(svg.contains("width=\"1000\""))
        try Self.renderPNG(svg, name: "coverage-bart-caltrain", copy: "/tmp/coverage-bart-caltrain.png")
        // A narrow picture: the scale bar moves below the key, the legend stays inside.
        Self.check(CoverageSVG.render(regions, timetable: network, width: 600), network, regions, label: "bart + caltrain, 600 px")
        // One region alone is drawn without the other's routes.
        let one = CoverageSVG.render([regions[1]], timetable: network)
        Self.check(one, network, [regions[1]], label: "caltrain alone")
    }

    @Test("names are escaped: the document stays well-formed and reads back the same name")
    func escaping() throws {
        let (network, regions) = try Self.load([(Self.root.appendingPathComponent("Data/caltrain.zip").path, "caltrain")])
        var region = try #require(regions.first)
        region.name = "Tom & Jerry's <Rail> \"Co\" ]]> \u{1}"
        let svg = CoverageSVG.render([region], timetable: network)
        let (elements, error) = Self.parse(svg)
        #expect(error == nil, "\(error ?? "")")
        let legend = elements.filter { $0.name == "text" && $0.inside("legend") }.map(\.text).joined()
        #expect(legend.contains("Tom & Jerry's <Rail> \"Co\" ]]>"), "\(legend)")
    }
}
