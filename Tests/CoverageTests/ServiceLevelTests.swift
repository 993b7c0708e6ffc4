import Coverage
import FeedNetwork
import Foundation
import Geo
import GTFS
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The coverage region is the area a feed serves as a network (docs/routing-model.md,
/// "Coverage regions"): on real feeds, the stops it reaches with a handful of trips far
/// from that network are outlying places, listed apart and left out of the area.
@Suite struct ServiceLevelTests {
    static func network(_ name: String) throws -> TransitNetwork {
        try TimetableBuilder.build(try SnapshotSink.load(path: FeedFixtures.feed(name), feedId: name).0)
    }

    @Test("Caltrain's South County stations (a few peak trains a day, 29–44 km past the network) are outlying")
    func caltrainSouthCounty() throws {
        let network = try Self.network("caltrain")
        let levels = ServiceLevels(network)
        #expect(levels.places.map(\.name) == ["Gilroy Caltrain", "Morgan Hill Caltrain", "San Martin Caltrain"])
        for place in levels.places {
            #expect(place.tripsPerDay < ServiceLevels.networkTripsPerDay, "\(place.name): \(place.tripsPerDay) trips a day")
            #expect(place.networkMeters > ServiceLevels.networkReachMeters, "\(place.name): \(place.networkMeters) m")
            for s in place.stops { #expect(levels.outlying[s.index] && !levels.inNetwork[s.index]) }
        }
        // Every other stop with service is in the network: each has the trips, or one that
        // has them within reach.
        let snapshot = network.snapshot
        for s in 0..<network.timetable.stopCount where levels.tripsPerDay[s] > 0 && !levels.outlying[s] {
            #expect(levels.inNetwork[s], "\(snapshot.stops[s].name)")
        }
        // San Francisco's terminal: trains all day.
        let sf = try #require(snapshot.stops.firstIndex { $0.name.hasPrefix("San Francisco") && $0.locationType == 0 })
        #expect(levels.tripsPerDay[sf] >= 40 && levels.inNetwork[sf])
    }

    @Test("the region leaves the outlying places out of its area and lists them apart")
    func regionWithoutOutlying() throws {
        let network = try Self.network("caltrain")
        let region = try #require(try CoverageBuilder.regions(network).first)
        #expect(region.alsoReached.map(\.name) == ["Gilroy Caltrain", "Morgan Hill Caltrain", "San Martin Caltrain"])
        let gilroy = Coordinate(latitude: 37.003084, longitude: -121.567091)
        #expect(!region.export.contains { CoverageRegionTests.inside(gilroy, $0) }, "Gilroy is reached, not covered")
        #expect(region.stops == region.servedStops.count && region.stops == 28)
        let report = CoverageReport.make([region], timetable: network, today: ServiceDate(year: 2009, month: 3, day: 3)!)
        #expect(report.text().contains("caltrain also reached: Gilroy Caltrain, 6 trips a day (1 stop, 44.2 km from its network)"))
        #expect(report.markdown().contains("## Also reached"))
        let json = try #require((report.json()["regions"] as? [[String: Any]])?.first?["alsoReached"] as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["Gilroy Caltrain", "Morgan Hill Caltrain", "San Martin Caltrain"])
    }

    @Test("city networks have no outlying places: every stop with service is covered", arguments: [
        "bart-2018", "wmata-rail-2026", "nyc-subway-2018", "bydgoszcz-2020", "vilnius-2015", "milan-atm-2014",
    ])
    func cityNetworks(_ name: String) throws {
        let network = try Self.network(name)
        let levels = ServiceLevels(network)
        #expect(levels.places.isEmpty, "\(levels.places.map(\.name))")
        let served = network.timetable.stopsWithService()
        for s in 0..<network.timetable.stopCount where served[s] && network.coordinate(ofStop: StopIndex(s)) != nil {
            #expect(levels.inNetwork[s])
        }
    }

    @Test("the sample feed's Death Valley stops, 2 and 4 trips a day 40-60 km out, are outlying")
    func sampleFeed() throws {
        let network = try Self.network("google-sample")
        let levels = ServiceLevels(network)
        #expect(levels.places.map(\.name) == ["Amargosa Valley (Demo)", "Furnace Creek Resort (Demo)"])
        #expect(levels.places.map(\.tripsPerDay) == [4, 2])
        #expect(levels.inNetwork.contains(true))
    }
}
