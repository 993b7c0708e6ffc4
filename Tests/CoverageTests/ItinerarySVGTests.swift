import Coverage
import FeedNetwork
import Foundation
import Geo
import GTFS
import Planner
import PlanText
import Testing
import Timetable
import TransitModel
import TransitTesting
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG picture of one planned trip: well-formed XML with the legs in their colours in
/// order, the pins, the grey network, a legend with every step, a scale bar; rendered to
/// PNG by rsvg-convert, and the PNG decoded to see that the colours really show. The
/// picture is left in /tmp for looking at: /tmp/itinerary-bydgoszcz.png (and .svg).
@Suite(.serialized) struct ItinerarySVGTests {
    // Where the shared feeds and rsvg-convert are: as for the coverage map.
    static var sharedGTFS: String { CoverageSVGTests.sharedGTFS }
    static let rsvgConvert = CoverageSVGTests.rsvgConvert

    // MARK: The trip

    struct Trip: Sendable {
        var timetable: TransitNetwork
        var itinerary: Itinerary
        var map: ItineraryMap
        var steps: [String]
        var title: String
    }

    /// Dworzec Główny → Rondo Jagiellonów in Bydgoszcz on Monday 2020-05-04 08:30, planned
    /// once for all tests; nil when the shared feed is missing.
    static let planned: Result<Trip?, any Error> = Result {
        let path = sharedGTFS + "/bydgoszcz-2020.zip"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let network = try TimetableBuilder.build(try SnapshotSink.load(path: path, feedId: "bydgoszcz-2020").0)
        let planner = JourneyPlanner(network: network)
        let answer = try planner.answer(PlanQuery(from: .coordinate(Coordinate(latitude: 53.1347, longitude: 17.9927)),
                                                  to: .coordinate(Coordinate(latitude: 53.1226, longitude: 18.0072)),
                                                  time: .local(year: 2020, month: 5, day: 4, hour: 8, minute: 30, second: 0))).get()
        // The recommended option, unless it only walks: the picture is about rides.
        let option = answer.options[answer.recommended].itinerary.summary.rides > 0 ? answer.options[answer.recommended]
            : answer.options.first { $0.itinerary.summary.rides > 0 } ?? answer.options[answer.recommended]
        let itinerary = option.itinerary
        return Trip(timetable: network, itinerary: itinerary, map: ItineraryMap(itinerary), steps: itinerary.legs.map(\.instruction),
                    title: "Dworzec Główny → Rondo Jagiellonów, 2020-05-04 08:30")
    }

    static func trip() throws -> Trip? {
        guard let trip = try planned.get() else {
            Issue.record("\(sharedGTFS)/bydgoszcz-2020.zip is missing: set TRANSIT_SHARED_DATA to the shared data folder")
            return nil
        }
        return trip
    }

    // MARK: Reading the document

    /// The document's elements as the coverage map's tests read them.
    typealias Element = CoverageSVGTests.Element

    static func parse(_ svg: String) -> (elements: [Element], error: String?) { CoverageSVGTests.parse(svg) }

    static func check(_ svg: String, _ trip: Trip, title: String, label: String) -> [Element] {
        let (elements, error) = parse(svg)
        #expect(error == nil, "\(label): the SVG is not well-formed XML: \(error ?? "")")
        #expect(elements.first?.name == "svg", "\(label): the root is \(elements.first?.name ?? "nothing")")
        let legs = trip.itinerary.legs

        // One path per leg, in leg order, in the leg's colour; rides 6 px, walks dashed.
        let lines = trip.map.features.filter { if case .lineString = $0.geometry { return true } else { return false } }
        let paths = elements.filter { $0.name == "path" && $0.inside("legs") }
        #expect(paths.count == legs.count, "\(label): \(paths.count) leg paths for \(legs.count) legs")
        #expect(paths.map { $0.attributes["data-leg"] } == legs.indices.map { String($0) }, "\(label): legs out of order")
        #expect(paths.map { $0.attributes["stroke"]?.lowercased() } == lines.map { $0.color.lowercased() },
                "\(label): leg colours \(paths.map { $0.attributes["stroke"] ?? "" }) for \(lines.map(\.color))")
        for (path, leg) in zip(paths, legs) {
            #expect(path.attributes["d"]?.hasPrefix("M") == true, "\(label): leg \(path.attributes["data-leg"] ?? "") has no line")
            if leg.mode == .walk {
                #expect(path.attributes["stroke-dasharray"] != nil, "\(label): a walk is not dashed")
            } else {
                #expect(path.number("stroke-width") ?? 0 >= 5, "\(label): a ride is thin")
            }
        }

        // Pins: one green start, one red destination, a board and an alight per ride.
        let pins = elements.filter { $0.inside("pins") && $0.attributes["data-role"] != nil }
        func role(_ r: String) -> [Element] { pins.filter { $0.attributes["data-role"] == r } }
        let rides = legs.filter { $0.ride != nil }.count
        #expect(role("start").count == 1 && role("start").first?.attributes["fill"]?.uppercased() == ItineraryMap.startColor,
                "\(label): start pins \(role("start").map(\.attributes))")
        #expect(role("destination").count == 1
                && role("destination").first?.attributes["fill"]?.uppercased() == ItineraryMap.destinationColor,
                "\(label): destination pins \(role("destination").map(\.attributes))")
        #expect(role("board").count == rides && role("alight").count == rides, "\(label): \(role("board").count) boardings, \(rides) rides")
        let lastLeg = elements.lastIndex { $0.inside("legs") } ?? 0
        #expect(pins.allSatisfy { p in elements.firstIndex { $0.attributes == p.attributes }! > lastLeg },
                "\(label): a pin is drawn under the legs")
        let pinLabels = elements.filter { $0.inside("pins") && $0.name == "text" }.map(\.text)
        #expect(pinLabels.sorted() == ["Destination", "Start"], "\(label): pin labels \(pinLabels)")

        // Title, scale bar.
        #expect(elements.first { $0.attributes["id"] == "title" }?.text == title, "\(label): title")
        let scale = elements.filter { $0.name == "text" && $0.inside("scale") }.map(\.text)
        #expect(scale.count == 1 && scale.allSatisfy { $0.hasSuffix(" m") || $0.hasSuffix(" km") }, "\(label): scale \(scale)")

        // Legend: every step, numbered, and the pins said in words.
        let legendTexts = elements.filter { $0.name == "text" && $0.inside("legend") }.map(\.text)
        for (i, step) in trip.steps.enumerated() {
            #expect(legendTexts.contains(step), "\(label): step \(i + 1) not in the legend: \(step)")
            #expect(legendTexts.contains("\(i + 1)."), "\(label): no number \(i + 1) in the legend")
        }
        #expect(legendTexts.contains("Start") && legendTexts.contains("Destination") && legendTexts.contains("Walk"),
                "\(label): the key does not name the pins: \(legendTexts)")
        let swatches = elements.filter { $0.name == "path" && $0.inside("legend") && $0.ancestors.last == "legend" }
        #expect(swatches.count >= legs.count, "\(label): \(swatches.count) swatches")

        // The legend lies below the map, inside the picture.
        let frame = elements.first { $0.attributes["id"] == "frame" }
        let frameBottom = (frame?.number("y") ?? 0) + (frame?.number("height") ?? .infinity)
        let height = elements.first?.number("height") ?? 0
        let legendYs = elements.filter { $0.inside("legend") && $0.name != "tspan" }.compactMap { $0.number("y") ?? $0.number("cy") }
        #expect(!legendYs.isEmpty && legendYs.allSatisfy { $0 > frameBottom && $0 < height - 5 },
                "\(label): the legend overlaps the map or leaves the picture (\(legendYs.min() ?? 0)…\(legendYs.max() ?? 0), height \(height))")
        let lastLine = legendBaselines(elements).last ?? 0
        #expect(lastLine < height - 5, "\(label): the last step line at \(lastLine) leaves the picture of height \(height)")
        return elements
    }

    /// The baseline of each legend line, wrapped lines included.
    static func legendBaselines(_ elements: [Element]) -> [Double] {
        var ys: [Double] = []
        var y = 0.0
        for e in elements where e.inside("legend") && (e.name == "text" || e.name == "tspan") {
            if e.name == "text" { y = e.number("y") ?? y } else { y += e.number("dy") ?? 0 }
            ys.append(y)
        }
        return ys
    }

    /// Renders to PNG with rsvg-convert, checks it, copies it (and the SVG) to `copy`, and
    /// returns how many pixels are near each of `colors` (see `countPixels`).
    static func renderPNG(_ svg: String, name: String, copy: String, colors: [(String, tolerance: Int)]) throws -> [String: Int] {
        guard FileManager.default.isExecutableFile(atPath: rsvgConvert) else {
            Issue.record("\(rsvgConvert) is missing: run Scripts/setup.sh (it installs librsvg2-bin)")
            return [:]
        }
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "itinerary-svg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let svgURL = dir.appendingPathComponent(name + ".svg"), pngURL = dir.appendingPathComponent(name + ".png")
        try Data(svg.utf8).write(to: svgURL)
        let result = try ProcessRunner.run(executable: rsvgConvert, ["--format=png", "--output", pngURL.path, svgURL.path], timeout: 120)
        #expect(result.status == 0, "rsvg-convert failed: \(result.stderr)")
        #expect(result.stderr.isEmpty, "rsvg-convert warned: \(result.stderr)")
        let png = try Data(contentsOf: pngURL)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name).png is not a PNG")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(at: pngURL, to: URL(fileURLWithPath: copy))
        try? Data(svg.utf8).write(to: URL(fileURLWithPath: copy).deletingPathExtension().appendingPathExtension("svg"))
        print("\(name): SVG \(svg.utf8.count) bytes, PNG \(png.count) bytes → \(copy)")
        return try countPixels(pngURL, colors: colors, in: dir)
    }

    /// Decodes the PNG (8-bit RGB or RGBA, not interlaced, as rsvg-convert writes) with a
    /// small Python script using only its standard library, and counts the pixels within
    /// each colour's tolerance in every channel (by lowercase `#rrggbb`). A tight one for
    /// greys: the edges of black text on white are grey too.
    static func countPixels(_ png: URL, colors: [(String, tolerance: Int)], in dir: URL) throws -> [String: Int] {
        let python: String
        do { python = try ProcessRunner.findTool("python3") } catch {
            Issue.record("python3 is missing: the PNG's colours cannot be checked")
            return [:]
        }
        let script = dir.appendingPathComponent("count.py")
        try Data(Self.pngScript.utf8).write(to: script)
        let result = try ProcessRunner.run(executable: python, [script.path, png.path] + colors.map { "\($0.0.lowercased())/\($0.tolerance)" }, timeout: 300)
        #expect(result.status == 0, "decoding the PNG failed: \(result.stderr)")
        var counts: [String: Int] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { counts[String(parts[0]).lowercased()] = n }
        }
        return counts
    }

    static let pngScript = """
        import struct, sys, zlib
        from collections import Counter
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            pos += 12 + n
            if kind == b'IHDR':
                w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            elif kind == b'IDAT':
                idat += body
            elif kind == b'IEND':
                break
        assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        bpp = 4 if ctype == 6 else 3
        raw, stride = zlib.decompress(idat), w * bpp
        prev, colors, i = bytearray(stride), Counter(), 0
        for _ in range(h):
            f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            if f == 1:
                for x in range(bpp, stride): line[x] = (line[x] + line[x - bpp]) & 255
            elif f == 2:
                for x in range(stride): line[x] = (line[x] + prev[x]) & 255
            elif f == 3:
                for x in range(stride): line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
            elif f == 4:
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0
                    b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            colors.update(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
            prev = line
        for arg in sys.argv[2:]:
            hexcolor, tol = arg.split('/')[0], int(arg.split('/')[1])
            r, g, b = (int(hexcolor[k:k + 2], 16) for k in (1, 3, 5))
            n = sum(c for (pr, pg, pb), c in colors.items() if abs(pr - r) <= tol and abs(pg - g) <= tol and abs(pb - b) <= tol)
            print(hexcolor, n)
        """

    // MARK: Tests

    @Test("bydgoszcz-2020 (shared): legs in order and colour, pins, grey network, legend; PNG shows the colours")
    func bydgoszcz() throws {
        guard let trip = try Self.trip() else { return }
        let rides = trip.itinerary.legs.filter { $0.ride != nil }
        try #require(!rides.isEmpty, "the trip has no ride: \(trip.steps)")
        let svg = ItinerarySVG.render(trip.map, steps: trip.steps, network: trip.timetable, title: trip.title)
        let elements = Self.check(svg, trip, title: trip.title, label: "bydgoszcz")
        #expect(svg.utf8.count < 1_500_000, "\(svg.utf8.count) bytes")

        // The network: many light grey lines and stop dots, under the legs.
        let network = elements.first { $0.attributes["id"] == "network" }
        #expect(network?.attributes["clip-path"] != nil, "the network is not clipped to the frame")
        let routes = elements.filter { $0.name == "path" && $0.inside("network") }
        let stops = elements.filter { $0.name == "circle" && $0.inside("network") }
        #expect(routes.count > 20 && stops.count > 50, "\(routes.count) network lines, \(stops.count) stops")
        let grey = elements.first { $0.attributes["id"] == "network-routes" }?.attributes["stroke"] ?? ""
        let rgb = Int(grey.dropFirst(), radix: 16).map { [$0 >> 16 & 255, $0 >> 8 & 255, $0 & 255] } ?? []
        #expect(rgb.count == 3 && rgb.allSatisfy { $0 > 170 } && (rgb.max()! - rgb.min()!) < 30, "the network is \(grey), not light grey")
        let firstLeg = elements.firstIndex { $0.inside("legs") } ?? 0
        #expect(elements.lastIndex { $0.inside("network") } ?? 0 < firstLeg, "the network is drawn over the legs")

        // The picture: green start, red destination, the ride's route colour, grey network.
        let rideColor = trip.map.features.first { $0.role == "leg" && $0.mode != .walk }!.color.lowercased()
        let green = ItineraryMap.startColor.lowercased(), red = ItineraryMap.destinationColor.lowercased()
        let counts = try Self.renderPNG(svg, name: "itinerary-bydgoszcz", copy: "/tmp/itinerary-bydgoszcz.png",
                                        colors: [(green, 16), (red, 16), (rideColor, 16), (ItinerarySVG.networkColor, 4)])
        print("pixels: \(counts)")
        #expect(counts[green, default: 0] > 100, "green start pin: \(counts)")
        #expect(counts[red, default: 0] > 100, "red destination pin: \(counts)")
        #expect(counts[rideColor, default: 0] > 300, "ride colour \(rideColor): \(counts)")
        #expect(counts[ItinerarySVG.networkColor, default: 0] > 2000, "grey network: \(counts)")
    }

    @Test("no timetable: everything but the network; names escaped")
    func withoutNetwork() throws {
        guard let trip = try Self.trip() else { return }
        let title = "Dworzec Główny & \"Rondo\" <Jagiellonów> ]]> \u{1}"
        let svg = ItinerarySVG.render(trip.map, steps: trip.steps, network: nil, title: title, width: 700)
        let elements = Self.check(svg, trip, title: "Dworzec Główny & \"Rondo\" <Jagiellonów> ]]> ", label: "no network")
        #expect(!elements.contains { $0.attributes["id"] == "network" || $0.inside("network") }, "a network without a timetable")
        #expect(svg.contains("width=\"700\""))
        #expect(svg.utf8.count < 60_000, "\(svg.utf8.count) bytes without the network")
        let counts = try Self.renderPNG(svg, name: "itinerary-bydgoszcz-plain", copy: "/tmp/itinerary-bydgoszcz-plain.png",
                                        colors: [(ItineraryMap.startColor, 16), (ItineraryMap.destinationColor, 16), (ItinerarySVG.networkColor, 4)])
        #expect(counts[ItineraryMap.startColor.lowercased(), default: 0] > 100, "green start pin: \(counts)")
        #expect(counts[ItineraryMap.destinationColor.lowercased(), default: 0] > 100, "red destination pin: \(counts)")
        #expect(counts[ItinerarySVG.networkColor, default: 0] < 100, "grey network drawn anyway: \(counts)")
    }
}

extension CoverageSVGTests.Element {
    func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
}

/// The title whole and light route colours visible (issue 19, "Interfaces").
extension ItinerarySVGTests {
    @Test("a long title is never cut: smaller type, then several lines, all of it; the map starts below it")
    func longTitle() throws {
        guard let trip = try Self.trip() else { return }
        let title = "Politechnika Bydgoska, Wydział Telekomunikacji, Informatyki i Elektrotechniki (Kaliskiego) → "
            + "Rondo Jagiellonów, leave at 08:30 on Monday 2020-05-04 (Europe/Warsaw)"
        for width in [1000, 700, 400] {
            let svg = ItinerarySVG.render(trip.map, steps: trip.steps, network: nil, title: title, width: width)
            let elements = Self.check(svg, trip, title: title, label: "long title at \(width)")
            let node = try #require(elements.first { $0.attributes["id"] == "title" })
            #expect(!node.text.contains("…"), "the title is cut at \(width): \(node.text)")
            let size = try #require(node.number("font-size"))
            #expect(size >= 14, "type too small to read at \(width): \(size)")
            let lines = elements.filter { $0.name == "tspan" && $0.inside("title") }
            let mapWidth = Double(width) - 40
            for line in lines.isEmpty ? [node] : lines {
                let w = CoverageSVG.textWidth(line.text.trimmingCharacters(in: .whitespaces), size: size, bold: true)
                #expect(w <= mapWidth * 1.1, "a title line wider than the map at \(width): \(w) > \(mapWidth): \(line.text)")
            }
            // The frame (the map) starts below the last line of the title.
            let frame = try #require(elements.first { $0.attributes["id"] == "frame" })
            let lastBaseline = 28 + Double(max(0, lines.count - 1)) * (size * 1.3).rounded()
            #expect(try #require(frame.number("y")) >= lastBaseline + 8, "the map covers the title at \(width)")
            if width == 400 { #expect(lines.count >= 3, "\(lines.count) lines at 400 px") }
        }
        // A title that fits stays one line at 18 px, as before.
        let short = ItinerarySVG.render(trip.map, steps: trip.steps, network: nil, title: trip.title)
        let shortElements = Self.parse(short).elements
        let node = shortElements.first { $0.attributes["id"] == "title" }
        #expect(node?.number("font-size") == 18 && node?.text == trip.title)
        #expect(!shortElements.contains { $0.name == "tspan" && $0.inside("title") })
    }

    @Test("light route colours (contrast under 3:1 on white) get a dark casing; others keep the white one")
    func lightColoursCased() throws {
        guard let trip = try Self.trip() else { return }
        // WCAG contrast against white: yellow and pale lines under 3:1, the usual dark ones over.
        for light in ["#FFFF00", "#FFFF33", "#F6EB14", "#C0FFC0", "#D3D3D3", "#FFD700"] {
            #expect(ItinerarySVG.needsDarkCasing(light), "\(light) is light")
        }
        for dark in ["#0033A0", "#E30613", "#009A44", "#222222", "#808080"] {
            #expect(!ItinerarySVG.needsDarkCasing(dark), "\(dark) is dark enough")
        }
        var yellow = trip.map
        let ride = try #require(yellow.features.firstIndex { $0.role == "leg" && $0.mode != .walk })
        yellow.features[ride].color = "#FFFF00"
        let legIndex = yellow.features[ride].legIndex
        let svg = ItinerarySVG.render(yellow, steps: trip.steps, network: trip.timetable, title: trip.title)
        let elements = Self.parse(svg).elements
        let casings = elements.filter { $0.name == "path" && $0.inside("legs-casing") }
        let legs = elements.filter { $0.name == "path" && $0.inside("legs") }
        try #require(casings.count == legs.count)
        for (casing, leg) in zip(casings, legs) {
            let isYellow = leg.attributes["data-leg"] == String(legIndex) && leg.attributes["data-mode"] != "walk"
            #expect((casing.attributes["stroke"] == ItinerarySVG.darkCasing) == isYellow,
                    "leg \(leg.attributes["data-leg"] ?? "?") (\(leg.attributes["stroke"] ?? "")): casing \(casing.attributes["stroke"] ?? "white")")
        }
        // The original colour keeps its white casing.
        let plain = ItinerarySVG.render(trip.map, steps: trip.steps, network: trip.timetable, title: trip.title)
        #expect(!plain.contains("data-casing=\"dark\"") || ItinerarySVG.needsDarkCasing(trip.map.features[ride].color))
        // On the picture: the dark casing shows beside the yellow.
        let counts = try Self.renderPNG(svg, name: "itinerary-yellow", copy: "/tmp/itinerary-yellow.png",
                                        colors: [("#ffff00", 16), (ItinerarySVG.darkCasing.lowercased(), 12)])
        #expect(counts["#ffff00", default: 0] > 300, "yellow line: \(counts)")
        #expect(counts[ItinerarySVG.darkCasing.lowercased(), default: 0] > 200, "dark casing: \(counts)")
    }
}
