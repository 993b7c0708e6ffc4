import Foundation
import GTFS
import Geo
import Planner
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Itineraries and their maps on real feeds: for every itinerary of seeded random plans,
/// the step list and the map come from one list of legs and agree.
@Suite struct ItineraryTests {
    static let feeds: [(String, (Int, Int, Int))] = [
        ("bart-2018.zip", (2018, 6, 5)),
        ("wmata-rail-2026.zip", (2026, 5, 5)),         // stations, entrances, platforms
        ("sacramento-sacrt-2024.zip", (2024, 6, 18)),  // shapes, bus and light rail
        ("caltrain.zip", (2009, 3, 3)),
    ]

    @Test("steps and map agree, leg by leg", arguments: feeds.map(\.0))
    func stepsAndMapAgree(_ file: String) throws {
        let date = Self.feeds.first { $0.0 == file }!.1
        let (snapshot, _) = try SnapshotSink.load(path: ReferenceComparisonTests.feedPath(file), feedId: String(file.dropLast(4)))
        let planner = JourneyPlanner(timetable: try TimetableBuilder.build(snapshot))
        let tt = planner.timetable
        let stops = (0..<tt.stopCount).filter { tt.stopBoardable[$0] && tt.stopRouteOffsets[$0 + 1] > tt.stopRouteOffsets[$0] }
        var rng = SeededRandom(seed: 4242)
        var checked = 0
        for q in 0..<60 {
            func place() -> Place {
                let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
                if Bool.random(using: &rng) { return .stop(feed: nil, id: snapshot.stops[s].stopId) }
                return .coordinate(Geodesic.destination(from: tt.coordinate(ofStop: Int32(s))!,
                                                        azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                                        meters: Double.random(in: 0..<700, using: &rng)))
            }
            let seconds = Int.random(in: 6 * 3600..<22 * 3600, using: &rng)
            let query = PlanQuery(from: place(), to: place(),
                                  time: .local(year: date.0, month: date.1, day: date.2, hour: seconds / 3600,
                                               minute: seconds / 60 % 60, second: 0),
                                  arriveBy: q % 3 == 2, window: q % 3 == 1 ? 1800 : nil)
            guard let result = try? planner.plan(query) else { continue }
            for journey in result.journeys {
                let it = planner.itinerary(journey, in: result)
                try check(it, journey, result)
                checked += 1
            }
        }
        #expect(checked >= 40, "only \(checked) itineraries were checked")
    }

    func check(_ it: Itinerary, _ journey: Journey, _ result: PlanResult) throws {
        let p = result.parameters
        let legs = it.legs
        try #require(!legs.isEmpty)
        // Steps and map: one line per leg, in leg order.
        let map = ItineraryMap(it)
        let lines = map.features.filter { if case .lineString = $0.geometry { return true }; return false }
        #expect(lines.map(\.legIndex) == Array(legs.indices))
        for (line, leg) in zip(lines, legs) {
            #expect(line.geometry == .lineString(leg.geometry))
            #expect(line.mode == leg.mode)
        }
        // Geometry: each leg from its own `from` to its own `to`, starting where the previous ended.
        for (i, leg) in legs.enumerated() {
            #expect(leg.geometry.count >= 2)
            #expect(leg.geometry.first == leg.from.coordinate && leg.geometry.last == leg.to.coordinate)
            if i > 0 { #expect(leg.geometry.first == legs[i - 1].geometry.last, "leg \(i) does not start where leg \(i - 1) ended") }
            #expect(leg.departure <= leg.arrival)
            if i > 0 { #expect(legs[i - 1].arrival <= leg.departure) }
            #expect(!leg.instruction.isEmpty)
        }
        // Start and end: the request's places (or the stops they name).
        #expect(legs.first!.geometry.first == result.origin || legs.first!.from.stopId != nil)
        #expect(legs.last!.geometry.last == result.destination || legs.last!.to.stopId != nil)
        // Pins sit on leg ends; start green, destination red; every pin belongs to a leg.
        let pins = map.features.filter { if case .point = $0.geometry { return true }; return false }
        #expect(pins.first?.role == "start" && pins.first?.color == ItineraryMap.startColor)
        #expect(pins.last?.role == "destination" && pins.last?.color == ItineraryMap.destinationColor)
        for pin in pins {
            guard case .point(let c) = pin.geometry else { continue }
            let leg = legs[pin.legIndex]
            #expect(c == leg.geometry.first || c == leg.geometry.last, "pin \(pin.role) is not on an end of leg \(pin.legIndex)")
        }
        #expect(pins.filter { $0.role == "board" }.count == journey.rides)
        // Walks follow the model; durations add up to the journey's.
        for leg in legs where leg.mode == .walk {
            let walkSeconds = leg.durationSeconds - leg.waitSeconds
            #expect(walkSeconds == Int64((leg.distanceMeters / p.walkSpeed).rounded(.up)),
                    "walk of \(leg.distanceMeters) m takes \(walkSeconds) s")
            #expect(leg.waitSeconds >= 0)
        }
        #expect(legs.reduce(0) { $0 + $1.durationSeconds } == journey.arrival - journey.departure)
        #expect(legs.first!.departure == journey.departure && legs.last!.arrival == journey.arrival)
        #expect(it.summary.rides == journey.rides && it.summary.durationSeconds == journey.arrival - journey.departure)
        #expect(legs.filter { $0.ride != nil }.count == journey.rides)
    }

    @Test func routeTypesMapToTheirBaseMode() {
        #expect(LegMode(routeType: 700) == .bus)
        #expect(LegMode(routeType: 800) == .trolleybus)
        #expect(LegMode(routeType: 109) == .rail)
        #expect(LegMode(routeType: 1400) == .funicular)
        #expect(LegMode(routeType: 0) == .tram && LegMode(routeType: 1) == .subway && LegMode(routeType: 3) == .bus)
    }
}
