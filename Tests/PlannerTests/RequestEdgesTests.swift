import FeedNetwork
import Foundation
import Geo
import GTFS
@testable import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The edges of a request (docs/routing-model.md, "Coverage regions"), checked on real
/// feeds: the common names of modes, a mode the region does not have, wheelchair routing
/// where nothing is marked, an end only a feed's outlying trips reach.
@Suite struct RequestEdgesTests {
    static func planner(_ name: String) throws -> JourneyPlanner {
        JourneyPlanner(network: try TimetableBuilder.build(try SnapshotSink.load(path: FeedFixtures.feed(name), feedId: name).0))
    }

    @Test("the common names of modes, in any case, with -, _ or a space alike")
    func modeNames() throws {
        let expected: [(String, LegMode)] = [
            ("streetcar", .tram), ("light-rail", .tram), ("Light Rail", .tram), ("LIGHTRAIL", .tram), ("ferry", .ferry),
            ("boat", .ferry), ("water-taxi", .ferry), ("metro", .subway), ("subway", .subway), ("underground", .subway),
            ("tube", .subway), ("train", .rail), ("rail", .rail), ("coach", .coach), ("trolleybus", .trolleybus),
            ("trolley", .trolleybus), ("cable-car", .cableTram), ("cable_tram", .cableTram), ("gondola", .gondola),
            ("aerial-lift", .gondola), ("funicular", .funicular), ("monorail", .monorail), ("plane", .air), ("airplane", .air),
        ]
        for (name, mode) in expected {
            #expect(ModeFilter.mode(named: name) == mode, "\(name)")
            #expect(try ModeFilter.parse(name).allowed == [mode], "\(name)")
        }
        #expect(try ModeFilter.parse("-light-rail,-streetcar").allowed == Set(LegMode.allCases).subtracting([.walk, .tram]))
        #expect(ModeFilter.mode(named: "walk") == nil && ModeFilter.mode(named: "hovercraft") == nil)
        let error = #expect(throws: PlanError.self) { try ModeFilter.parse("hovercraft") }
        #expect(error?.code == .badParameter && error?.message.contains("streetcar") == true && error?.message.contains("TRAM") == true)
    }

    @Test("a mode the region does not have: MODE_NOT_IN_REGION with the modes it has, before any search")
    func modeNotInRegion() throws {
        let bydgoszcz = try Self.planner("bydgoszcz-2020")
        let dworzec = Place.coordinate(Coordinate(latitude: 53.134791, longitude: 17.993166))
        let rondo = Place.coordinate(Coordinate(latitude: 53.1235, longitude: 18.0084))
        let at = QueryTime.local(year: 2020, month: 5, day: 5, hour: 8, minute: 0, second: 0)
        let metro = #expect(throws: PlanError.self) {
            try bydgoszcz.answer(PlanQuery(from: dworzec, to: rondo, time: at, modes: try ModeFilter.parse("metro,ferry"))).get()
        }
        #expect(metro?.code == .modeNotInRegion)
        #expect(metro?.message == "No metro or ferry in this region (it has: tram, bus).")
        // The region has trams: a streetcar request is planned, on trams only.
        let tram = try bydgoszcz.answer(PlanQuery(from: dworzec, to: rondo, time: at, modes: try ModeFilter.parse("streetcar"))).get()
        #expect(tram.options.flatMap { $0.itinerary.legs.compactMap { $0.mode == .walk ? nil : $0.mode } }.allSatisfy { $0 == .tram })
    }

    @Test("wheelchair: refused, in one sentence, where the feed marks no stop and no trip; without it the trip is planned")
    func accessibilityData() throws {
        let nyc = try Self.planner("nyc-subway-2018")
        let error = #expect(throws: PlanError.self) {
            try nyc.answer(PlanQuery(from: .coordinate(Coordinate(latitude: 40.7506, longitude: -73.9935)),
                                     to: .coordinate(Coordinate(latitude: 40.7061, longitude: -74.0087)),
                                     time: .local(year: 2018, month: 7, day: 10, hour: 8, minute: 0, second: 0), wheelchair: true)).get()
        }
        #expect(error?.code == .noAccessibilityData)
        #expect(error?.details["stopsMarked"] == .flag(false) && error?.details["tripsMarked"] == .flag(false))
        // Without wheelchair the same trip is planned: the refusal is about the data only.
        let plain = try nyc.answer(PlanQuery(from: .coordinate(Coordinate(latitude: 40.7506, longitude: -73.9935)),
                                             to: .coordinate(Coordinate(latitude: 40.7061, longitude: -74.0087)),
                                             time: .local(year: 2018, month: 7, day: 10, hour: 8, minute: 0, second: 0))).get()
        #expect(!plain.options.isEmpty)
    }

    @Test("an end only an outlying place's trips reach: answered, the OUTLYING_SERVICE notice first")
    func outlyingEnd() throws {
        let caltrain = try Self.planner("caltrain")
        let a = try caltrain.answer(PlanQuery(from: .stop(feed: nil, id: "San Jose Caltrain"), to: .stop(feed: nil, id: "Gilroy Caltrain"),
                                              time: .local(year: 2009, month: 3, day: 3, hour: 16, minute: 0, second: 0))).get()
        #expect(!a.options.isEmpty)
        #expect(a.notices.first?.code == .outlyingService)
        #expect(a.notices.first?.message.hasPrefix("Local transit at Gilroy Caltrain is not covered: Caltrain only reaches it, with 6 trips a day") == true)
        // Between two stations of the network: no such notice.
        let b = try caltrain.answer(PlanQuery(from: .stop(feed: nil, id: "San Jose Caltrain"), to: .stop(feed: nil, id: "Palo Alto Caltrain"),
                                              time: .local(year: 2009, month: 3, day: 3, hour: 16, minute: 0, second: 0))).get()
        #expect(!b.notices.contains { $0.code == .outlyingService })
    }
}
