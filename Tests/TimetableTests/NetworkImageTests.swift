import FeedNetwork
import Foundation
import Geo
import GTFS
import Streets
import Testing
import Timetable
import TransitModel
import TransitStore
import TransitTesting

/// The built network's image (`NetworkImage`): what is read back is what was written (the
/// image of the network read is the image written, byte for byte, and what is made again
/// on reading is the same), a damaged, stale or foreign image is refused, and
/// `NetworkLoad` writes one after a build, reads it on the next load, and builds anew when
/// the database holds something else.
@Suite("the network's image", .serialized)
struct NetworkImageTests {
    static func folder() throws -> String { try FeedFixtures.makeTemporaryDirectory(prefix: "transit-images").path }

    /// The payload as `NetworkImage.write` lays it out (the file's bytes after its header).
    static func imageBytes(_ n: TransitNetwork, key: String = "k") throws -> [UInt8] {
        let path = try folder() + "/x.image"
        try NetworkImage.write(n, key: key, to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every part of two networks that the image does not carry but makes again: stations'
    /// children, the stop grids (through the nearest stops and stops near points), the snaps.
    static func expectSameRebuilt(_ a: TransitNetwork, _ b: TransitNetwork) {
        let tt = a.timetable
        var rng = SeededRandom(seed: 7)
        for s in 0..<tt.stopCount {
            #expect(Array(a.stationChildren[StopIndex(s)]) == Array(b.stationChildren[StopIndex(s)]))
            #expect(a.snap(ofStop: StopIndex(s)) == b.snap(ofStop: StopIndex(s)))
            #expect(a.snap(ofStop: StopIndex(s), wheelchair: true) == b.snap(ofStop: StopIndex(s), wheelchair: true))
        }
        for _ in 0..<50 {
            let s = Int(rng.next() % UInt64(tt.stopCount))
            guard let c = a.coordinate(ofStop: StopIndex(s)) else { continue }
            let p = Geodesic.destination(from: c, azimuthDegrees: Double(rng.next() % 360), meters: Double(rng.next() % 800))
            #expect(a.stopsNear(p, beelineMeters: 600).map(\.stop) == b.stopsNear(p, beelineMeters: 600).map(\.stop))
            #expect(a.nearestStop(p)?.stop == b.nearestStop(p)?.stop)
        }
    }

    @Test("written and read back, on real feeds: the same bytes again, the same names, times and rebuilt parts", arguments: [
        "bart-2018", "caltrain", "google-sample",
    ])
    func roundTrip(feed: String) throws {
        let (snapshot, _) = try SnapshotSink.load(path: try FeedFixtures.feed(feed + ".zip"), feedId: feed)
        let built = try TimetableBuilder.build(snapshot)
        let path = try Self.folder() + "/n.image"
        try NetworkImage.write(built, key: "feed \(feed)", to: path)
        let read = try #require(try NetworkImage.read(path, key: "feed \(feed)"))
        #expect(try Self.imageBytes(read) == Self.imageBytes(built))
        #expect(read.snapshot.stops == built.snapshot.stops && read.snapshot.trips == built.snapshot.trips)
        #expect(read.snapshot.routes == built.snapshot.routes && read.snapshot.services == built.snapshot.services)
        #expect(read.snapshot.agencies == built.snapshot.agencies && read.snapshot.feedInfo == built.snapshot.feedInfo)
        #expect(read.timetable.runTimes == built.timetable.runTimes && read.timetable.profiles == built.timetable.profiles
                && read.timetable.routeArrivalShift == built.timetable.routeArrivalShift && read.timetable.footIn == built.timetable.footIn)
        #expect(read.timetable.routeMinArrival == built.timetable.routeMinArrival)
        #expect(read.warnings == built.warnings)
        Self.expectSameRebuilt(built, read)
    }

    @Test("a corrupt, cut, stale or foreign image is refused with a reason, never read; no file is nil")
    func refused() throws {
        let (snapshot, _) = try SnapshotSink.load(path: try FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let network = try TimetableBuilder.build(snapshot)
        let folder = try Self.folder()
        let path = folder + "/n.image"
        try NetworkImage.write(network, key: "bart v1", to: path)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try NetworkImage.read(folder + "/none.image", key: "bart v1") == nil)
        func refusal(_ data: Data, key: String = "bart v1") -> String? {
            try? data.write(to: URL(fileURLWithPath: path))
            do { _ = try NetworkImage.read(path, key: key); return nil } catch let e as NetworkImage.ImageError { return e.description } catch { return "\(error)" }
        }
        #expect(refusal(good, key: "bart v2")?.contains("other feeds or versions") == true)
        // One byte changed in the middle of the departures: the checksum.
        var flipped = good
        flipped[good.count / 2] ^= 0x40
        #expect(refusal(flipped)?.contains("checksum") == true)
        #expect(refusal(good.prefix(good.count - 100))?.contains("cut short") == true)
        #expect(refusal(good.prefix(10))?.contains("too short") == true)
        #expect(refusal(Data(repeating: 7, count: 4096))?.contains("not a network image") == true)
        // An older format.
        var old = good
        old[NetworkImage.magicLength] = 0
        #expect(refusal(old)?.contains("of format 0") == true)
        #expect(refusal(good) == nil)
    }

    @Test("NetworkLoad: built and written, then read; a new version builds a new image beside the old; a damaged one is rebuilt")
    func load() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let images = ImageFolder(path: try Self.folder() + "/cache")
        let first = try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images)
        guard case .built(let path?, nil) = first.origin else { Issue.record("not written: \(first.origin)"); return }
        let second = try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images)
        #expect(second.origin == .image(path))
        #expect(try Self.imageBytes(second.network) == Self.imageBytes(first.network))
        // A place declared: another key, another image.
        let placed = try NetworkLoad.load(db: conn, feeds: nil, streets: false, places: ["bart": "San Francisco"], images: images)
        guard case .built(let placedPath?, _) = placed.origin else { Issue.record("\(placed.origin)"); return }
        #expect(placedPath != path && placed.network.snapshot.info(feed: 0).place == "San Francisco")
        // A new version: built again, written beside the old one.
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let third = try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images)
        guard case .built(let newPath?, nil) = third.origin else { Issue.record("\(third.origin)"); return }
        #expect(newPath != path && FileManager.default.fileExists(atPath: path))
        // Damaged: refused, rebuilt, replaced.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: newPath))
        bytes[bytes.count - 9] ^= 1
        try bytes.write(to: URL(fileURLWithPath: newPath))
        let fourth = try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images)
        guard case .built(newPath?, let note?) = fourth.origin else { Issue.record("\(fourth.origin)"); return }
        #expect(note.contains("checksum"))
        #expect(try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images).origin == .image(newPath))
        // Another database with the same feed and version: not the same image.
        let other = try TestDatabase()
        defer { other.drop() }
        let otherConn = try other.connect()
        _ = try FeedImporter(db: otherConn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        guard case .built(let otherPath?, nil) = try NetworkLoad.load(db: otherConn, feeds: nil, streets: false, images: images).origin else {
            Issue.record("the other database's load read an image"); return
        }
        #expect(otherPath != path)
        // No folder: built, nothing written.
        #expect(try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: .none).origin == .built(image: nil, note: nil))
    }

    @Test("with streets (Milan): the street footpaths come from the image, the snaps are made again the same")
    func streets() throws {
        let milan = try StreetFixtures.imported("milan")
        let conn = try milan.database.connect()
        let images = ImageFolder(path: try Self.folder())
        let built = try NetworkLoad.load(db: conn, feeds: nil, streets: true, images: images)
        guard case .built(let path?, _) = built.origin else { Issue.record("\(built.origin)"); return }
        let read = try NetworkLoad.load(db: conn, feeds: nil, streets: true, images: images)
        #expect(read.origin == .image(path))
        #expect(read.network.streets != nil && !read.network.timetable.footStreet.isEmpty)
        #expect(try Self.imageBytes(read.network) == Self.imageBytes(built.network))
        Self.expectSameRebuilt(built.network, read.network)
        // Without the streets: another image.
        let beelines = try NetworkLoad.load(db: conn, feeds: nil, streets: false, images: images)
        guard case .built(let other?, _) = beelines.origin else { Issue.record("\(beelines.origin)"); return }
        #expect(other != path && beelines.network.timetable.footStreet.isEmpty)
    }
}
