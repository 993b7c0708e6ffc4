import Foundation
import GTFS
import Testing
@testable import TransitStore
import TransitTesting

/// `SnapshotLoader` reads feeds back from the database into the same `FeedSnapshot` that
/// `SnapshotSink` builds from their zips (compared after `SnapshotCanonical` puts both in
/// one order: every field, coordinates and distances exactly).
@Suite("Snapshot loader")
struct SnapshotLoaderTests {
    /// Imports `feeds` into a fresh database and hands over a connection to it.
    private func withImported(_ feeds: [(path: String, feedId: String)], _ body: (PGConnection) throws -> Void) throws {
        try withTestDatabase { _, conn in
            for feed in feeds { _ = try FeedImporter(db: conn).importFeed(at: feed.path, feedId: feed.feedId) }
            try body(conn)
        }
    }

    /// Expects no difference between two snapshots, listing the first ones.
    private func expectNoDifferences(_ diffs: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(diffs.isEmpty, "\(what) differs from the zip snapshot:\n\(diffs.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    /// Runs `body` (a load) and prints how long it took.
    private func timed<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        print("SnapshotLoader: \(label) loaded in \(String(format: "%.3f", (clock.now - start).seconds)) s (debug build)")
        return result
    }

    @Test("google-sample: frequencies, one-digit hours")
    func googleSample() throws {
        let path = try FeedFixtures.bundledFeed("google-sample")
        try withImported([(path, "google-sample")]) { conn in
            let s = try timed("google-sample") { try SnapshotLoader(db: conn).load() }
            #expect(s.feedIds == ["google-sample"])
            expectNoDifferences(SnapshotCanonical.differences(s, try SnapshotCanonical.reference([(path, "google-sample")])), "google-sample")
            #expect(s.frequencies.count == 11)
            #expect(s.trips.count == 11 && s.stopTimeCount == 28)

            // The comparison sees a change of one ulp, one second, one date, one NaN.
            var changed = s
            changed.stops[0].latitude = changed.stops[0].latitude!.nextUp
            changed.stopTimeDeparture[27] += 1
            changed.services[0].removed.append(changed.services[0].start!)
            changed.stopTimeShapeDistance[5] = 1
            let diffs = SnapshotCanonical.differences(changed, s)
            #expect(diffs.count == 4, "\(diffs)")
            #expect(diffs.contains { $0.contains("latitude") && $0.contains("(1 ulp apart)") })
            #expect(diffs.contains { $0.contains("departure") } && diffs.contains { $0.contains("removed") }
                    && diffs.contains { $0.contains("shapeDistance: 1.0 against nan") })
            // Frequencies by trip, then start time.
            let keys = s.frequencies.map { (s.trips[Int($0.trip)].tripId, $0.startTime) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { a, b in
                SnapshotCanonical.byteLess(a.0, b.0) || (a.0 == b.0 && a.1 < b.1)
            })
        }
    }

    @Test("bart-2018: transfers")
    func bart() throws {
        let path = try FeedFixtures.sharedFeed("bart-2018")
        try withImported([(path, "bart")]) { conn in
            let s = try timed("bart") { try SnapshotLoader(db: conn).load() }
            expectNoDifferences(SnapshotCanonical.differences(s, try SnapshotCanonical.reference([(path, "bart")])), "bart")
            #expect(!s.transfers.isEmpty)
            #expect(s.transfers.map(\.line) == s.transfers.map(\.line).sorted())
            #expect(s.stopTimeCount == 33_167 && s.trips.count == 2_525)
        }
    }

    /// feed_info.txt's first row and the place declared at import come back from the
    /// database as from the files; a re-import without a place keeps it, with one changes it.
    @Test("bart-2018: feed_info publisher and version, and the declared place")
    func feedInfoAndPlace() throws {
        let path = try FeedFixtures.bundledFeed("bart-2018")
        try withTestDatabase { _, conn in
            _ = try FeedImporter(db: conn).importFeed(at: path, feedId: "bart", place: "San Francisco Bay Area")
            var reference = try SnapshotCanonical.reference([(path, "bart")])
            #expect(reference.feedInfo == [.init(publisherName: "Bay Area Rapid Transit", publisherURL: "http://www.bart.gov", version: "47")])
            reference.feedInfo[0].place = "San Francisco Bay Area"
            expectNoDifferences(SnapshotCanonical.differences(try SnapshotLoader(db: conn).load(), reference), "bart")
            _ = try FeedImporter(db: conn).importFeed(at: path, feedId: "bart")
            #expect(try SnapshotLoader(db: conn).load().info(feed: 0).place == "San Francisco Bay Area")
            _ = try FeedImporter(db: conn).importFeed(at: path, feedId: "bart", place: "Oakland")
            #expect(try SnapshotLoader(db: conn).load().info(feed: 0).place == "Oakland")
            // Caltrain has no feed_info.txt: nothing, from either side.
            _ = try FeedImporter(db: conn).importFeed(at: try FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
            let both = try SnapshotLoader(db: conn).load()
            #expect(both.feedIds == ["bart", "caltrain"] && both.info(feed: 1) == .init())
            #expect(both.regionName(feed: 0) == "Bay Area Rapid Transit, Oakland" && both.regionName(feed: 1) == "Caltrain")
        }
    }

    /// BART gives a shape to every trip, no shape_dist_traveled, and wheelchair_boarding
    /// and wheelchair_accessible 1 everywhere.
    @Test("bart-2018: shapes and wheelchair fields, from files and from the database")
    func bartShapes() throws {
        let path = try FeedFixtures.bundledFeed("bart-2018")
        try withImported([(path, "bart")]) { conn in
            let s = try SnapshotLoader(db: conn).load()
            let reference = try SnapshotCanonical.reference([(path, "bart")])
            expectNoDifferences(SnapshotCanonical.differences(s, reference), "bart")
            // Both in shape_id byte order: the same arrays without canonicalising.
            #expect(s.shapeIds == reference.shapeIds && s.shapePointOffsets == reference.shapePointOffsets)
            #expect(s.shapeLatitude == reference.shapeLatitude && s.shapeLongitude == reference.shapeLongitude)
            #expect(s.shapeIds.count == 12 && s.shapePointOffsets.count == 13 && s.shapeLatitude.count == 25_074)
            #expect(zip(s.shapeIds, s.shapeIds.dropFirst()).allSatisfy { SnapshotCanonical.byteLess($0, $1) })
            #expect(s.shapeFeed.allSatisfy { $0 == 0 } && s.shapeDistance.allSatisfy(\.isNaN))
            #expect(s.shapeLongitude.count == s.shapeLatitude.count && s.shapeDistance.count == s.shapeLatitude.count)
            // Every trip's shape resolves to its shape_id.
            #expect(s.trips.allSatisfy { $0.shape >= 0 && s.shapeIds[Int($0.shape)] == $0.shapeId })
            #expect(s.stops.count == 50 && s.stops.allSatisfy { $0.wheelchairBoarding == 1 })
            #expect(s.trips.allSatisfy { $0.wheelchairAccessible == 1 })
            // A shape's points are the table's, by shape_pt_sequence.
            let shape = Int(s.trips[100].shape)
            let rows = try conn.query("""
                SELECT shape_pt_lat, shape_pt_lon FROM gtfs.shapes WHERE feed_id = 'bart' AND shape_id = $1
                ORDER BY shape_pt_sequence
                """, [s.shapeIds[shape]])
            let points = s.shapePoints(shape)
            #expect(rows.count == points.count && rows.count > 100)
            #expect(rows.map { Double($0[0]!)! } == Array(s.shapeLatitude[points]))
            #expect(rows.map { Double($0[1]!)! } == Array(s.shapeLongitude[points]))
        }
    }

    /// The hand-made feed of `FeedFixtures.makeShapesFeed()`: imported (an UNKNOWN_SHAPE
    /// field error, no row error), then the same values from the database as from the files.
    @Test("Shapes out of sequence order, a trip naming a missing shape, a child stop without wheelchair_boarding")
    func shapesFeed() throws {
        let folder = try FeedFixtures.makeShapesFeed()
        defer { folder.remove() }
        try withTestDatabase { _, conn in
            let result = try FeedImporter(db: conn).importFeed(at: folder.path, feedId: "tiny")
            #expect(result.summary.issues.count(.rowError) == 0)
            #expect(result.summary.issues.count(code: "UNKNOWN_SHAPE") == 1)
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.shapes WHERE feed_id = 'tiny'") == "7")
            #expect(try conn.scalar("SELECT row_counts->>'shapes' FROM gtfs.feeds WHERE feed_id = 'tiny'") == "7")
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.stops WHERE wheelchair_boarding IS NULL") == "1")
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.trips WHERE wheelchair_accessible IS NULL") == "1")

            let s = try SnapshotLoader(db: conn).load()
            let reference = try SnapshotCanonical.reference([(folder.path, "tiny")])
            expectNoDifferences(SnapshotCanonical.differences(s, reference), "shapes feed")
            for (what, x) in [("database", s), ("files", reference)] {
                func trip(_ id: String) -> Int { x.trips.firstIndex { $0.tripId == id }! }
                func stop(_ id: String) -> Int { x.stops.firstIndex { $0.stopId == id }! }
                #expect(x.shapeIds == ["A", "B", "a"], "\(what)")
                #expect(x.shapeFeed == [0, 0, 0] && x.shapePointOffsets == [0, 3, 6, 7], "\(what)")
                #expect(x.shapeLatitude == [52.00, 52.01, 52.02, 52.11, 52.12, 52.13, 52.5], "\(what)")
                #expect(x.shapeLongitude == [21.00, 21.01, 21.02, 21.11, 21.12, 21.13, 21.5], "\(what)")
                #expect(x.shapeDistance.map(\.bitPattern) == [0, Double.nan, 250.5, .nan, .nan, .nan, .nan].map(\.bitPattern),
                        "\(what)")
                #expect(["T1", "T2", "T3", "T4"].map { x.trips[trip($0)].shape } == [1, -1, -1, 0], "\(what)")
                // T2's shape_id names no shape: a field error, stored as empty (T3 has none).
                #expect(x.trips[trip("T2")].shapeId == nil && x.trips[trip("T3")].shapeId == nil, "\(what)")
                #expect(["T1", "T2", "T3", "T4"].map { x.trips[trip($0)].wheelchairAccessible } == [1, 2, 0, 0], "\(what)")
                #expect(["P", "C1", "C2", "S3"].map { x.stops[stop($0)].wheelchairBoarding } == [1, 0, 2, 0], "\(what)")
                #expect(x.stops[stop("C1")].parent == Int32(stop("P")), "\(what)")
            }

            // The comparison sees a changed shape point, trip shape and wheelchair value.
            var changed = s
            changed.shapeLatitude[4] = changed.shapeLatitude[4].nextUp
            changed.shapeDistance[1] = 1
            changed.trips[0].shape = 2
            changed.trips[1].wheelchairAccessible = 0
            changed.stops[0].wheelchairBoarding = 1
            let diffs = SnapshotCanonical.differences(changed, s)
            #expect(diffs.count == 6, "\(diffs)")  // the trip's shape twice: index and id
            #expect(diffs.contains { $0.contains("point 1 of shape 1 (B) latitude") && $0.contains("(1 ulp apart)") })
            #expect(diffs.contains { $0.contains("point 1 of shape 0 (A) distance: 1.0 against nan") })
            #expect(diffs.contains { $0.contains("shape's id: \"a\" against \"B\"") })
            #expect(diffs.contains { $0.contains("wheelchairAccessible") } && diffs.contains { $0.contains("wheelchairBoarding") })
            var broken = s
            broken.shapeFeed.removeLast()
            #expect(SnapshotCanonical.differences(broken, s).contains { $0.contains("shape arrays do not agree") })
        }
    }

    @Test("wmata-rail-2026: parent stations, location types")
    func wmata() throws {
        let path = try FeedFixtures.sharedFeed("wmata-rail-2026")
        try withImported([(path, "wmata")]) { conn in
            let s = try timed("wmata") { try SnapshotLoader(db: conn).load() }
            expectNoDifferences(SnapshotCanonical.differences(s, try SnapshotCanonical.reference([(path, "wmata")])), "wmata")
            #expect(s.stops.contains { $0.parent >= 0 })
            #expect(Set(s.stops.map(\.locationType)).count > 2)
            // Shapes with shape_dist_traveled everywhere; wheelchair_boarding 0, 1 and 2.
            #expect(s.shapeIds.count == 436 && s.shapeLatitude.count == 173_485 && !s.shapeDistance.contains { $0.isNaN })
            #expect(Set(s.stops.map(\.wheelchairBoarding)) == [0, 1, 2])
            #expect(s.trips.allSatisfy { $0.shape >= 0 && s.shapeIds[Int($0.shape)] == $0.shapeId })
            for stop in s.stops where stop.parent >= 0 { #expect(s.stops[Int(stop.parent)].locationType == 1) }
        }
    }

    /// Porto Alegre's two feeds in one database (one test, so that the large EPTC feed is
    /// imported and read from its zip once): EPTC alone, with its untimed stop times; then
    /// both together, as the merge of their zips.
    @Test("porto-alegre-eptc-2019 alone (untimed stop times), and with Trensurb in one database")
    func portoAlegre() throws {
        let eptc = try FeedFixtures.sharedFeed("porto-alegre-eptc-2019")
        let trensurb = try FeedFixtures.sharedFeed("porto-alegre-trensurb-2019")
        let eptcId = "porto-alegre-eptc-2019", trensurbId = "porto-alegre-trensurb-2019"
        // Imported in the other order: the default load orders feeds by id.
        try withImported([(trensurb, trensurbId), (eptc, eptcId)]) { conn in
            let eptcReference = try SnapshotCanonical.reference([(eptc, eptcId)])
            let trensurbReference = try SnapshotCanonical.reference([(trensurb, trensurbId)])

            let alone = try timed(eptcId) { try SnapshotLoader(db: conn).load(feeds: [eptcId]) }
            #expect(alone.feedIds == [eptcId])
            expectNoDifferences(SnapshotCanonical.differences(alone, eptcReference), eptcId)
            let untimed = alone.stopTimeArrival.filter { $0 == SnapshotCanonical.untimed }.count
            #expect(untimed > 0)
            #expect(untimed == alone.stopTimeDeparture.filter { $0 == SnapshotCanonical.untimed }.count)

            let loaded = try timed("both Porto Alegre feeds") { try SnapshotLoader(db: conn).load() }
            #expect(loaded.feedIds == [eptcId, trensurbId])
            let reference = type(of: eptcReference).merging([eptcReference, trensurbReference])
            expectNoDifferences(SnapshotCanonical.differences(loaded, reference), "two feeds")
            // Laid out as FeedSnapshot.merging does: feed 0's entities first, then feed 1's.
            #expect(zip(loaded.stops, loaded.stops.dropFirst()).allSatisfy { $0.feed <= $1.feed })
            #expect(zip(loaded.trips, loaded.trips.dropFirst()).allSatisfy { $0.feed <= $1.feed })
            #expect(Set(loaded.stops.map(\.feed)) == [0, 1])
            let first = loaded.trips.firstIndex { $0.feed == 1 }!
            let firstStop = Int32(loaded.stops.firstIndex { $0.feed == 1 }!)
            #expect(loaded.stopTimes(ofTrip: first).allSatisfy { loaded.stopTimeStop[$0] >= firstStop })
            #expect(loaded.stopTimeCount == alone.stopTimeCount + trensurbReference.stopTimeCount)
        }
    }

    /// Every shared feed in one database against the merge of their zips (shapes of feeds
    /// whose shapes.txt is not in shape_id order, trips without shapes, shapes no trip uses,
    /// every wheelchair value). In every run: 37 s of a debug build on 2 cores (the import
    /// and the reference merge; the load itself 2.5 s).
    @Test("Every shared feed loads as its zip")
    func allSharedFeeds() throws {
        let feeds = try FeedFixtures.sharedFeedNames.sorted().map { (path: try FeedFixtures.sharedFeed($0), feedId: $0) }
        try withImported(feeds) { conn in
            let s = try timed("\(feeds.count) shared feeds") { try SnapshotLoader(db: conn).load() }
            #expect(s.feedIds == feeds.map(\.feedId))
            expectNoDifferences(SnapshotCanonical.differences(s, try SnapshotCanonical.reference(feeds)), "\(feeds.count) shared feeds")
            #expect(s.trips.allSatisfy { $0.shape < 0 || (s.shapeIds[Int($0.shape)] == $0.shapeId && s.shapeFeed[Int($0.shape)] == $0.feed) })
            print("SnapshotLoader: \(s.shapeIds.count) shapes, \(s.shapeLatitude.count) shape points, "
                  + "\(s.trips.filter { $0.shape < 0 }.count) trips without a shape")
        }
    }

    @Test("Entities within a feed are in id byte order; stop times by trip then stop_sequence")
    func order() throws {
        let path = try FeedFixtures.sharedFeed("bart-2018")
        try withImported([(path, "bart")]) { conn in
            let s = try SnapshotLoader(db: conn).load()
            func increasing(_ ids: [String]) -> Bool { zip(ids, ids.dropFirst()).allSatisfy { SnapshotCanonical.byteLess($0, $1) } }
            #expect(increasing(s.agencies.map(\.agencyId)))
            #expect(increasing(s.stops.map(\.stopId)))
            #expect(increasing(s.routes.map(\.routeId)))
            #expect(increasing(s.services.map(\.serviceId)))
            #expect(increasing(s.trips.map(\.tripId)))
            #expect(s.services.allSatisfy { $0.added == $0.added.sorted() && $0.removed == $0.removed.sorted() })
            #expect(s.tripStopTimes.count == s.trips.count + 1 && s.tripStopTimes.last == Int32(s.stopTimeCount))
            // stop_sequence order, from the database.
            let rows = try conn.query("""
                SELECT stop_id FROM gtfs.stop_times WHERE feed_id = 'bart' AND trip_id = $1 ORDER BY stop_sequence
                """, [s.trips[100].tripId])
            #expect(rows.map { $0[0]! } == s.stopTimes(ofTrip: 100).map { s.stops[Int(s.stopTimeStop[$0])].stopId })
        }
    }

    @Test("A subset of the feeds, in the order asked")
    func subset() throws {
        let google = try FeedFixtures.bundledFeed("google-sample")
        let caltrain = try FeedFixtures.bundledFeed("caltrain")
        let bart = try FeedFixtures.sharedFeed("bart-2018")
        try withImported([(google, "google"), (caltrain, "caltrain"), (bart, "bart")]) { conn in
            let loader = SnapshotLoader(db: conn)
            let one = try loader.load(feeds: ["caltrain"])
            #expect(one.feedIds == ["caltrain"])
            #expect(Set(one.stops.map(\.feed)) == [0] && Set(one.trips.map(\.feed)) == [0])
            expectNoDifferences(SnapshotCanonical.differences(one, try SnapshotCanonical.reference([(caltrain, "caltrain")])), "caltrain alone")

            let two = try loader.load(feeds: ["google", "bart"])
            #expect(two.feedIds == ["google", "bart"])
            let reference = try SnapshotCanonical.reference([(google, "google"), (bart, "bart")])
            expectNoDifferences(SnapshotCanonical.differences(two, reference), "google + bart")
            #expect(two.stops.first?.feed == 0 && two.stops.last?.feed == 1)

            // Several connections (stop_times of whole feeds side by side) or one: the same.
            var serial = loader, parallel = loader
            serial.connections = 1
            parallel.connections = 3
            let all = try parallel.load(), one1 = try serial.load()
            #expect(all.feedIds == ["bart", "caltrain", "google"] && one1.feedIds == all.feedIds)
            #expect(all.stops == one1.stops && all.routes == one1.routes && all.trips == one1.trips
                    && all.services == one1.services && all.agencies == one1.agencies)
            #expect(all.tripStopTimes == one1.tripStopTimes && all.stopTimeStop == one1.stopTimeStop
                    && all.stopTimeArrival == one1.stopTimeArrival && all.stopTimeDeparture == one1.stopTimeDeparture
                    && all.stopTimePickup == one1.stopTimePickup && all.stopTimeDropOff == one1.stopTimeDropOff)
            #expect(all.stopTimeShapeDistance.map(\.bitPattern) == one1.stopTimeShapeDistance.map(\.bitPattern))
            #expect(all.frequencies == one1.frequencies && all.transfers == one1.transfers)
            #expect(all.shapeIds == one1.shapeIds && all.shapeFeed == one1.shapeFeed
                    && all.shapePointOffsets == one1.shapePointOffsets && all.shapeLatitude == one1.shapeLatitude
                    && all.shapeLongitude == one1.shapeLongitude)
            #expect(all.shapeDistance.map(\.bitPattern) == one1.shapeDistance.map(\.bitPattern))
            // bart's shapes, then caltrain's (google-sample has none); each trip's shape is
            // one of its own feed's, with its shape_id.
            #expect(Set(all.shapeFeed) == [0, 1] && all.shapeFeed == all.shapeFeed.sorted())
            #expect(all.trips.allSatisfy { t in
                t.shape < 0 ? t.feed == 2 : all.shapeFeed[Int(t.shape)] == t.feed && all.shapeIds[Int(t.shape)] == t.shapeId
            })
            expectNoDifferences(SnapshotCanonical.differences(all, try SnapshotCanonical.reference(
                [(bart, "bart"), (caltrain, "caltrain"), (google, "google")])), "three feeds")

            #expect(throws: StoreError.self) { try loader.load(feeds: ["nope"]) }
            #expect(throws: StoreError.self) { try loader.load(feeds: ["bart", "bart"]) }
            do {
                _ = try loader.load(feeds: ["nope"])
            } catch let e as StoreError {
                #expect(e.code == .feedNotFound)
                #expect(e.message.contains("bart, caltrain, google"))
            }
            // The connection is still usable and outside a transaction after an error.
            #expect(try loader.load(feeds: []).feedIds.isEmpty)
            #expect(try conn.scalar("SELECT 1") == "1")
        }
    }

    @Test("An empty database loads as an empty snapshot")
    func emptyDatabase() throws {
        try withTestDatabase { _, conn in
            let s = try SnapshotLoader(db: conn).load()
            #expect(s.feedIds.isEmpty && s.stops.isEmpty && s.tripStopTimes == [0])
            #expect(throws: StoreError.self) { try SnapshotLoader(db: conn).load(feeds: ["x"]) }
            try StoreSchema.ensure(conn)
            #expect(try SnapshotLoader(db: conn).load().feedIds.isEmpty)
        }
    }

    /// Ids and names that COPY must escape (backslash, tab, newline, CR), non-ASCII text,
    /// coordinates with more digits than a double holds and in every form the importer
    /// accepts, an agency without agency_id, a stop without coordinates, a dangling
    /// parent, a service only in calendar_dates, transfers that are not kept.
    @Test("Escapes, odd numbers and edge cases round-trip")
    func edgeCases() throws {
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "snapshot-edge")
        let folder = FeedFolder(url: dir)
        defer { folder.remove() }
        try folder.write("agency.txt", Data(#"""
            agency_name,agency_url,agency_timezone
            "Zarząd ""Transportu""\#tMiejskiego",http://example.com,Europe/Warsaw

            """#.utf8))
        try folder.write("stops.txt", Data(#"""
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
            ST,Station,52.22977,21.01178,1,,
            "S\1","Back\slash ""quoted""",52.123456789012345678901,21.000000000000004,0,ST,1
            "S\#t2","Line
            break\#rCR",+52.5,.5,,ST,
            Ż3,Łódź Fabryczna,-0.000001,21.,0,GONE,
            NOCOORD,No coordinates,,,0,ST,2A
            S4,Exponent,1.5E-5,-179.99999999999999999,0,,

            """#.utf8))
        try folder.write("routes.txt", Data(#"""
            route_id,route_short_name,route_long_name,route_type,route_color,route_text_color
            "R\1",1,"Tab\#there",3,ffcc00,000000
            R2,,Long only,0,,

            """#.utf8))
        try folder.write("calendar.txt", Data(#"""
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20240101,20241231
            SUN,0,0,0,0,0,0,1,20240107,20241229

            """#.utf8))
        try folder.write("calendar_dates.txt", Data(#"""
            service_id,date,exception_type
            WK,20240501,2
            WK,20240101,2
            EXTRA,20240815,1
            EXTRA,20240501,1

            """#.utf8))
        try folder.write("trips.txt", Data(#"""
            route_id,service_id,trip_id,trip_headsign,shape_id
            "R\1",WK,"T\1",Północ,nope
            R2,EXTRA,T 2,,
            R2,SUN,Ü3,"Multi
            line",

            """#.utf8))
        try folder.write("stop_times.txt", Data(#"""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,shape_dist_traveled
            "T\1",8:00:00,8:00:00,"S\1",1,0,1,0
            "T\1",,,Ż3,5,,,0.000001
            "T\1",8:20:00,8:21:00,S4,9,2,3,1234.56789012345678
            "T\1",8:10:00,8:10:30,"S\#t2",3,,,12.5
            T 2,25:00:00,25:00:00,NOCOORD,10,,,
            T 2,24:30:00,24:31:00,"S\#t2",2,,,
            Ü3,0:00:00,0:00:00,S4,0,,,1e-5
            T 2,26:00:00,26:00:00,S4,20,,,
            Ü3,0:10:00,0:10:00,Ż3,1,,,2e-5

            """#.utf8))
        try folder.write("frequencies.txt", Data(#"""
            trip_id,start_time,end_time,headway_secs
            Ü3,6:00:00,9:00:00,600
            "T\1",5:00:00,6:00:00,900
            Ü3,5:00:00,6:00:00,300

            """#.utf8))
        try folder.write("transfers.txt", Data(#"""
            from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_route_id
            "S\1","S\#t2",2,120,
            "S\1",Ż3,0,,
            "S\1","S\#t2",2,60,
            S4,MISSING,2,60,
            S4,"S\1",1,,R2
            Ż3,"S\1",,,

            """#.utf8))
        try withImported([(folder.path, "edge")]) { conn in
            let loaded = try SnapshotLoader(db: conn).load()
            let reference = try SnapshotCanonical.reference([(folder.path, "edge")])
            // (Ü3 has two stop times: a trip of one is left out, ONE_STOP_TIME.)
            #expect(reference.stops.count == 6 && reference.trips.count == 3 && reference.stopTimeCount == 9)
            expectNoDifferences(SnapshotCanonical.differences(loaded, reference), "edge feed")
            #expect(loaded.stops.map(\.stopId) == ["NOCOORD", "S\t2", "S4", "ST", "S\\1", "Ż3"])
            #expect(loaded.stops.first { $0.stopId == "S\t2" }?.name == "Line\nbreak\rCR")
            #expect(loaded.agencies.map(\.agencyId) == [""])
            #expect(loaded.transfers.map(\.line) == [2, 3, 4, 7])
            #expect(loaded.services.map(\.serviceId) == ["EXTRA", "SUN", "WK"])
            #expect(loaded.services[0].weekdays == 0 && loaded.services[0].start == nil && loaded.services[0].added.count == 2)
            #expect(loaded.stops.first { $0.stopId == "Ż3" }?.parent == -1)
            #expect(loaded.stops.first { $0.stopId == "NOCOORD" }?.latitude == nil)
        }
    }

    /// Two route ids and two service ids that differ only in Unicode normalisation ("é"
    /// precomposed, "e" + combining acute) are different GTFS ids: the importer (IdTable)
    /// and the database (COLLATE "C") keep them apart, and so does the loader.
    @Test("Ids that differ only in Unicode normalisation stay apart")
    func unicodeNormalisation() throws {
        let nfc = "R\u{E9}", nfd = "Re\u{301}", serviceNFC = "S\u{E9}", serviceNFD = "Se\u{301}"
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "snapshot-nfd")
        let folder = FeedFolder(url: dir)
        defer { folder.remove() }
        try folder.write("agency.txt", Data("agency_name,agency_url,agency_timezone\nA,http://a,UTC\n".utf8))
        try folder.write("stops.txt", Data("stop_id,stop_name,stop_lat,stop_lon\nS1,One,1,1\nS2,Two,1.5,1.5\n".utf8))
        try folder.write("routes.txt", Data("route_id,route_type\n\(nfc),3\n\(nfd),0\n".utf8))
        try folder.write("calendar.txt", Data("""
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            \(serviceNFC),1,1,1,1,1,0,0,20240101,20241231
            \(serviceNFD),0,0,0,0,0,1,1,20240101,20241231

            """.utf8))
        try folder.write("trips.txt", Data("route_id,service_id,trip_id\n\(nfc),\(serviceNFC),T1\n\(nfd),\(serviceNFD),T2\n".utf8))
        try folder.write("stop_times.txt", Data("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,8:00:00,8:00:00,S1,1
            T1,8:10:00,8:10:00,S2,2
            T2,9:00:00,9:00:00,S2,1
            T2,9:10:00,9:10:00,S1,2

            """.utf8))
        try withImported([(folder.path, "nfd")]) { conn in
            let s = try SnapshotLoader(db: conn).load()
            #expect(s.routes.map { Array($0.routeId.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])  // byte order
            #expect(s.services.count == 2 && s.trips.map(\.tripId) == ["T1", "T2"])
            #expect(Array(s.routes[Int(s.trips[0].route)].routeId.utf8) == Array(nfc.utf8))
            #expect(Array(s.services[Int(s.trips[1].service)].serviceId.utf8) == Array(serviceNFD.utf8))
            #expect(s.services[Int(s.trips[1].service)].weekdays == 0b110_0000)
            let reference = try SnapshotCanonical.reference([(folder.path, "nfd")])
            // SnapshotSink compares ids byte by byte too (it once merged them as Strings).
            expectNoDifferences(SnapshotCanonical.differences(s, reference), "normalisation feed")
        }
    }

    @Test("PGConnection.copyOut: errors leave the connection usable; duplicate() opens another")
    func connectionAdditions() throws {
        try withTestDatabase { db, conn in
            var rows = 0
            try conn.copyOut("COPY (SELECT i, 'x' FROM generate_series(1, 1000) i) TO STDOUT") { bytes in
                rows += 1
                #expect(Array(bytes) == Array("\(rows)\tx\n".utf8))
            }
            #expect(rows == 1000)
            // A server error after some rows.
            rows = 0
            #expect(throws: StoreError.self) {
                try conn.copyOut("COPY (SELECT 1 / (5000 - i) FROM generate_series(1, 10000) i) TO STDOUT") { _ in rows += 1 }
            }
            #expect(try conn.scalar("SELECT 2") == "2")
            // The caller's error: the rest is drained, the error rethrown.
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try conn.copyOut("COPY (SELECT i FROM generate_series(1, 10000) i) TO STDOUT") { _ in throw Stop() }
            }
            #expect(try conn.scalar("SELECT 3") == "3")
            // Not a COPY TO STDOUT.
            #expect(throws: StoreError.self) { try conn.copyOut("SELECT 1") { _ in } }
            try conn.execute("CREATE TABLE t (x int)")
            #expect(throws: StoreError.self) { try conn.copyOut("COPY t FROM STDIN") { _ in } }
            #expect(throws: StoreError.self) { try conn.copyOut("COPY (SELECT nope) TO STDOUT") { _ in } }
            #expect(try conn.scalar("SELECT count(*) FROM t") == "0")

            let other = try conn.duplicate()
            #expect(other.backendPID != conn.backendPID)
            #expect(try other.scalar("SELECT current_database()") == db.name)
            #expect(try other.scalar("SELECT current_user") == conn.scalar("SELECT current_user"))
        }
    }

    /// The in-place number parser against `Double(String)` and `Int(String)` on the
    /// server's own text for many values.
    @Test("COPY text numbers parse as Double(String) does")
    func numbers() throws {
        try withTestDatabase { _, conn in
            try conn.execute("SET extra_float_digits = 3; SELECT setseed(0.25)")
            var checked = 0
            var mismatches: [String] = []
            try conn.copyOut("""
                COPY (SELECT x, x::text, (x * 1e-7)::float8, (x * 1e-7)::text, (random() * 360 - 180)::float8,
                             round((random() * 1000)::numeric, 2)::float8, (random() * 1e-4)::float8,
                             (random() * 1e20)::float8, i, -i, NULL, E'a\\\\b\\tc\\nd'
                      FROM (SELECT i, (random() * 200 - 100)::float8 AS x FROM generate_series(1, 20000) i) t)
                TO STDOUT
                """) { bytes in
                var row = CopyRow(bytes)
                var fields: [CopyField] = []
                for _ in 0..<12 { fields.append(row.next()) }
                for f in [0, 2, 4, 5, 6, 7] {
                    let text = fields[f].string()!
                    if fields[f].double()?.bitPattern != Double(text)?.bitPattern { mismatches.append(text) }
                }
                if fields[0].double() != Double(fields[1].string()!) { mismatches.append("x::text " + fields[1].string()!) }
                if fields[2].double() != Double(fields[3].string()!) { mismatches.append("(x*1e-7)::text " + fields[3].string()!) }
                if fields[8].int() != Int(fields[8].string()!) || fields[9].int() != Int(fields[9].string()!) {
                    mismatches.append("int " + fields[8].string()!)
                }
                if !fields[10].isNull || fields[10].double() != nil || fields[10].string() != nil { mismatches.append("NULL") }
                if fields[11].string() != "a\\b\tc\nd" { mismatches.append("escapes: \(fields[11].string() ?? "nil")") }
                if !row.next().isNull { mismatches.append("a field past the end") }
                checked += 1
            }
            #expect(checked == 20000)
            #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
            // Fixed cases: signs, zeros, exponents.
            for text in ["-0", "0", "1e-06", "-1.5e+20", "52.22977", "123456789012345", "1234567890123456", "0.1", "-179.99999999999997"] {
                var bytes = Array(text.utf8)
                let value = bytes.withUnsafeMutableBufferPointer { b in
                    var row = CopyRow(UnsafeBufferPointer(b))
                    return row.next().double()
                }
                #expect(value?.bitPattern == Double(text)!.bitPattern, "\(text)")
            }
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (s, a) = components
        return Double(s) + Double(a) / 1e18
    }
}
