import Foundation
import Geo

/// The phone export of a region as GeoJSON, following Apple's routing-app coverage file
/// rules: one MultiPolygon, at most 20 polygons, each closed with at least 4 positions and
/// no holes, longitude-latitude order, outer rings counter-clockwise.
public enum CoverageExport {
    /// The GeoJSON object (a bare MultiPolygon geometry, as Apple's files are).
    public static func geoJSON(_ polygons: [[Coordinate]]) -> [String: Any] {
        ["type": "MultiPolygon",
         "coordinates": polygons.map { ring in [ring.map { [round7($0.longitude), round7($0.latitude)] }] }]
    }

    /// Degrees to 7 decimals (about 1 cm): enough, and short files.
    static func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }

    public static func text(_ polygons: [[Coordinate]]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: geoJSON(polygons), options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
