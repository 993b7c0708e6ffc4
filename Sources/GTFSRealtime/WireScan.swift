import Foundation
import SwiftProtobuf

/// A cursor over protocol-buffer wire format (tags, varints, lengths), for the two places
/// the generated code does not reach: unknown enum values kept as unknown fields, and the
/// byte offset a refusal names.
struct WireReader {
    let bytes: UnsafeRawBufferPointer
    var at: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, from: Int = 0, to: Int? = nil) {
        self.bytes = bytes; at = from; end = to ?? bytes.count
    }

    var atEnd: Bool { at >= end }

    /// A base-128 varint (at most 10 bytes), or nil when it runs past the end or is too long.
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while at < end && shift < 70 {
            let b = bytes[at]
            at += 1
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    /// A field's number and wire type, or nil for a malformed tag.
    mutating func tag() -> (number: Int, wire: Int)? {
        guard let t = varint(), t >> 3 > 0, t >> 3 <= 536_870_911 else { return nil }
        return (Int(t >> 3), Int(t & 7))
    }

    /// Steps over one field's value; on a problem, what is wrong (the cursor stays where it
    /// was found).
    mutating func skip(wire: Int, number: Int, depth: Int = 0) -> String? {
        switch wire {
        case 0: return varint() == nil ? "a number (varint) that runs past the end or over 10 bytes" : nil
        case 1: if end - at < 8 { return "an 8-byte number cut short" }; at += 8; return nil
        case 5: if end - at < 4 { return "a 4-byte number cut short" }; at += 4; return nil
        case 2:
            guard let n = varint() else { return "a length that runs past the end" }
            if n > UInt64(end - at) { return "a field of \(n) bytes where only \(end - at) remain" }
            at += Int(n)
            return nil
        case 3:
            // A group (deprecated, but valid in unknown fields): up to its matching end tag.
            guard depth < 100 else { return "groups nested over 100 deep" }
            while !atEnd {
                let start = at
                guard let (n, w) = tag() else { at = start; return "a malformed field tag" }
                if w == 4 { return n == number ? nil : "a group ended by the wrong end tag" }
                if let problem = skip(wire: w, number: n, depth: depth + 1) { return problem }
            }
            return "a group without its end tag"
        case 4: return "a group end tag without its start"
        default: return "wire type \(wire), which protocol buffers do not have"
        }
    }
}

/// Finds where bytes stop being a GTFS-Realtime `FeedMessage`, walking the message types
/// of gtfs-realtime.proto and their submessages, so that a refusal can say "at byte N".
enum WireScan {
    /// A message type of gtfs-realtime.proto, as far as the walk needs: which fields hold
    /// submessages and which hold strings (checked for UTF-8).
    enum Kind {
        case feed, header, entity, tripUpdate, stopTimeEvent, stopTimeUpdate, stopTimeProperties, vehiclePosition
        case alert, timeRange, position, tripDescriptor, vehicleDescriptor, entitySelector, translatedString, translation

        var name: String {
            switch self {
            case .feed: "FeedMessage"; case .header: "FeedHeader"; case .entity: "FeedEntity"
            case .tripUpdate: "TripUpdate"; case .stopTimeEvent: "StopTimeEvent"; case .stopTimeUpdate: "StopTimeUpdate"
            case .stopTimeProperties: "StopTimeProperties"; case .vehiclePosition: "VehiclePosition"; case .alert: "Alert"
            case .timeRange: "TimeRange"; case .position: "Position"; case .tripDescriptor: "TripDescriptor"
            case .vehicleDescriptor: "VehicleDescriptor"; case .entitySelector: "EntitySelector"
            case .translatedString: "TranslatedString"; case .translation: "Translation"
            }
        }

        func submessage(_ field: Int) -> Kind? {
            switch (self, field) {
            case (.feed, 1): .header
            case (.feed, 2): .entity
            case (.entity, 3): .tripUpdate
            case (.entity, 4): .vehiclePosition
            case (.entity, 5): .alert
            case (.tripUpdate, 1): .tripDescriptor
            case (.tripUpdate, 2): .stopTimeUpdate
            case (.tripUpdate, 3): .vehicleDescriptor
            case (.stopTimeUpdate, 2), (.stopTimeUpdate, 3): .stopTimeEvent
            case (.stopTimeUpdate, 6): .stopTimeProperties
            case (.vehiclePosition, 1): .tripDescriptor
            case (.vehiclePosition, 2): .position
            case (.vehiclePosition, 8): .vehicleDescriptor
            case (.alert, 1): .timeRange
            case (.alert, 5): .entitySelector
            case (.alert, 8), (.alert, 10), (.alert, 11), (.alert, 12), (.alert, 13): .translatedString
            case (.entitySelector, 4): .tripDescriptor
            case (.translatedString, 1): .translation
            default: nil
            }
        }

        func isString(_ field: Int) -> Bool {
            switch (self, field) {
            case (.header, 1), (.entity, 1), (.stopTimeUpdate, 4), (.stopTimeProperties, 1), (.vehiclePosition, 7),
                 (.tripDescriptor, 1), (.tripDescriptor, 2), (.tripDescriptor, 3), (.tripDescriptor, 5),
                 (.vehicleDescriptor, 1), (.vehicleDescriptor, 2), (.vehicleDescriptor, 3),
                 (.entitySelector, 1), (.entitySelector, 2), (.entitySelector, 5), (.translation, 1), (.translation, 2):
                true
            default: false
            }
        }
    }

    /// The refusal for bytes swift-protobuf could not read: the first problem the walk
    /// finds, with its byte offset (from 0), else swift-protobuf's reason in words.
    static func explain(_ bytes: UnsafeRawBufferPointer, _ error: Error) -> String {
        if let problem = firstProblem(bytes) {
            return "not a GTFS-Realtime message: \(problem) (\(bytes.count) bytes in all)"
        }
        let reason: String
        switch error as? BinaryDecodingError {
        case .truncated?: reason = "it is cut short"
        case .invalidUTF8?: reason = "a string is not UTF-8"
        case .malformedProtobuf?: reason = "the bytes are not protocol buffers"
        case .messageDepthLimit?: reason = "it nests messages too deep"
        case .missingRequiredFields?: reason = "a required field is missing"
        default: reason = "\(error)"
        }
        return "not a GTFS-Realtime message: \(reason) (\(bytes.count) bytes)"
    }

    /// The first wire-format problem, as "a … at byte N in FeedEntity", or nil when the walk
    /// finds none. N is where the field at fault starts (its tag), so always inside the bytes.
    static func firstProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        walk(bytes, .feed, from: 0, to: bytes.count, depth: 0)
    }

    private static func walk(_ bytes: UnsafeRawBufferPointer, _ kind: Kind, from: Int, to: Int, depth: Int) -> String? {
        var r = WireReader(bytes, from: from, to: to)
        while !r.atEnd {
            let start = r.at
            guard let (number, wire) = r.tag() else {
                return "a malformed field tag at byte \(start) in \(kind.name)"
            }
            if wire == 2, kind.submessage(number) != nil || kind.isString(number) {
                guard let n = r.varint() else { return "field \(number) of \(kind.name) at byte \(start) has a length that runs past the end" }
                guard n <= UInt64(r.end - r.at) else {
                    return "field \(number) of \(kind.name) at byte \(start) needs \(n) bytes, only \(r.end - r.at) remain"
                }
                let body = r.at, bodyEnd = r.at + Int(n)
                if let sub = kind.submessage(number) {
                    if depth > 20 { return "messages nested too deep at byte \(start)" }
                    if let problem = walk(bytes, sub, from: body, to: bodyEnd, depth: depth + 1) { return problem }
                } else if String(validating: UnsafeRawBufferPointer(rebasing: bytes[body..<bodyEnd]), as: UTF8.self) == nil {
                    return "field \(number) of \(kind.name) at byte \(start) is not UTF-8 text"
                }
                r.at = bodyEnd
            } else if let problem = r.skip(wire: wire, number: number) {
                return "\(problem) at byte \(start) in \(kind.name)"
            }
        }
        return nil
    }
}
