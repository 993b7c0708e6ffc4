import Crypto
import Foundation
import TransitModel

/// A followed trip (docs/routing-model.md, "Following a trip"): what a `tripToken` holds of
/// an itinerary, and nothing else (not the origin or destination, nothing of the rider).
public struct FollowedTrip: Sendable, Equatable {
    /// A feed the itinerary was planned on and its version (the database's, or the
    /// files' for `--gtfs`).
    public struct Feed: Sendable, Equatable {
        public var id: String
        public var version: String
        public init(id: String, version: String) { self.id = id; self.version = version }
    }

    /// One ride: its trip on its service date, where it is boarded and left, and its times
    /// there (UTC seconds): as scheduled and as the answer showed them.
    public struct Ride: Sendable, Equatable {
        public var feed: String
        public var tripId: String
        public var serviceDate: ServiceDate
        public var boardStopId: String, boardSequence: Int32
        public var alightStopId: String, alightSequence: Int32
        public var scheduledDeparture: Int64, scheduledArrival: Int64
        public var plannedDeparture: Int64, plannedArrival: Int64

        public init(feed: String, tripId: String, serviceDate: ServiceDate, boardStopId: String, boardSequence: Int32,
                    alightStopId: String, alightSequence: Int32, scheduledDeparture: Int64, scheduledArrival: Int64,
                    plannedDeparture: Int64, plannedArrival: Int64) {
            self.feed = feed; self.tripId = tripId; self.serviceDate = serviceDate
            self.boardStopId = boardStopId; self.boardSequence = boardSequence
            self.alightStopId = alightStopId; self.alightSequence = alightSequence
            self.scheduledDeparture = scheduledDeparture; self.scheduledArrival = scheduledArrival
            self.plannedDeparture = plannedDeparture; self.plannedArrival = plannedArrival
        }
    }

    public var feeds: [Feed]
    public var rides: [Ride]
    /// Seconds of the walk before the first ride, of each change (one fewer than rides),
    /// and of the walk after the last ride.
    public var accessSeconds: Int32
    public var changeSeconds: [Int32]
    public var egressSeconds: Int32

    public init(feeds: [Feed], rides: [Ride], accessSeconds: Int32, changeSeconds: [Int32], egressSeconds: Int32) {
        self.feeds = feeds; self.rides = rides
        self.accessSeconds = accessSeconds; self.changeSeconds = changeSeconds; self.egressSeconds = egressSeconds
    }

    /// When the trip is over as planned: the last ride's planned arrival plus the last walk.
    public var plannedEnd: Int64? { rides.last.map { $0.plannedArrival + Int64(egressSeconds) } }
}

/// Why a token is not taken.
public enum TripTokenError: Error, Equatable, Sendable {
    /// Longer than `TripTokens.maximumLength` characters.
    case tooLong
    /// Not a token this server writes (bad characters, a format it does not read, fields
    /// that do not parse), or one whose signature does not verify: changed, or signed with
    /// another key.
    case invalid
    /// The trip ended (planned) more than `TripTokens.overAfter` seconds before now.
    case over(end: Int64)
}

/// Writes and reads `tripToken`s: a followed trip in a compact binary form, signed with
/// HMAC-SHA256 (swift-crypto) under the server's key, in URL-safe base64 (no padding), so
/// that it can stand in a path. Nothing is stored on the server: the token is the trip.
public struct TripTokens: Sendable {
    /// The format's version, the token's first byte: a token of another version is invalid.
    static let formatVersion: UInt8 = 1
    /// Bytes of the signature kept (of HMAC-SHA256's 32).
    static let signatureBytes = 16
    /// A token longer than this is refused before it is decoded (an itinerary of eight
    /// rides with long ids stays well under it).
    public static let maximumLength = 2048
    /// A trip is over this long after its planned end.
    public static let overAfter: Int64 = 3600

    private let key: SymmetricKey

    /// `secret`: the key's bytes (at least 16). Servers that share a key read each
    /// other's tokens.
    public init(secret: [UInt8]) {
        precondition(secret.count >= 16, "a token key of at least 16 bytes")
        key = SymmetricKey(data: secret)
    }

    /// A key of 32 random bytes.
    public static func randomSecret() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &g) }
    }

    public func token(_ trip: FollowedTrip) -> String {
        precondition(!trip.rides.isEmpty && trip.changeSeconds.count == trip.rides.count - 1, "rides, and a change between each two")
        var w = ByteWriter()
        w.byte(Self.formatVersion)
        w.count(trip.feeds.count)
        for f in trip.feeds { w.string(f.id); w.string(f.version) }
        w.signed(Int64(trip.accessSeconds)); w.signed(Int64(trip.egressSeconds))
        w.count(trip.rides.count)
        for (i, r) in trip.rides.enumerated() {
            w.string(r.feed); w.string(r.tripId); w.signed(Int64(r.serviceDate.daysSinceEpoch))
            w.string(r.boardStopId); w.signed(Int64(r.boardSequence))
            w.string(r.alightStopId); w.signed(Int64(r.alightSequence))
            // Times as differences: small numbers, few bytes.
            let base = i == 0 ? 0 : trip.rides[i - 1].plannedArrival
            w.signed(r.plannedDeparture - base); w.signed(r.plannedArrival - r.plannedDeparture)
            w.signed(r.scheduledDeparture - r.plannedDeparture); w.signed(r.scheduledArrival - r.plannedArrival)
            if i > 0 { w.signed(Int64(trip.changeSeconds[i - 1])) }
        }
        let mac = HMAC<SHA256>.authenticationCode(for: w.bytes, using: key)
        return Self.base64URL(w.bytes + Array(mac).prefix(Self.signatureBytes))
    }

    /// The trip a token holds, verified; `now` (UTC seconds) decides whether it is over.
    public func trip(_ token: String, now: Int64) throws(TripTokenError) -> FollowedTrip {
        guard token.utf8.count <= Self.maximumLength else { throw .tooLong }
        guard let data = Self.fromBase64URL(token), data.count > Self.signatureBytes + 1 else { throw .invalid }
        let body = Array(data.dropLast(Self.signatureBytes)), signature = Array(data.suffix(Self.signatureBytes))
        let mac = Array(HMAC<SHA256>.authenticationCode(for: body, using: key)).prefix(Self.signatureBytes)
        // Compared in constant time (no early exit on the first differing byte).
        guard zip(mac, signature).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else { throw .invalid }
        guard let trip = Self.decode(body) else { throw .invalid }
        if let end = trip.plannedEnd, now > end + Self.overAfter { throw .over(end: end) }
        return trip
    }

    static func decode(_ body: [UInt8]) -> FollowedTrip? {
        var r = ByteReader(body)
        guard r.byte() == formatVersion, let feedCount = r.count(max: 64) else { return nil }
        var feeds: [FollowedTrip.Feed] = []
        for _ in 0..<feedCount {
            guard let id = r.string(), let version = r.string() else { return nil }
            feeds.append(.init(id: id, version: version))
        }
        guard let access = r.int32(), let egress = r.int32(), let rideCount = r.count(max: 64), rideCount > 0 else { return nil }
        var rides: [FollowedTrip.Ride] = [], changes: [Int32] = []
        for i in 0..<rideCount {
            guard let feed = r.string(), let tripId = r.string(), let day = r.int32(),
                  let boardStop = r.string(), let boardSequence = r.int32(),
                  let alightStop = r.string(), let alightSequence = r.int32(),
                  let departure = r.signed(), let duration = r.signed(), let scheduledDeparture = r.signed(),
                  let scheduledArrival = r.signed(), duration >= 0 else { return nil }
            let base = i == 0 ? 0 : rides[i - 1].plannedArrival
            let (planned, overflow) = base.addingReportingOverflow(departure)
            guard !overflow, abs(planned) < 1 << 40, abs(scheduledDeparture) < 1 << 32, abs(scheduledArrival) < 1 << 32,
                  duration < 1 << 32 else { return nil }
            if i > 0 { guard let change = r.int32(), change >= 0 else { return nil }; changes.append(change) }
            rides.append(.init(feed: feed, tripId: tripId, serviceDate: ServiceDate(daysSinceEpoch: day),
                               boardStopId: boardStop, boardSequence: boardSequence, alightStopId: alightStop,
                               alightSequence: alightSequence, scheduledDeparture: planned + scheduledDeparture,
                               scheduledArrival: planned + duration + scheduledArrival,
                               plannedDeparture: planned, plannedArrival: planned + duration))
        }
        guard r.atEnd, access >= 0, egress >= 0 else { return nil }
        return FollowedTrip(feeds: feeds, rides: rides, accessSeconds: access, changeSeconds: changes, egressSeconds: egress)
    }

    /// URL-safe base64 without padding (RFC 4648 §5). Written here, not with Foundation's
    /// base64 and three `replacingOccurrences`: those took 5% of a served plan's time (five
    /// tokens per answer; perf on `transit serve` under wrk, 2026-11-27).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        let count = (bytes.count * 4 + 2) / 3
        return alphabet.withUTF8Buffer { a in
            String(unsafeUninitializedCapacity: count) { out in
                var o = 0, i = 0
                func put(_ sextet: UInt32) { out[o] = a[Int(sextet & 63)]; o += 1 }
                while i + 3 <= bytes.count {
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                    put(v >> 18); put(v >> 12); put(v >> 6); put(v)
                    i += 3
                }
                switch bytes.count - i {
                case 1: let v = UInt32(bytes[i]) << 16; put(v >> 18); put(v >> 12)
                case 2: let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8; put(v >> 18); put(v >> 12); put(v >> 6)
                default: break
                }
                return o
            }
        }
    }

    /// The bytes of `base64URL`'s text; nil for any other text (other characters, a length
    /// no byte count gives, or unused bits set in the last character: that would decode to
    /// the same bytes and be a second token for one trip).
    static func fromBase64URL(_ text: String) -> [UInt8]? {
        func sextet(_ c: UInt8) -> UInt32? {
            switch c {
            case 65...90: return UInt32(c - 65)
            case 97...122: return UInt32(c - 97 + 26)
            case 48...57: return UInt32(c - 48 + 52)
            case 45: return 62
            case 95: return 63
            default: return nil
            }
        }
        let chars = Array(text.utf8)
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var acc: UInt32 = 0, bits = 0
        for c in chars {
            guard let v = sextet(c) else { return nil }
            acc = acc << 6 | v; bits += 6
            if bits >= 8 { bits -= 8; out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits))); acc &= (1 << UInt32(bits)) - 1 }
        }
        guard acc == 0 else { return nil }
        return out
    }
}

/// Little-endian base-128 integers (zigzag for signed ones) and length-prefixed UTF-8.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func byte(_ b: UInt8) { bytes.append(b) }
    mutating func unsigned(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
    mutating func signed(_ v: Int64) { unsigned(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
    mutating func count(_ n: Int) { unsigned(UInt64(n)) }
    mutating func string(_ s: String) { count(s.utf8.count); bytes += s.utf8 }
}

struct ByteReader {
    let bytes: [UInt8]
    var at = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { at == bytes.count }
    mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func unsigned() -> UInt64? {
        var v: UInt64 = 0, shift: UInt64 = 0
        while let b = byte() {
            guard shift < 64 else { return nil }
            v |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }
    mutating func signed() -> Int64? {
        guard let u = unsigned() else { return nil }
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }
    mutating func int32() -> Int32? { signed().flatMap { Int32(exactly: $0) } }
    mutating func count(max: Int) -> Int? {
        guard let u = unsigned(), u <= UInt64(max) else { return nil }
        return Int(u)
    }
    mutating func string() -> String? {
        guard let n = count(max: 512), at + n <= bytes.count else { return nil }
        defer { at += n }
        return String(validating: bytes[at..<(at + n)], as: UTF8.self)
    }
}
