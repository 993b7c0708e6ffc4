/// A GTFS-Realtime `FeedMessage` as plain values: what the service reads of TripUpdates,
/// Alerts and VehiclePositions (the GTFS reference's `gtfs-realtime.proto`). Made by
/// `RealtimeMessage.decode` from protocol-buffer bytes (the generated code stays inside
/// this target), and by the tests to make messages of their own (`encoded()`).
///
/// Times are POSIX seconds (UTC); a `startDate` is "YYYYMMDD" and a `startTime`
/// "HH:MM:SS" (past 24:00:00 allowed), as in the feed. Optional fields are nil when the
/// message leaves them out.
public struct RealtimeMessage: Sendable, Equatable {
    /// `header.timestamp`: when the producer made the message.
    public var timestamp: Int64?
    /// `header.gtfs_realtime_version`.
    public var version: String
    /// `header.incrementality`: only full datasets are applied.
    public var incrementality: Incrementality
    public var tripUpdates: [TripUpdate]
    public var alerts: [Alert]
    public var vehicles: [VehiclePosition]

    public enum Incrementality: String, Sendable { case fullDataset = "FULL_DATASET", differential = "DIFFERENTIAL" }

    public init(timestamp: Int64? = nil, version: String = "2.0", incrementality: Incrementality = .fullDataset,
                tripUpdates: [TripUpdate] = [], alerts: [Alert] = [], vehicles: [VehiclePosition] = []) {
        self.timestamp = timestamp; self.version = version; self.incrementality = incrementality
        self.tripUpdates = tripUpdates; self.alerts = alerts; self.vehicles = vehicles
    }

    /// One feed's messages from several sources (its TripUpdates, Alerts and
    /// VehiclePositions, each a message of its own) as one: their entities together, in
    /// the order given; its time the latest of those with TripUpdates (service dates and
    /// ages are taken from it), else the latest of all; differential when any is.
    public static func merging(_ messages: [RealtimeMessage]) -> RealtimeMessage? {
        guard var out = messages.first else { return nil }
        for m in messages.dropFirst() {
            out.tripUpdates += m.tripUpdates
            out.alerts += m.alerts
            out.vehicles += m.vehicles
            if m.incrementality == .differential { out.incrementality = .differential }
        }
        let timed = messages.contains { !$0.tripUpdates.isEmpty } ? messages.filter { !$0.tripUpdates.isEmpty } : messages
        out.timestamp = timed.compactMap(\.timestamp).max()
        return out
    }

    /// `TripDescriptor`: which trip (and on which day) an entity is about.
    public struct TripDescriptor: Sendable, Equatable, Hashable {
        public var tripId: String?
        public var routeId: String?
        public var directionId: Int?
        public var startTime: String?
        public var startDate: String?
        public var scheduleRelationship: TripRelationship
        public init(tripId: String? = nil, routeId: String? = nil, directionId: Int? = nil, startTime: String? = nil,
                    startDate: String? = nil, scheduleRelationship: TripRelationship = .scheduled) {
            self.tripId = tripId; self.routeId = routeId; self.directionId = directionId
            self.startTime = startTime; self.startDate = startDate; self.scheduleRelationship = scheduleRelationship
        }
    }

    /// `TripDescriptor.ScheduleRelationship` (`DUPLICATED` and `DELETED` included).
    public enum TripRelationship: String, Sendable, Equatable, Hashable {
        case scheduled = "SCHEDULED", added = "ADDED", unscheduled = "UNSCHEDULED", canceled = "CANCELED"
        case replacement = "REPLACEMENT", duplicated = "DUPLICATED", deleted = "DELETED", new = "NEW"
    }

    /// `TripUpdate.StopTimeEvent`.
    public struct StopTimeEvent: Sendable, Equatable {
        public var delay: Int32?
        public var time: Int64?
        public var uncertainty: Int32?
        public init(delay: Int32? = nil, time: Int64? = nil, uncertainty: Int32? = nil) {
            self.delay = delay; self.time = time; self.uncertainty = uncertainty
        }
    }

    /// `TripUpdate.StopTimeUpdate.ScheduleRelationship`.
    public enum StopRelationship: String, Sendable, Equatable {
        case scheduled = "SCHEDULED", skipped = "SKIPPED", noData = "NO_DATA", unscheduled = "UNSCHEDULED"
    }

    /// `TripUpdate.StopTimeUpdate`: a stop of the trip by `stopSequence` and/or `stopId`.
    public struct StopTimeUpdate: Sendable, Equatable {
        public var stopSequence: Int?
        public var stopId: String?
        public var arrival: StopTimeEvent?
        public var departure: StopTimeEvent?
        public var scheduleRelationship: StopRelationship
        public init(stopSequence: Int? = nil, stopId: String? = nil, arrival: StopTimeEvent? = nil,
                    departure: StopTimeEvent? = nil, scheduleRelationship: StopRelationship = .scheduled) {
            self.stopSequence = stopSequence; self.stopId = stopId; self.arrival = arrival
            self.departure = departure; self.scheduleRelationship = scheduleRelationship
        }
    }

    /// `FeedEntity.trip_update`, with its entity id.
    public struct TripUpdate: Sendable, Equatable {
        public var entityId: String
        public var trip: TripDescriptor
        public var vehicleId: String?
        public var vehicleLabel: String?
        public var stopTimeUpdates: [StopTimeUpdate]
        public var timestamp: Int64?
        /// `TripUpdate.delay` (experimental in the reference): the trip's delay where no
        /// stop says otherwise.
        public var delay: Int32?
        public init(entityId: String, trip: TripDescriptor, vehicleId: String? = nil, vehicleLabel: String? = nil,
                    stopTimeUpdates: [StopTimeUpdate] = [], timestamp: Int64? = nil, delay: Int32? = nil) {
            self.entityId = entityId; self.trip = trip; self.vehicleId = vehicleId; self.vehicleLabel = vehicleLabel
            self.stopTimeUpdates = stopTimeUpdates; self.timestamp = timestamp; self.delay = delay
        }
    }

    /// `EntitySelector`: what an alert is about (any combination).
    public struct InformedEntity: Sendable, Equatable {
        public var agencyId: String?
        public var routeId: String?
        public var routeType: Int?
        public var directionId: Int?
        public var trip: TripDescriptor?
        public var stopId: String?
        public init(agencyId: String? = nil, routeId: String? = nil, routeType: Int? = nil, directionId: Int? = nil,
                    trip: TripDescriptor? = nil, stopId: String? = nil) {
            self.agencyId = agencyId; self.routeId = routeId; self.routeType = routeType
            self.directionId = directionId; self.trip = trip; self.stopId = stopId
        }
    }

    /// `FeedEntity.alert`, with its entity id.
    public struct Alert: Sendable, Equatable {
        public var entityId: String
        /// `active_period`s: start and end POSIX times (nil: open).
        public var activePeriods: [ActivePeriod]
        public var informedEntities: [InformedEntity]
        /// `Cause` and `Effect` names as in the reference (`STRIKE`, `NO_SERVICE`…).
        public var cause: String?
        public var effect: String?
        public var url: [Translation]
        public var header: [Translation]
        public var description: [Translation]
        public init(entityId: String, activePeriods: [ActivePeriod] = [], informedEntities: [InformedEntity] = [],
                    cause: String? = nil, effect: String? = nil, url: [Translation] = [], header: [Translation] = [],
                    description: [Translation] = []) {
            self.entityId = entityId; self.activePeriods = activePeriods; self.informedEntities = informedEntities
            self.cause = cause; self.effect = effect; self.url = url; self.header = header; self.description = description
        }
    }

    public struct ActivePeriod: Sendable, Equatable {
        public var start: Int64?
        public var end: Int64?
        public init(start: Int64? = nil, end: Int64? = nil) { self.start = start; self.end = end }
    }

    /// One text of a `TranslatedString` (`language` nil: the only or default one).
    public struct Translation: Sendable, Equatable {
        public var language: String?
        public var text: String
        public init(language: String? = nil, text: String) { self.language = language; self.text = text }
    }

    /// `FeedEntity.vehicle`, with its entity id.
    public struct VehiclePosition: Sendable, Equatable {
        public var entityId: String
        public var trip: TripDescriptor?
        public var vehicleId: String?
        public var vehicleLabel: String?
        public var latitude: Double?
        public var longitude: Double?
        public var bearing: Double?
        public var speed: Double?
        public var stopId: String?
        public var currentStopSequence: Int?
        /// `VehicleStopStatus` name (`INCOMING_AT`, `STOPPED_AT`, `IN_TRANSIT_TO`).
        public var currentStatus: String?
        public var timestamp: Int64?
        public init(entityId: String, trip: TripDescriptor? = nil, vehicleId: String? = nil, vehicleLabel: String? = nil,
                    latitude: Double? = nil, longitude: Double? = nil, bearing: Double? = nil, speed: Double? = nil,
                    stopId: String? = nil, currentStopSequence: Int? = nil, currentStatus: String? = nil, timestamp: Int64? = nil) {
            self.entityId = entityId; self.trip = trip; self.vehicleId = vehicleId; self.vehicleLabel = vehicleLabel
            self.latitude = latitude; self.longitude = longitude; self.bearing = bearing; self.speed = speed
            self.stopId = stopId; self.currentStopSequence = currentStopSequence; self.currentStatus = currentStatus
            self.timestamp = timestamp
        }
    }
}

/// A message that cannot be read: not protocol buffers, truncated, or not a FeedMessage.
public struct RealtimeDecodeError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
