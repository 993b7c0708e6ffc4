import Foundation
import GTFS
import TransitModel

/// `fuzz-gtfs`: every GTFS file reader, through `GTFSFeedLoader` into a `SnapshotSink`.
///
/// An input is one selector byte (which of the 13 loaded files, `GTFSSchema.files` order)
/// and the bytes that file becomes; the other files are `GTFSCheck.base`, a small valid
/// feed (Google's sample feed, with levels, pathways, transfers and a shape added). The
/// outcome must be a summary or a `GTFSFatalError` naming the file (and line), never a
/// crash, another error or a hang.
///
/// Properties of a summary: every row handed to the sink has a value of its column's kind
/// and range (texts valid UTF-8 without NUL and trimmed, numbers in range, decimals that
/// `Double` reads, as the snapshot does), required values present, no key twice,
/// references to rows loaded before (a trip's shape, a transfer's stops, routes and trips
/// too); the sink sees every file once, in order; rows skipped equal the row errors
/// reported, but for a trip whose times go backwards: one row error, and every stop time of
/// the trip taken back (`leaveOut`); field errors, warnings and notes skip nothing; issue
/// lines lie within the file; every canonical code is in `CanonicalNotice.rules`, and a
/// field error's is a canonical ERROR. What the canonical rules leave: no kept run of a
/// trip's stop times goes backwards, no station has a parent station and a kept parent is
/// of the type its child needs, no exit gate is two-way. The same outcome when the bytes
/// come in small chunks, and with `strict` the first row error is thrown.
public enum GTFSCheck {
    /// Google's sample feed (Data/google-sample.zip) plus one shape, two levels, a pathway
    /// and two transfers, so that every file has valid rows to refer to.
    public static let base: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            DTA,Demo Transit Authority,http://google.com,America/Los_Angeles

            """,
        "levels.txt": """
            level_id,level_index,level_name
            L0,0,Street
            L1,-1.5,Platform

            """,
        "stops.txt": """
            stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station,level_id
            FUR_CREEK_RES,Furnace Creek Resort (Demo),,36.425288,-117.133162,,,,,
            BEATTY_AIRPORT,Nye County Airport (Demo),,36.868446,-116.784582,,,,,
            BULLFROG,Bullfrog (Demo),,36.881080,-116.817970,,,,,
            STAGECOACH,Stagecoach Hotel & Casino (Demo),,36.915682,-116.751677,,,1,,L0
            NADAV,North Ave / D Ave N (Demo),,36.914893,-116.768210,,,,,
            NANAA,North Ave / N A Ave (Demo),,36.914944,-116.761472,,,,,
            DADAN,Doing Ave / D Ave N (Demo),,36.909489,-116.768242,,,,,
            EMSI,E Main St / S Irving St (Demo),,36.905697,-116.762180,,,,,
            AMV,Amargosa Valley (Demo),,36.641496,-116.400940,,,,,
            STAGECOACH_P1,Stagecoach Platform 1,,,,,,0,STAGECOACH,L1

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_url,route_color,route_text_color
            AB,DTA,10,Airport - Bullfrog,,3,,,
            BFC,DTA,20,Bullfrog - Furnace Creek Resort,,3,,,
            STBA,DTA,30,Stagecoach - Airport Shuttle,,3,,,
            CITY,DTA,40,City,,3,,,
            AAMV,DTA,50,Airport - Amargosa Valley,,3,,FFCC00,000000

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            FULLW,1,1,1,1,1,1,1,20070101,20101231
            WE,0,0,0,0,0,1,1,20070101,20101231

            """,
        "calendar_dates.txt": """
            service_id,date,exception_type
            FULLW,20070604,2

            """,
        "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,36.915682,-116.751677,1,0
            SH1,36.868446,-116.784582,2,5.2

            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id
            AB,FULLW,AB1,to Bullfrog,0,1,
            AB,FULLW,AB2,to Airport,1,2,
            STBA,FULLW,STBA,Shuttle,,,SH1
            CITY,FULLW,CITY1,,0,,
            CITY,FULLW,CITY2,,1,,
            BFC,FULLW,BFC1,to Furnace Creek Resort,0,1,
            BFC,FULLW,BFC2,to Bullfrog,1,2,
            AAMV,WE,AAMV1,to Amargosa Valley,0,,
            AAMV,WE,AAMV2,to Airport,1,,

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled
            STBA,6:00:00,6:00:00,STAGECOACH,1,,,,
            STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,
            CITY1,6:00:00,6:00:00,STAGECOACH,1,,,,
            CITY1,6:05:00,6:07:00,NANAA,2,,,,
            CITY1,6:12:00,6:14:00,NADAV,3,,,,
            CITY2,6:28:00,6:30:00,EMSI,1,,,,
            CITY2,6:35:00,6:37:00,DADAN,2,,,,
            AB1,8:00:00,8:00:00,BEATTY_AIRPORT,1,,,,
            AB1,8:10:00,8:15:00,BULLFROG,2,,,,
            AB2,12:05:00,12:05:00,BULLFROG,1,,,,
            AB2,12:15:00,12:15:00,BEATTY_AIRPORT,2,,,,
            BFC1,8:20:00,8:20:00,BULLFROG,1,,,,
            BFC1,9:20:00,9:20:00,FUR_CREEK_RES,2,,,,
            BFC2,11:00:00,11:00:00,FUR_CREEK_RES,1,,,,
            BFC2,12:00:00,12:00:00,BULLFROG,2,,,,
            AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,1,,,,
            AAMV1,9:00:00,9:00:00,AMV,2,,,,
            AAMV2,25:00:00,25:00:00,AMV,1,,,,
            AAMV2,26:00:00,26:00:00,BEATTY_AIRPORT,2,,,,

            """,
        "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            STBA,6:00:00,22:00:00,1800,
            CITY1,6:00:00,7:59:59,1800,0
            CITY2,8:00:00,9:59:59,600,1

            """,
        "transfers.txt": """
            from_stop_id,to_stop_id,transfer_type,min_transfer_time
            NANAA,NADAV,2,180
            BULLFROG,BULLFROG,1,

            """,
        "pathways.txt": """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time,stair_count,max_slope,min_width,signposted_as,reversed_signposted_as
            P1,STAGECOACH,STAGECOACH_P1,2,1,12.5,30,-20,0.05,1.2,Platform 1,Exit

            """,
        "feed_info.txt": """
            feed_publisher_name,feed_publisher_url,feed_lang,feed_version
            Google,http://google.com,en,2018-09-25

            """,
    ]

    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let selector = input.first else { return }
        let spec = GTFSSchema.files[Int(selector) % GTFSSchema.files.count]
        var files = base.mapValues { Array($0.utf8) }
        files[spec.fileName] = Array(input.dropFirst())
        let h = inputHash(input)

        let whole = try load(files, chunkSize: 1 << 20, strict: false)
        let chunk = Int(h % 64) + 1
        let chunked = try load(files, chunkSize: chunk, strict: false)
        guard chunked == whole else {
            throw FuzzFailure("fuzz-gtfs", "\(spec.fileName) read in chunks of \(chunk) bytes: \(chunked), in one chunk: \(whole)")
        }
        let strict = try load(files, chunkSize: 1 << 20, strict: true)
        switch whole {
        case .loaded(_, let firstRowError):
            let expected: Outcome = firstRowError.map { .fatal($0) } ?? whole
            guard strict == expected else {
                throw FuzzFailure("fuzz-gtfs", "strict: \(strict), expected \(expected) (the first row error, or the same summary)")
            }
        case .fatal(let issue):
            guard case .fatal(let s) = strict, s == issue || s.severity == .rowError else {
                throw FuzzFailure("fuzz-gtfs", "strict: \(strict), expected \(issue) or an earlier row error")
            }
        }
    }

    /// What a load came to, comparable between runs.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A digest of the summary and the rows, and the first row error reported.
        case loaded(String, firstRowError: GTFSIssue?)
        case fatal(GTFSIssue)
        var description: String {
            switch self {
            case .loaded(let s, let e): "loaded (\(s.count) bytes of digest\(e.map { ", first row error \($0)" } ?? ""))"
            case .fatal(let i): "fatal \(i)"
            }
        }
    }

    static func load(_ files: [String: [UInt8]], chunkSize: Int, strict: Bool) throws(FuzzFailure) -> Outcome {
        func fail(_ m: String) -> FuzzFailure { FuzzFailure("fuzz-gtfs", (strict ? "strict: " : "") + m) }
        let lineCounts = files.mapValues { b in b.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) } }
        func checkPlace(_ issue: GTFSIssue) throws(FuzzFailure) {
            guard let lines = lineCounts[issue.file] else { throw fail("an issue names \(issue.file), not a file of the feed: \(issue)") }
            if let line = issue.line, line < 1 || line > lines {
                throw fail("an issue at line \(line) of a file with at most \(lines) lines: \(issue)")
            }
        }
        let source = MemoryFeedSource(files: files, chunkSize: chunkSize)
        let sink = CheckingSink()
        let summary: GTFSLoadSummary
        do {
            summary = try GTFSFeedLoader(source: source, strict: strict).load(into: sink)
        } catch let e as GTFSFatalError {
            if let f = sink.failure { throw fail(f) }
            guard e.issue.severity == .fatal || (strict && e.issue.severity == .rowError) else {
                throw fail("thrown with severity \(e.issue.severity): \(e.issue)")
            }
            try checkPlace(e.issue)
            return .fatal(e.issue)
        } catch {
            throw fail("the loader threw \(type(of: error)), not a GTFSFatalError: \(error)")
        }
        if let f = sink.failure { throw fail(f) }
        guard sink.ended == GTFSSchema.files.map(\.fileName) else {
            throw fail("the sink saw files \(sink.ended), expected every file in GTFSSchema order")
        }
        guard summary.files.map(\.file) == GTFSSchema.files.map(\.fileName) else {
            throw fail("the summary lists files \(summary.files.map(\.file))")
        }
        var rowErrors: [String: Int] = [:]
        var tripsGoingBackwards = 0
        for entry in summary.issues.entries {
            let kind = entry.kind
            guard kind.severity != .fatal else { throw fail("a fatal issue in a summary: \(entry.examples)") }
            if kind.severity == .rowError { rowErrors[kind.file, default: 0] += entry.count }
            // The codes that leave a whole trip out: times going backwards, a single stop
            // time, an untimed first or last stop time.
            if ["TIME_GOES_BACKWARDS", "ONE_STOP_TIME", "TRIP_END_WITHOUT_TIME"].contains(kind.code) {
                guard kind.severity == .rowError, kind.file == "stop_times.txt" else { throw fail("\(kind): not a row error of stop_times.txt") }
                tripsGoingBackwards += entry.count
            }
            if let canonical = kind.canonical {
                guard let rule = CanonicalNotice.rules[canonical] else { throw fail("\(kind): \(canonical) is not in CanonicalNotice.rules") }
                if kind.severity == .fieldError && rule.severity != .error {
                    throw fail("\(kind): a field error for a canonical \(rule.severity.rawValue)")
                }
            } else if kind.severity == .fieldError {
                throw fail("\(kind): a field error without a canonical code")
            }
            for example in entry.examples {
                try checkPlace(example)
                guard example.severity == kind.severity, example.code == kind.code, example.canonical == kind.canonical else {
                    throw fail("an example \(example) filed under \(kind)")
                }
            }
        }
        // One row error per trip left out, which takes back all of the trip's stop times.
        guard tripsGoingBackwards == sink.leftOutTrips.count else {
            throw fail("\(tripsGoingBackwards) trips left out reported, \(sink.leftOutTrips.count) left out: \(sink.leftOutTrips)")
        }
        for stats in summary.files {
            guard stats.present == (files[stats.file] != nil), stats.rowsLoaded == sink.rows[stats.file, default: 0],
                  stats.rowsRead >= stats.rowsLoaded else {
                throw fail("\(stats.file): \(stats), but the sink got \(sink.rows[stats.file, default: 0]) rows")
            }
            var skipped = rowErrors[stats.file, default: 0]
            if stats.file == "stop_times.txt" { skipped += sink.stopTimesTakenBack - tripsGoingBackwards }
            guard stats.rowsSkipped == skipped else {
                throw fail("\(stats.file): \(stats.rowsSkipped) rows skipped but \(rowErrors[stats.file, default: 0]) row errors reported"
                           + (stats.file == "stop_times.txt" ? " (\(tripsGoingBackwards) of them trips going backwards, \(sink.stopTimesTakenBack) rows taken back)" : ""))
            }
        }
        let snapshot = sink.snapshot.snapshot
        guard snapshot.stops.count == sink.rows["stops.txt", default: 0], snapshot.trips.count == sink.rows["trips.txt", default: 0],
              snapshot.stopTimeStop.count == sink.rows["stop_times.txt", default: 0],
              snapshot.tripStopTimes.count == snapshot.trips.count + 1 else {
            throw fail("the snapshot holds \(snapshot.stops.count) stops, \(snapshot.trips.count) trips, "
                       + "\(snapshot.stopTimeStop.count) stop times; the sink got \(sink.rows)")
        }
        for (i, stop) in snapshot.stops.enumerated() where (stop.latitude == nil) != sink.stopsWithoutCoordinates.contains(i) {
            throw fail("stop \(stop.stopId.debugDescription): the loader passed its coordinates as \(sink.stopsWithoutCoordinates.contains(i) ? "absent" : "given"), the snapshot has \(stop.latitude.map { "\($0)" } ?? "none")")
        }
        var digest = "\(summary.files.map { "\($0.file) \($0.present) \($0.rowsRead) \($0.rowsLoaded) \($0.bytes)" })"
        digest += "|\(summary.issues.entries.map { "\($0.kind) \($0.count) \($0.examples)" })"
        digest += "|\(String(describing: summary.firstServiceDate)) \(String(describing: summary.lastServiceDate))"
        digest += "|\(summary.feedVersion ?? "-") \(summary.agencyTimezones)|\(sink.digest)"
        let firstRowError = summary.issues.entries.first { $0.kind.severity == .rowError }?.examples.first
        return .loaded(digest, firstRowError: firstRowError)
    }

    /// Files of `base` that break the canonical rules the loader acts on, each with rows it
    /// must keep: times going backwards (in a trip whose rows come in two runs, too), parent
    /// stations of the wrong type, a two-way exit gate, a traversal time of 0, shape points
    /// at one distance, a missing shape, transfers to nothing, route types and colours.
    public static let ruleBreaking: [String: String] = [
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled
            STBA,6:00:00,6:00:00,STAGECOACH,1,,,,
            STBA,5:50:00,5:50:00,BEATTY_AIRPORT,2,,,,
            CITY1,6:00:00,6:00:00,STAGECOACH,1,,,,
            CITY1,6:05:00,6:07:00,NANAA,2,,,,
            CITY2,6:28:00,6:30:00,EMSI,1,,,,
            CITY2,6:35:00,6:34:00,DADAN,2,,,,
            CITY1,6:12:00,6:14:00,NADAV,3,,,,
            CITY1,6:10:00,6:16:00,EMSI,4,,,,
            AB1,8:10:00,8:15:00,BULLFROG,2,,,,
            AB1,8:00:00,8:00:00,BEATTY_AIRPORT,1,,,,
            AB2,12:05:00,12:05:00,BULLFROG,1,,,,
            AB2,12:15:00,12:15:00,BEATTY_AIRPORT,2,,,,

            """,
        "stops.txt": """
            stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station,level_id
            FUR_CREEK_RES,Furnace Creek Resort (Demo),,36.425288,-117.133162,,,,BEATTY_AIRPORT,
            BEATTY_AIRPORT,Nye County Airport (Demo),,36.868446,-116.784582,,,1,STAGECOACH,
            BULLFROG,Bullfrog (Demo),,36.881080,-116.817970,,,,NOWHERE,
            STAGECOACH,Stagecoach Hotel & Casino (Demo),,36.915682,-116.751677,,,1,,L0
            NADAV,North Ave / D Ave N (Demo),,36.914893,-116.768210,,,2,STAGECOACH,
            NANAA,North Ave / N A Ave (Demo),,36.914944,-116.761472,,,2,NADAV,
            DADAN,Doing Ave / D Ave N (Demo),,36.909489,-116.768242,,,,,
            EMSI,E Main St / S Irving St (Demo),,36.905697,-116.762180,,,,,
            AMV,Amargosa Valley (Demo),,36.641496,-116.400940,,,,,
            STAGECOACH_P1,Stagecoach Platform 1,,,,,,0,STAGECOACH,L1
            STAGECOACH_B1,Boarding area,,,,,,4,STAGECOACH_P1,L1
            STAGECOACH_B2,Boarding area,,,,,,4,STAGECOACH,L1
            STAGECOACH_N1,Node,,,,,,3,STAGECOACH_P1,L1

            """,
        "pathways.txt": """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time,stair_count,max_slope,min_width,signposted_as,reversed_signposted_as
            P1,STAGECOACH,STAGECOACH_P1,2,1,12.5,30,-20,0.05,1.2,Platform 1,Exit
            P2,STAGECOACH_P1,STAGECOACH,7,1,3,0,,,,,
            P3,STAGECOACH_P1,STAGECOACH,7,0,-3,x,,,,,

            """,
        "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,36.915682,-116.751677,1,0
            SH1,36.900100,-116.760000,3,100
            SH1,36.900000,-116.760000,2,100
            SH1,36.900005,-116.760000,4,100
            SH1,36.900005,-116.760000,5,100
            SH1,36.868446,-116.784582,6,5200

            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id
            AB,FULLW,AB1,to Bullfrog,0,1,NO_SHAPE
            AB,FULLW,AB2,to Airport,2,2,
            STBA,FULLW,STBA,Shuttle,x,,SH1
            CITY,FULLW,CITY1,,0,,
            CITY,FULLW,CITY2,,1,,
            BFC,FULLW,BFC1,to Furnace Creek Resort,0,1,
            BFC,FULLW,BFC2,to Bullfrog,1,2,
            AAMV,WE,AAMV1,to Amargosa Valley,0,,
            AAMV,WE,AAMV2,to Airport,1,,

            """,
        "transfers.txt": """
            from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time
            NANAA,NADAV,,,,,2,180
            NOWHERE,NADAV,,,,,2,180
            NANAA,NADAV,NO_ROUTE,AB,,,1,
            NANAA,NADAV,,,AB1,NO_TRIP,1,
            BULLFROG,BULLFROG,AB,BFC,AB1,BFC1,1,

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_url,route_color,route_text_color
            AB,DTA,10,Airport - Bullfrog,,700,,red,0
            BFC,DTA,20,Bullfrog - Furnace Creek Resort,,1799,,,
            STBA,DTA,30,Stagecoach - Airport Shuttle,,3,,,
            CITY,DTA,40,City,,3,,,
            AAMV,DTA,50,Airport - Amargosa Valley,,3,,FFCC00,000000
            NINE,DTA,90,Nine,,9,,,

            """,
    ]

    /// Seeds: each sampled file under its own selector, each base file as it is, and the
    /// files breaking the canonical rules.
    public static func seeds(_ samples: [FeedSample]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (i, spec) in GTFSSchema.files.enumerated() {
            out.append([UInt8(i)] + Array(base[spec.fileName]!.utf8))
            if let b = ruleBreaking[spec.fileName] { out.append([UInt8(i)] + Array(b.utf8)) }
            for s in samples { if let b = s.files[spec.fileName] { out.append([UInt8(i)] + b) } }
        }
        return out
    }

    public static func dictionary(_ samples: [FeedSample]) -> [String] {
        var words = Set(GTFSSchema.files.flatMap { $0.columns.map(\.name) })
        for id in ["FUR_CREEK_RES", "BEATTY_AIRPORT", "BULLFROG", "STAGECOACH", "STAGECOACH_P1", "NADAV", "NANAA", "AB", "STBA",
                   "CITY1", "AAMV2", "FULLW", "WE", "DTA", "SH1", "L0", "L1", "P1", "America/Los_Angeles", "Europe/Warsaw",
                   "20070604", "25:00:00", "6:00:00", "36.9", "-116.7", "1e3", "FFCC00"] { words.insert(id) }
        return words.sorted()
    }
}

/// The loader's sink in the check: checks each row against its file's spec, then hands it
/// to a `SnapshotSink` (what the planner reads feeds into).
final class CheckingSink: GTFSRowSink {
    let snapshot = SnapshotSink(feedId: "fuzz")
    /// The first property a row broke (the loader would turn a thrown error into its own).
    private(set) var failure: String?
    private(set) var ended: [String] = []
    private(set) var rows: [String: Int] = [:]
    /// stops.txt rows (in load order) that came without stop_lat.
    private(set) var stopsWithoutCoordinates = Set<Int>()
    /// A running hash of every value, to compare two loads.
    private(set) var digest: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Trips `leaveOut` took back, and their stop times.
    private(set) var leftOutTrips: [[UInt8]] = []
    private(set) var stopTimesTakenBack = 0

    private var current: GTFSFileSpec?
    private var named: Set<Int>?
    private var keyColumns: [Int] = []
    private var keys = Set<[CheckedValue]>()
    /// Ids loaded so far, by file and column: what later files may refer to.
    private var loaded: [String: Set<[UInt8]>] = [:]

    enum CheckedValue: Hashable { case null, int(Int), date(ServiceDate), raw([UInt8]) }

    private func record(_ m: String) { if failure == nil { failure = m } }

    func beginFile(_ spec: GTFSFileSpec) throws {
        if current != nil { record("beginFile(\(spec.fileName)) before endFile(\(current!.fileName))") }
        guard GTFSSchema.files.count > ended.count, GTFSSchema.files[ended.count] == spec else {
            record("beginFile(\(spec.fileName)) after \(ended)"); return
        }
        current = spec
        named = nil
        keyColumns = spec.key.compactMap { spec.columnIndex($0) }
        keys = []
        try snapshot.beginFile(spec)
    }

    func beginRows(_ spec: GTFSFileSpec, columns: [Int]) throws {
        if spec != current || named != nil { record("beginRows(\(spec.fileName)) out of turn") }
        if columns != columns.sorted() || Set(columns).count != columns.count || columns.contains(where: { $0 < 0 || $0 >= spec.columns.count }) {
            record("beginRows(\(spec.fileName)) with columns \(columns)")
        }
        named = Set(columns)
        try snapshot.beginRows(spec, columns: columns)
    }

    func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {
        guard let spec = current, let named else { record("a row outside beginRows/endFile"); return }
        let file = spec.fileName
        guard values.count == spec.columns.count else {
            record("\(file): a row of \(values.count) values for \(spec.columns.count) columns"); return
        }
        var checked: [CheckedValue] = []
        for (i, column) in spec.columns.enumerated() {
            let v = values[i]
            let c: CheckedValue
            switch v {
            case .null: c = .null
            case .int(let n): c = .int(n)
            case .date(let d): c = .date(d)
            case .raw(let b): c = .raw(Array(b))
            }
            checked.append(c)
            if let problem = Self.problem(c, column, named: named.contains(i)) {
                record("\(file) row \(rows[file, default: 0] + 1), \(column.name): \(problem)")
                return
            }
        }
        if !keyColumns.isEmpty, !keys.insert(keyColumns.map { checked[$0] }).inserted {
            record("\(file): the key \(spec.key) = \(keyColumns.map { checked[$0] }) is loaded twice")
        }
        func id(_ name: String) -> [UInt8]? {
            if case .raw(let b)? = spec.columnIndex(name).map({ checked[$0] }) { return b }
            return nil
        }
        func mustExist(_ column: String, in target: String) {
            if let v = id(column), loaded[target]?.contains(v) != true {
                record("\(file): \(column) \(String(decoding: v, as: UTF8.self).debugDescription) names no loaded row of \(target)")
            }
        }
        func note(_ column: String, as target: String) { if let v = id(column) { loaded[target, default: []].insert(v) } }
        func int(_ name: String) -> Int? {
            if case .int(let n)? = spec.columnIndex(name).map({ checked[$0] }) { return n }
            return nil
        }
        switch file {
        case "agency.txt": note("agency_id", as: "agency")
        case "stops.txt":
            note("stop_id", as: "stop")
            if case .null = checked[spec.columnIndex("stop_lat")!] { stopsWithoutCoordinates.insert(rows[file, default: 0]) }
            if let stop = id("stop_id") { stopTypes[stop] = int("location_type") ?? 0 }
            if let stop = id("stop_id"), let parent = id("parent_station") { stopParents.append((stop, parent)) }
        case "routes.txt": mustExist("agency_id", in: "agency"); note("route_id", as: "route")
        case "calendar.txt", "calendar_dates.txt": note("service_id", as: "service")
        case "shapes.txt": note("shape_id", as: "shape")
        case "trips.txt":
            mustExist("route_id", in: "route"); mustExist("service_id", in: "service"); mustExist("shape_id", in: "shape")
            note("trip_id", as: "trip")
        case "stop_times.txt":
            mustExist("trip_id", in: "trip"); mustExist("stop_id", in: "stop")
            if let trip = id("trip_id"), let sequence = int("stop_sequence") {
                if trip != stopTimeRuns.last?.trip { stopTimeRuns.append((trip, [])) }
                stopTimeRuns[stopTimeRuns.count - 1].rows.append((sequence, int("arrival_time"), int("departure_time")))
            }
        case "frequencies.txt": mustExist("trip_id", in: "trip")
        case "transfers.txt":
            mustExist("from_stop_id", in: "stop"); mustExist("to_stop_id", in: "stop")
            mustExist("from_route_id", in: "route"); mustExist("to_route_id", in: "route")
            mustExist("from_trip_id", in: "trip"); mustExist("to_trip_id", in: "trip")
        case "pathways.txt":
            mustExist("from_stop_id", in: "stop"); mustExist("to_stop_id", in: "stop")
            if int("pathway_mode") == 7 && int("is_bidirectional") != 0 {
                record("pathways.txt: a two-way exit gate (pathway_mode 7, is_bidirectional 1) loaded as it is")
            }
        default: break
        }
        var h = digest
        for c in checked { h = (h ^ UInt64(truncatingIfNeeded: c.hashValue)) &* 0x100_0000_01B3 }
        // hashValue is seeded per process, which is fine: both loads run in one process.
        digest = h
        rows[file, default: 0] += 1
        if file == "stop_times.txt", let trip = id("trip_id") { stopTimesOfTrip[trip, default: 0] += 1 }
        try snapshot.row(values)
    }

    /// stop_times.txt rows per trip_id, for `leaveOut`.
    private var stopTimesOfTrip: [[UInt8]: Int] = [:]
    /// stops.txt: each stop's location_type, and the (stop, parent_station) pairs.
    private var stopTypes: [[UInt8]: Int] = [:]
    private var stopParents: [(stop: [UInt8], parent: [UInt8])] = []
    /// stop_times.txt as runs of one trip's rows (as the loader checks them): stop_sequence,
    /// arrival and departure.
    private var stopTimeRuns: [(trip: [UInt8], rows: [(sequence: Int, arrival: Int?, departure: Int?)])] = []

    func leaveOut(trips: [String]) throws {
        if current?.fileName != "stop_times.txt" { record("leaveOut outside stop_times.txt") }
        if !leftOutTrips.isEmpty { record("leaveOut twice") }
        for t in trips {
            let trip = Array(t.utf8)
            guard let n = stopTimesOfTrip[trip] else { record("leaveOut of trip \(t), which has no stop times"); continue }
            if leftOutTrips.contains(trip) { record("leaveOut of trip \(t) twice") }
            leftOutTrips.append(trip)
            stopTimesTakenBack += n
            rows["stop_times.txt", default: 0] -= n
        }
        try snapshot.leaveOut(trips: trips)
    }

    func endFile(_ spec: GTFSFileSpec) throws {
        if spec != current { record("endFile(\(spec.fileName)) while in \(current?.fileName ?? "no file")") }
        current = nil
        ended.append(spec.fileName)
        switch spec.fileName {
        case "stops.txt": checkParents()
        case "stop_times.txt": checkTimesGoForward()
        default: break
        }
        try snapshot.endFile(spec)
    }

    private func show(_ id: [UInt8]) -> String { String(decoding: id, as: UTF8.self).debugDescription }

    /// No station has a parent station; a parent kept is of the type its child needs (a
    /// station; a platform for a boarding area) when its row is loaded.
    private func checkParents() {
        for (stop, parent) in stopParents {
            let type = stopTypes[stop] ?? 0
            if type == 1 { record("stops.txt: station \(show(stop)) loaded with parent_station \(show(parent))") }
            if let parentType = stopTypes[parent], parentType != (type == 4 ? 0 : 1) {
                record("stops.txt: \(show(stop)) (location_type \(type)) loaded with parent \(show(parent)) of location_type \(parentType)")
            }
        }
    }

    /// In every run of a kept trip's stop times, in stop_sequence order: no departure before
    /// its arrival, no time before the last one of the stops before (an untimed stop holds it).
    private func checkTimesGoForward() {
        let out = Set(leftOutTrips)
        for run in stopTimeRuns where !out.contains(run.trip) {
            var previous: Int?
            for r in run.rows.sorted(by: { $0.sequence < $1.sequence }) {
                if let a = r.arrival, let d = r.departure, d < a {
                    record("stop_times.txt: trip \(show(run.trip)) kept, leaving stop_sequence \(r.sequence) at \(d) before arriving at \(a)")
                    return
                }
                if let previous, let t = r.arrival ?? r.departure, t < previous {
                    record("stop_times.txt: trip \(show(run.trip)) kept, at stop_sequence \(r.sequence) at \(t), before \(previous)")
                    return
                }
                previous = r.departure ?? r.arrival ?? previous
            }
        }
    }

    /// Why a value does not fit its column, or nil.
    static func problem(_ v: CheckedValue, _ column: GTFSColumn, named: Bool) -> String? {
        if case .null = v { return column.rule == .required ? "a required value is missing" : nil }
        if column.kind == .lineNumber {
            guard case .int(let n) = v, n >= 2 else { return "line number \(v)" }
            return nil
        }
        guard named else { return "a value in a column the header does not name: \(v)" }
        func decimal(_ b: [UInt8], _ range: ClosedRange<Double>?) -> String? {
            guard let d = Double(String(decoding: b, as: UTF8.self)), d.isFinite else {
                return "\(String(decoding: b, as: UTF8.self).debugDescription) passed as a number, but Double cannot read it"
            }
            if let range, !range.contains(d) { return "\(d) passed, outside \(range)" }
            return nil
        }
        switch (column.kind, v) {
        case (.text, .raw(let b)), (.id, .raw(let b)):
            guard String(validating: b, as: UTF8.self) != nil, !b.contains(0) else { return "text that is not UTF-8 or holds NUL: \(b)" }
            guard let f = b.first, let l = b.last, f != 0x20, f != 0x09, l != 0x20, l != 0x09 else { return "text not trimmed: \(b)" }
            return nil
        case (.integer(let r), .int(let n)): return r.contains(n) ? nil : "\(n) outside \(r)"
        case (.enumeration(let allowed), .int(let n)): return allowed.contains(n) ? nil : "\(n) not one of \(allowed)"
        case (.time, .int(let n)):
            return (0...(ServiceTime.maxHours * 3600 + 3599)).contains(n) ? nil : "time \(n) s"
        case (.date, .date(let d)): return (1900...2999).contains(d.components.year) ? nil : "date \(d)"
        case (.double, .raw(let b)): return decimal(b, nil)
        case (.nonNegativeDouble, .raw(let b)): return decimal(b, 0...Double.greatestFiniteMagnitude)
        case (.latitude, .raw(let b)): return decimal(b, -90...90)
        case (.longitude, .raw(let b)): return decimal(b, -180...180)
        case (.color, .raw(let b)):
            return b.count == 6 && b.allSatisfy(FieldParsing.isHexDigit) ? nil : "colour \(String(decoding: b, as: UTF8.self))"
        default: return "a value of the wrong kind for \(column.kind): \(v)"
        }
    }
}
