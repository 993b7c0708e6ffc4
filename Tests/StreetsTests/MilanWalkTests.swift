import Foundation
import Geo
import Streets
import Testing
import TransitStore
import TransitTesting

private let milanExtract: URL? = {
    guard let dir = try? FeedFixtures.sharedDataDirectory() else { return nil }
    let url = dir.appendingPathComponent("osm/milan-small.osm.pbf")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// The stops of Milan's feed (stops.txt read with `unzip -p`).
private func milanStops() throws -> [Coordinate] {
    let zip = try FeedFixtures.sharedFeed("milan-atm-2014")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
    p.arguments = ["-p", zip, "stops.txt"]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
    func fields(_ line: Substring) -> [String] {
        var out: [String] = [], cur = "", quoted = false
        for ch in line {
            if ch == "\"" { quoted.toggle() } else if ch == ",", !quoted { out.append(cur); cur = "" } else { cur.append(ch) }
        }
        out.append(cur)
        return out.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let header = fields(lines[0]).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}")) }
    let lat = try #require(header.firstIndex(of: "stop_lat")), lon = try #require(header.firstIndex(of: "stop_lon"))
    return lines.dropFirst().compactMap { line in
        let f = fields(line)
        guard let a = Double(f[lat]), let o = Double(f[lon]) else { return nil }
        return Coordinate(latitude: a, longitude: o)
    }
}

/// The walk graph on Milan's real streets (imported into a throwaway database): stops
/// snap, walks agree with their routes, Piazza del Duomo is crossed. Prints what it took.
@Suite("WalkGraph on Milan's streets", .serialized,
       .enabled(if: milanExtract != nil, "the Milan extract of the shared data is not here (set TRANSIT_SHARED_DATA)"))
struct MilanWalkTests {
    @Test("Milan: stops snap within 100 m, walks equal their routes' walk meters, the Duomo square is crossed")
    func milan() throws {
        let testDB = try TestDatabase()
        defer { testDB.drop() }
        let db = try testDB.connect()
        _ = try StreetImporter(db: db).importOSM(file: milanExtract!)
        let tables = try #require(try StreetStore(db: db).load())
        if let path = ProcessInfo.processInfo.environment["STREETS_DUMP"] { try StreetDump.write(tables, to: path) }
        let clock = ContinuousClock()
        var built: WalkGraph?
        let buildTime = clock.measure { built = WalkGraph(tables) }
        let g = try #require(built)
        print("Milan walk graph: \(g.nodeCount) nodes, \(g.edgeCount) edges, \(g.memoryBytes) bytes "
              + "(\(g.memoryBytes / max(1, g.edgeCount)) per edge), built in \(buildTime)")
        #expect(g.versions == ["milan-small": 1])

        let stops = try milanStops()
        #expect(stops.count > 500)
        var snaps: [StreetSnap] = []
        let snapTime = clock.measure { snaps = stops.compactMap { g.snap($0) } }
        print("snapped \(snaps.count) of \(stops.count) stops in \(snapTime)")
        #expect(snaps.count * 10 >= stops.count * 9)
        for s in snaps {
            #expect(s.offset <= WalkGraph.maxSnapMeters && abs(Geodesic.distance(s.place, s.point) - s.offset) < 1e-6)
            #expect(s.along >= 0 && s.along <= Double(tables.edgeLength[Int(s.edge)]) + 1e-3)
        }

        // Walks from a stop to every other within 1,000 m: one search each; the route agrees.
        var pairs = 0
        var searchTime = Duration.zero
        for (i, a) in snaps.enumerated() where i % 10 == 0 {
            var walks: [Double?] = []
            searchTime += clock.measure { walks = g.walkMeters(from: a, to: snaps, limit: 1000) }
            #expect(walks[i] != nil && walks[i]! <= 2 * a.offset + 1e-9)
            for (j, b) in snaps.enumerated() where j % 7 == 0 && j != i {
                let beeline = Geodesic.distance(a.place, b.place)
                if let w = walks[j] { #expect(w >= beeline * 0.999) }
                guard walks[j] != nil else { continue }
                let r = g.route(from: a, to: b, limit: 1000)
                #expect(r?.walkMeters == walks[j])
                #expect(r?.geometry.first == a.place && r?.geometry.last == b.place)
                pairs += 1
            }
        }
        print("compared \(pairs) routes; 1,000 m searches to all \(snaps.count) stops: \(searchTime / max(1, snaps.count / 10)) each")
        #expect(pairs > 100)

        // Across Piazza del Duomo, from Via Mercanti's end to the cathedral's front.
        let west = try #require(g.snap(Coordinate(latitude: 45.46420, longitude: 9.18870)))
        let east = try #require(g.snap(Coordinate(latitude: 45.46405, longitude: 9.19080)))
        let walk = try #require(g.route(from: west, to: east, limit: 1000))
        print("Duomo: \(Int(walk.meters)) m, " + walk.steps.map { "\($0.action.rawValue) \($0.street ?? "(\($0.kind))") \(Int($0.meters)) m" }.joined(separator: "; "))
        #expect(walk.steps.contains { $0.action == .crossArea || ($0.action == .depart && $0.kind == .area) })
        #expect(walk.meters < Geodesic.distance(west.place, east.place) * 1.3)
    }
}

/// The tables in a flat file, for timing the graph in a release build outside the tests.
enum StreetDump {
    static func write(_ t: StreetTables, to path: String) throws {
        var d = Data()
        func put<T>(_ a: [T]) { withUnsafeBytes(of: Int64(a.count)) { d.append(contentsOf: $0) }; a.withUnsafeBytes { d.append(contentsOf: $0) } }
        put(t.nodeId); put(t.nodeLatitude); put(t.nodeLongitude); put(t.edgeSource); put(t.edgeTarget); put(t.edgeLength)
        put(t.edgeWay); put(t.edgeName); put(t.edgeKind.map(\.rawValue)); put(t.edgeFlags.map(\.rawValue)); put(t.innerOffsets)
        put(t.innerLatitude); put(t.innerLongitude)
        put(Array(t.names.joined(separator: "\n").utf8))
        try d.write(to: URL(fileURLWithPath: path))
    }
}
