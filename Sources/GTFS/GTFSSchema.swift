/// What kind of value a GTFS column holds, how it is checked, and how it is stored.
public enum GTFSFieldKind: Sendable, Equatable {
    /// Free UTF-8 text (names, URLs, time zones). Stored as `text`.
    case text
    /// An identifier (`stop_id`, `trip_id`, …): UTF-8 text, surrounding spaces trimmed.
    case id
    /// An integer within the range. Stored as `integer`.
    case integer(ClosedRange<Int>)
    /// A small enumerated integer; the allowed values. Stored as `smallint`.
    case enumeration([Int])
    /// A non-negative decimal number (distances, lengths). Stored as `double precision`.
    case nonNegativeDouble
    /// Any decimal number. Stored as `double precision`.
    case double
    /// WGS84 latitude in degrees, -90…90. Stored as `double precision`.
    case latitude
    /// WGS84 longitude in degrees, -180…180. Stored as `double precision`.
    case longitude
    /// `YYYYMMDD`. Stored as `date`.
    case date
    /// `H:MM:SS`, hours may pass 23. Stored as `integer` seconds since noon minus 12 h.
    case time
    /// Six hex digits (`FFCC00`). Stored as `text`, upper-cased as written.
    case color
    /// Not read from the file: the 1-based line number of the row (for rules where the
    /// later row in the file wins, e.g. transfers.txt). Stored as `integer`.
    case lineNumber

    /// The PostgreSQL column type.
    public var sqlType: String {
        switch self {
        // Ids compare byte by byte: the "C" collation gives that order and lets PostgreSQL
        // build and use their indexes with memcmp instead of the locale's strcoll.
        case .id: return "text COLLATE \"C\""
        case .text, .color: return "text"
        case .integer, .time, .lineNumber: return "integer"
        case .enumeration: return "smallint"
        case .double, .nonNegativeDouble, .latitude, .longitude: return "double precision"
        case .date: return "date"
        }
    }
}

/// What happens when a value does not parse or is missing.
public enum GTFSColumnRule: Sendable, Equatable {
    /// The value must be present and valid, else the row is skipped (row error).
    case required
    /// May be empty; a present but invalid value skips the row (row error): routing needs it.
    case optionalStrict
    /// May be empty; a present but invalid value is stored as NULL with a warning.
    case optionalLenient
}

/// One column of a GTFS file.
public struct GTFSColumn: Sendable, Equatable {
    public let name: String
    public let kind: GTFSFieldKind
    public let rule: GTFSColumnRule
    /// True when the header must name this column (a missing one is fatal).
    public let headerRequired: Bool

    public init(_ name: String, _ kind: GTFSFieldKind, _ rule: GTFSColumnRule = .optionalLenient,
                headerRequired: Bool? = nil) {
        self.name = name
        self.kind = kind
        self.rule = rule
        self.headerRequired = headerRequired ?? (rule == .required)
    }
}

/// One GTFS Schedule file the importer loads, its columns and its database table.
public struct GTFSFileSpec: Sendable, Equatable {
    /// File name inside the feed, e.g. `stop_times.txt`.
    public let fileName: String
    /// Table name (the file name without `.txt`).
    public var table: String { String(fileName.dropLast(4)) }
    public let columns: [GTFSColumn]
    /// True when a feed without this file is refused (fatal). calendar.txt and
    /// calendar_dates.txt are each optional, but one of the two must be present.
    public let required: Bool
    /// The columns that identify a row within a feed (primary key in the database; a
    /// repeated key is a row error).
    public let key: [String]

    public init(_ fileName: String, required: Bool = false, key: [String], _ columns: [GTFSColumn]) {
        self.fileName = fileName
        self.required = required
        self.key = key
        self.columns = columns
    }

    public func columnIndex(_ name: String) -> Int? { columns.firstIndex { $0.name == name } }
}

/// The GTFS Schedule files this project loads, in load order (a file is loaded after
/// every file it refers to, so references are checked as rows stream by).
public enum GTFSSchema {
    public static let agency = GTFSFileSpec("agency.txt", required: true, key: ["agency_id"], [
        GTFSColumn("agency_id", .id, .optionalStrict),
        GTFSColumn("agency_name", .text, .required),
        GTFSColumn("agency_url", .text, .optionalLenient),
        GTFSColumn("agency_timezone", .text, .required),
        GTFSColumn("agency_lang", .text),
        GTFSColumn("agency_phone", .text),
        GTFSColumn("agency_fare_url", .text),
        GTFSColumn("agency_email", .text),
    ])

    public static let levels = GTFSFileSpec("levels.txt", key: ["level_id"], [
        GTFSColumn("level_id", .id, .required),
        GTFSColumn("level_index", .double, .required),
        GTFSColumn("level_name", .text),
    ])

    public static let stops = GTFSFileSpec("stops.txt", required: true, key: ["stop_id"], [
        GTFSColumn("stop_id", .id, .required),
        GTFSColumn("stop_code", .text),
        GTFSColumn("stop_name", .text),
        GTFSColumn("tts_stop_name", .text),
        GTFSColumn("stop_desc", .text),
        GTFSColumn("stop_lat", .latitude, .optionalStrict, headerRequired: true),
        GTFSColumn("stop_lon", .longitude, .optionalStrict, headerRequired: true),
        GTFSColumn("zone_id", .text),
        GTFSColumn("stop_url", .text),
        GTFSColumn("location_type", .enumeration([0, 1, 2, 3, 4]), .optionalStrict),
        GTFSColumn("parent_station", .id, .optionalLenient),
        GTFSColumn("stop_timezone", .text),
        GTFSColumn("wheelchair_boarding", .enumeration([0, 1, 2])),
        GTFSColumn("level_id", .id),
        GTFSColumn("platform_code", .text),
    ])

    public static let routes = GTFSFileSpec("routes.txt", required: true, key: ["route_id"], [
        GTFSColumn("route_id", .id, .required),
        GTFSColumn("agency_id", .id, .optionalStrict),
        GTFSColumn("route_short_name", .text),
        GTFSColumn("route_long_name", .text),
        GTFSColumn("route_desc", .text),
        // Any whole number reads; the loader judges the value (`BAD_VALUE`, canonical
        // unexpected_enum_value), as the canonical rules read route_type as an enumeration.
        GTFSColumn("route_type", .integer(Int(Int32.min)...Int(Int32.max)), .required),
        GTFSColumn("route_url", .text),
        GTFSColumn("route_color", .color),
        GTFSColumn("route_text_color", .color),
        GTFSColumn("route_sort_order", .integer(0...Int(Int32.max))),
        GTFSColumn("continuous_pickup", .enumeration([0, 1, 2, 3])),
        GTFSColumn("continuous_drop_off", .enumeration([0, 1, 2, 3])),
        GTFSColumn("network_id", .text),
    ])

    public static let calendar = GTFSFileSpec("calendar.txt", key: ["service_id"], [
        GTFSColumn("service_id", .id, .required),
        GTFSColumn("monday", .enumeration([0, 1]), .required),
        GTFSColumn("tuesday", .enumeration([0, 1]), .required),
        GTFSColumn("wednesday", .enumeration([0, 1]), .required),
        GTFSColumn("thursday", .enumeration([0, 1]), .required),
        GTFSColumn("friday", .enumeration([0, 1]), .required),
        GTFSColumn("saturday", .enumeration([0, 1]), .required),
        GTFSColumn("sunday", .enumeration([0, 1]), .required),
        GTFSColumn("start_date", .date, .required),
        GTFSColumn("end_date", .date, .required),
    ])

    public static let calendarDates = GTFSFileSpec("calendar_dates.txt", key: ["service_id", "date"], [
        GTFSColumn("service_id", .id, .required),
        GTFSColumn("date", .date, .required),
        GTFSColumn("exception_type", .enumeration([1, 2]), .required),
    ])

    public static let shapes = GTFSFileSpec("shapes.txt", key: ["shape_id", "shape_pt_sequence"], [
        GTFSColumn("shape_id", .id, .required),
        GTFSColumn("shape_pt_lat", .latitude, .required),
        GTFSColumn("shape_pt_lon", .longitude, .required),
        GTFSColumn("shape_pt_sequence", .integer(0...Int(Int32.max)), .required),
        GTFSColumn("shape_dist_traveled", .nonNegativeDouble, .optionalStrict),
    ])

    public static let trips = GTFSFileSpec("trips.txt", required: true, key: ["trip_id"], [
        GTFSColumn("route_id", .id, .required),
        GTFSColumn("service_id", .id, .required),
        GTFSColumn("trip_id", .id, .required),
        GTFSColumn("trip_headsign", .text),
        GTFSColumn("trip_short_name", .text),
        GTFSColumn("direction_id", .enumeration([0, 1])),
        GTFSColumn("block_id", .text),
        GTFSColumn("shape_id", .id, .optionalLenient),
        GTFSColumn("wheelchair_accessible", .enumeration([0, 1, 2])),
        GTFSColumn("bikes_allowed", .enumeration([0, 1, 2])),
    ])

    public static let stopTimes = GTFSFileSpec("stop_times.txt", required: true, key: ["trip_id", "stop_sequence"], [
        GTFSColumn("trip_id", .id, .required),
        GTFSColumn("arrival_time", .time, .optionalStrict, headerRequired: true),
        GTFSColumn("departure_time", .time, .optionalStrict, headerRequired: true),
        GTFSColumn("stop_id", .id, .required),
        GTFSColumn("stop_sequence", .integer(0...Int(Int32.max)), .required),
        GTFSColumn("stop_headsign", .text),
        GTFSColumn("pickup_type", .enumeration([0, 1, 2, 3]), .optionalStrict),
        GTFSColumn("drop_off_type", .enumeration([0, 1, 2, 3]), .optionalStrict),
        GTFSColumn("continuous_pickup", .enumeration([0, 1, 2, 3])),
        GTFSColumn("continuous_drop_off", .enumeration([0, 1, 2, 3])),
        GTFSColumn("shape_dist_traveled", .nonNegativeDouble, .optionalStrict),
        GTFSColumn("timepoint", .enumeration([0, 1])),
    ])

    public static let frequencies = GTFSFileSpec("frequencies.txt", key: ["trip_id", "start_time"], [
        GTFSColumn("trip_id", .id, .required),
        GTFSColumn("start_time", .time, .required),
        GTFSColumn("end_time", .time, .required),
        GTFSColumn("headway_secs", .integer(1...86_400), .required),
        GTFSColumn("exact_times", .enumeration([0, 1]), .optionalStrict),
    ])

    public static let transfers = GTFSFileSpec("transfers.txt", key: [], [
        GTFSColumn("from_stop_id", .id, .optionalStrict),
        GTFSColumn("to_stop_id", .id, .optionalStrict),
        GTFSColumn("from_route_id", .id),
        GTFSColumn("to_route_id", .id),
        GTFSColumn("from_trip_id", .id),
        GTFSColumn("to_trip_id", .id),
        GTFSColumn("transfer_type", .enumeration([0, 1, 2, 3, 4, 5]), .optionalStrict, headerRequired: true),
        GTFSColumn("min_transfer_time", .integer(0...86_400), .optionalStrict),
        GTFSColumn("line_number", .lineNumber),
    ])

    public static let pathways = GTFSFileSpec("pathways.txt", key: ["pathway_id"], [
        GTFSColumn("pathway_id", .id, .required),
        GTFSColumn("from_stop_id", .id, .required),
        GTFSColumn("to_stop_id", .id, .required),
        GTFSColumn("pathway_mode", .enumeration([1, 2, 3, 4, 5, 6, 7]), .required),
        GTFSColumn("is_bidirectional", .enumeration([0, 1]), .required),
        GTFSColumn("length", .nonNegativeDouble),
        GTFSColumn("traversal_time", .integer(1...Int(Int32.max))),
        GTFSColumn("stair_count", .integer(Int(Int32.min)...Int(Int32.max))),
        GTFSColumn("max_slope", .double),
        GTFSColumn("min_width", .nonNegativeDouble),
        GTFSColumn("signposted_as", .text),
        GTFSColumn("reversed_signposted_as", .text),
    ])

    public static let feedInfo = GTFSFileSpec("feed_info.txt", key: [], [
        GTFSColumn("feed_publisher_name", .text, .required),
        GTFSColumn("feed_publisher_url", .text),
        GTFSColumn("feed_lang", .text),
        GTFSColumn("default_lang", .text),
        GTFSColumn("feed_start_date", .date),
        GTFSColumn("feed_end_date", .date),
        GTFSColumn("feed_version", .text),
        GTFSColumn("feed_contact_email", .text),
        GTFSColumn("feed_contact_url", .text),
    ])

    /// Every loaded file, in load order.
    public static let files: [GTFSFileSpec] = [
        agency, levels, stops, routes, calendar, calendarDates, shapes, trips, stopTimes,
        frequencies, transfers, pathways, feedInfo,
    ]

    /// GTFS files that are recognised but not loaded (reported as a note, not an error).
    public static let knownButSkipped: Set<String> = [
        "fare_attributes.txt", "fare_rules.txt", "fare_media.txt", "fare_products.txt",
        "fare_leg_rules.txt", "fare_transfer_rules.txt", "fare_leg_join_rules.txt",
        "rider_categories.txt", "areas.txt", "stop_areas.txt", "networks.txt",
        "route_networks.txt", "timeframes.txt", "translations.txt", "attributions.txt",
        "location_groups.txt", "location_group_stops.txt", "locations.geojson",
        "booking_rules.txt",
    ]

    public static func spec(forFile name: String) -> GTFSFileSpec? { files.first { $0.fileName == name } }
}
