/// The notices of MobilityData's canonical GTFS Schedule validator that this importer
/// raises: each code with its canonical severity and what it checks, in our words (from
/// MobilityData's published notice list; none of their code). `GTFSIssue.canonical` names
/// one of these; `Scripts/validate-compare.sh` counts them beside a canonical validator's.
public enum CanonicalNotice {
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        case error = "ERROR", warning = "WARNING", info = "INFO"
        private var rank: Int { switch self { case .error: 0; case .warning: 1; case .info: 2 } }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public struct Rule: Sendable {
        public let code: String
        public let severity: Severity
        /// What the rule checks, in a sentence.
        public let summary: String
    }

    /// The canonical notices raised here, by code.
    public static let rules: [String: Rule] = Dictionary(uniqueKeysWithValues: list.map { ($0.code, $0) })

    /// Every rule, errors first, then by code.
    public static var all: [Rule] { list.sorted { ($0.severity, $0.code) < ($1.severity, $1.code) } }

    private static let list: [Rule] = [
        // Files and CSV
        Rule(code: "missing_required_file", severity: .error, summary: "A file every feed must have is not there."),
        Rule(code: "missing_calendar_and_calendar_date_files", severity: .error, summary: "Neither calendar.txt nor calendar_dates.txt is there."),
        Rule(code: "i_o_error", severity: .error, summary: "The feed or one of its files cannot be read."),
        Rule(code: "csv_parsing_failed", severity: .error, summary: "A file is not comma-separated text (binary data, a quote never closed)."),
        Rule(code: "empty_file", severity: .error, summary: "A file has no header line."),
        Rule(code: "missing_required_column", severity: .error, summary: "The header lacks a column the file must have."),
        Rule(code: "duplicated_column", severity: .error, summary: "The header names a column twice."),
        Rule(code: "invalid_row_length", severity: .error, summary: "A row has more or fewer fields than the header."),
        Rule(code: "unknown_column", severity: .info, summary: "A column that is not part of GTFS Schedule."),
        Rule(code: "unsorted_stop_times", severity: .info, summary: "A trip's rows in stop_times.txt are not in stop_sequence order."),
        Rule(code: "unknown_file", severity: .info, summary: "A file that is not part of GTFS Schedule."),
        // Values
        Rule(code: "missing_required_field", severity: .error, summary: "A value the row must have is empty."),
        Rule(code: "missing_required_agency_id", severity: .error, summary: "A feed with several agencies leaves a route's agency_id empty."),
        Rule(code: "invalid_time", severity: .error, summary: "A time is not H:MM:SS."),
        Rule(code: "invalid_date", severity: .error, summary: "A date is not YYYYMMDD."),
        Rule(code: "invalid_integer", severity: .error, summary: "A whole number does not parse."),
        Rule(code: "invalid_float", severity: .error, summary: "A decimal number does not parse."),
        Rule(code: "invalid_color", severity: .error, summary: "A colour is not six hexadecimal digits."),
        Rule(code: "invalid_timezone", severity: .error, summary: "A time zone is not an IANA name."),
        Rule(code: "invalid_character", severity: .error, summary: "Text holds a character that cannot be shown (not UTF-8, or a NUL byte)."),
        Rule(code: "number_out_of_range", severity: .error, summary: "A number is outside the values its field allows (a latitude past 90, a traversal time of 0)."),
        Rule(code: "unexpected_enum_value", severity: .warning, summary: "A whole number that is not one of the field's values in the GTFS reference (an extended route type)."),
        Rule(code: "duplicate_key", severity: .error, summary: "A row repeats the key of an earlier row."),
        Rule(code: "foreign_key_violation", severity: .error, summary: "A reference to a row that is not in the file it refers to."),
        Rule(code: "start_and_end_range_out_of_order", severity: .error, summary: "An end date or time before its start (a calendar ending before it begins, a trip leaving a stop before it arrives there)."),
        Rule(code: "start_and_end_range_equal", severity: .error, summary: "An end time equal to its start."),
        // Stops
        Rule(code: "stop_without_location", severity: .error, summary: "A stop, station or entrance without coordinates."),
        Rule(code: "point_near_origin", severity: .error, summary: "Coordinates at 0, 0: missing coordinates written as zeros."),
        Rule(code: "wrong_parent_location_type", severity: .error, summary: "A parent_station of the wrong location type (a platform's parent must be a station; a boarding area's, a platform)."),
        Rule(code: "station_with_parent_station", severity: .error, summary: "A station that names a parent_station."),
        // Times
        Rule(code: "stop_time_with_arrival_before_previous_departure_time", severity: .error, summary: "A trip arrives at a stop before it left the one before."),
        // Shapes and pathways
        Rule(code: "decreasing_shape_distance", severity: .error, summary: "A shape's shape_dist_traveled goes down from one point to the next."),
        Rule(code: "decreasing_or_equal_stop_time_distance", severity: .error, summary: "A trip's shape_dist_traveled does not grow from one stop to the next."),
        Rule(code: "trip_distance_exceeds_shape_distance", severity: .error,
             summary: "A trip's shape_dist_traveled goes past its shape's last one, and its last stop is 11.1 m or more from the shape's end."),
        Rule(code: "trip_distance_exceeds_shape_distance_below_threshold", severity: .warning,
             summary: "A trip's shape_dist_traveled goes past its shape's last one, its last stop less than 11.1 m from the shape's end."),
        Rule(code: "block_trips_with_overlapping_stop_times", severity: .error, summary: "Two trips of one block run at the same time on a day both run."),
        Rule(code: "transfer_with_invalid_trip_and_stop", severity: .error, summary: "A transfer names a trip that does not stop at the transfer's stop."),
        Rule(code: "pathway_unreachable_location", severity: .error,
             summary: "A platform, node or boarding area of a station with pathways that no entrance leads to, or that leads to no exit."),
        Rule(code: "missing_level_id", severity: .error, summary: "A location an elevator pathway stops at has no level_id."),
        Rule(code: "equal_shape_distance_diff_coordinates", severity: .error, summary: "Two consecutive shape points at the same shape_dist_traveled but far apart."),
        Rule(code: "equal_shape_distance_diff_coordinates_distance_below_threshold", severity: .warning, summary: "Two consecutive shape points at the same shape_dist_traveled, less than 1.11 m apart."),
        Rule(code: "equal_shape_distance_same_coordinates", severity: .warning, summary: "A shape point repeated: the same place and shape_dist_traveled as the one before."),
        // Forms of values
        Rule(code: "invalid_url", severity: .error, summary: "A web address that is not one (http:// or https:// and a host)."),
        Rule(code: "invalid_email", severity: .error, summary: "An e-mail address that is not one."),
        Rule(code: "invalid_phone_number", severity: .error, summary: "A phone number that is not one."),
        Rule(code: "new_line_in_value", severity: .error, summary: "A value with a line break in it."),
        Rule(code: "invalid_language_code", severity: .error, summary: "A language that is not a BCP 47 code."),
        Rule(code: "empty_column_name", severity: .error, summary: "A column of the header without a name."),
        Rule(code: "inconsistent_agency_timezone", severity: .error, summary: "Agencies of one feed in different time zones."),
        // Stops, stations and pathways
        Rule(code: "point_near_pole", severity: .error, summary: "A stop past 89 degrees of latitude."),
        Rule(code: "location_without_parent_station", severity: .error, summary: "An entrance, generic node or boarding area without a parent_station."),
        Rule(code: "missing_stop_name", severity: .error, summary: "A stop, station or entrance without a stop_name."),
        Rule(code: "location_with_unexpected_stop_time", severity: .error, summary: "A stop time at a station, entrance, node or boarding area, not at a stop."),
        Rule(code: "pathway_to_wrong_location_type", severity: .error, summary: "A pathway that ends at a station."),
        Rule(code: "pathway_to_platform_with_boarding_areas", severity: .error, summary: "A pathway that ends at a platform that has boarding areas."),
        Rule(code: "transfer_with_invalid_stop_location_type", severity: .error, summary: "A transfer at a location that is not a stop or a station."),
        Rule(code: "transfer_with_invalid_trip_and_route", severity: .error, summary: "A transfer naming a trip that is not on the route it names."),
        // Routes and trips
        Rule(code: "route_both_short_and_long_name_missing", severity: .error, summary: "A route with neither a short nor a long name."),
        Rule(code: "missing_stop_times_record", severity: .error, summary: "A trip with a single stop time."),
        Rule(code: "missing_trip_edge", severity: .error, summary: "A trip whose first or last stop time has no time."),
        Rule(code: "stop_time_with_only_arrival_or_departure_time", severity: .error, summary: "A stop time with an arrival but no departure, or the other way round."),
        Rule(code: "stop_time_timepoint_without_times", severity: .error, summary: "A timepoint (timepoint 1) without times."),
        Rule(code: "overlapping_frequency", severity: .error, summary: "Two frequencies.txt periods of one trip that overlap."),
        // Names and text riders read
        Rule(code: "leading_or_trailing_whitespaces", severity: .warning, summary: "A quoted value with spaces or tabs before or after it."),
        Rule(code: "mixed_case_recommended_field", severity: .warning, summary: "A name or headsign all in capitals or all in small letters."),
        Rule(code: "same_name_and_description_for_stop", severity: .warning, summary: "A stop_desc that only repeats the stop_name."),
        Rule(code: "duplicate_route_name", severity: .warning, summary: "Two routes of one agency and route type with the same short and long names."),
        Rule(code: "trip_headsign_matches_intermediate_stop", severity: .info, summary: "A trip's headsign names a stop it passes before its last one."),
        // Metadata
        Rule(code: "missing_recommended_file", severity: .warning, summary: "A file the best practices ask for (feed_info.txt) is not there."),
        Rule(code: "missing_recommended_field", severity: .warning, summary: "A value the best practices ask for is empty (feed_info's dates and version, a route's agency_id)."),
        Rule(code: "missing_feed_contact_email_and_url", severity: .warning, summary: "feed_info.txt gives neither a contact e-mail nor a contact URL."),
        // Shapes and speeds
        Rule(code: "stop_too_far_from_shape", severity: .warning, summary: "A stop more than 100 m from the shape its trip follows (400 m for the first and last stop of a rail trip)."),
        Rule(code: "stop_too_far_from_shape_using_user_distance", severity: .warning,
             summary: "A stop more than 100 m from the point of its shape at its shape_dist_traveled."),
        Rule(code: "stops_match_shape_out_of_order", severity: .warning, summary: "A trip's stops can only be placed along its shape out of their order."),
        Rule(code: "stop_has_too_many_matches_for_shape", severity: .warning, summary: "A trip's shape passes within 100 m of a stop more than 20 times."),
        Rule(code: "non_ascii_or_non_printable_char", severity: .warning, summary: "An id with a character outside printable ASCII."),
        Rule(code: "route_color_contrast", severity: .warning, summary: "A route's text colour too close in brightness to its colour (less than 72 of 255 apart)."),
        Rule(code: "route_long_name_contains_short_name", severity: .warning, summary: "A route's long name begins with its short name."),
        Rule(code: "same_route_and_agency_url", severity: .warning, summary: "A route's URL is its agency's."),
        Rule(code: "same_stop_and_agency_url", severity: .warning, summary: "A stop's URL is an agency's."),
        Rule(code: "same_stop_and_route_url", severity: .warning, summary: "A stop's URL is a route's."),
        Rule(code: "missing_bike_allowance", severity: .warning, summary: "A ferry trip without bikes_allowed."),
        Rule(code: "pathway_dangling_generic_node", severity: .warning, summary: "A generic node joined by pathways to one place only."),
        Rule(code: "more_than_one_entity", severity: .warning, summary: "feed_info.txt has more than one row."),
        Rule(code: "feed_info_lang_and_agency_lang_mismatch", severity: .warning, summary: "feed_info.txt's feed_lang is not an agency's agency_lang."),
        Rule(code: "inconsistent_agency_lang", severity: .warning, summary: "Agencies of one feed with different languages."),
        Rule(code: "inconsistent_route_type_for_block_id", severity: .warning, summary: "Trips of one block on routes of different route types."),
        Rule(code: "transfer_distance_too_large", severity: .warning, summary: "A transfer between stops more than 10 km apart."),
        Rule(code: "transfer_with_suspicious_mid_trip_in_seat", severity: .warning,
             summary: "An in-seat transfer not at the first trip's last stop or the second trip's first."),
        Rule(code: "inconsistent_route_type_for_in_seat_transfer", severity: .warning, summary: "An in-seat transfer between trips of different route types."),
        Rule(code: "transfer_distance_above_2_km", severity: .info, summary: "A transfer between stops more than 2 km apart."),
        Rule(code: "missing_timepoint_value", severity: .warning, summary: "A timed stop time with timepoint empty, in a file that has the column."),
        Rule(code: "future_feed", severity: .info, summary: "feed_info.txt's feed_start_date is after the day judged on."),
        Rule(code: "future_calendar", severity: .info, summary: "Every service starts after the day judged on."),
        Rule(code: "feed_valid_beyond_total_service_window", severity: .info, summary: "feed_end_date is more than 14 days after the last day any trip runs."),
        Rule(code: "platform_without_parent_station", severity: .info, summary: "A platform (a stop with a platform_code) in no station."),
        Rule(code: "fast_travel_between_consecutive_stops", severity: .warning, summary: "A trip faster than its kind of vehicle goes between two consecutive stops."),
        Rule(code: "fast_travel_between_far_stops", severity: .warning, summary: "A trip faster than its kind of vehicle goes over 10 km or more."),
        // More names, dates and shapes
        Rule(code: "route_short_name_too_long", severity: .warning, summary: "A route_short_name of more than 12 characters."),
        Rule(code: "same_name_and_description_for_route", severity: .warning, summary: "A route_desc that only repeats the route's name."),
        Rule(code: "service_has_no_active_day_of_the_week", severity: .warning, summary: "A calendar.txt service with no day of the week."),
        Rule(code: "missing_feed_info_date", severity: .warning, summary: "feed_start_date without feed_end_date, or the other way round."),
        Rule(code: "pathway_loop", severity: .warning, summary: "A pathway from a location to itself."),
        Rule(code: "single_shape_point", severity: .warning, summary: "A shape of a single point."),
        // What no trip uses
        Rule(code: "unused_agency", severity: .warning, summary: "An agency no route names."),
        Rule(code: "unused_route", severity: .warning, summary: "A route no trip runs on."),
        Rule(code: "unused_trip", severity: .warning, summary: "A trip without stop times."),
        Rule(code: "stop_without_stop_time", severity: .warning, summary: "A stop no trip stops at (and no location names as parent)."),
        Rule(code: "unused_shape", severity: .warning, summary: "A shape no trip follows."),
        Rule(code: "unused_station", severity: .info, summary: "A station no location names as its parent."),
        // Services
        Rule(code: "big_gap_in_service", severity: .info, summary: "A service with more than 13 days in a row without running, between days it runs."),
        Rule(code: "service_window_outside_feed_period", severity: .info, summary: "A service running on days outside feed_info.txt's feed_start_date to feed_end_date."),
        // Dates (judged on `GTFSFeedLoader.today`)
        Rule(code: "expired_calendar", severity: .warning, summary: "A service whose every day is before the day the feed is judged on."),
        Rule(code: "feed_expiration_date7_days", severity: .warning, summary: "feed_info.txt's feed_end_date is less than 7 days away (or past)."),
        Rule(code: "feed_expiration_date30_days", severity: .warning, summary: "feed_info.txt's feed_end_date is 7 to 30 days away."),
        Rule(code: "trip_coverage_not_active_for_next7_days", severity: .warning, summary: "Some day of the coming week has no trip."),
        Rule(code: "bidirectional_exit_gate", severity: .error, summary: "An exit gate (pathway_mode 7) marked as bidirectional: exit gates are one-way."),
    ]

    /// The canonical code for one of the importer's codes, when one fits whatever the
    /// context (codes that depend on it are given where they are raised).
    public static func code(for ours: String) -> String? {
        switch ours {
        case "MISSING_FILE": "missing_required_file"
        case "FEED_NOT_FOUND", "UNREADABLE_FILE", "NOT_A_ZIP", "BAD_ZIP_ENTRY": "i_o_error"
        case "NOT_CSV", "UNTERMINATED_QUOTE": "csv_parsing_failed"
        case "MISSING_HEADER": "empty_file"
        case "MISSING_COLUMN": "missing_required_column"
        case "DUPLICATE_COLUMN": "duplicated_column"
        case "WRONG_FIELD_COUNT": "invalid_row_length"
        case "EXTRA_COLUMN": "unknown_column"
        case "UNKNOWN_FILE": "unknown_file"
        case "MISSING_VALUE": "missing_required_field"
        case "BAD_TIME": "invalid_time"
        case "BAD_DATE": "invalid_date"
        case "BAD_COLOR": "invalid_color"
        case "BAD_TIMEZONE": "invalid_timezone"
        case "INVALID_TEXT", "INVALID_UTF8": "invalid_character"
        case "BAD_COORDINATE": "number_out_of_range"
        case "DUPLICATE_KEY": "duplicate_key"
        case "UNKNOWN_TRIP", "UNKNOWN_STOP", "UNKNOWN_ROUTE", "UNKNOWN_SERVICE", "UNKNOWN_AGENCY", "UNKNOWN_SHAPE",
             "DANGLING_PARENT": "foreign_key_violation"
        case "BAD_DATE_RANGE", "BAD_TIME_RANGE": "start_and_end_range_out_of_order"
        case "NO_COORDINATES": "stop_without_location"
        case "COORDINATES_AT_ORIGIN": "point_near_origin"
        case "TIME_GOES_BACKWARDS": "stop_time_with_arrival_before_previous_departure_time"
        case "WRONG_PARENT_TYPE": "wrong_parent_location_type"
        case "STATION_WITH_PARENT": "station_with_parent_station"
        case "SHAPE_DISTANCE_NOT_MOVING": "equal_shape_distance_diff_coordinates"
        case "EXTENDED_ROUTE_TYPE": "unexpected_enum_value"
        case "UNUSED_AGENCY": "unused_agency"
        case "TWO_WAY_EXIT_GATE": "bidirectional_exit_gate"
        default: nil
        }
    }
}
