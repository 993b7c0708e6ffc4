import FeedNetwork
import Foundation
import Geo
import Timetable
import TransitModel

/// A picture of coverage regions over one timetable, as an SVG document: the exact areas
/// filled (a light translucent hue per region, holes as holes), the exported outlines
/// dashed over them, the routes in their colours (from shapes, else straight lines
/// through their stops), the stops with service as dots, a title, a scale bar and a
/// legend below the map.
///
/// Projection: equirectangular around the middle latitude of the regions
/// (x = lon·cos(lat0), y = −lat), fitted into `width` with a margin. Coordinates have
/// one decimal; points closer than about a pixel to the previous drawn one are skipped,
/// so the document stays small (under 1 MB for every shared feed; sacramento 0.5 MB).
///
/// The document's groups, for readers and tests: `exact` (one filled path per exact
/// polygon), `export` (one dashed path per export polygon), `routes` (one path per
/// distinct shape or stop sequence), `stops` (one circle per served stop), `scale`,
/// `legend`.
public enum CoverageSVG {
    /// An SVG document picturing these regions over one timetable.
    public static func render(_ regions: [CoverageRegion], timetable tt: TransitNetwork, width: Int = 1200) -> String {
        let width = max(width, 300)
        let margin = 20.0
        let titleHeight = 44.0
        let mapWidth = Double(width) - 2 * margin

        // Bounds of the regions (the export contains the exact area, which contains the stops).
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        func include(_ c: Coordinate) {
            guard c.isValid else { return }
            minLat = min(minLat, c.latitude); maxLat = max(maxLat, c.latitude)
            minLon = min(minLon, c.longitude); maxLon = max(maxLon, c.longitude)
        }
        for r in regions {
            r.export.forEach { $0.forEach(include) }
            r.exact.forEach { $0.first?.forEach(include) }
            r.servedStops.forEach { if let c = tt.coordinate(ofStop: $0) { include(c) } }
        }
        if !minLat.isFinite { minLat = 0; maxLat = 0; minLon = 0; maxLon = 0 }

        // The routes to draw: those of the regions' feeds that serve a served stop, each
        // distinct shape (or stop sequence where there is no shape) once.
        let s = tt.snapshot
        let feeds = Set(regions.compactMap { r in s.feedIds.firstIndex(of: r.feedId).map(Int32.init) })
        var served = Set<StopIndex>()
        for r in regions { served.formUnion(r.servedStops) }
        var lines: [(color: String?, points: [Coordinate])] = []
        for (r, points) in distinctLines(tt, where: { r, stops in
            feeds.contains(s.routes[tt.timetable.routeSourceRoute[r].index].feed) && stops.contains(where: served.contains)
        }) where points.count >= 2 {
            lines.append((color(s.routes[tt.timetable.routeSourceRoute[r].index].color), points))
        }
        // Route points near the regions widen the view (a line between two far stations
        // may leave the discs); strays beyond that are clipped.
        do {
            let padLat = max((maxLat - minLat) * 0.25, 0.005), padLon = max((maxLon - minLon) * 0.25, 0.005)
            let box = (minLat - padLat, maxLat + padLat, minLon - padLon, maxLon + padLon)
            for line in lines {
                for c in line.points where c.latitude >= box.0 && c.latitude <= box.1 && c.longitude >= box.2 && c.longitude <= box.3 {
                    include(c)
                }
            }
        }

        // Projection: equirectangular around the middle latitude, fitted into the map area.
        let lat0 = (minLat + maxLat) / 2
        let k = cos(lat0 * .pi / 180)
        let spanX = max((maxLon - minLon) * k, 1e-6), spanY = max(maxLat - minLat, 1e-6)
        let inner = 12.0  // pixels between the drawing and the map frame
        let maxMapHeight = Double(width) * 1.4
        let scale = min((mapWidth - 2 * inner) / spanX, (maxMapHeight - 2 * inner) / spanY)
        let mapHeight = (spanY * scale + 2 * inner).rounded(.up)
        let mapTop = titleHeight
        let offsetX = margin + (mapWidth - spanX * scale) / 2
        let offsetY = mapTop + inner
        func project(_ c: Coordinate) -> (x: Double, y: Double) {
            (offsetX + (c.longitude - minLon) * k * scale, offsetY + (maxLat - c.latitude) * scale)
        }
        // Pixels per meter on the sphere (mean radius) at lat0.
        let pixelsPerMeter = scale / (6_371_008.8 * .pi / 180)

        // Legend layout below the map: a row per region (its facts on a second line when
        // they do not fit beside the name), the key flowing over one or more rows, and the
        // scale bar at the right of the key's last row or on a row of its own.
        let rowHeight = 20.0
        let available = Double(width) - margin - (margin + 30)
        let dot = "\u{00A0}\u{00A0}·\u{00A0}\u{00A0}"
        var legendRows: [(label: String, facts: [String], wrapped: Bool, y: Double)] = []
        var y = mapTop + mapHeight + 16
        for r in regions {
            var label = r.feedId
            if !r.name.isEmpty && r.name != r.feedId {
                let room = Int((available - textWidth(label + " — ", size: 13, bold: true)) / (13 * 0.68))
                label += " — " + truncated(r.name, max(12, min(60, room)))
            }
            let modes = r.modes.map(\.noun).joined(separator: ", ")
            let items = [modes.isEmpty ? nil : modes, "\(r.servedStops.count) stops",
                         "exact \(km2(r.exactAreaKm2)) km²", "export \(km2(r.exportAreaKm2)) km²"].compactMap { $0 }
            let wrapped = textWidth(label, size: 13, bold: true) + 8 + textWidth("·  " + items.joined(separator: dot), size: 13) > available
            // Wrapped: as many facts a line as fit.
            var facts: [String] = []
            for item in items {
                if let last = facts.last, !wrapped || textWidth(last + dot + item, size: 13) <= available {
                    facts[facts.count - 1] = last + dot + item
                } else {
                    facts.append(item)
                }
            }
            legendRows.append((label, facts, wrapped, y))
            y += wrapped ? rowHeight + 16 * Double(facts.count) - 2 : rowHeight
        }
        let keyItems = ["exact area", "export outline", "stop with service", "route (its colour)"]
        var keyPlaces: [(x: Double, y: Double)] = []
        var keyX = margin
        y += 14
        for item in keyItems {
            let w = 28 + textWidth(item, size: 13) + 22
            if keyX > margin && keyX + w - 22 > Double(width) - margin { keyX = margin; y += rowHeight }
            keyPlaces.append((keyX, y))
            keyX += w
        }
        // Scale bar: a round length of about a fifth of the width.
        let km = roundLength(Double(width) / 5 / pixelsPerMeter / 1000)
        let barLength = km * 1000 * pixelsPerMeter
        let scaleLabel = "\(lengthLabel(km)) km"
        if keyX + 10 + textWidth(scaleLabel, size: 13) + 8 + barLength > Double(width) - margin { y += rowHeight + 4 }
        let scaleY = y + 2
        let height = Int((y + 14 + margin / 2).rounded(.up))

        var out = ""
        out.reserveCapacity(1 << 20)
        out += documentStart(width: width, height: height, clip: (margin, mapTop, mapWidth, mapHeight))

        // Title (smaller type when it would not fit).
        let feedList = regions.map(\.feedId).joined(separator: ", ")
        let radius = regions.first.map { "\(Int($0.radiusMeters.rounded())) m" } ?? ""
        var title = regions.isEmpty ? "Transit coverage: no region"
            : "Transit coverage of \(feedList): within \(radius) of a stop with service"
        let titleSize = max(10, min(18, 18 * mapWidth / textWidth(title, size: 18, bold: true)))
        title = truncated(title, max(12, Int(mapWidth / (titleSize * 0.68))))
        out += "<text id=\"title\" x=\"\(f(margin))\" y=\"28\" font-size=\"\(f(titleSize))\" font-weight=\"bold\" fill=\"#111827\">\(escape(title))</text>\n"

        // Map frame.
        out += "<rect id=\"frame\" x=\"\(f(margin))\" y=\"\(f(mapTop))\" width=\"\(f(mapWidth))\" height=\"\(f(mapHeight))\" fill=\"#f8fafc\" stroke=\"#cbd5e1\"/>\n"

        // Exact areas: one path per polygon, rings together, holes by the even-odd rule.
        out += "<g id=\"exact\" fill-rule=\"evenodd\" stroke-width=\"0.8\" stroke-opacity=\"0.5\" clip-path=\"url(#map-clip)\">\n"
        for (i, r) in regions.enumerated() {
            let fill = palette(i).fill
            out += "<g class=\"region\" data-feed=\"\(escape(r.feedId))\" fill=\"\(fill)\" fill-opacity=\"0.25\" stroke=\"\(fill)\">\n"
            for polygon in r.exact {
                var d = ""
                for ring in polygon { appendPath(&d, ring.map(project), minStep: 0.5, closed: true) }
                if !d.isEmpty { out += "<path d=\"\(d)\"/>\n" }
            }
            out += "</g>\n"
        }
        out += "</g>\n"

        // Routes, thin, in their colours (neutral ones first so coloured lines stay on top).
        out += "<g id=\"routes\" fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" clip-path=\"url(#map-clip)\">\n"
        for line in lines.filter({ $0.color == nil }) + lines.filter({ $0.color != nil }) {
            var d = ""
            appendPath(&d, line.points.map(project), minStep: 1, closed: false)
            out += "<path stroke=\"\(line.color ?? neutralGrey)\" d=\"\(d)\"/>\n"
        }
        out += "</g>\n"

        // Export outlines, dashed and darker, no fill.
        out += "<g id=\"export\" fill=\"none\" stroke-width=\"1.6\" stroke-dasharray=\"7 4\" clip-path=\"url(#map-clip)\">\n"
        for (i, r) in regions.enumerated() {
            let (_, line) = palette(i)
            for ring in r.export {
                var d = ""
                appendPath(&d, ring.map(project), minStep: 0.5, closed: true)
                if !d.isEmpty { out += "<path data-feed=\"\(escape(r.feedId))\" stroke=\"\(line)\" d=\"\(d)\"/>\n" }
            }
        }
        out += "</g>\n"

        // Stops with service: smaller dots where there are many, so that lines show between them.
        let stopCount = regions.reduce(0) { $0 + $1.servedStops.count }
        let dotRadius = stopCount > 600 ? "1.6" : "2.2"
        out += "<g id=\"stops\" fill=\"#1f2937\" stroke=\"#ffffff\" stroke-width=\"\(stopCount > 600 ? "0.4" : "0.6")\">\n"
        for r in regions {
            for stop in r.servedStops {
                guard let c = tt.coordinate(ofStop: stop) else { continue }
                let p = project(c)
                out += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(dotRadius)\"/>\n"
            }
        }
        out += "</g>\n"

        // Legend: one row per region, then the key and the scale bar.
        out += "<g id=\"legend\" font-size=\"13\" fill=\"#111827\">\n"
        for (i, row) in legendRows.enumerated() {
            let (fill, line) = palette(i)
            out += "<rect x=\"\(f(margin))\" y=\"\(f(row.y))\" width=\"22\" height=\"13\" fill=\"\(fill)\" fill-opacity=\"0.35\" stroke=\"\(line)\" stroke-width=\"1.4\" stroke-dasharray=\"4 2\"/>\n"
            out += "<text class=\"region-label\" x=\"\(f(margin + 30))\" y=\"\(f(row.y + 11))\">"
            out += "<tspan font-weight=\"bold\">\(escape(row.label))</tspan>"
            // No-break spaces (renderers collapse ordinary ones), and a shift instead of
            // spaces at the start of a tspan (rsvg drops those).
            if row.wrapped {
                for line in row.facts { out += "<tspan x=\"\(f(margin + 30))\" dy=\"16\" fill=\"#374151\">\(escape(line))</tspan>" }
                out += "</text>\n"
            } else {
                out += "<tspan dx=\"8\" fill=\"#374151\">·\u{00A0}\u{00A0}\(escape(row.facts.joined()))</tspan></text>\n"
            }
        }
        // Key, in the region's colours when there is one region, neutral ones otherwise.
        let keyFill = regions.count == 1 ? palette(0).fill : "#94a3b8", keyLine = regions.count == 1 ? palette(0).line : "#475569"
        for (item, place) in zip(keyItems, keyPlaces) {
            let (x, ky) = place
            switch item {
            case "exact area":
                out += "<rect x=\"\(f(x))\" y=\"\(f(ky - 6))\" width=\"22\" height=\"13\" fill=\"\(keyFill)\" fill-opacity=\"0.25\"/>\n"
            case "export outline":
                out += "<path d=\"M\(f(x)) \(f(ky))h22\" fill=\"none\" stroke=\"\(keyLine)\" stroke-width=\"1.6\" stroke-dasharray=\"7 4\"/>\n"
            case "stop with service":
                out += "<circle cx=\"\(f(x + 11))\" cy=\"\(f(ky))\" r=\"2.8\" fill=\"#1f2937\" stroke=\"#ffffff\" stroke-width=\"0.6\"/>\n"
            default:
                out += "<path d=\"M\(f(x)) \(f(ky))h22\" fill=\"none\" stroke=\"\(keyRouteColor(lines.compactMap(\.color)))\" stroke-width=\"1.5\"/>\n"
            }
            out += "<text x=\"\(f(x + 28))\" y=\"\(f(ky + 5))\">\(item)</text>\n"
        }
        out += "</g>\n"

        // Scale bar, right-aligned.
        let barRight = Double(width) - margin
        let barLeft = barRight - barLength
        let by = scaleY
        out += "<g id=\"scale\" font-size=\"13\" fill=\"#111827\">\n"
        out += scaleBarTicks(left: barLeft, y: by, length: barLength)
        out += "<text x=\"\(f(barLeft - 8))\" y=\"\(f(by + 1))\" text-anchor=\"end\">\(scaleLabel)</text>\n"
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }

    // MARK: Helpers

    /// The line of each route that `include` takes (given the route and its stops): its
    /// first trip's shape, else the line through its stops; a shape or a stop sequence
    /// shared by several routes comes once, with the first of them.
    public static func distinctLines(_ tt: TransitNetwork, where include: (Int, [StopIndex]) -> Bool) -> [(route: Int, points: [Coordinate])] {
        var out: [(route: Int, points: [Coordinate])] = []
        var seenShapes = Set<ShapeIndex>(), seenSequences = Set<[StopIndex]>()
        for r in 0..<tt.timetable.routeCount {
            let stops = Array(tt.timetable.stops(onRoute: RouteIndex(r)))
            guard include(r, stops) else { continue }
            let firstTrip = Int(tt.timetable.routeTripOffsets[r])
            let shape = firstTrip < Int(tt.timetable.routeTripOffsets[r + 1]) ? tt.timetable.shape(ofTrip: TripIndex(firstTrip)) : nil
            if let shape, shape.index < tt.shapes.count && tt.shapes.points(shape).count >= 2 {
                guard seenShapes.insert(shape).inserted else { continue }
                out.append((r, tt.shapes.points(shape).map { tt.shapes.coordinate($0) }.filter(\.isPlausible)))
            } else {
                guard seenSequences.insert(stops).inserted else { continue }
                out.append((r, stops.compactMap { tt.coordinate(ofStop: $0) }.filter(\.isPlausible)))
            }
        }
        return out
    }

    /// The XML declaration, the `svg` element (white, sans-serif) and the map's clip path
    /// `map-clip` (x, y, width, height): how both pictures here begin.
    public static func documentStart(width: Int, height: Int, clip: (Double, Double, Double, Double)) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "font-family=\"Helvetica, Arial, sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
            + "<defs><clipPath id=\"map-clip\"><rect x=\"\(f(clip.0))\" y=\"\(f(clip.1))\" width=\"\(f(clip.2))\" height=\"\(f(clip.3))\"/></clipPath></defs>\n"
    }

    /// A scale bar's bracket and middle tick, `length` pixels from `left` on baseline `y`.
    public static func scaleBarTicks(left: Double, y: Double, length: Double) -> String {
        "<path d=\"M\(f(left)) \(f(y - 5))v5h\(f(length))v-5\" fill=\"none\" stroke=\"#111827\" stroke-width=\"1.5\"/>\n"
            + "<path d=\"M\(f(left + length / 2)) \(f(y - 3))v3\" fill=\"none\" stroke=\"#111827\" stroke-width=\"1\"/>\n"
    }

    public static let neutralGrey = "#8a8f98"

    /// The route colour for the key: the darkest in use (light ones barely show on a swatch).
    static func keyRouteColor(_ colors: [String]) -> String {
        func luminance(_ c: String) -> Double {
            let v = Int(c.dropFirst(), radix: 16) ?? 0
            return 0.299 * Double(v >> 16 & 255) + 0.587 * Double(v >> 8 & 255) + 0.114 * Double(v & 255)
        }
        return colors.min { luminance($0) < luminance($1) } ?? neutralGrey
    }

    /// A route colour as `#rrggbb`, nil when missing or not six hex digits.
    static func color(_ hex: String?) -> String? {
        guard var h = hex?.trimmingCharacters(in: .whitespaces) else { return nil }
        if h.hasPrefix("#") { h.removeFirst() }
        guard h.count == 6, h.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + h.lowercased()
    }

    /// Fill and (darker) outline colours of region `i`: a fixed set of distinct hues, then
    /// hues spaced by the golden angle.
    static func palette(_ i: Int) -> (fill: String, line: String) {
        let fixed: [(Double, Double, Double)] = [
            (0.23, 0.51, 0.96), (0.98, 0.45, 0.09), (0.06, 0.73, 0.51), (0.66, 0.33, 0.97),
            (0.94, 0.27, 0.27), (0.92, 0.70, 0.03), (0.02, 0.71, 0.83), (0.93, 0.28, 0.60),
        ]
        let rgb: (Double, Double, Double)
        if i < fixed.count {
            rgb = fixed[i]
        } else {
            let h = (Double(i) * 137.508).truncatingRemainder(dividingBy: 360) / 60
            let c = 0.75 * 0.9, xx = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = 0.75 - c
            let (r, g, b): (Double, Double, Double)
            switch Int(h) {
            case 0: (r, g, b) = (c, xx, 0)
            case 1: (r, g, b) = (xx, c, 0)
            case 2: (r, g, b) = (0, c, xx)
            case 3: (r, g, b) = (0, xx, c)
            case 4: (r, g, b) = (xx, 0, c)
            default: (r, g, b) = (c, 0, xx)
            }
            rgb = (r + m, g + m, b + m)
        }
        func hex(_ v: (Double, Double, Double)) -> String {
            "#" + [v.0, v.1, v.2].map { String(format: "%02x", Int((min(max($0, 0), 1) * 255).rounded())) }.joined()
        }
        return (hex(rgb), hex((rgb.0 * 0.55, rgb.1 * 0.55, rgb.2 * 0.55)))
    }

    /// Appends `M x y x y …` (and `Z` when closed), skipping points closer than `minStep`
    /// pixels to the previous drawn one (the last point is always drawn).
    public static func appendPath(_ d: inout String, _ points: [(x: Double, y: Double)], minStep: Double, closed: Bool) {
        guard points.count >= 2 else { return }
        var kept: [(x: Double, y: Double)] = [points[0]]
        let step2 = minStep * minStep
        for (i, p) in points.enumerated().dropFirst() {
            let q = kept[kept.count - 1]
            let dx = p.x - q.x, dy = p.y - q.y
            if dx * dx + dy * dy >= step2 || (i == points.count - 1 && !closed) { kept.append(p) }
        }
        // A closed ring drops its repeated last point (Z closes it); keep at least a triangle.
        if closed {
            if let first = kept.first, let last = kept.last, kept.count > 1, f(first.x) == f(last.x) && f(first.y) == f(last.y) { kept.removeLast() }
            guard kept.count >= 3 else { return }
        }
        d += "M"
        var previous = ""
        for (i, p) in kept.enumerated() {
            let pair = f(p.x) + " " + f(p.y)
            if pair == previous { continue }
            if i > 0 { d += " " }
            d += pair
            previous = pair
        }
        if closed { d += "Z" }
    }

    /// A number with one decimal place ("12.3", "-0.5", "7.0").
    public static func f(_ v: Double) -> String {
        guard v.isFinite else { return "0.0" }
        let tenths = Int((v * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let a = abs(tenths)
        return "\(sign)\(a / 10).\(a % 10)"
    }

    /// Areas: one decimal below 1,000 km², whole numbers above.
    static func km2(_ v: Double) -> String {
        v >= 1000 ? String(format: "%.0f", v) : String(format: "%.1f", v)
    }

    /// The largest 1, 2, 5 × 10ⁿ not above `target` (km).
    public static func roundLength(_ target: Double) -> Double {
        guard target.isFinite, target > 0 else { return 1 }
        let p = pow(10, floor(log10(target)))
        for m in [5.0, 2, 1] where m * p <= target * 1.0000001 { return m * p }
        return p
    }

    public static func lengthLabel(_ km: Double) -> String {
        km >= 1 ? String(Int(km.rounded())) : String(format: "%g", km)
    }

    /// A rough width of a text in pixels (sans-serif; DejaVu Sans, the widest usual
    /// fallback, is about 0.6 em a character, 0.68 em bold).
    public static func textWidth(_ s: String, size: Double, bold: Bool = false) -> Double {
        Double(s.count) * size * (bold ? 0.68 : 0.6)
    }

    public static func truncated(_ s: String, _ n: Int) -> String {
        s.count <= n ? s : String(s.prefix(n - 1)) + "…"
    }

    /// XML text and attribute escaping.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.append(" ")
            case _ where ch.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0xFFFE || $0.value == 0xFFFF }): continue
            default: out.append(ch)
            }
        }
        return out
    }
}
