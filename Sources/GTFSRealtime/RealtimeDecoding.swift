import Foundation
import SwiftProtobuf

// Protocol-buffer bytes <-> `RealtimeMessage`, through the code generated from the GTFS
// reference's gtfs-realtime.proto (Generated/, `Scripts/generate-protobuf.sh`). The
// generated `TransitRealtime_*` types stay internal: nothing outside this target sees them.

extension RealtimeMessage {
    /// Reads a GTFS-Realtime `FeedMessage`.
    ///
    /// Refused with a plain sentence (never a crash): bytes that are not protocol buffers
    /// (a bad tag, a varint over 10 bytes, a length past the end: "… at byte N"), a message
    /// cut short, strings that are not UTF-8, and a message without the fields the
    /// reference requires (`header` with `gtfs_realtime_version`, each entity's `id`, a trip
    /// update's `trip`, a position's latitude and longitude, a translation's text). An empty
    /// byte string is refused too: protocol buffers read it as a message without a header.
    ///
    /// Enum values the reference file has no name for are left out (nil, or the field's
    /// default), except the trip relationships `DUPLICATED` (6), `DELETED` (7) and `NEW` (8),
    /// which newer versions of the reference added and the overlay must tell apart.
    /// Extensions (field numbers 1000–1999, 9000–9999) are skipped.
    public static func decode(_ bytes: [UInt8]) throws(RealtimeDecodeError) -> RealtimeMessage {
        try read(bytes)
    }

    /// `decode(_:)` over `Data` (what a file read or an HTTP body gives).
    public static func decode(_ data: Data) throws(RealtimeDecodeError) -> RealtimeMessage {
        try read(data)
    }

    /// `decode(_:)` over raw memory (the fuzz targets' input); the bytes are copied.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(RealtimeDecodeError) -> RealtimeMessage {
        try read([UInt8](bytes))
    }

    private static func read<Bytes: SwiftProtobufContiguousBytes>(_ bytes: Bytes) throws(RealtimeDecodeError) -> RealtimeMessage {
        if bytes.count == 0 {
            throw RealtimeDecodeError("not a GTFS-Realtime message: it is empty (0 bytes), so it has no header")
        }
        let feed: TransitRealtime_FeedMessage
        do {
            // partial: the required fields are checked below, so that the refusal names one.
            feed = try TransitRealtime_FeedMessage(serializedBytes: bytes, partial: true)
        } catch {
            throw RealtimeDecodeError(bytes.withUnsafeBytes { WireScan.explain($0, error) })
        }
        if let missing = RequiredFields.firstMissing(feed) {
            throw RealtimeDecodeError("not a GTFS-Realtime message: \(missing) is missing (required by gtfs-realtime.proto)")
        }
        return RealtimeMessage(feed)
    }

    /// The message as protocol-buffer bytes, for tests and fuzz seeds: `decode(encoded())`
    /// gives back an equal message for any message `decode` made. A cause, effect or vehicle
    /// status that is not a name of the reference's enums is left out, and numbers outside
    /// the wire's range (a negative `stopSequence`, …) are clamped to it.
    public func encoded() -> [UInt8] {
        let feed = TransitRealtime_FeedMessage(self)
        // partial: a message made in code may leave a required field out (a position
        // without latitude); `decode` then refuses it, as it would from any producer.
        return (try? feed.serializedBytes(partial: true)) ?? []
    }
}

// MARK: - Generated types -> plain values

extension RealtimeMessage {
    init(_ feed: TransitRealtime_FeedMessage) {
        let header = feed.header
        self.init(timestamp: header.hasTimestamp ? Int64(truncatingIfNeeded: header.timestamp) : nil,
                  version: header.gtfsRealtimeVersion,
                  incrementality: header.incrementality == .differential ? .differential : .fullDataset)
        for entity in feed.entity {
            if entity.hasTripUpdate { tripUpdates.append(TripUpdate(entity.id, entity.tripUpdate)) }
            if entity.hasAlert { alerts.append(Alert(entity.id, entity.alert)) }
            if entity.hasVehicle { vehicles.append(VehiclePosition(entity.id, entity.vehicle)) }
        }
    }
}

extension RealtimeMessage.TripDescriptor {
    init(_ t: TransitRealtime_TripDescriptor) {
        var relationship: RealtimeMessage.TripRelationship = .scheduled
        if t.hasScheduleRelationship {
            switch t.scheduleRelationship {
            case .scheduled: relationship = .scheduled
            case .added: relationship = .added
            case .unscheduled: relationship = .unscheduled
            case .canceled: relationship = .canceled
            case .replacement: relationship = .replacement
            }
        } else if let raw = UnknownVarint.last(field: 4, in: t.unknownFields.data) {
            // Values newer than the reference file: kept by swift-protobuf as unknown fields.
            switch raw {
            case 6: relationship = .duplicated
            case 7: relationship = .deleted
            case 8: relationship = .new
            default: break
            }
        }
        self.init(tripId: t.hasTripID ? t.tripID : nil, routeId: t.hasRouteID ? t.routeID : nil,
                  directionId: t.hasDirectionID ? Int(t.directionID) : nil,
                  startTime: t.hasStartTime ? t.startTime : nil, startDate: t.hasStartDate ? t.startDate : nil,
                  scheduleRelationship: relationship)
    }
}

extension RealtimeMessage.StopTimeEvent {
    init(_ e: TransitRealtime_TripUpdate.StopTimeEvent) {
        self.init(delay: e.hasDelay ? e.delay : nil, time: e.hasTime ? e.time : nil,
                  uncertainty: e.hasUncertainty ? e.uncertainty : nil)
    }
}

extension RealtimeMessage.TripUpdate {
    init(_ entityId: String, _ u: TransitRealtime_TripUpdate) {
        let stops = u.stopTimeUpdate.map { s in
            let relationship: RealtimeMessage.StopRelationship
            switch s.scheduleRelationship {
            case .scheduled: relationship = .scheduled
            case .skipped: relationship = .skipped
            case .noData: relationship = .noData
            case .unscheduled: relationship = .unscheduled
            }
            return RealtimeMessage.StopTimeUpdate(
                stopSequence: s.hasStopSequence ? Int(s.stopSequence) : nil, stopId: s.hasStopID ? s.stopID : nil,
                arrival: s.hasArrival ? RealtimeMessage.StopTimeEvent(s.arrival) : nil,
                departure: s.hasDeparture ? RealtimeMessage.StopTimeEvent(s.departure) : nil,
                scheduleRelationship: relationship)
        }
        self.init(entityId: entityId, trip: RealtimeMessage.TripDescriptor(u.trip),
                  vehicleId: u.hasVehicle && u.vehicle.hasID ? u.vehicle.id : nil,
                  vehicleLabel: u.hasVehicle && u.vehicle.hasLabel ? u.vehicle.label : nil,
                  stopTimeUpdates: stops, timestamp: u.hasTimestamp ? Int64(truncatingIfNeeded: u.timestamp) : nil,
                  delay: u.hasDelay ? u.delay : nil)
    }
}

extension RealtimeMessage.Alert {
    init(_ entityId: String, _ a: TransitRealtime_Alert) {
        func texts(_ s: TransitRealtime_TranslatedString) -> [RealtimeMessage.Translation] {
            s.translation.map { RealtimeMessage.Translation(language: $0.hasLanguage ? $0.language : nil, text: $0.text) }
        }
        self.init(
            entityId: entityId,
            activePeriods: a.activePeriod.map {
                RealtimeMessage.ActivePeriod(start: $0.hasStart ? Int64(truncatingIfNeeded: $0.start) : nil,
                                             end: $0.hasEnd ? Int64(truncatingIfNeeded: $0.end) : nil)
            },
            informedEntities: a.informedEntity.map { e in
                RealtimeMessage.InformedEntity(
                    agencyId: e.hasAgencyID ? e.agencyID : nil, routeId: e.hasRouteID ? e.routeID : nil,
                    routeType: e.hasRouteType ? Int(e.routeType) : nil, directionId: e.hasDirectionID ? Int(e.directionID) : nil,
                    trip: e.hasTrip ? RealtimeMessage.TripDescriptor(e.trip) : nil, stopId: e.hasStopID ? e.stopID : nil)
            },
            cause: a.hasCause ? EnumNames.cause[a.cause.rawValue] : nil,
            effect: a.hasEffect ? EnumNames.effect[a.effect.rawValue] : nil,
            url: a.hasURL ? texts(a.url) : [], header: a.hasHeaderText ? texts(a.headerText) : [],
            description: a.hasDescriptionText ? texts(a.descriptionText) : [])
    }
}

extension RealtimeMessage.VehiclePosition {
    init(_ entityId: String, _ v: TransitRealtime_VehiclePosition) {
        let p = v.position
        self.init(entityId: entityId, trip: v.hasTrip ? RealtimeMessage.TripDescriptor(v.trip) : nil,
                  vehicleId: v.hasVehicle && v.vehicle.hasID ? v.vehicle.id : nil,
                  vehicleLabel: v.hasVehicle && v.vehicle.hasLabel ? v.vehicle.label : nil,
                  latitude: v.hasPosition && p.hasLatitude ? Double(p.latitude) : nil,
                  longitude: v.hasPosition && p.hasLongitude ? Double(p.longitude) : nil,
                  bearing: v.hasPosition && p.hasBearing ? Double(p.bearing) : nil,
                  speed: v.hasPosition && p.hasSpeed ? Double(p.speed) : nil,
                  stopId: v.hasStopID ? v.stopID : nil,
                  currentStopSequence: v.hasCurrentStopSequence ? Int(v.currentStopSequence) : nil,
                  currentStatus: v.hasCurrentStatus ? EnumNames.vehicleStatus[v.currentStatus.rawValue] : nil,
                  timestamp: v.hasTimestamp ? Int64(truncatingIfNeeded: v.timestamp) : nil)
    }
}

// MARK: - Plain values -> generated types

extension TransitRealtime_FeedMessage {
    init(_ m: RealtimeMessage) {
        self.init()
        header.gtfsRealtimeVersion = m.version
        if m.incrementality == .differential { header.incrementality = .differential }
        if let t = m.timestamp { header.timestamp = UInt64(bitPattern: t) }
        entity.reserveCapacity(m.tripUpdates.count + m.alerts.count + m.vehicles.count)
        for u in m.tripUpdates {
            var e = TransitRealtime_FeedEntity()
            e.id = u.entityId
            e.tripUpdate = TransitRealtime_TripUpdate(u)
            entity.append(e)
        }
        for a in m.alerts {
            var e = TransitRealtime_FeedEntity()
            e.id = a.entityId
            e.alert = TransitRealtime_Alert(a)
            entity.append(e)
        }
        for v in m.vehicles {
            var e = TransitRealtime_FeedEntity()
            e.id = v.entityId
            e.vehicle = TransitRealtime_VehiclePosition(v)
            entity.append(e)
        }
    }
}

extension TransitRealtime_TripDescriptor {
    init(_ t: RealtimeMessage.TripDescriptor) {
        switch t.scheduleRelationship {
        case .duplicated, .deleted, .new:
            // Not in the reference file this code was generated from: written as the unknown
            // field it is read from (field 4, a varint), by decoding those two bytes.
            let raw: UInt8 = t.scheduleRelationship == .duplicated ? 6 : t.scheduleRelationship == .deleted ? 7 : 8
            self = (try? TransitRealtime_TripDescriptor(serializedBytes: [0x20, raw])) ?? TransitRealtime_TripDescriptor()
        case .scheduled: self.init()  // absent reads as SCHEDULED
        case .added: self.init(); scheduleRelationship = .added
        case .unscheduled: self.init(); scheduleRelationship = .unscheduled
        case .canceled: self.init(); scheduleRelationship = .canceled
        case .replacement: self.init(); scheduleRelationship = .replacement
        }
        if let v = t.tripId { tripID = v }
        if let v = t.routeId { routeID = v }
        if let v = t.directionId { directionID = UInt32(clamping: v) }
        if let v = t.startTime { startTime = v }
        if let v = t.startDate { startDate = v }
    }
}

extension TransitRealtime_TripUpdate.StopTimeEvent {
    init(_ e: RealtimeMessage.StopTimeEvent) {
        self.init()
        if let v = e.delay { delay = v }
        if let v = e.time { time = v }
        if let v = e.uncertainty { uncertainty = v }
    }
}

extension TransitRealtime_TripUpdate {
    init(_ u: RealtimeMessage.TripUpdate) {
        self.init()
        trip = TransitRealtime_TripDescriptor(u.trip)
        if u.vehicleId != nil || u.vehicleLabel != nil {
            if let v = u.vehicleId { vehicle.id = v }
            if let v = u.vehicleLabel { vehicle.label = v }
        }
        stopTimeUpdate = u.stopTimeUpdates.map { s in
            var out = TransitRealtime_TripUpdate.StopTimeUpdate()
            if let v = s.stopSequence { out.stopSequence = UInt32(clamping: v) }
            if let v = s.stopId { out.stopID = v }
            if let v = s.arrival { out.arrival = StopTimeEvent(v) }
            if let v = s.departure { out.departure = StopTimeEvent(v) }
            switch s.scheduleRelationship {
            case .scheduled: break  // absent reads as SCHEDULED
            case .skipped: out.scheduleRelationship = .skipped
            case .noData: out.scheduleRelationship = .noData
            case .unscheduled: out.scheduleRelationship = .unscheduled
            }
            return out
        }
        if let v = u.timestamp { timestamp = UInt64(bitPattern: v) }
        if let v = u.delay { delay = v }
    }
}

extension TransitRealtime_Alert {
    init(_ a: RealtimeMessage.Alert) {
        self.init()
        func texts(_ t: [RealtimeMessage.Translation]) -> TransitRealtime_TranslatedString {
            var s = TransitRealtime_TranslatedString()
            s.translation = t.map { x in
                var out = TransitRealtime_TranslatedString.Translation()
                out.text = x.text
                if let l = x.language { out.language = l }
                return out
            }
            return s
        }
        activePeriod = a.activePeriods.map { p in
            var out = TransitRealtime_TimeRange()
            if let v = p.start { out.start = UInt64(bitPattern: v) }
            if let v = p.end { out.end = UInt64(bitPattern: v) }
            return out
        }
        informedEntity = a.informedEntities.map { e in
            var out = TransitRealtime_EntitySelector()
            if let v = e.agencyId { out.agencyID = v }
            if let v = e.routeId { out.routeID = v }
            if let v = e.routeType { out.routeType = Int32(clamping: v) }
            if let v = e.trip { out.trip = TransitRealtime_TripDescriptor(v) }
            if let v = e.stopId { out.stopID = v }
            if let v = e.directionId { out.directionID = UInt32(clamping: v) }
            return out
        }
        if let name = a.cause, let raw = EnumNames.cause.firstIndex(of: name), let v = Cause(rawValue: raw) { cause = v }
        if let name = a.effect, let raw = EnumNames.effect.firstIndex(of: name), let v = Effect(rawValue: raw) { effect = v }
        if !a.url.isEmpty { url = texts(a.url) }
        if !a.header.isEmpty { headerText = texts(a.header) }
        if !a.description.isEmpty { descriptionText = texts(a.description) }
    }
}

extension TransitRealtime_VehiclePosition {
    init(_ v: RealtimeMessage.VehiclePosition) {
        self.init()
        if let t = v.trip { trip = TransitRealtime_TripDescriptor(t) }
        if v.vehicleId != nil || v.vehicleLabel != nil {
            if let x = v.vehicleId { vehicle.id = x }
            if let x = v.vehicleLabel { vehicle.label = x }
        }
        if v.latitude != nil || v.longitude != nil || v.bearing != nil || v.speed != nil {
            if let x = v.latitude { position.latitude = Float(x) }
            if let x = v.longitude { position.longitude = Float(x) }
            if let x = v.bearing { position.bearing = Float(x) }
            if let x = v.speed { position.speed = Float(x) }
        }
        if let x = v.stopId { stopID = x }
        if let x = v.currentStopSequence { currentStopSequence = UInt32(clamping: x) }
        if let name = v.currentStatus, let raw = EnumNames.vehicleStatus.firstIndex(of: name),
           let x = VehicleStopStatus(rawValue: raw) { currentStatus = x }
        if let x = v.timestamp { timestamp = UInt64(bitPattern: x) }
    }
}

// MARK: - Names, required fields, unknown fields

/// The reference's enum names by value (index = the wire value; "" where none).
enum EnumNames {
    static let cause = ["", "UNKNOWN_CAUSE", "OTHER_CAUSE", "TECHNICAL_PROBLEM", "STRIKE", "DEMONSTRATION", "ACCIDENT",
                        "HOLIDAY", "WEATHER", "MAINTENANCE", "CONSTRUCTION", "POLICE_ACTIVITY", "MEDICAL_EMERGENCY"]
    static let effect = ["", "NO_SERVICE", "REDUCED_SERVICE", "SIGNIFICANT_DELAYS", "DETOUR", "ADDITIONAL_SERVICE",
                         "MODIFIED_SERVICE", "OTHER_EFFECT", "UNKNOWN_EFFECT", "STOP_MOVED", "NO_EFFECT", "ACCESSIBILITY_ISSUE"]
    static let vehicleStatus = ["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"]
}

/// The first field marked `required` in gtfs-realtime.proto that a message leaves out,
/// named for a person ("the id of entity 3 of 91").
enum RequiredFields {
    static func firstMissing(_ feed: TransitRealtime_FeedMessage) -> String? {
        if !feed.hasHeader { return "the header" }
        if !feed.header.hasGtfsRealtimeVersion { return "the header's gtfs_realtime_version" }
        for (i, e) in feed.entity.enumerated() {
            let entity = "entity \(i + 1) of \(feed.entity.count)" + (e.hasID ? " (id \"\(e.id.prefix(40))\")" : "")
            if !e.hasID { return "the id of \(entity)" }
            if e.hasTripUpdate && !e.tripUpdate.hasTrip { return "the trip of the trip update in \(entity)" }
            if e.hasVehicle && e.vehicle.hasPosition && !(e.vehicle.position.hasLatitude && e.vehicle.position.hasLongitude) {
                return "the latitude or longitude of the vehicle position in \(entity)"
            }
            if e.hasAlert {
                let a = e.alert
                for s in [a.url, a.headerText, a.descriptionText, a.ttsHeaderText, a.ttsDescriptionText]
                where s.translation.contains(where: { !$0.hasText }) {
                    return "the text of a translation in the alert of \(entity)"
                }
            }
        }
        return nil
    }
}

/// Reads a varint field out of a message's unknown fields (what swift-protobuf keeps of
/// the fields and enum values the generated code does not know).
enum UnknownVarint {
    /// The last value of varint field `field` in `data` (protocol-buffer wire format), or nil.
    static func last(field: Int, in data: Data) -> UInt64? {
        guard !data.isEmpty else { return nil }
        return data.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> UInt64? in
            var r = WireReader(b), found: UInt64?
            while !r.atEnd {
                guard let (number, wire) = r.tag() else { return found }
                if number == field && wire == 0 {
                    guard let v = r.varint() else { return found }
                    found = v
                } else if r.skip(wire: wire, number: number) != nil {
                    return found
                }
            }
            return found
        }
    }
}
