import Foundation

/// Airports with an IATA code and where they are: what lets "SFO" find San Francisco
/// International Airport (the routing model's "Stop search"). Read once, when the first
/// stop search is built (`bundled`), from the Planner's resource `airports-iata.csv`
/// (`iata,lat,lon`, from the `airportsdata` package; `Scripts/airports.sh`); never at
/// query time.
public struct Airports: Sendable {
    /// Codes (upper case), latitudes and longitudes (degrees), sorted by latitude.
    public let codes: [String]
    public let lats: [Double]
    public let lons: [Double]

    /// How far from an airport a stop named for an airport may lie and still be found by
    /// its code.
    public static let reach = 3000.0

    /// The bundled table (empty, never a crash, if the resource cannot be read).
    public static let bundled: Airports = {
        guard let url = Bundle.module.url(forResource: "airports-iata", withExtension: "csv"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return Airports(csv: "") }
        return Airports(csv: text)
    }()

    /// Reads `iata,lat,lon` lines (a header line and malformed lines are skipped). Bytes,
    /// not characters: the table has thousands of lines, read at every start.
    public init(csv: String) {
        var rows: [(String, Double, Double)] = []
        let bytes = Array(csv.utf8)
        func letter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let f = line.split(separator: 0x2C, omittingEmptySubsequences: false)
            guard f.count == 3, f[0].count == 3, f[0].allSatisfy(letter),
                  let lat = Double(String(decoding: f[1], as: UTF8.self)),
                  let lon = Double(String(decoding: f[2], as: UTF8.self)), abs(lat) <= 90, abs(lon) <= 180 else { continue }
            rows.append((String(decoding: f[0], as: UTF8.self).uppercased(), lat, lon))
        }
        self.init(rows)
    }

    /// Airports given as (code, latitude, longitude).
    public init(_ rows: [(code: String, lat: Double, lon: Double)]) {
        let sorted = rows.sorted { ($0.lat, $0.code) < ($1.lat, $1.code) }
        codes = sorted.map(\.code); lats = sorted.map(\.lat); lons = sorted.map(\.lon)
    }

    /// Codes of the airports within `reach` metres of (lat, lon), nearest first.
    public func codes(near lat: Double, _ lon: Double, within reach: Double = Airports.reach) -> [String] {
        // Latitude band first (sorted by latitude): a degree of latitude is 111 km or so.
        let band = reach / 111_000 + 0.001
        var lo = 0, hi = lats.count
        while lo < hi { let mid = (lo + hi) / 2; if lats[mid] < lat - band { lo = mid + 1 } else { hi = mid } }
        var near: [(Double, String)] = []
        var i = lo
        while i < lats.count && lats[i] <= lat + band {
            let d = Self.metres(lat, lon, lats[i], lons[i])
            if d <= reach { near.append((d, codes[i])) }
            i += 1
        }
        return near.sorted { $0 < $1 }.map(\.1)
    }

    /// Great-circle distance in metres (haversine, mean Earth radius).
    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }
}
