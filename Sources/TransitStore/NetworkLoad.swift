import FeedNetwork
import Foundation
import Streets
import TransitModel

/// Where the built network's images are kept (`NetworkImage`), or nowhere.
///
/// `--image-dir DIR` (or `TRANSIT_IMAGE_DIR`), `none` for no images; by default
/// `$XDG_CACHE_HOME/transit`, else `~/.cache/transit`. The folder is made when first needed.
public struct ImageFolder: Sendable, Equatable {
    public let path: String?

    public init(path: String?) { self.path = path }

    public static let none = ImageFolder(path: nil)

    /// From the option's value (nil: not given), the environment and the default.
    public static func resolve(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> ImageFolder {
        let chosen = option ?? environment["TRANSIT_IMAGE_DIR"]
        if let chosen { return chosen == "none" || chosen.isEmpty ? .none : ImageFolder(path: chosen) }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return ImageFolder(path: cache + "/transit") }
        if let home = environment["HOME"], !home.isEmpty { return ImageFolder(path: home + "/.cache/transit") }
        return .none
    }
}

/// The network the service plans on, from its image when there is a current one, else read
/// from the database and built (and its image written for the next start).
public enum NetworkLoad {
    public enum Origin: Sendable, Equatable {
        /// Mapped from the image at this path.
        case image(String)
        /// Built from the database; the image written there (nil: none written, with why).
        case built(image: String?, note: String?)
    }

    public struct Loaded: Sendable {
        public let network: TransitNetwork
        public let origin: Origin
    }

    /// How many images a folder keeps (the newest): a new feed version writes a new image
    /// beside the old one; older ones go.
    public static let imagesKept = 4

    /// `feeds` (nil: all loaded), with the walk graph when `streets`; `places` declared
    /// (feed id -> place) before the build. Reads the image whose key matches what the
    /// database holds now (`key`); one that is missing, stale or corrupt is replaced by a
    /// build from the database, written as the new image when the database did not change
    /// meanwhile (the key read again after the load is the same).
    public static func load(db: PGConnection, feeds: [String]?, streets: Bool, places: [String: String] = [:],
                            options: TimetableBuilder.Options = TimetableBuilder.Options(), images: ImageFolder) throws -> Loaded {
        // The walk graph when already read (for the image), not read again for a build.
        var graph: WalkGraph??
        func build() throws -> TransitNetwork {
            let sources = try graph.map { NetworkSources(snapshot: try SnapshotLoader(db: db).load(feeds: feeds), streets: $0) }
                ?? NetworkSources.load(db: db, feeds: feeds, streets: streets)
            var named = sources.snapshot
            for (f, id) in named.feedIds.enumerated() { if let place = places[id] { named.setPlace(place, feed: f) } }
            return try TimetableBuilder.build(named, options: options, graph: sources.streets)
        }
        guard let folder = images.path else { return Loaded(network: try build(), origin: .built(image: nil, note: nil)) }
        let key = try self.key(db: db, feeds: feeds, streets: streets, places: places, options: options)
        let path = folder + "/" + NetworkImage.fileName(key: key)
        var note: String?
        do {
            // The walk graph is read from the database as before (the image holds the
            // timetable's street footpaths, not the graph).
            let streetGraph = streets ? try StreetStore(db: db).load().map(WalkGraph.init) : nil
            graph = .some(streetGraph)
            if let network = try NetworkImage.read(path, key: key, graph: streetGraph) {
                touch(path)
                return Loaded(network: network, origin: .image(path))
            }
        } catch let e as NetworkImage.ImageError {
            note = "\(e.description); rebuilt"
        }
        let network = try build()
        guard try self.key(db: db, feeds: feeds, streets: streets, places: places, options: options) == key else {
            return Loaded(network: network, origin: .built(image: nil, note: "the database changed during the load; no image written"))
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try NetworkImage.write(network, key: key, to: path)
            prune(folder, keeping: path)
            return Loaded(network: network, origin: .built(image: path, note: note))
        } catch {
            return Loaded(network: network, origin: .built(image: nil, note: "cannot write the image \(path): \(error)"))
        }
    }

    /// What an image is built from: the database (its name and oid), each feed's id,
    /// version, import and import instant (to the microsecond), the streets' versions, the
    /// places declared, the build's options, and the image format.
    static func key(db: PGConnection, feeds: [String]?, streets: Bool, places: [String: String], options: TimetableBuilder.Options) throws -> String {
        var parts = ["format \(NetworkImage.formatVersion)"]
        let database = try db.query("SELECT current_database(), (SELECT oid::text FROM pg_database WHERE datname = current_database())")
        parts.append("database \(database.first?[0] ?? "") \(database.first?[1] ?? "")")
        let rows = try db.query("""
            SELECT feed_id, version::text, import_id::text, to_char(imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
            FROM gtfs.feeds ORDER BY feed_id
            """)
        for row in rows where feeds?.contains(row[0] ?? "") ?? true {
            parts.append("feed \(row.map { $0 ?? "" }.joined(separator: " "))")
        }
        if streets {
            for (region, version) in try StreetStore(db: db).versions().sorted(by: { $0.key < $1.key }) { parts.append("streets \(region) \(version)") }
        }
        for (feed, place) in places.sorted(by: { $0.key < $1.key }) { parts.append("place \(feed)=\(place)") }
        parts.append("footpaths \(options.footpathBeelineMeters)")
        return parts.joined(separator: "\n")
    }

    /// Marks an image used now (its modification time), so that pruning keeps those in use.
    private static func touch(_ path: String) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
    }

    /// Removes all but the newest `imagesKept` images of the folder (never `keeping`).
    private static func prune(_ folder: String, keeping: String) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return }
        let images = names.filter { $0.hasPrefix("network-") && $0.hasSuffix(".image") }.map { folder + "/" + $0 }
            .compactMap { p -> (String, Date)? in ((try? fm.attributesOfItem(atPath: p))?[.modificationDate] as? Date).map { (p, $0) } }
            .sorted { $0.1 > $1.1 }
        for (p, _) in images.dropFirst(imagesKept) where p != keeping { try? fm.removeItem(atPath: p) }
    }
}
