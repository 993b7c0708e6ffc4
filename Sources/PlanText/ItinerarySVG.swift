import Coverage
import FeedNetwork
import Foundation
import Geo
import PlanJSON
import Planner
import Timetable
import TransitModel

/// One planned trip as a static picture, an SVG "system map": the timetable's network in
/// light grey, the trip's legs over it in their colours (rides thick on a white casing,
/// walks dashed grey), white circles where the rider boards, gets off or changes, a green
/// start pin and a red destination pin (each labelled in words), a title, a scale bar and
/// a legend below the map with the numbered steps.
///
/// View: the trip's bounding box padded by a quarter of its span and at least 1 km each
/// side, widened along one axis to the frame's aspect. Projection as in `CoverageSVG`
/// (equirectangular around the middle latitude: x = lon·cos(lat0), y = −lat). Only the
/// network segments that touch the frame are written (and clipped to it), so a trip
/// across a large city stays small (bydgoszcz-2020: under 40 kB).
///
/// The document's groups, for readers and tests: `network` (grey routes and served stops;
/// absent without a timetable), `legs` (one path per leg, in leg order, `data-leg` and
/// `stroke` the leg's colour), `pins` (`data-role` start, board, alight, change,
/// destination), `title`, `scale`, `legend`.
public enum ItinerarySVG {
    /// Light grey of the network's routes (the test counts its pixels).
    public static let networkColor = "#c9ced6"
    /// The served stops' dots: a little darker, so they show on the lines.
    public static let networkStopColor = "#a3a9b1"
    static let pinOutline = "#263238"
    static let frameFill = "#fbfbfc"

    /// An SVG document picturing this trip (`steps` numbered below the map, step i being
    /// leg i) over `network` when given.
    ///
    /// `streets`: the walks along streets by leg index (`PlanAnswerText.streetWalks`); each
    /// is drawn along the path walked, marked `data-walk="streets"`, with the names of the
    /// streets it follows for long enough to carry them written along it (group
    /// `street-names`). Beeline walks are drawn as a straight dotted line, as before.
    public static func render(_ map: ItineraryMap, steps: [String], network: TransitNetwork?, title: String, width: Int = 1000,
                              streets: [Int: [AnswerDocument.WalkStep]] = [:]) -> String {
        typealias P = (x: Double, y: Double)
        let f = CoverageSVG.f, escape = CoverageSVG.escape
        let width = max(width, 400)
        let margin = 20.0
        // The title whole: smaller type when it would not fit on one line (down to 14 px),
        // then over as many lines as it needs; never cut short, since it names the places
        // and the day, which the map is of.
        let titleLines = titleLayout(title, width: Double(width) - 2 * margin)
        let titleHeight = 44.0 + Double(titleLines.lines.count - 1) * titleLines.lineHeight
        let mapLeft = margin, mapTop = titleHeight
        let mapWidth = Double(width) - 2 * margin

        // Legs and pins; colours that are not #RRGGBB (a route colour straight from a
        // feed) fall back so the document stays valid.
        var legs: [(index: Int, mode: LegMode, color: String, points: [Coordinate])] = []
        var pins: [(leg: Int, role: String, color: String, at: Coordinate)] = []
        for feature in map.features {
            switch feature.geometry {
            case .lineString(let cs):
                let fallback = feature.mode == .walk ? ItineraryMap.walkColor : ItineraryMap.defaultRideColor
                legs.append((feature.legIndex, feature.mode, hexColor(feature.color) ?? fallback, cs.filter(\.isValid)))
            case .point(let c):
                guard c.isValid else { continue }
                pins.append((feature.legIndex, feature.role, hexColor(feature.color) ?? ItineraryMap.walkColor, c))
            }
        }

        // Bounds of the trip (else of the network, else a point).
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        func include(_ c: Coordinate) {
            minLat = min(minLat, c.latitude); maxLat = max(maxLat, c.latitude)
            minLon = min(minLon, c.longitude); maxLon = max(maxLon, c.longitude)
        }
        legs.forEach { $0.points.forEach(include) }
        pins.forEach { include($0.at) }
        if !minLat.isFinite, let tt = network {
            for s in 0..<tt.timetable.stopCount { if let c = tt.coordinate(ofStop: StopIndex(s)), c.isPlausible { include(c) } }
        }
        if !minLat.isFinite { minLat = 0; maxLat = 0; minLon = 0; maxLon = 0 }

        // The view box in projected units (degrees of latitude; x = lon·k), padded, then
        // widened to the frame's aspect (itself the padded box's, kept between 3:5 and square).
        let lat0 = (minLat + maxLat) / 2
        let k = cos(lat0 * .pi / 180)
        let degreesPerKm = 1000 / (6_371_008.8 * .pi / 180)
        var x0 = minLon * k, x1 = maxLon * k, y0 = minLat, y1 = maxLat
        let padX = max((x1 - x0) * 0.25, degreesPerKm), padY = max((y1 - y0) * 0.25, degreesPerKm)
        x0 -= padX; x1 += padX; y0 -= padY; y1 += padY
        let aspect = min(max((y1 - y0) / (x1 - x0), 0.6), 1)
        let mapHeight = (mapWidth * aspect).rounded()
        let wanted = mapHeight / mapWidth
        if (y1 - y0) / (x1 - x0) < wanted {
            let grow = (x1 - x0) * wanted - (y1 - y0)
            y0 -= grow / 2; y1 += grow / 2
        } else {
            let grow = (y1 - y0) / wanted - (x1 - x0)
            x0 -= grow / 2; x1 += grow / 2
        }
        let scale = mapWidth / (x1 - x0)
        func project(_ c: Coordinate) -> P {
            (mapLeft + (c.longitude * k - x0) * scale, mapTop + (y1 - c.latitude) * scale)
        }
        let pixelsPerMeter = scale * degreesPerKm / 1000
        let mapRight = mapLeft + mapWidth, mapBottom = mapTop + mapHeight

        // Legend layout below the map: the key flowing over one or more rows, then a row
        // per step (number, swatch, the sentence wrapped to at most three lines).
        let keyItems = ["start", "destination", "stop", "walk"] + (network == nil ? [] : ["network"])
        let keyLabels = ["start": "Start", "destination": "Destination", "stop": "Board, get off or change",
                         "walk": "Walk", "network": "Other routes and stops"]
        var keyPlaces: [P] = []
        var y = mapBottom + 22
        var keyX = margin
        for item in keyItems {
            let w = 30 + CoverageSVG.textWidth(keyLabels[item]!, size: 13) + 22
            if keyX > margin && keyX + w - 22 > Double(width) - margin { keyX = margin; y += 22 }
            keyPlaces.append((keyX, y))
            keyX += w
        }
        y += 30
        let textLeft = margin + 62
        let lineHeight = 17.0
        var stepRows: [(lines: [String], y: Double)] = []
        for step in steps {
            let lines = wrap(step, width: Double(width) - margin - textLeft, size: 13, maxLines: 3)
            stepRows.append((lines, y))
            y += lineHeight * Double(lines.count) + 7
        }
        let height = Int((y + margin / 2).rounded(.up))

        var out = ""
        out.reserveCapacity(1 << 18)
        out += CoverageSVG.documentStart(width: width, height: height, clip: (mapLeft, mapTop, mapWidth, mapHeight))

        // Title: one line, or several (each a <tspan> under the first).
        if titleLines.lines.count == 1 {
            out += "<text id=\"title\" x=\"\(f(margin))\" y=\"28\" font-size=\"\(f(titleLines.size))\" font-weight=\"bold\" fill=\"#111827\">\(escape(title))</text>\n"
        } else {
            out += "<text id=\"title\" x=\"\(f(margin))\" y=\"28\" font-size=\"\(f(titleLines.size))\" font-weight=\"bold\" fill=\"#111827\">"
            for (i, line) in titleLines.lines.enumerated() {
                out += "<tspan x=\"\(f(margin))\" dy=\"\(i == 0 ? "0" : f(titleLines.lineHeight))\">\(escape(line))</tspan>"
            }
            out += "</text>\n"
        }
        out += "<rect id=\"frame\" x=\"\(f(mapLeft))\" y=\"\(f(mapTop))\" width=\"\(f(mapWidth))\" height=\"\(f(mapHeight))\" fill=\"\(frameFill)\"/>\n"

        // The network, thin and grey: each distinct shape (or stop sequence where there is
        // none) of a route with service once, only its runs of segments that touch the
        // frame; the served stops inside the frame as dots.
        if let tt = network {
            let slack = 4.0
            func touches(_ a: P, _ b: P) -> Bool {
                max(a.x, b.x) >= mapLeft - slack && min(a.x, b.x) <= mapRight + slack
                    && max(a.y, b.y) >= mapTop - slack && min(a.y, b.y) <= mapBottom + slack
            }
            let routesOn = tt.timetable.routesWithService()
            out += "<g id=\"network\" clip-path=\"url(#map-clip)\">\n"
            out += "<g id=\"network-routes\" fill=\"none\" stroke=\"\(networkColor)\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
            for (_, points) in CoverageSVG.distinctLines(tt, where: { r, _ in routesOn[r] }) {
                let projected = points.map(project)
                var d = "", run: [P] = []
                for i in projected.indices.dropFirst() {
                    if touches(projected[i - 1], projected[i]) {
                        if run.isEmpty { run.append(projected[i - 1]) }
                        run.append(projected[i])
                    } else if !run.isEmpty {
                        CoverageSVG.appendPath(&d, run, minStep: 1, closed: false)
                        run = []
                    }
                }
                CoverageSVG.appendPath(&d, run, minStep: 1, closed: false)
                if !d.isEmpty { out += "<path d=\"\(d)\"/>\n" }
            }
            out += "</g>\n"
            out += "<g id=\"network-stops\" fill=\"\(networkStopColor)\">\n"
            for (s, served) in tt.timetable.stopsWithService(routes: routesOn).enumerated() where served {
                guard let c = tt.coordinate(ofStop: StopIndex(s)), c.isPlausible else { continue }
                let p = project(c)
                guard p.x >= mapLeft && p.x <= mapRight && p.y >= mapTop && p.y <= mapBottom else { continue }
                out += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"1.8\"/>\n"
            }
            out += "</g>\n</g>\n"
        }

        // Legs: a white casing beneath each (so a ride stands out from the grey network and
        // from a line it crosses), then the lines in leg order.
        let legPaths = legs.map { legPath($0.points.map(project)) }
        out += "<g id=\"legs-casing\" fill=\"none\" stroke=\"#ffffff\" stroke-linejoin=\"round\" stroke-linecap=\"round\" clip-path=\"url(#map-clip)\">\n"
        for (leg, d) in zip(legs, legPaths) {
            // A light route colour (a yellow line) would vanish into a white casing on a
            // light map: it gets a dark one instead.
            let dark = leg.mode != .walk && needsDarkCasing(leg.color)
            out += "<path stroke-width=\"\(leg.mode == .walk ? "7" : "10")\"\(dark ? " stroke=\"\(darkCasing)\" data-casing=\"dark\"" : "") d=\"\(d)\"/>\n"
        }
        out += "</g>\n"
        out += "<g id=\"legs\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" clip-path=\"url(#map-clip)\">\n"
        for (leg, d) in zip(legs, legPaths) {
            let style = leg.mode == .walk ? "stroke-width=\"4\" stroke-dasharray=\"1 7\"" : "stroke-width=\"6\""
            let walk = leg.mode == .walk && streets[leg.index] != nil ? " data-walk=\"streets\"" : ""
            out += "<path data-leg=\"\(leg.index)\" data-mode=\"\(leg.mode.rawValue.lowercased())\"\(walk) stroke=\"\(leg.color)\" \(style) d=\"\(d)\"/>\n"
        }
        out += "</g>\n"

        // Street names along the walks: a name where its step's stretch of the path is long
        // enough on the map to carry it, once per walk, turned to run along it (never upside down).
        if !streets.isEmpty {
            out += "<g id=\"street-names\" font-size=\"10\" font-style=\"italic\" text-anchor=\"middle\" fill=\"#374151\" "
            out += "stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\" clip-path=\"url(#map-clip)\">\n"
            for leg in legs where leg.mode == .walk {
                guard let walkSteps = streets[leg.index] else { continue }
                for label in streetLabels(walkSteps, leg.points, project) {
                    out += "<text class=\"street-name\" data-leg=\"\(leg.index)\" x=\"\(f(label.x))\" y=\"\(f(label.y))\" "
                    out += "transform=\"rotate(\(f(label.angle)) \(f(label.x)) \(f(label.y)))\" dy=\"-5\">\(escape(label.name))</text>\n"
                }
            }
            out += "</g>\n"
        }

        // Leg numbers (as in the legend) halfway along each leg long enough to carry one.
        out += "<g id=\"leg-numbers\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111827\">\n"
        for leg in legs {
            guard let mid = midpoint(leg.points.map(project), minLength: 70) else { continue }
            out += "<circle cx=\"\(f(mid.x))\" cy=\"\(f(mid.y))\" r=\"9\" fill=\"#ffffff\" stroke=\"\(leg.color)\" stroke-width=\"2.5\"/>"
            out += "<text x=\"\(f(mid.x))\" y=\"\(f(mid.y + 4))\">\(leg.index + 1)</text>\n"
        }
        out += "</g>\n"

        // Pins: the start and the destination over the legs, then the stops over them (a
        // small circle where one gets off a few metres from the destination would hide
        // under the pin's head; the circle hides only a rim of it), then the pins' names
        // on top (on the left when the right would leave the frame).
        out += "<g id=\"pins\">\n"
        let ends = ["start", "destination"].flatMap { role in pins.filter { $0.role == role } }
        for pin in ends {
            out += pinMarker(at: project(pin.at), color: pin.color, attributes: "data-role=\"\(pin.role)\" data-leg=\"\(pin.leg)\"")
        }
        for pin in pins where pin.role != "start" && pin.role != "destination" {
            let p = project(pin.at)
            out += "<circle data-role=\"\(escape(pin.role))\" data-leg=\"\(pin.leg)\" cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"5\" "
            out += "fill=\"#ffffff\" stroke=\"\(pinOutline)\" stroke-width=\"2\"/>\n"
        }
        for pin in ends {
            let p = project(pin.at)
            let label = pin.role == "start" ? "Start" : "Destination"
            let right = p.x + 13 + CoverageSVG.textWidth(label, size: 13, bold: true) <= mapRight - 4
            out += "<text class=\"pin-label\" x=\"\(f(right ? p.x + 13 : p.x - 13))\" y=\"\(f(p.y - 17))\"\(right ? "" : " text-anchor=\"end\"") "
            out += "font-size=\"13\" font-weight=\"bold\" fill=\"\(darker(pin.color))\" stroke=\"#ffffff\" stroke-width=\"3\" "
            out += "stroke-linejoin=\"round\" paint-order=\"stroke\">\(label)</text>\n"
        }
        out += "</g>\n"

        // Scale bar in the lower left corner (the padding, where the trip is not), on a
        // white plate so the network does not run through it.
        let km = CoverageSVG.roundLength(mapWidth / 5 / pixelsPerMeter / 1000)
        let barLength = km * 1000 * pixelsPerMeter
        let scaleLabel = km >= 1 ? "\(CoverageSVG.lengthLabel(km)) km" : "\(Int((km * 1000).rounded())) m"
        let barLeft = mapLeft + 14, barY = mapBottom - 14
        let plateWidth = barLength + 16 + CoverageSVG.textWidth(scaleLabel, size: 12) + 16
        out += "<g id=\"scale\" font-size=\"12\" fill=\"#111827\">\n"
        out += "<rect x=\"\(f(mapLeft + 6))\" y=\"\(f(barY - 20))\" width=\"\(f(plateWidth))\" height=\"28\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n"
        out += CoverageSVG.scaleBarTicks(left: barLeft, y: barY, length: barLength)
        out += "<text x=\"\(f(barLeft + barLength + 8))\" y=\"\(f(barY + 1))\">\(scaleLabel)</text>\n"
        out += "</g>\n"

        // The frame's border over the map, so clipped lines end on it.
        out += "<rect x=\"\(f(mapLeft))\" y=\"\(f(mapTop))\" width=\"\(f(mapWidth))\" height=\"\(f(mapHeight))\" fill=\"none\" stroke=\"#cbd5e1\"/>\n"

        // Legend: the key in words (colour never says anything alone), then the steps.
        out += "<g id=\"legend\" font-size=\"13\" fill=\"#111827\">\n"
        for (item, place) in zip(keyItems, keyPlaces) {
            let (x, ky) = place
            switch item {
            case "start", "destination":
                let color = item == "start" ? ItineraryMap.startColor : ItineraryMap.destinationColor
                out += pinMarker(at: (x + 11, ky + 8), color: color, attributes: "class=\"key-\(item)\"", size: 0.55)
            case "stop":
                out += "<circle cx=\"\(f(x + 11))\" cy=\"\(f(ky))\" r=\"5\" fill=\"#ffffff\" stroke=\"\(pinOutline)\" stroke-width=\"2\"/>\n"
            case "walk":
                out += "<path d=\"M\(f(x + 1)) \(f(ky))h20\" fill=\"none\" stroke=\"\(ItineraryMap.walkColor)\" stroke-width=\"4\" stroke-linecap=\"round\" stroke-dasharray=\"1 7\"/>\n"
            default:
                out += "<path d=\"M\(f(x)) \(f(ky))h22\" fill=\"none\" stroke=\"\(networkColor)\" stroke-width=\"2\"/>"
                out += "<circle cx=\"\(f(x + 11))\" cy=\"\(f(ky))\" r=\"1.8\" fill=\"\(networkStopColor)\"/>\n"
            }
            out += "<text class=\"key\" x=\"\(f(x + 30))\" y=\"\(f(ky + 5))\">\(escape(keyLabels[item]!))</text>\n"
        }
        let legColors = Dictionary(legs.map { ($0.index, ($0.color, $0.mode)) }, uniquingKeysWith: { a, _ in a })
        for (i, row) in stepRows.enumerated() {
            let top = row.y
            out += "<g class=\"step\" data-leg=\"\(i)\">"
            out += "<text x=\"\(f(margin + 18))\" y=\"\(f(top + 4))\" text-anchor=\"end\" font-weight=\"bold\">\(i + 1).</text>"
            if case let (color, mode)? = legColors[i] {
                let style = mode == .walk ? "stroke-width=\"4\" stroke-linecap=\"round\" stroke-dasharray=\"1 7\"" : "stroke-width=\"6\""
                out += "<path d=\"M\(f(margin + 28)) \(f(top))h24\" fill=\"none\" stroke=\"\(color)\" \(style)/>"
            }
            // Each wrapped line but the last keeps its trailing space, so the text of the
            // element reads back as the sentence.
            out += "<text x=\"\(f(textLeft))\" y=\"\(f(top + 4.5))\">"
            for (j, line) in row.lines.enumerated() {
                out += "<tspan x=\"\(f(textLeft))\"\(j == 0 ? "" : " dy=\"\(f(lineHeight))\"")>\(escape(line))</tspan>"
            }
            out += "</text></g>\n"
        }
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }

    // MARK: Helpers

    /// Where the names of a walk's streets go: for each named step whose stretch of the
    /// path (from its point to the next step's) is long enough on the map for its name, the
    /// middle of that stretch and the angle of the path there; each name once.
    static func streetLabels(_ steps: [AnswerDocument.WalkStep], _ points: [Coordinate], _ project: (Coordinate) -> (x: Double, y: Double))
        -> [(name: String, x: Double, y: Double, angle: Double)] {
        guard points.count >= 2 else { return [] }
        // Each step's first point in the path: the nearest to its `point`, in order.
        var starts: [Int] = []
        for step in steps {
            let from = starts.last ?? 0
            guard let p = step.point, p.count == 2 else { starts.append(from); continue }
            let i = (from..<points.count).min { a, b in
                hypot(points[a].longitude - p[0], points[a].latitude - p[1]) < hypot(points[b].longitude - p[0], points[b].latitude - p[1])
            }!
            starts.append(i)
        }
        var labels: [(name: String, x: Double, y: Double, angle: Double)] = []
        var named = Set<String>()
        for (k, step) in steps.enumerated() {
            guard let name = step.street, !named.contains(name) else { continue }
            let end = k + 1 < steps.count ? starts[k + 1] : points.count - 1
            guard end > starts[k] else { continue }
            let stretch = points[starts[k]...end].map(project)
            guard let mid = midpoint(stretch, minLength: CoverageSVG.textWidth(name, size: 10) + 16) else { continue }
            // The segment the middle lies on gives the angle.
            var best = 1, bestDistance = Double.infinity
            for i in stretch.indices.dropFirst() {
                let a = stretch[i - 1], b = stretch[i]
                let d = hypot(mid.x - a.x, mid.y - a.y) + hypot(mid.x - b.x, mid.y - b.y) - hypot(b.x - a.x, b.y - a.y)
                if d < bestDistance { bestDistance = d; best = i }
            }
            let a = stretch[best - 1], b = stretch[best]
            var angle = atan2(b.y - a.y, b.x - a.x) * 180 / .pi
            if angle > 90 { angle -= 180 } else if angle < -90 { angle += 180 }
            labels.append((name, mid.x, mid.y, angle))
            named.insert(name)
        }
        return labels
    }

    /// `#RRGGBB` as given, nil when it is something else.
    static func hexColor(_ s: String) -> String? {
        s.count == 7 && s.hasPrefix("#") && s.dropFirst().allSatisfy(\.isHexDigit) ? s : nil
    }

    /// The casing under a ride whose colour is too light to stand on white.
    public static let darkCasing = "#374151"

    /// The title's type size and lines: 18 px when it fits on one line, smaller down to
    /// 14 px when that makes it fit, else 14 px over as many lines as it takes (words kept
    /// whole; a word longer than a line is split, not cut).
    static func titleLayout(_ title: String, width: Double) -> (size: Double, lines: [String], lineHeight: Double) {
        let natural = CoverageSVG.textWidth(title, size: 18, bold: true)
        let size = natural <= width ? 18 : max(14, 18 * width / max(1, natural))
        if natural * size / 18 <= width + 0.5 { return (size, [title], (size * 1.3).rounded()) }
        // `wrap` counts 0.6 em a character; bold type is about 0.68 em.
        // Lines but the last keep the space after them: together they are the title.
        let lines = wrap(title, width: width, size: size * 0.68 / 0.6, maxLines: Int.max)
        return (size, lines, (size * 1.3).rounded())
    }

    /// WCAG 2 relative luminance of `#RRGGBB` (0 black … 1 white).
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        let channels = [v >> 16 & 255, v >> 8 & 255, v & 255].map { c -> Double in
            let s = Double(c) / 255
            return s <= 0.039_28 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    /// A line colour whose contrast with white is under 3:1 (WCAG's minimum for graphics
    /// that must be seen): yellow, pale green, light grey.
    public static func needsDarkCasing(_ hex: String) -> Bool { 1.05 / (luminance(hex) + 0.05) < 3 }

    /// A colour at 70 % (for text in a pin's colour, readable on white).
    static func darker(_ hex: String) -> String {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        let c = [v >> 16 & 255, v >> 8 & 255, v & 255].map { String(format: "%02x", Int(Double($0) * 0.7)) }
        return "#" + c.joined()
    }

    /// A leg's path: every point (a leg is short, and each bend is the route's), a dot when
    /// the leg has no length (a change at one stop), so that every leg has a path.
    static func legPath(_ points: [(x: Double, y: Double)]) -> String {
        let f = CoverageSVG.f
        var pairs: [String] = []
        for p in points {
            let pair = f(p.x) + " " + f(p.y)
            if pair != pairs.last { pairs.append(pair) }
        }
        guard let first = pairs.first else { return "M0.0 0.0h0" }
        return pairs.count == 1 ? "M" + first + "h0" : "M" + pairs.joined(separator: " ")
    }

    /// The point halfway along a line, nil when the line is shorter than `minLength` pixels.
    static func midpoint(_ points: [(x: Double, y: Double)], minLength: Double) -> (x: Double, y: Double)? {
        guard points.count >= 2 else { return nil }
        var lengths: [Double] = []
        for i in points.indices.dropFirst() { lengths.append(hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y)) }
        let total = lengths.reduce(0, +)
        guard total >= minLength else { return nil }
        var remaining = total / 2
        for (i, l) in lengths.enumerated() {
            if remaining <= l && l > 0 {
                let t = remaining / l, a = points[i], b = points[i + 1]
                return (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            }
            remaining -= l
        }
        return points.last
    }

    /// A map pin with its tip at `p`: a round head (radius 9·size) above a point, filled
    /// with `color`, a white outline and a white centre.
    static func pinMarker(at p: (x: Double, y: Double), color: String, attributes: String, size: Double = 1) -> String {
        let f = CoverageSVG.f
        // Head of radius r centred h above the tip; the sides are tangent to it.
        let r = 9 * size, h = 22 * size
        let touch = acos(r / h)
        let sx = r * sin(touch), sy = h - r * cos(touch)
        var s = "<path \(attributes) d=\"M\(f(p.x)) \(f(p.y))L\(f(p.x - sx)) \(f(p.y - sy))"
        s += "A\(f(r)) \(f(r)) 0 1 1 \(f(p.x + sx)) \(f(p.y - sy))Z\" fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"\(f(1.5 * size))\"/>"
        s += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y - h))\" r=\"\(f(3.5 * size))\" fill=\"#ffffff\"/>\n"
        return s
    }

    /// `text` in lines of at most `width` pixels (words kept whole unless one alone is too
    /// long), at most `maxLines`, the last cut short with "…" when the text goes on. Lines
    /// but the last end with the space that separated them from the next.
    static func wrap(_ text: String, width: Double, size: Double, maxLines: Int) -> [String] {
        let perLine = max(8, Int(width / (size * 0.6)))
        var lines: [String] = []
        var line: String?
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let current = line, current.count + 1 + word.count > perLine {
                lines.append(current + " ")
                line = String(word)
            } else {
                line = line.map { $0 + " " + word } ?? String(word)
            }
            while let current = line, current.count > perLine {
                lines.append(String(current.prefix(perLine)))
                line = String(current.dropFirst(perLine))
            }
        }
        lines.append(line ?? "")
        guard lines.count > maxLines else { return lines }
        var kept = Array(lines.prefix(maxLines))
        let last = kept[maxLines - 1].trimmingCharacters(in: .whitespaces)
        kept[maxLines - 1] = String(last.prefix(perLine - 1)) + "…"
        return kept
    }
}
