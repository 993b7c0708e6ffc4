import Foundation
import Testing
import GTFS
import TransitModel

/// Appends one line (adding the line end the file lacks, if any).
private func appendLine(_ folder: FeedFolder, _ name: String, _ line: String) throws {
    let b = try folder.bytes(name)
    try folder.write(name, b + (b.last == 0x0A || b.isEmpty ? [] : [0x0A]) + Array((line + "\n").utf8))
}

@Suite("GTFSFeedLoader: broken inputs")
struct FeedLoaderBrokenInputTests {
    // MARK: Fatal problems

    @Test("a missing required file is fatal", arguments: ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"])
    func missingFile(file: String) throws {
        try withFeed { feed in
            try feed.remove(file)
            let issue = thrownFatal { _ = try loadFeed(feed.path) }
            #expect(issue?.code == "MISSING_FILE")
            #expect(issue?.canonical == "missing_required_file")
            #expect(issue?.file == file)
            #expect(issue?.severity == .fatal)
        }
    }

    @Test("neither calendar.txt nor calendar_dates.txt is fatal; either one alone is enough")
    func missingCalendars() throws {
        try withFeed { feed in
            try feed.remove("calendar_dates.txt")
            let (summary, _) = try loadFeed(feed.path)
            #expect(summary.stats("trips.txt")?.rowsLoaded == 11)
            try feed.remove("calendar.txt")
            let issue = thrownFatal { _ = try loadFeed(feed.path) }
            #expect(issue?.code == "MISSING_FILE")
            #expect(issue?.canonical == "missing_calendar_and_calendar_date_files")
            #expect(issue?.severity == .fatal)
        }
        try withFeed { feed in
            // calendar_dates.txt alone: every trip's service must be in it.
            try feed.remove("calendar.txt")
            try feed.write("calendar_dates.txt", "service_id,date,exception_type\nFULLW,20070604,1\nWE,20070609,1\n")
            let (summary, _) = try loadFeed(feed.path)
            #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.firstServiceDate == ServiceDate(year: 2007, month: 6, day: 4))
            #expect(summary.lastServiceDate == ServiceDate(year: 2007, month: 6, day: 9))
        }
    }

    @Test("a missing required column is fatal and names the column", arguments: [
        ("routes.txt", "route_type"), ("stops.txt", "stop_lat"), ("stop_times.txt", "arrival_time"),
        ("trips.txt", "service_id"), ("agency.txt", "agency_timezone"), ("calendar.txt", "end_date"),
    ])
    func missingColumn(file: String, column: String) throws {
        try withFeed { feed in
            try feed.replace(file, column, with: "renamed_column")
            let issue = thrownFatal { _ = try loadFeed(feed.path) }
            #expect(issue?.code == "MISSING_COLUMN")
            #expect(issue?.canonical == "missing_required_column")
            #expect(issue?.file == file)
            #expect(issue?.field == column)
            #expect(issue?.line == 1)
        }
    }

    @Test("a file with NUL bytes is not CSV")
    func nulBytes() throws {
        try withFeed { feed in
            try feed.write("routes.txt", [0x50, 0x4B, 0x03, 0x04, 0x00, 0x00, 0x14, 0x00] + Array("route_id\n".utf8))
            let issue = thrownFatal { _ = try loadFeed(feed.path) }
            #expect(issue?.code == "NOT_CSV")
            #expect(issue?.canonical == "csv_parsing_failed")
            #expect(issue?.file == "routes.txt")
        }
    }

    @Test("an empty required file has no header")
    func emptyRequiredFile() throws {
        try withFeed { feed in
            try feed.write("trips.txt", [])
            let issue = thrownFatal { _ = try loadFeed(feed.path) }
            #expect(issue?.code == "MISSING_HEADER")
            #expect(issue?.canonical == "empty_file")
            #expect(issue?.file == "trips.txt")
        }
    }

    @Test("a file that is not a zip archive", arguments: [Array("this is not a zip file\n".utf8), [], [0x50, 0x4B, 0x03, 0x04]])
    func notAZip(content: [UInt8]) throws {
        let dir = try makeTemporaryDirectory("notzip")
        defer { removeTemporary(dir) }
        let path = dir.appendingPathComponent("feed.zip").path
        try Data(content).write(to: URL(fileURLWithPath: path))
        let issue = thrownFatal { _ = try openFeed(at: path) }
        #expect(issue?.code == "NOT_A_ZIP")
        #expect(issue?.canonical == "i_o_error")
        #expect(issue?.severity == .fatal)
        #expect(thrownFatal { _ = try ZipFeedSource(path: path) }?.code == "NOT_A_ZIP")
    }

    @Test("a path that does not exist")
    func notFound() {
        let path = "/nonexistent-\(UUID().uuidString)/feed.zip"
        let issue = thrownFatal { _ = try openFeed(at: path) }
        #expect(issue?.code == "FEED_NOT_FOUND")
        #expect(issue?.canonical == "i_o_error")
        #expect(issue?.file == path)
    }

    @Test("a zip with the files inside one folder is read from that folder")
    func nestedZip() throws {
        try withFeed { feed in
            let dir = try makeTemporaryDirectory("nested")
            defer { removeTemporary(dir) }
            try FileManager.default.copyItem(at: feed.url, to: dir.appendingPathComponent("gtfs"))
            let zip = dir.appendingPathComponent("nested.zip").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
            process.currentDirectoryURL = dir
            process.arguments = ["-q", "-r", zip, "gtfs"]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let source = try ZipFeedSource(path: zip)
            #expect(source.fileNames.contains("stops.txt"))
            #expect(source.size(of: "stop_times.txt") == (try feed.bytes("stop_times.txt")).count)
            let (summary, _) = try loadFeed(zip)
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
        }
    }

    // MARK: Row errors

    @Test("a bad time is a row error with line, field and value; the row is skipped, and its trip, left with one stop time, left out")
    func badTime() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "STBA,6:20:00,", with: "STBA,6:2x:00,")
            let (summary, sink) = try loadFeed(feed.path)
            let stats = try #require(summary.stats("stop_times.txt"))
            #expect(stats.rowsRead == 28)
            // The bad row, and STBA's other stop time: a trip of one stop time is left out.
            #expect(stats.rowsLoaded == stats.rowsRead - 2)
            #expect(sink.rowCounts["stop_times.txt"] == 26)
            let alone = try #require(issues(summary, "ONE_STOP_TIME").first)
            #expect(alone.severity == .rowError && alone.canonical == "missing_stop_times_record" && alone.value == "STBA" && alone.line == 2)
            let issue = try #require(issues(summary, "BAD_TIME").first)
            #expect(issue.severity == .rowError)
            #expect(issue.canonical == "invalid_time" && issue.canonicalSeverity == .error)
            #expect(issue.file == "stop_times.txt")
            #expect(issue.line == 3)
            #expect(issue.field == "arrival_time")
            #expect(issue.value == "6:2x:00")
            #expect(summary.issues.count(.rowError) == 2)
            #expect(issue.location == "stop_times.txt:3 field arrival_time (\"6:2x:00\")")
        }
    }

    @Test("strict mode throws the first row error as fatal")
    func strict() throws {
        try withFeed { feed in
            try feed.replace("stop_times.txt", "STBA,6:20:00,", with: "STBA,6:2x:00,")
            try feed.replace("stop_times.txt", "AB1,8:00:00,", with: "AB1,8:00:0x,")
            do {
                _ = try loadFeed(feed.path, strict: true)
                Issue.record("strict load did not throw")
            } catch let error as GTFSFatalError {
                #expect(error.issue.severity == .rowError)
                #expect(error.issue.code == "BAD_TIME")
                #expect(error.issue.canonical == "invalid_time")
                #expect(error.issue.line == 3)
                #expect(error.description.hasPrefix("BAD_TIME at stop_times.txt:3"))
            }
        }
        // Warnings and notes do not stop a strict load (nor do field errors: CanonicalRuleTests).
        try withFeed { feed in
            try feed.write("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,my_extra\n"
                           + "DTA,Demo Transit Authority,http://google.com,America/Los_Angeles,x\n"
                           + "UNUSED,Unused agency,http://example.com,America/Los_Angeles,y\n")
            let (summary, _) = try loadFeed(feed.path, strict: true)
            #expect(summary.issues.count(code: "UNUSED_AGENCY") == 1)
            #expect(summary.issues.count(code: "EXTRA_COLUMN") == 1)
        }
    }

    @Test("a column named twice is a warning; the first one is used")
    func duplicateColumn() throws {
        try withFeed { feed in
            try feed.write("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_name\n"
                           + "DTA,First name,http://google.com,America/Los_Angeles,Second name\n")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
            let issue = try #require(issues(summary, "DUPLICATE_COLUMN").first)
            #expect(issue.severity == .warning)
            #expect(issue.canonical == "duplicated_column" && issue.canonicalSeverity == .error)
            #expect(issue.field == "agency_name")
            #expect(sink.rows("agency.txt").first?["agency_name"] == .text("First name"))
        }
    }

    @Test("an unknown trip in stop_times.txt")
    func unknownTrip() throws {
        try withFeed { feed in
            let line = try nextLine(feed, "stop_times.txt")
            try appendLine(feed, "stop_times.txt", "GHOST,7:00:00,7:00:00,AMV,1,,,,")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try #require(issues(summary, "UNKNOWN_TRIP").first)
            #expect(issue.severity == .rowError)
            #expect(issue.canonical == "foreign_key_violation")
            #expect(issue.line == line)
            #expect(issue.field == "trip_id")
            #expect(issue.value == "GHOST")
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
            #expect(summary.stats("stop_times.txt")?.rowsRead == 29)
        }
    }

    @Test("an unknown stop and a repeated stop_sequence in stop_times.txt")
    func unknownStopAndDuplicateSequence() throws {
        try withFeed { feed in
            try appendLine(feed, "stop_times.txt", "AB1,9:00:00,9:00:00,NOWHERE,3,,,,")
            try appendLine(feed, "stop_times.txt", "AB1,9:00:00,9:00:00,AMV,2,,,,")
            let (summary, _) = try loadFeed(feed.path)
            #expect(issues(summary, "UNKNOWN_STOP").first?.line == 30)
            #expect(issues(summary, "UNKNOWN_STOP").first?.canonical == "foreign_key_violation")
            #expect(issues(summary, "DUPLICATE_KEY").first?.canonical == "duplicate_key")
            #expect(issues(summary, "DUPLICATE_KEY").first?.line == 31)
            #expect(issues(summary, "DUPLICATE_KEY").first?.field == "stop_sequence")
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
        }
    }

    @Test("times going backwards in a trip: one row error at the first bad stop time, the whole trip left out")
    func timesGoingBackwards() throws {
        try withFeed { feed in
            // STBA: 6:00 at its first stop, then 5:50 at the second; CITY1's second stop leaves before it arrives.
            try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
            try feed.replace("stop_times.txt", "CITY1,6:05:00,6:07:00,", with: "CITY1,6:05:00,6:04:00,")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
            let found = issues(summary, "TIME_GOES_BACKWARDS")
            #expect(found.map(\.severity) == [.rowError, .rowError])
            #expect(found.map(\.location) == ["stop_times.txt:3 field arrival_time (\"5:50:00\")",
                                               "stop_times.txt:5 field departure_time (\"6:04:00\")"])
            #expect(found.map(\.canonical) == ["stop_time_with_arrival_before_previous_departure_time", "start_and_end_range_out_of_order"])
            #expect(found.first?.message.contains("6:00:00") == true)
            #expect(found.first?.message.contains("trip STBA is left out") == true)
            // STBA's 2 rows and CITY1's 5 are taken back from the sink.
            #expect(sink.leftOut == ["STBA", "CITY1"])
            #expect(summary.stats("stop_times.txt")?.rowsRead == 28)
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28 - 2 - 5)
            #expect(sink.rowCounts["stop_times.txt"] == 21)
            #expect(!sink.rows("stop_times.txt").contains { $0["trip_id"] == .text("STBA") || $0["trip_id"] == .text("CITY1") })
            #expect(summary.stats("trips.txt")?.rowsLoaded == 11)   // the trips themselves stay, without stop times
        }
    }

    @Test("a stop at 0,0 is a row error (missing coordinates), a stop near it is not")
    func stopAtOrigin() throws {
        try withFeed { feed in
            try feed.replace("stops.txt", "36.425288,-117.133162", with: "0.0,0")
            try feed.replace("stops.txt", "36.868446,-116.784582", with: "0.0001,0.0001")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try #require(issues(summary, "COORDINATES_AT_ORIGIN").first)
            #expect(issue.severity == .rowError)
            #expect(issue.canonical == "point_near_origin")
            #expect(issue.location == "stops.txt:2 field stop_lat (\"0.0,0\")")
            #expect(issues(summary, "COORDINATES_AT_ORIGIN").count == 1)
            #expect(summary.stats("stops.txt")?.rowsLoaded == 8)
        }
    }

    @Test("a value of more than 4 KB is a warning naming the field; it is stored")
    func veryLongValue() throws {
        try withFeed { feed in
            let name = String(repeating: "Furnace Creek ", count: 400) + "Resort"   // 5,606 bytes
            try feed.replace("stops.txt", "Furnace Creek Resort (Demo)", with: name)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            let issue = try #require(issues(summary, "VERY_LONG_VALUE").first)
            #expect(issue.severity == .warning && issue.line == 2 && issue.field == "stop_name")
            #expect(issue.canonical == nil)   // not a canonical rule
            #expect(issue.message.hasPrefix("5606 bytes long"))
            #expect(sink.rows("stops.txt").contains { $0["stop_name"] == .text(name) })
        }
    }

    @Test("a repeated stop_id")
    func duplicateStop() throws {
        try withFeed { feed in
            let line = try nextLine(feed, "stops.txt")
            try appendLine(feed, "stops.txt", "AMV,Second Amargosa,,36.64,-116.40,,")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            let issue = try #require(issues(summary, "DUPLICATE_KEY").first)
            #expect(issue.severity == .rowError)
            #expect(issue.canonical == "duplicate_key" && issue.canonicalSeverity == .error)
            #expect(issue.file == "stops.txt")
            #expect(issue.line == line)
            #expect(issue.field == "stop_id")
            #expect(issue.value == "AMV")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
            // The first row is kept.
            #expect(sink.rows("stops.txt").filter { $0["stop_id"] == .text("AMV") }.map { $0["stop_name"] }
                    == [.text("Amargosa Valley (Demo)")])
        }
    }

    @Test("a stop without coordinates and without a parent")
    func noCoordinates() throws {
        try withFeed { feed in
            try appendLine(feed, "stops.txt", "NOWHERE,Nowhere,,,,,")
            try appendLine(feed, "stops.txt", "HALF,Half,,36.6,,,")
            let (summary, _) = try loadFeed(feed.path)
            let found = issues(summary, "NO_COORDINATES")
            #expect(found.map(\.line) == [11, 12])
            #expect(found.allSatisfy { $0.severity == .rowError })
            #expect(found.allSatisfy { $0.canonical == "stop_without_location" })
            #expect(found.map(\.field) == ["stop_lat", "stop_lon"])
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
        }
    }

    @Test("a child stop without coordinates whose parent station comes later in stops.txt loads")
    func parentLater() throws {
        try withFeed { feed in
            let original = try feed.text("stops.txt").split(separator: "\n").dropFirst().map { $0 + ",," }
            let text = "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station\n"
                + "CHILD,Platform 1,,,,,,0,LATER_STATION\n"
                + original.joined(separator: "\n") + "\n"
                + "LATER_STATION,Station,,36.91,-116.76,,,1,\n"
                + "EARLIER_CHILD,Platform 2,,,,,,0,LATER_STATION\n"
                + "ENTRANCE,Entrance,,36.91,-116.76,,,2,LATER_STATION\n"
                + "NODE,Generic node,,,,,,3,LATER_STATION\n"
            try feed.write("stops.txt", text)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
            // The new stops serve no trip (stop_without_stop_time): the only warnings.
            #expect(Set(examples(summary).filter { $0.severity == .warning }.map(\.code)) == ["STOP_NOT_SERVED"], "\(examples(summary))")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 14)
            let child = try #require(sink.rows("stops.txt").first)
            #expect(child["stop_id"] == .text("CHILD"))
            #expect(child["parent_station"] == .text("LATER_STATION"))
            #expect(child["stop_lat"] == .null)
            #expect(child["location_type"] == .int(0))
        }
    }

    @Test("a parent_station that names no stop is a field error; the stop loads without a parent station")
    func danglingParent() throws {
        try withFeed { feed in
            let original = try feed.text("stops.txt").split(separator: "\n").dropFirst().map { $0 + ",," }
            let text = "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station\n"
                + original.joined(separator: "\n") + "\n"
                + "ORPHAN,Orphan,,36.91,-116.76,,,0,NO_SUCH_STATION\n"
            try feed.write("stops.txt", text)
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            let issue = try #require(issues(summary, "DANGLING_PARENT").first)
            #expect(issue.severity == .fieldError)
            #expect(issue.canonical == "foreign_key_violation" && issue.canonicalSeverity == .error)
            #expect(issue.line == 11)
            #expect(issue.field == "parent_station")
            #expect(issue.value == "NO_SUCH_STATION")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 10)
            #expect(summary.issues.count(.rowError) == 0)
            #expect(summary.issues.count(.fieldError) == 1)
            let orphan = try #require(sink.rows("stops.txt").first { $0["stop_id"] == .text("ORPHAN") })
            #expect(orphan["parent_station"] == .null)
            #expect(orphan["stop_lat"] == .text("36.91"))
        }
    }

    @Test("row errors of each kind name their line, field and canonical code", arguments: [
        ("trips.txt", "NOPE,FULLW,TX,,,,", "UNKNOWN_ROUTE", "route_id", "foreign_key_violation"),
        ("trips.txt", "AB,NOSERVICE,TY,,,,", "UNKNOWN_SERVICE", "service_id", "foreign_key_violation"),
        ("trips.txt", "AB,FULLW,AB1,again,,,", "DUPLICATE_KEY", "trip_id", "duplicate_key"),
        ("routes.txt", "R9,DTA,9,Nine,,3000,,,", "BAD_VALUE", "route_type", "unexpected_enum_value"),
        ("routes.txt", "R9,DTA,9,Nine,,9,,,", "BAD_VALUE", "route_type", "unexpected_enum_value"),
        ("routes.txt", "R9,NOAGENCY,9,Nine,,3,,,", "UNKNOWN_AGENCY", "agency_id", "foreign_key_violation"),
        ("agency.txt", "DTA2,Other,http://example.com,Mars/Olympus_Mons", "BAD_TIMEZONE", "agency_timezone", "invalid_timezone"),
        ("agency.txt", "DTA2,,http://example.com,America/Los_Angeles", "MISSING_VALUE", "agency_name", "missing_required_field"),
        ("calendar.txt", "BACKWARDS,1,1,1,1,1,1,1,20101231,20070101", "BAD_DATE_RANGE", "end_date", "start_and_end_range_out_of_order"),
        ("calendar.txt", "TWO,1,1,1,1,1,1,2,20070101,20101231", "BAD_VALUE", "sunday", "unexpected_enum_value"),
        ("calendar_dates.txt", "FULLW,20070604,2", "DUPLICATE_KEY", "date", "duplicate_key"),
        ("calendar_dates.txt", "FULLW,20070230,1", "BAD_DATE", "date", "invalid_date"),
        ("stops.txt", "NORTHPOLE,North,,95.0,10.0,,", "BAD_COORDINATE", "stop_lat", "number_out_of_range"),
        ("stop_times.txt", "AB1,9:00:00,9:00:00,AMV,,,,,", "MISSING_VALUE", "stop_sequence", "missing_required_field"),
        ("stop_times.txt", "AB1,9:00:00,9:00:00,AMV,7,,9,,", "BAD_VALUE", "pickup_type", "unexpected_enum_value"),
        ("stop_times.txt", "AB1,9:00:00,9:00:00,AMV,7,,,,-1", "BAD_NUMBER", "shape_dist_traveled", "number_out_of_range"),
        ("stop_times.txt", "AB1,9:00:00,9:00:00,AMV,7,,,,,surplus", "WRONG_FIELD_COUNT", nil, "invalid_row_length"),
        ("stop_times.txt", "AB1,9:00:00,9:00:00,AMV", "WRONG_FIELD_COUNT", nil, "invalid_row_length"),
        ("frequencies.txt", "STBA,22:00:00,6:00:00,600", "BAD_TIME_RANGE", "end_time", "start_and_end_range_out_of_order"),
        ("frequencies.txt", "GHOST,6:00:00,7:00:00,600", "UNKNOWN_TRIP", "trip_id", "foreign_key_violation"),
        ("frequencies.txt", "STBA,6:00:00,7:00:00,0", "BAD_NUMBER", "headway_secs", "number_out_of_range"),
        ("frequencies.txt", "STBA,6:00:00,7:00:00,600", "DUPLICATE_KEY", "start_time", "duplicate_key"),
        ("stops.txt", "QUOTED,\"never closed,,36.6,-116.4,,", "UNTERMINATED_QUOTE", nil, "csv_parsing_failed"),
    ] as [(String, String, String, String?, String?)])
    func rowErrorKinds(file: String, line text: String, code: String, field: String?, canonical: String?) throws {
        try withFeed { feed in
            let line = try nextLine(feed, file)
            let before = try #require(try loadFeed(feed.path).0.stats(file))
            try appendLine(feed, file, text)
            let (summary, _) = try loadFeed(feed.path)
            let rowErrors = examples(summary).filter { $0.severity == .rowError }
            #expect(rowErrors.count == 1, "\(rowErrors)")
            let issue = try #require(rowErrors.first)
            #expect(issue.code == code)
            if let canonical { #expect(issue.canonical == canonical) }
            #expect(issue.file == file)
            #expect(issue.line == line)
            #expect(issue.field == field)
            let stats = try #require(summary.stats(file))
            #expect(stats.rowsRead == before.rowsRead + 1)
            #expect(stats.rowsLoaded == before.rowsLoaded)
        }
    }

    @Test("surplus fields that are empty are accepted")
    func emptySurplusFields() throws {
        try withFeed { feed in
            try appendLine(feed, "stop_times.txt", "AB1,9:00:00,9:00:00,AMV,7,,,,,,,  ,")
            let (summary, _) = try loadFeed(feed.path)
            #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 29)
        }
    }

    @Test("a child without coordinates whose parent row was rejected is not loaded")
    func parentRejected() throws {
        try withFeed { feed in
            let original = try feed.text("stops.txt").split(separator: "\n").dropFirst().map { $0 + ",," }
            try feed.write("stops.txt", "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station\n"
                           + original.joined(separator: "\n") + "\n"
                           + "BROKEN_STATION,Station,,north,-116.76,,,1,\n"    // line 11: BAD_COORDINATE, skipped
                           + "CHILD,Platform,,,,,,0,BROKEN_STATION\n"           // line 12
                           + "SELFISH,Platform,,,,,,0,SELFISH\n")               // line 13: its own parent
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            #expect(issues(summary, "BAD_COORDINATE").first?.line == 11)
            // A parent lends its coordinates only when it has valid ones and is not the stop itself.
            #expect(sink.rows("stops.txt").contains { $0["stop_id"] == .text("CHILD") } == false)
            #expect(sink.rows("stops.txt").contains { $0["stop_id"] == .text("SELFISH") } == false)
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
        }
    }

    @Test("a stops.txt header that names stop_id twice loads with a DUPLICATE_COLUMN warning")
    func duplicateStopIdColumn() async {
        // Both passes over stops.txt must use the FIRST stop_id column (a mismatch once
        // crashed the loader): run in a child process so that a crash cannot end the run.
        await #expect(processExitsWith: .success) {
            let feed = try FeedFolder(unzipping: bundledFeed("google-sample.zip"), label: "exit-duplicate-stop-id")
            defer { feed.delete() }
            let rows = try feed.text("stops.txt").split(separator: "\n").dropFirst()
                .map { line in line + ",OTHER_" + line.prefix { $0 != "," } }
            try feed.write("stops.txt", "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,stop_id\n"
                           + rows.joined(separator: "\n") + "\n")
            let (summary, _) = try loadFeed(feed.path)
            guard summary.issues.count(code: "DUPLICATE_COLUMN") == 1,
                  summary.stats("stops.txt")?.rowsLoaded == 9,
                  summary.issues.count(.rowError) == 0 else { exit(1) }
        }
        removeTemporaries(label: "exit-duplicate-stop-id")   // the crashed child could not clean up
    }

    @Test("an extra column is a note; the rows load")
    func extraColumn() throws {
        try withFeed { feed in
            try feed.write("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,my_extra\n"
                           + "DTA,Demo Transit Authority,http://google.com,America/Los_Angeles,whatever\n")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try #require(issues(summary, "EXTRA_COLUMN").first)
            #expect(issue.severity == .note)
            #expect(issue.canonical == "unknown_column" && issue.canonicalSeverity == .info)
            #expect(issue.file == "agency.txt")
            #expect(issue.field == "my_extra")
            #expect(issue.line == 1)
            #expect(summary.stats("agency.txt")?.rowsLoaded == 1)
            #expect(summary.issues.count(.rowError) == 0)
        }
    }

    @Test("an unknown file is a note")
    func unknownFile() throws {
        try withFeed { feed in
            try feed.write("notes.txt", "hello\n")
            try FileManager.default.createDirectory(at: feed.file("subfolder"), withIntermediateDirectories: false)
            let (summary, _) = try loadFeed(feed.path)
            let found = issues(summary, "UNKNOWN_FILE")
            #expect(found.map(\.file) == ["notes.txt"])
            #expect(found.first?.severity == .note)
            #expect(found.first?.canonical == "unknown_file" && found.first?.canonicalSeverity == .info)
            #expect(issues(summary, "FILE_NOT_LOADED").map(\.file).sorted()
                    == ["attributions.txt", "fare_attributes.txt", "fare_rules.txt"])
        }
    }

    @Test("a stop_times.txt cut in the middle of a line: the last row is a row error on the right line")
    func truncated() throws {
        try withFeed("caltrain.zip") { feed in
            let bytes = try feed.bytes("stop_times.txt")
            // Keep 3,999 whole lines (header + 3,998 rows), then half of line 4,000.
            var breaks = 0, cut = 0
            for (i, b) in bytes.enumerated() where b == 0x0A {
                breaks += 1
                if breaks == 3_999 { cut = i + 1; break }
            }
            let partialLine = bytes[cut...].prefix { $0 != 0x2C }.count + 4   // trip_id, a comma and "5:1"
            try feed.write("stop_times.txt", Array(bytes[..<(cut + partialLine)]))
            let (summary, _) = try loadFeed(feed.path)
            let stats = try #require(summary.stats("stop_times.txt"))
            #expect(stats.rowsRead == 3_999)
            #expect(stats.rowsLoaded == 3_998)
            let errors = examples(summary).filter { $0.severity == .rowError }
            #expect(errors.count == 1)
            #expect(errors.first?.file == "stop_times.txt")
            #expect(errors.first?.line == 4_000)
            #expect(errors.first?.code == "WRONG_FIELD_COUNT")
            #expect(errors.first?.canonical == "invalid_row_length")
        }
    }

    @Test("a quoted stop_name with a comma loads")
    func quotedComma() throws {
        try withFeed { feed in
            try feed.replace("stops.txt", "Stagecoach Hotel & Casino (Demo)", with: "\"Stagecoach Hotel, Casino \"\"Demo\"\"\"")
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
            let stop = sink.rows("stops.txt").first { $0["stop_id"] == .text("STAGECOACH") }
            #expect(stop?["stop_name"] == .text("Stagecoach Hotel, Casino \"Demo\""))
            #expect(stop?["stop_lat"] == .text("36.915682"))
        }
    }

    @Test("invalid UTF-8 in a text column: INVALID_UTF8 with line and field")
    func invalidUTF8() throws {
        try withFeed { feed in
            let text = try feed.bytes("stops.txt")
            let name = Array("Amargosa Valley".utf8)
            let at = try #require(text.firstRange(of: name))
            try feed.write("stops.txt", Array(text[..<at.lowerBound]) + Array("Amargosa ".utf8) + [0xFF, 0xFE]
                           + Array(text[(at.lowerBound + 9)...]))
            // A new stop whose id holds the byte 0xC0 (never valid in UTF-8).
            try feed.write("stops.txt", try feed.bytes("stops.txt") + Array("BAD".utf8) + [0xC0]
                           + Array("ID,Bad id,,36.6,-116.4,,\n".utf8))
            let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
            let found = issues(summary, "INVALID_UTF8")
            #expect(found.count == 2)
            // stop_id is required: the row is skipped (row error).
            let idIssue = try #require(found.first { $0.field == "stop_id" })
            #expect(idIssue.severity == .rowError)
            #expect(idIssue.canonical == "invalid_character")
            #expect(idIssue.line == 11)
            #expect(idIssue.file == "stops.txt")
            // stop_name is an optional text column: GTFSSchema marks it .optionalLenient, so
            // the bad value is stored as NULL (a field error: invalid_character is a canonical
            // ERROR) and the stop loads.
            let nameIssue = try #require(found.first { $0.field == "stop_name" })
            #expect(nameIssue.line == 10)
            #expect(nameIssue.severity == .fieldError)
            #expect(nameIssue.canonical == "invalid_character" && nameIssue.canonicalSeverity == .error)
            #expect(GTFSSchema.stops.columns[GTFSSchema.stops.columnIndex("stop_name")!].rule == .optionalLenient)
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
            #expect(sink.rows("stops.txt").first { $0["stop_id"] == .text("AMV") }?["stop_name"] == .null)
        }
    }

    @Test("a NUL byte inside a text field after the first 4 KiB is a bad value (INVALID_TEXT), not NOT_CSV")
    func nulInField() throws {
        try withFeed { feed in
            for i in 0..<150 { try appendLine(feed, "stops.txt", "PAD_\(i),Padding stop \(i),,36.6,-116.4,,") }
            #expect(try feed.bytes("stops.txt").count > 4_096)
            let line = try nextLine(feed, "stops.txt")
            try appendLine(feed, "stops.txt", "NULSTOP,Nul\u{0}Name,,36.6,-116.4,,")
            let (summary, _) = try loadFeed(feed.path)
            let issue = try #require(issues(summary, "INVALID_TEXT").first)
            #expect(issue.line == line)
            #expect(issue.field == "stop_name")
            #expect(issue.severity == .fieldError)   // stop_name is optionalLenient: stored as NULL
            #expect(issue.canonical == "invalid_character")
            #expect(summary.stats("stops.txt")?.rowsLoaded == 9 + 150 + 1)
        }
    }

    @Test("many row errors of one kind: all counted, three examples kept")
    func manyErrorsCounted() throws {
        try withFeed { feed in
            let text = try feed.text("stop_times.txt").replacingOccurrences(of: ",8:", with: ",8:xx")
            try feed.write("stop_times.txt", text)
            let (summary, _) = try loadFeed(feed.path)
            let entry = try #require(summary.issues.entries.first { $0.kind.code == "BAD_TIME" })
            #expect(entry.kind.canonical == "invalid_time")
            #expect(entry.count == 4)     // AB1 ×2, BFC1, AAMV1: the rows whose arrival is at 8 o'clock
            #expect(entry.examples.count == 3)
            #expect(entry.examples.map(\.line) == [14, 15, 18])
            // AB1 loses both its stop times; BFC1 and AAMV1 keep one each and are left out
            // (ONE_STOP_TIME): 4 rows skipped, 2 taken back.
            #expect(summary.issues.count(code: "ONE_STOP_TIME") == 2)
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28 - 4 - 2)
        }
    }
}
