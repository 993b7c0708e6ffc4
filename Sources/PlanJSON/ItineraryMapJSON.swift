import Geo
import Planner

extension ItineraryMap {
    /// A map position as the answer writes it: six decimals (about 0.1 m).
    static func position(_ c: Coordinate) -> (longitude: Double, latitude: Double) {
        ((c.longitude * 1e6).rounded() / 1e6, (c.latitude * 1e6).rounded() / 1e6)
    }

    /// The FeatureCollection as JSON (longitude, latitude order), with
    /// six decimals (about 0.1 m, as RFC 7946 suggests): points cut from shapes carry
    /// seventeen digits of interpolation that say nothing and made answers a third longer.
    public func writeGeoJSON(_ w: inout JSONWriter) {
        func position(_ c: Coordinate) { let p = Self.position(c); w.pair(p.longitude, p.latitude) }
        w.beginObject()
        w.key("features"); w.beginArray()
        for f in features {
            w.beginObject()
            w.key("geometry"); w.beginObject()
            switch f.geometry {
            case .lineString(let cs):
                w.key("coordinates"); w.beginArray()
                for c in cs { position(c) }
                w.endArray()
                w.field("type", "LineString")
            case .point(let c):
                w.key("coordinates"); position(c)
                w.field("type", "Point")
            }
            w.endObject()
            w.key("properties"); w.beginObject()
            w.field("color", f.color); w.field("legIndex", f.legIndex); w.field("mode", f.mode.rawValue); w.field("role", f.role)
            w.endObject()
            w.field("type", "Feature")
            w.endObject()
        }
        w.endArray()
        w.field("type", "FeatureCollection")
        w.endObject()
    }
}
