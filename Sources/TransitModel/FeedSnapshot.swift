/// What one or more GTFS feeds say, in memory, before any routing structure is built:
/// the input of `TimetableBuilder` and of the tests' reference router.
///
/// Ids are interned into dense `Int32` indexes (position in these arrays); string ids are
/// kept for answers. Stop times are grouped by trip (`tripStopTimes` is an offset table)
/// and ordered by `stop_sequence` within a trip. Several feeds live side by side: every
/// entity carries the index of its feed in `feedIds`.
public struct FeedSnapshot: Sendable {
    /// `stopTimeArrival`/`stopTimeDeparture` value for "no time given" (interpolated later).
    public static let untimed: Int32 = -1_000_000_000

    public struct Agency: Sendable, Equatable {
        public var feed: Int32
        public var agencyId: String
        public var name: String
        /// IANA time zone name, e.g. `Europe/Warsaw`.
        public var timezone: String
        public init(feed: Int32, agencyId: String, name: String, timezone: String) {
            self.feed = feed; self.agencyId = agencyId; self.name = name; self.timezone = timezone
        }
    }

    /// What a feed says about itself (`feed_info.txt`, first row) and the place it serves
    /// as declared at import: GTFS has no field for "Paris, not Île-de-France".
    public struct FeedInfo: Sendable, Equatable {
        public var publisherName: String?
        public var publisherURL: String?
        public var version: String?
        /// Declared by whoever imports the feed (`transit import --place`), else nil.
        public var place: String?
        public init(publisherName: String? = nil, publisherURL: String? = nil, version: String? = nil, place: String? = nil) {
            self.publisherName = publisherName; self.publisherURL = publisherURL; self.version = version; self.place = place
        }
    }

    public struct Stop: Sendable, Equatable {
        public var feed: Int32
        public var stopId: String
        public var name: String
        /// Degrees, WGS84; nil when the feed gives none (the parent's apply).
        public var latitude: Double?
        public var longitude: Double?
        /// 0 stop/platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
        public var locationType: Int8
        /// Index of the parent station in `stops`, or -1.
        public var parent: Int32
        public var platformCode: String?
        /// wheelchair_boarding as the feed gives it: 0 (or empty) no information (a child
        /// stop inherits its parent's), 1 accessible, 2 not accessible.
        public var wheelchairBoarding: UInt8
        /// stop_code: what signs and timetables print for riders ("4521"), nil when not given;
        /// the stop search finds a stop by it.
        public var stopCode: String?
        public init(feed: Int32, stopId: String, name: String, latitude: Double?, longitude: Double?,
                    locationType: Int8, parent: Int32, platformCode: String?, wheelchairBoarding: UInt8 = 0,
                    stopCode: String? = nil) {
            self.feed = feed; self.stopId = stopId; self.name = name; self.latitude = latitude
            self.longitude = longitude; self.locationType = locationType; self.parent = parent
            self.platformCode = platformCode; self.wheelchairBoarding = wheelchairBoarding
            self.stopCode = stopCode
        }
    }

    public struct Route: Sendable, Equatable {
        public var feed: Int32
        public var routeId: String
        /// Index in `agencies`.
        public var agency: Int32
        public var shortName: String?
        public var longName: String?
        public var type: Int32
        public var color: String?
        public var textColor: String?
        public init(feed: Int32, routeId: String, agency: Int32, shortName: String?, longName: String?,
                    type: Int32, color: String?, textColor: String?) {
            self.feed = feed; self.routeId = routeId; self.agency = agency; self.shortName = shortName
            self.longName = longName; self.type = type; self.color = color; self.textColor = textColor
        }
    }

    /// A service: calendar.txt's weekdays and dates, and calendar_dates.txt's exceptions.
    public struct Service: Sendable, Equatable {
        public var feed: Int32
        public var serviceId: String
        /// Bit 0 Monday … bit 6 Sunday; 0 when the service has no calendar.txt row.
        public var weekdays: UInt8
        public var start: ServiceDate?
        public var end: ServiceDate?
        public var added: [ServiceDate]
        public var removed: [ServiceDate]
        public init(feed: Int32, serviceId: String, weekdays: UInt8 = 0, start: ServiceDate? = nil,
                    end: ServiceDate? = nil, added: [ServiceDate] = [], removed: [ServiceDate] = []) {
            self.feed = feed; self.serviceId = serviceId; self.weekdays = weekdays; self.start = start
            self.end = end; self.added = added; self.removed = removed
        }

        /// Whether the service runs on `date` (an added date runs, a removed one does not).
        public func runs(on date: ServiceDate) -> Bool {
            if removed.contains(date) { return false }
            if added.contains(date) { return true }
            guard let start, let end, date >= start, date <= end else { return false }
            return weekdays & (1 << UInt8(date.weekday)) != 0
        }
    }

    public struct Trip: Sendable, Equatable {
        public var feed: Int32
        public var tripId: String
        public var route: Int32
        public var service: Int32
        public var headsign: String?
        public var shapeId: String?
        /// Index in `shapeIds` of the trip's shape, or -1 (no shape_id, or no such shape).
        public var shape: Int32
        /// wheelchair_accessible: 0 (or empty) no information, 1 accessible, 2 not.
        public var wheelchairAccessible: UInt8
        /// direction_id: 0 or 1 as the feed gives it, nil when empty or absent. GTFS-Realtime
        /// names a trip by route_id, direction_id and start time.
        public var directionId: Int8?
        public init(feed: Int32, tripId: String, route: Int32, service: Int32, headsign: String?, shapeId: String?,
                    shape: Int32 = -1, wheelchairAccessible: UInt8 = 0, directionId: Int8? = nil) {
            self.feed = feed; self.tripId = tripId; self.route = route; self.service = service
            self.headsign = headsign; self.shapeId = shapeId; self.shape = shape
            self.wheelchairAccessible = wheelchairAccessible; self.directionId = directionId
        }
    }

    public struct Frequency: Sendable, Equatable {
        public var trip: Int32
        /// Seconds since noon minus 12 h, as `ServiceTime`.
        public var startTime: Int32
        public var endTime: Int32
        public var headwaySeconds: Int32
        public init(trip: Int32, startTime: Int32, endTime: Int32, headwaySeconds: Int32) {
            self.trip = trip; self.startTime = startTime; self.endTime = endTime; self.headwaySeconds = headwaySeconds
        }
    }

    /// A transfers.txt row naming only stops (rows naming trips or routes are not kept).
    public struct Transfer: Sendable, Equatable {
        public var fromStop: Int32
        public var toStop: Int32
        /// transfer_type; 0 when empty.
        public var type: Int8
        /// min_transfer_time in seconds, or nil.
        public var minTransferTime: Int32?
        /// The row's line in transfers.txt (the later row wins among equals).
        public var line: Int32
        public init(fromStop: Int32, toStop: Int32, type: Int8, minTransferTime: Int32?, line: Int32) {
            self.fromStop = fromStop; self.toStop = toStop; self.type = type
            self.minTransferTime = minTransferTime; self.line = line
        }
    }

    /// Feed ids, by feed index.
    public var feedIds: [String] = []
    /// By feed index, like `feedIds` (may be shorter: missing entries are empty).
    public var feedInfo: [FeedInfo] = []
    public var agencies: [Agency] = []
    public var stops: [Stop] = []
    public var routes: [Route] = []
    public var services: [Service] = []
    public var trips: [Trip] = []
    // Trip -> its stop times: indexes tripStopTimes[t] ..< tripStopTimes[t + 1] (count + 1 entries).
    public var tripStopTimes: [Int32] = [0]
    // Stop time -> stop index.
    public var stopTimeStop: [Int32] = []
    // Stop time -> the file's stop_sequence (ascending within a trip, not necessarily 1, 2, 3…):
    // how GTFS-Realtime names a stop time. Same count as `stopTimeStop`; a snapshot built by
    // hand may leave it empty, which reads as 1, 2, 3… in every trip (`stopSequence(_:trip:)`).
    public var stopTimeSequence: [Int32] = []
    // Stop time -> arrival and departure (seconds since noon minus 12 h) or `untimed`.
    public var stopTimeArrival: [Int32] = []
    public var stopTimeDeparture: [Int32] = []
    // Stop time -> pickup_type and drop_off_type (0 when empty).
    public var stopTimePickup: [UInt8] = []
    public var stopTimeDropOff: [UInt8] = []
    // Stop time -> shape_dist_traveled, or NaN.
    public var stopTimeShapeDistance: [Double] = []
    public var frequencies: [Frequency] = []
    public var transfers: [Transfer] = []

    // Shapes (shapes.txt), by shape index: points shapePointOffsets[i] ..< shapePointOffsets[i + 1]
    // (count + 1 entries), ordered by shape_pt_sequence.
    public var shapeIds: [String] = []
    /// Feed index of each shape.
    public var shapeFeed: [Int32] = []
    public var shapePointOffsets: [Int32] = [0]
    public var shapeLatitude: [Double] = []
    public var shapeLongitude: [Double] = []
    // Shape point -> shape_dist_traveled, or NaN.
    public var shapeDistance: [Double] = []

    public init() {}

    public var stopTimeCount: Int { stopTimeStop.count }

    /// Declares the place feed `f` serves (`transit import --place`, `--place FEED=NAME`).
    public mutating func setPlace(_ place: String, feed f: Int) {
        while feedInfo.count <= f { feedInfo.append(FeedInfo()) }
        feedInfo[f].place = place
    }

    /// What feed `f` says about itself (empty when it says nothing).
    public func info(feed f: Int) -> FeedInfo { f < feedInfo.count ? feedInfo[f] : FeedInfo() }

    /// The names of feed `f`'s agencies, in order.
    public func agencyNames(feed f: Int) -> [String] { agencies.filter { $0.feed == Int32(f) }.map(\.name) }

    /// Who runs feed `f`, for people: its agencies' names; when it has more than two,
    /// the publisher's name if `feed_info.txt` gives one (the umbrella that publishes
    /// them, e.g. a city's transport authority), else the first two and a count. The
    /// publisher alone is not used for one or two agencies: it is often a person or a
    /// consultant who republishes an operator's data.
    public func operatorName(feed f: Int) -> String {
        let names = agencyNames(feed: f)
        if names.count <= 2 { return names.joined(separator: ", ") }
        if let p = info(feed: f).publisherName, !p.isEmpty { return p }
        return names.prefix(2).joined(separator: ", ") + " and \(names.count - 2) more"
    }

    /// The region's name: who runs it and, when declared, where: "Bay Area Rapid Transit,
    /// San Francisco Bay Area"; the feed id when the feed names nothing.
    public func regionName(feed f: Int) -> String {
        let who = operatorName(feed: f)
        let parts = [who.isEmpty ? feedIds[f] : who] + [info(feed: f).place].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.joined(separator: ", ")
    }

    /// The stop_sequence of stop time `st` (of trip `t`): `stopTimeSequence[st]`, or its
    /// 1-based position in the trip when the snapshot has no sequences (built by hand).
    public func stopSequence(_ st: Int, trip t: Int) -> Int32 {
        stopTimeSequence.count == stopTimeStop.count ? stopTimeSequence[st] : Int32(st - Int(tripStopTimes[t]) + 1)
    }

    /// The stop times of trip `t` as a range of stop time indexes.
    public func stopTimes(ofTrip t: Int) -> Range<Int> { Int(tripStopTimes[t])..<Int(tripStopTimes[t + 1]) }

    /// The points of shape `s` as a range of shape point indexes.
    public func shapePoints(_ s: Int) -> Range<Int> { Int(shapePointOffsets[s])..<Int(shapePointOffsets[s + 1]) }
}
