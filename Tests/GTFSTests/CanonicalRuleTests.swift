import Foundation
import Testing
import GTFS
import TransitModel

// One defect per feed, made in a copy of a bundled feed, for each rule whose outcome follows
// MobilityData's canonical notices (`GTFSIssue.canonical`, `CanonicalNotice`): our code and
// action (`severity`), the canonical code and its severity, the place, and what became of
// the row. Then the same rules on the shared real feeds, counted as canonical validators
// count them, and the catalogue itself.

/// google-sample's stops.txt with location_type and parent_station columns (empty on its
/// nine stops, lines 2–10), then `rows` from line 11 on.
private func writeStops(_ feed: FeedFolder, _ rows: [String]) throws {
    let stops = try lines(feed, "stops.txt").dropFirst().map { $0 + ",," }
    try writeLines(feed, "stops.txt", ["stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station"]
                   + stops + rows)
}

/// The one issue with `code` (recorded as a failure when there are none or several).
private func theIssue(_ summary: GTFSLoadSummary, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GTFSIssue {
    #expect(summary.issues.count(code: code) == 1, "\(examples(summary))", sourceLocation: sourceLocation)
    return try #require(issues(summary, code).first, "no \(code) in \(examples(summary))", sourceLocation: sourceLocation)
}

/// Our code and action, the canonical code and its severity (a code of the catalogue), and the place.
private func check(_ issue: GTFSIssue, code: String, canonical: String?, severity: GTFSIssue.Severity,
                   canonicalSeverity: CanonicalNotice.Severity?, file: String, line: Int?, field: String?, value: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == canonical, sourceLocation: sourceLocation)
    #expect(issue.severity == severity, sourceLocation: sourceLocation)
    #expect(issue.canonicalSeverity == canonicalSeverity, sourceLocation: sourceLocation)
    if let c = issue.canonical { #expect(CanonicalNotice.rules[c] != nil, "\(c) is not in CanonicalNotice.rules", sourceLocation: sourceLocation) }
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}

/// Total issues of a canonical code (any code of ours, any file).
private func count(_ summary: GTFSLoadSummary, canonical: String) -> Int {
    summary.issues.entries.filter { $0.kind.canonical == canonical }.reduce(0) { $0 + $1.count }
}

// MARK: - Times going backwards

/// google-sample's stop_times.txt: 28 rows, lines 2–29. STBA 2–3; CITY1 4–8 (stop_sequence
/// 1–5: 6:00, 6:05–6:07, 6:12–6:14, 6:19–6:21, 6:26–6:28); CITY2 9–13; then AB1, AB2, BFC1,
/// BFC2, AAMV1–4, two rows each.
@Suite("Canonical rules: a trip whose times go backwards is left out")
struct TimesGoBackwardsRuleTests {
    /// The sink holds google-sample's stop times but for `trips`' `rows`, none of theirs.
    private func expectLeftOut(_ summary: GTFSLoadSummary, _ sink: RecordingSink, trips: [String], rows: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sink.leftOut == trips, sourceLocation: sourceLocation)
        let stats = summary.stats("stop_times.txt")
        #expect(stats?.rowsRead == 28, sourceLocation: sourceLocation)
        #expect(stats?.rowsLoaded == 28 - rows, sourceLocation: sourceLocation)
        #expect(stats?.rowsSkipped == rows, sourceLocation: sourceLocation)
        #expect(sink.rowCounts["stop_times.txt"] == 28 - rows, sourceLocation: sourceLocation)
        #expect(sink.rows("stop_times.txt").count == 28 - rows, sourceLocation: sourceLocation)
        let kept = Set(sink.rows("stop_times.txt").compactMap { if case .text(let t)? = $0["trip_id"] { return t }; return nil })
        #expect(kept.isDisjoint(with: trips), sourceLocation: sourceLocation)
        #expect(kept.count == 11 - trips.count, sourceLocation: sourceLocation)
        // One row error per trip; the trips themselves (trips.txt) stay, without stop times.
        #expect(summary.issues.count(.rowError) == trips.count, "\(examples(summary))", sourceLocation: sourceLocation)
        #expect(summary.stats("trips.txt")?.rowsLoaded == 11, sourceLocation: sourceLocation)
    }

    @Test("an arrival before the previous stop's departure: one row error at that stop time, the trip's stop times all gone")
    func arrivalBeforePreviousDeparture() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let issue = try theIssue(summary, "TIME_GOES_BACKWARDS")
            check(issue, code: "TIME_GOES_BACKWARDS", canonical: "stop_time_with_arrival_before_previous_departure_time",
                  severity: .rowError, canonicalSeverity: .error, file: "stop_times.txt", line: 3, field: "arrival_time", value: "5:50:00")
            #expect(issue.message == "earlier than the trip's time at the stop before it (6:00:00); trip STBA is left out")
            expectLeftOut(summary, sink, trips: ["STBA"], rows: 2)
        }
    }

    @Test("a departure before the arrival at the same stop: start_and_end_range_out_of_order, the trip left out")
    func departureBeforeArrival() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "CITY1,6:05:00,6:07:00,", with: "CITY1,6:05:00,6:04:00,")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let issue = try theIssue(summary, "TIME_GOES_BACKWARDS")
            check(issue, code: "TIME_GOES_BACKWARDS", canonical: "start_and_end_range_out_of_order",
                  severity: .rowError, canonicalSeverity: .error, file: "stop_times.txt", line: 5, field: "departure_time", value: "6:04:00")
            #expect(issue.message == "before this stop's arrival_time 6:05:00; trip CITY1 is left out")
            expectLeftOut(summary, sink, trips: ["CITY1"], rows: 5)
        }
    }

    @Test("several bad stop times in one trip, its rows in reverse order: one issue, at the first bad one by stop_sequence")
    func firstBadStopTimeBySequence() throws {
        try withFeed { feed in
            var st = try lines(feed, "stop_times.txt")
            // Sequence 2 arrives at 5:59 (sequence 1 left at 6:00), sequence 4 at 6:10 (3 left at 6:14).
            st[4] = "CITY1,5:59:00,6:07:00,NANAA,2,,,,"
            st[6] = "CITY1,6:10:00,6:21:00,DADAN,4,,,,"
            st[3...7].reverse()   // lines 4–8: sequences 5, 4, 3, 2, 1
            try writeLines(feed, "stop_times.txt", st)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let issue = try theIssue(summary, "TIME_GOES_BACKWARDS")
            // Sequence 4 (line 5) comes first in the file, but sequence 2 (line 7) is the first bad stop time.
            check(issue, code: "TIME_GOES_BACKWARDS", canonical: "stop_time_with_arrival_before_previous_departure_time",
                  severity: .rowError, canonicalSeverity: .error, file: "stop_times.txt", line: 7, field: "arrival_time", value: "5:59:00")
            expectLeftOut(summary, sink, trips: ["CITY1"], rows: 5)
        }
    }

    @Test("a trip in two runs of rows, the second going backwards: the rows of the first run, already handed over, are taken back")
    func splitTripSecondRunBad() throws {
        try withFeed { feed in
            var st = try lines(feed, "stop_times.txt")
            // CITY1's sequences 4 and 5 moved to the end (lines 28, 29); 5 arrives at 6:20, before 4 leaves (6:21).
            st[7] = "CITY1,6:20:00,6:28:00,EMSI,5,,,,"
            let moved = Array(st[6...7])
            st.removeSubrange(6...7)
            st += moved
            try writeLines(feed, "stop_times.txt", st)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let issue = try theIssue(summary, "TIME_GOES_BACKWARDS")
            check(issue, code: "TIME_GOES_BACKWARDS", canonical: "stop_time_with_arrival_before_previous_departure_time",
                  severity: .rowError, canonicalSeverity: .error, file: "stop_times.txt", line: 29, field: "arrival_time", value: "6:20:00")
            expectLeftOut(summary, sink, trips: ["CITY1"], rows: 5)
        }
    }

    @Test("a trip in two runs of rows, the first going backwards: the second run is dropped too, without a second issue")
    func splitTripFirstRunBad() throws {
        try withFeed { feed in
            var st = try lines(feed, "stop_times.txt")
            st[4] = "CITY1,5:59:00,6:07:00,NANAA,2,,,,"   // line 5
            st[7] = "CITY1,6:20:00,6:28:00,EMSI,5,,,,"    // bad too, in the second run
            let moved = Array(st[6...7])
            st.removeSubrange(6...7)
            st += moved
            try writeLines(feed, "stop_times.txt", st)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let issue = try theIssue(summary, "TIME_GOES_BACKWARDS")
            check(issue, code: "TIME_GOES_BACKWARDS", canonical: "stop_time_with_arrival_before_previous_departure_time",
                  severity: .rowError, canonicalSeverity: .error, file: "stop_times.txt", line: 5, field: "arrival_time", value: "5:59:00")
            expectLeftOut(summary, sink, trips: ["CITY1"], rows: 5)
        }
    }

    @Test("two trips going backwards: one issue each, both left out, named to the sink in trips.txt order")
    func twoTrips() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "AAMV4,16:00:00,16:00:00,", with: "AAMV4,14:00:00,14:00:00,")
            try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            #expect(issues(summary, "TIME_GOES_BACKWARDS").map(\.line) == [3, 29])
            expectLeftOut(summary, sink, trips: ["STBA", "AAMV4"], rows: 4)
        }
    }

    @Test("strict: a trip going backwards stops the load at its first bad stop time")
    func strict() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
            let issue = thrownFatal { _ = try loadFeed(feed.path, strict: true) }
            #expect(issue?.code == "TIME_GOES_BACKWARDS")
            #expect(issue?.severity == .rowError)
            #expect(issue?.line == 3)
        }
    }

    @Test("SnapshotSink: the left-out trips have no stop times, every other trip's are unchanged")
    func snapshotDropsTrip() throws {
        let (good, _) = try SnapshotSink.load(path: bundledFeed("google-sample.zip"), feedId: "g")
        try withFeed { feed in
            var st = try lines(feed, "stop_times.txt")
            st[2] = "STBA,5:50:00,5:50:00,BEATTY_AIRPORT,2,,,,"
            // CITY1 in two runs, the second going backwards (as in splitTripSecondRunBad).
            st[7] = "CITY1,6:20:00,6:28:00,EMSI,5,,,,"
            let moved = Array(st[6...7])
            st.removeSubrange(6...7)
            st += moved
            try writeLines(feed, "stop_times.txt", st)
            let (s, summary) = try SnapshotSink.load(path: feed.path, feedId: "g")
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 21)
            #expect(s.stopTimeStop.count == 21 && s.stopTimeArrival.count == 21 && s.stopTimeSequence.count == 21)
            #expect(s.trips.map(\.tripId) == good.trips.map(\.tripId))
            for (t, trip) in s.trips.enumerated() {
                if ["STBA", "CITY1"].contains(trip.tripId) {
                    #expect(s.stopTimes(ofTrip: t).isEmpty, "\(trip.tripId)")
                    #expect(!good.stopTimes(ofTrip: t).isEmpty)
                } else {
                    let mine = s.stopTimes(ofTrip: t), theirs = good.stopTimes(ofTrip: t)
                    #expect(mine.count == theirs.count, "\(trip.tripId)")
                    #expect(mine.map { s.stopTimeStop[$0] } == theirs.map { good.stopTimeStop[$0] }, "\(trip.tripId)")
                    #expect(mine.map { s.stopTimeSequence[$0] } == theirs.map { good.stopTimeSequence[$0] }, "\(trip.tripId)")
                    #expect(mine.map { s.stopTimeArrival[$0] } == theirs.map { good.stopTimeArrival[$0] }, "\(trip.tripId)")
                    #expect(mine.map { s.stopTimeDeparture[$0] } == theirs.map { good.stopTimeDeparture[$0] }, "\(trip.tripId)")
                }
            }
        }
    }
}

// MARK: - Parent stations

/// Under google-sample's nine stops (lines 2–10): line 11, the defect; a station, its
/// platform and its entrance after it (so that the defect's parent is found by the first pass).
private let stationRows = [
    "STATION,Station,,36.9157,-116.7517,,,1,",
    "PLATFORM,Platform,,36.9157,-116.7517,,,0,STATION",
    "GOOD_ENTRANCE,Entrance,,36.9158,-116.7518,,,2,STATION",
]

@Suite("Canonical rules: parent stations")
struct ParentStationRuleTests {
    @Test("a parent station that is missing or of the wrong type: a field error, the location loads without it", arguments: [
        // A stop whose parent is a stop (AMV has no location_type: 0).
        ("CHILD,Child stop,,36.91,-116.76,,,0,AMV", "WRONG_PARENT_TYPE", "wrong_parent_location_type", "AMV"),
        ("BAD_ENTRANCE,Entrance,,36.91,-116.76,,,2,PLATFORM", "WRONG_PARENT_TYPE", "wrong_parent_location_type", "PLATFORM"),
        ("NODE,Generic node,,,,,,3,GOOD_ENTRANCE", "WRONG_PARENT_TYPE", "wrong_parent_location_type", "GOOD_ENTRANCE"),
        // A boarding area's parent must be a platform.
        ("BOARDING,Boarding area,,,,,,4,STATION", "WRONG_PARENT_TYPE", "wrong_parent_location_type", "STATION"),
        ("STATION2,Second station,,36.91,-116.76,,,1,STATION", "STATION_WITH_PARENT", "station_with_parent_station", "STATION"),
        ("ORPHAN,Orphan,,36.91,-116.76,,,0,NO_SUCH_STATION", "DANGLING_PARENT", "foreign_key_violation", "NO_SUCH_STATION"),
    ])
    func wrongParent(row text: String, code: String, canonical: String, parent: String) throws {
        try withFeed { feed in
            try writeStops(feed, [text] + stationRows)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            let issue = try theIssue(summary, code)
            check(issue, code: code, canonical: canonical, severity: .fieldError, canonicalSeverity: .error,
                  file: "stops.txt", line: 11, field: "parent_station", value: parent)
            #expect(summary.issues.count(.fieldError) == 1 && summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 13)
            let id = String(text.prefix { $0 != "," })
            #expect(try row(sink, "stops.txt", "stop_id", id)["parent_station"] == .null)
            #expect(try row(sink, "stops.txt", "stop_id", "PLATFORM")["parent_station"] == .text("STATION"))
        }
    }

    @Test("the message says what the parent is and what the location needs")
    func wrongParentMessages() throws {
        try withFeed { feed in
            try writeStops(feed, ["CHILD,Child stop,,36.91,-116.76,,,0,AMV", "BOARDING,Boarding area,,,,,,4,STATION"] + stationRows)
            let (summary, _) = try loadFeed(feed.path)
            #expect(issues(summary, "WRONG_PARENT_TYPE").map(\.message) == [
                "the parent is a stop or platform (location_type 0); a stop or platform needs a station (1) as its parent; the parent is not used",
                "the parent is a station (location_type 1); a boarding area needs a platform (0) as its parent; the parent is not used",
            ])
        }
    }

    @Test("every location with the parent its type needs loads without an issue, parents kept")
    func rightParents() throws {
        try withFeed { feed in
            try writeStops(feed, stationRows + [
                "NODE,Generic node,,,,,,3,STATION",
                "BOARDING,Boarding area,,,,,,4,PLATFORM",
                "PLATFORM_2,Platform without coordinates,,,,,,,STATION",   // empty location_type: a stop
            ])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            #expect(summary.issues.count(.fieldError) == 0 && summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 15)
            for (id, parent) in [("PLATFORM", "STATION"), ("GOOD_ENTRANCE", "STATION"), ("NODE", "STATION"), ("BOARDING", "PLATFORM"),
                                 ("PLATFORM_2", "STATION")] {
                #expect(try row(sink, "stops.txt", "stop_id", id)["parent_station"] == .text(parent), "\(id)")
            }
        }
    }

    @Test("a stop_id given twice, the first row rejected: the parent's type is that of the row loaded")
    func parentTypeOfLoadedRow() throws {
        try withFeed { feed in
            // P's first row (a station) has no valid latitude; its second, loaded, is a stop: C's parent is a stop.
            try writeStops(feed, ["P,Station,,north,-116.76,,,1,", "P,Stop,,36.91,-116.76,,,0,", "C,Child,,36.91,-116.76,,,0,P"])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            #expect(issues(summary, "BAD_COORDINATE").first?.line == 11)
            #expect(try row(sink, "stops.txt", "stop_id", "P")["location_type"] == .int(0))
            let child = try row(sink, "stops.txt", "stop_id", "C")
            #expect(summary.issues.count(code: "WRONG_PARENT_TYPE") == 1)
            #expect(child["parent_station"] == .null)
        }
    }

    @Test("a platform without coordinates whose parent is of the wrong type cannot take the parent's: also NO_COORDINATES, not loaded")
    func wrongParentCannotLendCoordinates() throws {
        try withFeed { feed in
            try writeStops(feed, ["LOST,Platform without coordinates,,,,,,0,GOOD_ENTRANCE"] + stationRows)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            check(try theIssue(summary, "WRONG_PARENT_TYPE"), code: "WRONG_PARENT_TYPE", canonical: "wrong_parent_location_type",
                  severity: .fieldError, canonicalSeverity: .error, file: "stops.txt", line: 11, field: "parent_station", value: "GOOD_ENTRANCE")
            check(try theIssue(summary, "NO_COORDINATES"), code: "NO_COORDINATES", canonical: "stop_without_location",
                  severity: .rowError, canonicalSeverity: .error, file: "stops.txt", line: 11, field: "stop_lat", value: nil)
            #expect(summary.stats("stops.txt")?.rowsLoaded == 12)
            #expect(!sink.rows("stops.txt").contains { $0["stop_id"] == .text("LOST") })
        }
    }
}

// MARK: - References

@Suite("Canonical rules: references to rows that are not there")
struct ReferenceRuleTests {
    /// bart-2018's transfers.txt (8 rows, CRLF) with the route and trip columns, a valid transfer
    /// naming a route and a trip, then `row`.
    @Test("a transfer naming a missing stop, route or trip: a row error, the transfer skipped", arguments: [
        ("NOWHERE,12TH,1,,,,,", "UNKNOWN_STOP", "from_stop_id", "NOWHERE"),
        ("12TH,NOWHERE,1,,,,,", "UNKNOWN_STOP", "to_stop_id", "NOWHERE"),
        ("12TH,12TH,1,,NO_ROUTE,01,,", "UNKNOWN_ROUTE", "from_route_id", "NO_ROUTE"),
        ("12TH,12TH,1,,01,NO_ROUTE,,", "UNKNOWN_ROUTE", "to_route_id", "NO_ROUTE"),
        ("12TH,12TH,1,,,,NO_TRIP,3610403WKDY", "UNKNOWN_TRIP", "from_trip_id", "NO_TRIP"),
        ("12TH,12TH,1,,,,3610403WKDY,NO_TRIP", "UNKNOWN_TRIP", "to_trip_id", "NO_TRIP"),
    ])
    func transferToNothing(row text: String, code: String, field: String, value: String) throws {
        try withFeed("bart-2018.zip") { feed in
            let transfers = try lines(feed, "transfers.txt")
            try #require(transfers.first == "from_stop_id,to_stop_id,transfer_type,min_transfer_time" && transfers.count == 9)
            // Lines 2–9: bart's; 10: valid, with a route and a trip; 11: the defect.
            try writeLines(feed, "transfers.txt", [transfers[0] + ",from_route_id,to_route_id,from_trip_id,to_trip_id"]
                           + transfers.dropFirst().map { $0 + ",,,," }
                           + ["12TH,12TH,1,,01,01,3610403WKDY,3610403WKDY", text])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["transfers.txt"])
            check(try theIssue(summary, code), code: code, canonical: "foreign_key_violation", severity: .rowError, canonicalSeverity: .error,
                  file: "transfers.txt", line: 11, field: field, value: value)
            #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
            #expect(summary.stats("transfers.txt")?.rowsRead == 10)
            #expect(summary.stats("transfers.txt")?.rowsLoaded == 9)
            #expect(sink.rows("transfers.txt").map { $0["line_number"] } == (2...10).map { .int($0) })
        }
    }

    @Test("a trip naming a shape shapes.txt lacks: a field error, the trip loads without a shape")
    func unknownShape() throws {
        try withFeed { feed in
            try feed.replace("trips.txt", "AB,FULLW,AB1,to Bullfrog,0,1.000000,", with: "AB,FULLW,AB1,to Bullfrog,0,1.000000,NO_SUCH_SHAPE")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["trips.txt"])
            check(try theIssue(summary, "UNKNOWN_SHAPE"), code: "UNKNOWN_SHAPE", canonical: "foreign_key_violation",
                  severity: .fieldError, canonicalSeverity: .error, file: "trips.txt", line: 2, field: "shape_id", value: "NO_SUCH_SHAPE")
            #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 1, "\(examples(summary))")
            #expect(summary.stats("trips.txt")?.rowsLoaded == 11)
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
            let trip = try row(sink, "trips.txt", "trip_id", "AB1")
            #expect(trip["shape_id"] == .null)
            #expect(trip["trip_headsign"] == .text("to Bullfrog"))
        }
    }
}

// MARK: - Values that do not parse in optional columns

@Suite("Canonical rules: optional values that do not parse")
struct LenientValueRuleTests {
    @Test("a field error when the canonical severity is ERROR, a warning otherwise; the value stored as empty, the row loaded", arguments: [
        ("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", "AB,DTA,10,Airport - Bullfrog,,3,,red,", "route_id", "AB",
         "route_color", "red", "BAD_COLOR", "invalid_color", GTFSIssue.Severity.fieldError, CanonicalNotice.Severity.error),
        // Porto Alegre's text colour.
        ("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", "AB,DTA,10,Airport - Bullfrog,,3,,,0", "route_id", "AB",
         "route_text_color", "0", "BAD_COLOR", "invalid_color", .fieldError, .error),
        // A whole number that is not one of the field's values: a canonical warning.
        ("trips.txt", "AB,FULLW,AB1,to Bullfrog,0,", "AB,FULLW,AB1,to Bullfrog,2,", "trip_id", "AB1",
         "direction_id", "2", "BAD_VALUE", "unexpected_enum_value", .warning, .warning),
        // Not a whole number at all: a canonical error.
        ("trips.txt", "AB,FULLW,AB1,to Bullfrog,0,", "AB,FULLW,AB1,to Bullfrog,x,", "trip_id", "AB1",
         "direction_id", "x", "BAD_VALUE", "invalid_integer", .fieldError, .error),
    ] as [(String, String, String, String, String, String, String, String, String, GTFSIssue.Severity, CanonicalNotice.Severity)])
    func lenientValue(file: String, old: String, new: String, keyColumn: String, key: String, field: String, value: String,
                      code: String, canonical: String, severity: GTFSIssue.Severity, canonicalSeverity: CanonicalNotice.Severity) throws {
        try withFeed { feed in
            let before = try #require(try loadFeed(feed.path).0.stats(file))
            try feed.replace(file, old, with: new)
            let (summary, sink) = try loadFeed(feed.path, keeping: [file])
            let issue = try theIssue(summary, code)
            check(issue, code: code, canonical: canonical, severity: severity, canonicalSeverity: canonicalSeverity,
                  file: file, line: 2, field: field, value: value)
            #expect(issue.message.hasSuffix("; stored as empty"))
            #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats(file)?.rowsLoaded == before.rowsLoaded)
            #expect(try row(sink, file, keyColumn, key)[field] == .null)
        }
    }
}

extension LenientValueRuleTests {
    @Test("strict: field errors and warnings do not stop a load")
    func strictLoads() throws {
        try withFeed { feed in
            try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,700,,red,")
            try feed.replace("trips.txt", "AB,FULLW,AB1,to Bullfrog,0,1.000000,", with: "AB,FULLW,AB1,to Bullfrog,2,1.000000,NO_SUCH_SHAPE")
            let (summary, _) = try loadFeed(feed.path, strict: true)
            #expect(summary.issues.count(.fieldError) == 2 && summary.issues.count(code: "EXTENDED_ROUTE_TYPE") == 1
                    && summary.issues.count(code: "BAD_VALUE") == 1, "\(examples(summary))")
            #expect(summary.stats("routes.txt")?.rowsLoaded == 5 && summary.stats("trips.txt")?.rowsLoaded == 11)
        }
    }
}

// MARK: - Pathways

/// google-sample with a pathways.txt: a two-way walkway at line 2, then `rows` from line 3.
private func writePathways(_ feed: FeedFolder, _ rows: [String]) throws {
    try writeLines(feed, "pathways.txt", ["pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time",
                                          "WALK,STAGECOACH,NADAV,1,1,12.5,30"] + rows)
}

@Suite("Canonical rules: pathways")
struct PathwayRuleTests {
    @Test("an exit gate marked two-way: a field error, read as one-way; a one-way gate and a two-way walkway are fine")
    func twoWayExitGate() throws {
        try withFeed { feed in
            try writePathways(feed, ["GATE,STAGECOACH,NADAV,7,1,5,10", "ONE_WAY_GATE,NADAV,STAGECOACH,7,0,5,10"])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["pathways.txt"])
            let issue = try theIssue(summary, "TWO_WAY_EXIT_GATE")
            check(issue, code: "TWO_WAY_EXIT_GATE", canonical: "bidirectional_exit_gate", severity: .fieldError, canonicalSeverity: .error,
                  file: "pathways.txt", line: 3, field: "is_bidirectional", value: "1")
            #expect(summary.issues.count(.fieldError) == 1 && summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats("pathways.txt")?.rowsLoaded == 3)
            #expect(try row(sink, "pathways.txt", "pathway_id", "GATE")["is_bidirectional"] == .int(0))
            #expect(try row(sink, "pathways.txt", "pathway_id", "GATE")["pathway_mode"] == .int(7))
            #expect(try row(sink, "pathways.txt", "pathway_id", "ONE_WAY_GATE")["is_bidirectional"] == .int(0))
            #expect(try row(sink, "pathways.txt", "pathway_id", "WALK")["is_bidirectional"] == .int(1))
        }
    }

    @Test("a traversal time or length out of range or unreadable: a field error, stored as empty, the pathway loads", arguments: [
        ("P,NANAA,NADAV,1,0,10,0", "traversal_time", "0", "number_out_of_range", "not a whole number of 1 or more; stored as empty"),
        ("P,NANAA,NADAV,1,0,10,-5", "traversal_time", "-5", "number_out_of_range", "not a whole number of 1 or more; stored as empty"),
        ("P,NANAA,NADAV,1,0,10,soon", "traversal_time", "soon", "invalid_integer", "not a whole number of 1 or more; stored as empty"),
        ("P,NANAA,NADAV,1,0,-10,30", "length", "-10", "number_out_of_range", "not a decimal number of 0 or more; stored as empty"),
        ("P,NANAA,NADAV,1,0,ten,30", "length", "ten", "invalid_float", "not a decimal number of 0 or more; stored as empty"),
    ])
    func badNumber(row text: String, field: String, value: String, canonical: String, message: String) throws {
        try withFeed { feed in
            try writePathways(feed, [text])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["pathways.txt"])
            let issue = try theIssue(summary, "BAD_NUMBER")
            check(issue, code: "BAD_NUMBER", canonical: canonical, severity: .fieldError, canonicalSeverity: .error,
                  file: "pathways.txt", line: 3, field: field, value: value)
            #expect(issue.message == message)
            #expect(summary.stats("pathways.txt")?.rowsLoaded == 2)
            let p = try row(sink, "pathways.txt", "pathway_id", "P")
            #expect(p[field] == .null)
            #expect(p["pathway_mode"] == .int(1))
        }
    }

    @Test("a traversal time of 1 second is accepted")
    func oneSecond() throws {
        try withFeed { feed in
            try writePathways(feed, ["P,NANAA,NADAV,1,0,10,1"])
            let (summary, sink) = try loadFeed(feed.path, keeping: ["pathways.txt"])
            #expect(summary.issues.count(.fieldError) == 0 && summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(try row(sink, "pathways.txt", "pathway_id", "P")["traversal_time"] == .int(1))
        }
    }
}

// MARK: - Shapes

/// google-sample with one shape of four points (lines 2–5); the third at `third`, at the
/// same shape_dist_traveled (100) as the second, which is at 36.9, -116.76.
private func writeShape(_ feed: FeedFolder, third: String) throws {
    try writeLines(feed, "shapes.txt", [
        "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled",
        "STBA_SHAPE,36.915682,-116.751677,1,0",
        "STBA_SHAPE,36.900000,-116.760000,2,100",
        "STBA_SHAPE,\(third),3,100",
        "STBA_SHAPE,36.868446,-116.784582,4,6000",
    ])
}

@Suite("Canonical rules: shapes")
struct ShapeRuleTests {
    @Test("two consecutive points at the same distance: a warning by how far apart they are; the points kept", arguments: [
        ("36.900100,-116.760000", "equal_shape_distance_diff_coordinates", CanonicalNotice.Severity.error, "11.1 m away"),   // 0.0001° north
        ("36.900005,-116.760000", "equal_shape_distance_diff_coordinates_distance_below_threshold", .warning, "0.6 m away"),
        ("36.900000,-116.760000", "equal_shape_distance_same_coordinates", .warning, "repeated"),
    ])
    func notMoving(third: String, canonical: String, canonicalSeverity: CanonicalNotice.Severity, message: String) throws {
        try withFeed { feed in
            try writeShape(feed, third: third)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["shapes.txt"])
            let issue = try theIssue(summary, "SHAPE_DISTANCE_NOT_MOVING")
            // The value: the distance, read (as written: valueAsWritten).
            check(issue, code: "SHAPE_DISTANCE_NOT_MOVING", canonical: canonical, severity: .warning, canonicalSeverity: canonicalSeverity,
                  file: "shapes.txt", line: 4, field: "shape_dist_traveled", value: issue.value)
            #expect(issue.value.flatMap(Double.init) == 100)
            #expect(issue.message.contains("(sequence 2)"), "\(issue.message)")
            #expect(issue.message.hasSuffix(message), "\(issue.message)")
            #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
            #expect(summary.stats("shapes.txt")?.rowsLoaded == 4)
            #expect(sink.rows("shapes.txt").count == 4)
        }
    }

    @Test("the issue's value is the shape_dist_traveled as written")
    func valueAsWritten() throws {
        try withFeed { feed in
            try writeShape(feed, third: "36.900100,-116.760000")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try theIssue(summary, "SHAPE_DISTANCE_NOT_MOVING")
            #expect(issue.value == "100", "the value as written, not the Double's \"100.0\"")
        }
    }

    @Test("points listed out of shape_pt_sequence order are compared in sequence order")
    func sequenceOrder() throws {
        try withFeed { feed in
            try writeLines(feed, "shapes.txt", [
                "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled",
                "STBA_SHAPE,36.915682,-116.751677,1,0",
                "STBA_SHAPE,36.900100,-116.760000,3,100",   // line 3: follows sequence 2 (line 4), at its distance
                "STBA_SHAPE,36.900000,-116.760000,2,100",
                "STBA_SHAPE,36.868446,-116.784582,4,6000",
            ])
            let (summary, _) = try loadFeed(feed.path)
            let issue = try theIssue(summary, "SHAPE_DISTANCE_NOT_MOVING")
            #expect(issue.canonical == "equal_shape_distance_diff_coordinates")
            #expect(issue.line == 3)
            #expect(issue.message.contains("(sequence 2)"))
        }
    }

    @Test("shapes without shape_dist_traveled (Caltrain's) raise nothing")
    func noDistances() throws {
        let (summary, _) = try loadFeed(bundledFeed("caltrain.zip"))
        #expect(summary.stats("shapes.txt")?.rowsLoaded == 2_677)
        #expect(summary.issues.count(code: "SHAPE_DISTANCE_NOT_MOVING") == 0)
    }
}

// MARK: - Route types, agencies, frequencies, calendars

@Suite("Canonical rules: route types, agency ids, frequencies, calendars")
struct OtherRuleTests {
    @Test("an extended route type loads with a warning (unexpected_enum_value)", arguments: [100, 700, 1799])
    func extendedRouteType(type: Int) throws {
        try withFeed { feed in
            try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,", with: "AB,DTA,10,Airport - Bullfrog,,\(type),")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["routes.txt"])
            let issue = try theIssue(summary, "EXTENDED_ROUTE_TYPE")
            check(issue, code: "EXTENDED_ROUTE_TYPE", canonical: "unexpected_enum_value", severity: .warning, canonicalSeverity: .warning,
                  file: "routes.txt", line: 2, field: "route_type", value: String(type))
            #expect(issue.message.hasSuffix("read by its family (\(type / 100 * 100))"))
            #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
            #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
            #expect(try row(sink, "routes.txt", "route_id", "AB")["route_type"] == .int(type))
        }
    }

    @Test("a route type that is neither GTFS's nor an extended one: a row error (unexpected_enum_value), the route skipped",
          arguments: [8, 9, 13, 99])
    func notARouteType(type: Int) throws {
        try withFeed { feed in
            let line = try lines(feed, "routes.txt").count + 1
            try feed.append("routes.txt", "R9,DTA,9,Nine,,\(type),,,\n")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["routes.txt"])
            check(try theIssue(summary, "BAD_VALUE"), code: "BAD_VALUE", canonical: "unexpected_enum_value", severity: .rowError,
                  canonicalSeverity: .warning, file: "routes.txt", line: line, field: "route_type", value: String(type))
            #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
            #expect(!sink.rows("routes.txt").contains { $0["route_id"] == .text("R9") })
        }
    }

    @Test("a route type past the extended ones (1800 and up, or below 0): a row error, canonically an unexpected_enum_value",
          arguments: [1800, 3000, -1])
    func pastExtendedRouteTypes(type: Int) throws {
        try withFeed { feed in
            let line = try lines(feed, "routes.txt").count + 1
            try feed.append("routes.txt", "R9,DTA,9,Nine,,\(type),,,\n")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try theIssue(summary, "BAD_VALUE")
            #expect(issue.severity == .rowError && issue.line == line && issue.field == "route_type" && issue.value == String(type))
            #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
            // MobilityData's validator reads route_type as an enumeration: any whole number
            // outside it is unexpected_enum_value, as 9 is here (notARouteType).
            #expect(issue.canonical == "unexpected_enum_value")
        }
    }

    @Test("a route without agency_id in a feed of several agencies: missing_required_agency_id, the route skipped; with one agency it loads")
    func missingAgencyId() throws {
        try withFeed { feed in
            let line = try lines(feed, "routes.txt").count + 1
            try feed.append("routes.txt", "R9,,9,Nine,,3,,,\n")
            let (one, _) = try loadFeed(feed.path)
            #expect(one.issues.count(.rowError) == 0 && one.stats("routes.txt")?.rowsLoaded == 6, "\(examples(one))")
            try feed.append("agency.txt", "OTHER,Other agency,http://example.com,America/Los_Angeles\n")
            let (summary, _) = try loadFeed(feed.path)
            check(try theIssue(summary, "MISSING_VALUE"), code: "MISSING_VALUE", canonical: "missing_required_agency_id", severity: .rowError,
                  canonicalSeverity: .error, file: "routes.txt", line: line, field: "agency_id", value: nil)
            #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
        }
    }

    @Test("a frequency ending when it starts, or before: a row error, start_and_end_range_equal or _out_of_order", arguments: [
        ("STBA,23:00:00,23:00:00,600", "start_and_end_range_equal"),
        ("STBA,23:00:00,22:30:00,600", "start_and_end_range_out_of_order"),
    ])
    func frequencyRange(text: String, canonical: String) throws {
        try withFeed { feed in
            let line = try lines(feed, "frequencies.txt").count + 1
            try feed.append("frequencies.txt", text + "\n")
            let (summary, _) = try loadFeed(feed.path)
            check(try theIssue(summary, "BAD_TIME_RANGE"), code: "BAD_TIME_RANGE", canonical: canonical, severity: .rowError,
                  canonicalSeverity: .error, file: "frequencies.txt", line: line, field: "end_time", value: nil)
            #expect(summary.stats("frequencies.txt")?.rowsLoaded == 11)
            #expect(summary.stats("frequencies.txt")?.rowsRead == 12)
        }
    }

    @Test("neither calendar file: fatal, missing_calendar_and_calendar_date_files; another missing file: missing_required_file")
    func missingCalendars() throws {
        try withFeed { feed in
            try feed.remove("calendar.txt")
            try feed.remove("calendar_dates.txt")
            let issue = try #require(thrownFatal { _ = try loadFeed(feed.path) })
            check(issue, code: "MISSING_FILE", canonical: "missing_calendar_and_calendar_date_files", severity: .fatal,
                  canonicalSeverity: .error, file: "calendar.txt", line: nil, field: nil, value: nil)
        }
        try withFeed { feed in
            try feed.remove("routes.txt")
            let issue = try #require(thrownFatal { _ = try loadFeed(feed.path) })
            check(issue, code: "MISSING_FILE", canonical: "missing_required_file", severity: .fatal,
                  canonicalSeverity: .error, file: "routes.txt", line: nil, field: nil, value: nil)
        }
    }
}

// MARK: - Real feeds

@Suite("Canonical rules on the shared real feeds")
struct CanonicalRuleSharedFeedTests {
    /// Loads a shared feed keeping 20 examples per kind (so that every place can be listed).
    private func load(_ name: String, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
        let sink = RecordingSink(keeping: files)
        let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), examplesPerKind: 20).load(into: sink)
        return (summary, sink)
    }

    private func places(_ summary: GTFSLoadSummary, canonical: String) -> [GTFSIssue] {
        summary.issues.entries.filter { $0.kind.canonical == canonical }.flatMap(\.examples).sorted { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    }

    @Test("wmata-rail-2026: 4 traversal times of 0 and 1 two-way exit gate in pathways.txt, all pathways loaded")
    func wmata() throws {
        let (summary, sink) = try load("wmata-rail-2026.zip", keeping: ["pathways.txt"])
        #expect(count(summary, canonical: "number_out_of_range") == 4)
        let zeros = places(summary, canonical: "number_out_of_range")
        #expect(zeros.map(\.line) == [1096, 1097, 1107, 1947])
        #expect(zeros.allSatisfy { $0.code == "BAD_NUMBER" && $0.severity == .fieldError && $0.file == "pathways.txt"
                && $0.field == "traversal_time" && $0.value == "0" })
        #expect(count(summary, canonical: "bidirectional_exit_gate") == 1)
        let gate = try #require(places(summary, canonical: "bidirectional_exit_gate").first)
        check(gate, code: "TWO_WAY_EXIT_GATE", canonical: "bidirectional_exit_gate", severity: .fieldError, canonicalSeverity: .error,
              file: "pathways.txt", line: 414, field: "is_bidirectional", value: "1")
        let stats = try #require(summary.stats("pathways.txt"))
        #expect(stats.rowsLoaded == stats.rowsRead)
        #expect(try row(sink, "pathways.txt", "pathway_id", "J03_178019")["is_bidirectional"] == .int(0))
        #expect(try row(sink, "pathways.txt", "pathway_id", "D11_153133")["traversal_time"] == .null)
        #expect(try row(sink, "pathways.txt", "pathway_id", "D11_153133")["length"] == .text("1.070058152"))
    }

    @Test("sacramento-sacrt-2024: 2 consecutive shape points at one distance but apart (shapes.txt 65256, 65836)")
    func sacramento() throws {
        let (summary, _) = try load("sacramento-sacrt-2024.zip")
        #expect(count(summary, canonical: "equal_shape_distance_diff_coordinates") == 2)
        let found = places(summary, canonical: "equal_shape_distance_diff_coordinates")
        #expect(found.map(\.line) == [65256, 65836])
        #expect(found.map(\.value) == ["0.530051020866779", "4.84758368713768"])
        #expect(found.allSatisfy { $0.code == "SHAPE_DISTANCE_NOT_MOVING" && $0.severity == .warning && $0.file == "shapes.txt" })
        let stats = try #require(summary.stats("shapes.txt"))
        #expect(stats.rowsLoaded == stats.rowsRead)
    }

    @Test("porto-alegre-eptc-2019: 150 route_text_color \"0\", field errors; the routes load without them")
    func portoAlegre() throws {
        let (summary, sink) = try load("porto-alegre-eptc-2019.zip", keeping: ["routes.txt"])
        #expect(count(summary, canonical: "invalid_color") == 150)
        #expect(places(summary, canonical: "invalid_color").allSatisfy {
            $0.code == "BAD_COLOR" && $0.severity == .fieldError && $0.file == "routes.txt" && $0.field == "route_text_color" && $0.value == "0"
        })
        #expect(summary.stats("routes.txt")?.rowsLoaded == 150)
        #expect(sink.rows("routes.txt").allSatisfy { $0["route_text_color"] == .null })
        #expect(try row(sink, "routes.txt", "route_id", "2441")["route_color"] == .text("FF0000"))
    }

    @Test("vilnius-2015: 18 extended route types (trolleybuses, 800), loaded with warnings")
    func vilnius() throws {
        let (summary, sink) = try load("vilnius-2015.zip", keeping: ["routes.txt"])
        #expect(count(summary, canonical: "unexpected_enum_value") == 18)
        #expect(summary.issues.count(code: "EXTENDED_ROUTE_TYPE") == 18)
        #expect(places(summary, canonical: "unexpected_enum_value").allSatisfy {
            $0.severity == .warning && $0.file == "routes.txt" && $0.field == "route_type" && $0.value == "800"
        })
        #expect(places(summary, canonical: "unexpected_enum_value").first?.line == 85)
        #expect(summary.stats("routes.txt")?.rowsLoaded == 101)
        #expect(sink.rows("routes.txt").filter { $0["route_type"] == .int(800) }.count == 18)
    }
}

// MARK: - The catalogue

/// Our codes with the canonical code `CanonicalNotice.code(for:)` gives them.
private let canonicalOfCode: [String: String] = [
    "MISSING_FILE": "missing_required_file",
    "FEED_NOT_FOUND": "i_o_error", "UNREADABLE_FILE": "i_o_error", "NOT_A_ZIP": "i_o_error", "BAD_ZIP_ENTRY": "i_o_error",
    "NOT_CSV": "csv_parsing_failed", "UNTERMINATED_QUOTE": "csv_parsing_failed",
    "MISSING_HEADER": "empty_file",
    "MISSING_COLUMN": "missing_required_column",
    "DUPLICATE_COLUMN": "duplicated_column",
    "WRONG_FIELD_COUNT": "invalid_row_length",
    "EXTRA_COLUMN": "unknown_column",
    "UNKNOWN_FILE": "unknown_file",
    "MISSING_VALUE": "missing_required_field",
    "BAD_TIME": "invalid_time",
    "BAD_DATE": "invalid_date",
    "BAD_COLOR": "invalid_color",
    "BAD_TIMEZONE": "invalid_timezone",
    "INVALID_TEXT": "invalid_character", "INVALID_UTF8": "invalid_character",
    "BAD_COORDINATE": "number_out_of_range",
    "DUPLICATE_KEY": "duplicate_key",
    "UNKNOWN_TRIP": "foreign_key_violation", "UNKNOWN_STOP": "foreign_key_violation", "UNKNOWN_ROUTE": "foreign_key_violation",
    "UNKNOWN_SERVICE": "foreign_key_violation", "UNKNOWN_AGENCY": "foreign_key_violation", "UNKNOWN_SHAPE": "foreign_key_violation",
    "DANGLING_PARENT": "foreign_key_violation",
    "UNUSED_AGENCY": "unused_agency",
    "BAD_DATE_RANGE": "start_and_end_range_out_of_order", "BAD_TIME_RANGE": "start_and_end_range_out_of_order",
    "NO_COORDINATES": "stop_without_location",
    "COORDINATES_AT_ORIGIN": "point_near_origin",
    "TIME_GOES_BACKWARDS": "stop_time_with_arrival_before_previous_departure_time",
    "WRONG_PARENT_TYPE": "wrong_parent_location_type",
    "STATION_WITH_PARENT": "station_with_parent_station",
    "SHAPE_DISTANCE_NOT_MOVING": "equal_shape_distance_diff_coordinates",
    "EXTENDED_ROUTE_TYPE": "unexpected_enum_value",
    "TWO_WAY_EXIT_GATE": "bidirectional_exit_gate",
]

/// Our codes that no canonical notice matches.
private let codesWithoutCanonical: Set<String> = ["VERY_LONG_VALUE", "FILE_NOT_LOADED"]

/// Our codes whose canonical code depends on the value or the case, given where the issue is raised.
private let codesWithCanonicalGivenWhereRaised: Set<String> = [
    "BAD_NUMBER", "BAD_VALUE",   // number_out_of_range, invalid_integer, invalid_float, unexpected_enum_value
    "SERVICE_ENDED", "FEED_EXPIRES", "NO_SERVICE_THIS_WEEK", "SERVICE_GAP", "SERVICE_OUTSIDE_FEED_DATES",
    "RECOMMENDED_FILE_MISSING", "RECOMMENDED_VALUE_MISSING", "NO_CONTACT",
    "STOP_TIMES_NOT_IN_ORDER", "DISTANCE_NOT_GROWING", "SHAPE_DISTANCE_DECREASES",
    "EMPTY_COLUMN_NAME", "BAD_URL", "BAD_EMAIL", "BAD_LANGUAGE", "AGENCY_TIMEZONES_DIFFER", "COORDINATES_AT_POLE", "NO_PARENT_STATION",
    "NO_STOP_NAME", "NOT_A_STOP", "PATHWAY_TO_STATION", "PATHWAY_TO_PLATFORM", "TRANSFER_AT_WRONG_TYPE", "TRANSFER_TRIP_NOT_ON_ROUTE",
    "NO_ROUTE_NAME", "ONE_STOP_TIME", "TRIP_END_WITHOUT_TIME", "ONE_TIME_ONLY", "TIMEPOINT_WITHOUT_TIMES", "FREQUENCIES_OVERLAP",
    "NO_WEEKDAY", "PATHWAY_LOOP", "ONE_FEED_DATE", "TRANSFER_TRIP_NOT_AT_STOP", "BAD_PHONE", "LINE_BREAK_IN_VALUE", "UNKNOWN_LEVEL", "ID_NOT_ASCII", "MORE_THAN_ONE_ROW", "NO_TIMEPOINT_VALUE", "FEED_NOT_STARTED", "SERVICE_NOT_STARTED", "FEED_OUTLASTS_SERVICE",
]

@Suite("CanonicalNotice: the catalogue and the mapping of our codes")
struct CanonicalNoticeTests {
    @Test("code(for:) maps each of our codes that has a fixed canonical counterpart; codes of ours alone map to none")
    func mapping() {
        for (ours, canonical) in canonicalOfCode.sorted(by: { $0.key < $1.key }) {
            #expect(CanonicalNotice.code(for: ours) == canonical, "\(ours)")
            #expect(CanonicalNotice.rules[canonical] != nil, "\(ours) -> \(canonical), not in CanonicalNotice.rules")
        }
        for ours in codesWithoutCanonical.sorted() { #expect(CanonicalNotice.code(for: ours) == nil, "\(ours)") }
        for ours in codesWithCanonicalGivenWhereRaised.sorted() {
            if let canonical = CanonicalNotice.code(for: ours) { #expect(CanonicalNotice.rules[canonical] != nil, "\(ours) -> \(canonical)") }
        }
        #expect(CanonicalNotice.code(for: "NO_SUCH_CODE") == nil)
    }

    @Test("every code in the loader's sources is in the mapping above (a new code must be placed there)")
    func everyCodeKnown() throws {
        let dir = repoRoot.appendingPathComponent("Sources/GTFS")
        var raised = Set<String>()
        for name in ["FeedLoader.swift", "FeedSource.swift", "CSVParser.swift"] {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            // Our codes are the only upper-case string literals there.
            for match in text.matches(of: #/"([A-Z][A-Z0-9_]{2,})"/#) { raised.insert(String(match.output.1)) }
        }
        #expect(raised.isSuperset(of: ["MISSING_FILE", "TIME_GOES_BACKWARDS", "NOT_A_ZIP"]), "the scan no longer finds the codes: \(raised.sorted())")
        let known = Set(canonicalOfCode.keys).union(codesWithoutCanonical).union(codesWithCanonicalGivenWhereRaised)
        #expect(raised.subtracting(known).isEmpty,
                "codes to place in canonicalOfCode, codesWithoutCanonical or codesWithCanonicalGivenWhereRaised: \(raised.subtracting(known).sorted())")
    }

    @Test("the catalogue: unique codes, errors first in `all`, every rule summarised")
    func catalogue() {
        let all = CanonicalNotice.all
        #expect(Set(all.map(\.code)).count == all.count)
        #expect(CanonicalNotice.rules.count == all.count)
        #expect(all.map(\.severity) == all.map(\.severity).sorted())
        #expect(all.allSatisfy { !$0.summary.isEmpty && $0.code == $0.code.lowercased() })
        #expect(CanonicalNotice.Severity.error < .warning && CanonicalNotice.Severity.warning < .info)
    }

    @Test("a feed with every defect above: each canonical code reported is in the catalogue; field errors are canonical errors")
    func everyReportedCodeInCatalogue() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
            try feed.replace("stop_times.txt", "CITY1,6:05:00,6:07:00,", with: "CITY1,6:05:00,6:04:00,")
            try writeStops(feed, ["CHILD,Child stop,,36.91,-116.76,,,0,AMV", "STATION2,Second station,,36.91,-116.76,,,1,STATION",
                                  "ORPHAN,Orphan,,36.91,-116.76,,,0,NO_SUCH_STATION", "BOARDING,Boarding area,,,,,,4,STATION"] + stationRows)
            try feed.replace("trips.txt", "AB,FULLW,AB1,to Bullfrog,0,1.000000,", with: "AB,FULLW,AB1,to Bullfrog,2,1.000000,NO_SUCH_SHAPE")
            try feed.replace("trips.txt", "AB,FULLW,AB2,to Airport,1,", with: "AB,FULLW,AB2,to Airport,x,")
            try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,700,,red,0")
            try feed.append("routes.txt", "R9,DTA,9,Nine,,9,,,\nR10,DTA,10,Ten,,3000,,,\n")
            try feed.append("frequencies.txt", "STBA,23:00:00,23:00:00,600\nSTBA,23:30:00,23:10:00,600\n")
            try writePathways(feed, ["GATE,STAGECOACH,NADAV,7,1,5,10", "P,NANAA,NADAV,1,0,-10,0", "Q,NANAA,NADAV,1,0,ten,soon"])
            try writeLines(feed, "transfers.txt", ["from_stop_id,to_stop_id,transfer_type,from_trip_id", "NOWHERE,AMV,1,", "AMV,AMV,1,NO_TRIP"])
            try writeShape(feed, third: "36.900100,-116.760000")
            let (summary, _) = try loadFeed(feed.path)
            #expect(Set(summary.issues.entries.map(\.kind.code)).isSuperset(of: [
                "TIME_GOES_BACKWARDS", "WRONG_PARENT_TYPE", "STATION_WITH_PARENT", "DANGLING_PARENT", "UNKNOWN_SHAPE", "BAD_VALUE",
                "BAD_COLOR", "EXTENDED_ROUTE_TYPE", "BAD_NUMBER", "BAD_TIME_RANGE", "TWO_WAY_EXIT_GATE", "UNKNOWN_STOP", "UNKNOWN_TRIP",
                "SHAPE_DISTANCE_NOT_MOVING",
            ]), "\(summary.issues.entries.map(\.kind))")
            var canonicalCodes = Set<String>()
            for entry in summary.issues.entries {
                guard let canonical = entry.kind.canonical else { continue }
                canonicalCodes.insert(canonical)
                #expect(CanonicalNotice.rules[canonical] != nil, "\(entry.kind)")
                if entry.kind.severity == .fieldError { #expect(CanonicalNotice.rules[canonical]?.severity == .error, "\(entry.kind)") }
                for example in entry.examples { #expect(example.canonical == canonical && example.severity == entry.kind.severity) }
            }
            #expect(canonicalCodes.count >= 14, "\(canonicalCodes.sorted())")
        }
    }

    @Test("the bundled feeds: every canonical code reported is in the catalogue", arguments: ["google-sample.zip", "caltrain.zip", "bart-2018.zip"])
    func bundledFeeds(name: String) throws {
        let (summary, _) = try loadFeed(bundledFeed(name))
        for entry in summary.issues.entries {
            if let canonical = entry.kind.canonical { #expect(CanonicalNotice.rules[canonical] != nil, "\(entry.kind)") }
        }
        #expect(summary.issues.count(.fieldError) == 0, "\(examples(summary))")
    }
}
