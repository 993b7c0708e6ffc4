@testable import Follow
import Foundation
import Testing
import TransitModel

/// `tripToken`s (docs/routing-model.md, "Following a trip"): what goes in comes out, and
/// anything else is refused with its reason.
@Suite struct TripTokenTests {
    let tokens = TripTokens(secret: Array("a test key of 32 bytes, no more.".utf8))

    /// BART, 2019-08-07: Fremont to Montgomery St., changing at Bay Fair (times UTC).
    let trip = FollowedTrip(
        feeds: [.init(id: "bart-rt", version: "3 (2019-08-07)")],
        rides: [
            .init(feed: "bart-rt", tripId: "1171042WKDY", serviceDate: ServiceDate(year: 2019, month: 8, day: 7)!,
                  boardStopId: "FRMT", boardSequence: 1, alightStopId: "BAYF", alightSequence: 7,
                  scheduledDeparture: 1_565_199_600, scheduledArrival: 1_565_200_800,
                  plannedDeparture: 1_565_199_660, plannedArrival: 1_565_200_920),
            .init(feed: "bart-rt", tripId: "2250957WKDY", serviceDate: ServiceDate(year: 2019, month: 8, day: 7)!,
                  boardStopId: "BAYF", boardSequence: 9, alightStopId: "MONT", alightSequence: 17,
                  scheduledDeparture: 1_565_201_100, scheduledArrival: 1_565_202_900,
                  plannedDeparture: 1_565_201_100, plannedArrival: 1_565_202_960),
        ],
        accessSeconds: 420, changeSeconds: [0], egressSeconds: 180)

    @Test func aTokenGivesBackItsTrip() throws {
        let token = tokens.token(trip)
        #expect(try tokens.trip(token, now: 1_565_199_000) == trip)
        // URL-safe: it can stand in a path as it is.
        #expect(token.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95 })
        #expect(token.count < 200, "\(token.count) characters")
    }

    @Test func everyChangedCharacterIsRefused() throws {
        let token = Array(tokens.token(trip))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for i in token.indices {
            var changed = token
            changed[i] = alphabet[(alphabet.firstIndex(of: token[i])! + 1) % alphabet.count]
            #expect(throws: TripTokenError.invalid) { try tokens.trip(String(changed), now: 1_565_199_000) }
        }
        // Cut short, lengthened, not base64, empty.
        for bad in [String(token.dropLast(3)), String(token) + "AA", String(token) + "!", "", "%%%"] {
            #expect(throws: TripTokenError.invalid) { try tokens.trip(bad, now: 1_565_199_000) }
        }
    }

    /// The token's own base64 (URL-safe, unpadded) against Foundation's, on every length
    /// from 0 to 64 bytes of random values, and read back; any other spelling of the same
    /// bytes (unused bits set in the last character, padding, a length no byte count
    /// gives, the standard alphabet's `+` `/`) refused.
    @Test func base64URLIsFoundationsWithTheURLAlphabet() {
        var g = SystemRandomNumberGenerator()
        for length in 0...64 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &g) }
                let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                let text = TripTokens.base64URL(bytes)
                #expect(text == expected)
                #expect(TripTokens.fromBase64URL(text) == bytes)
                if length % 3 != 0 {
                    // The last character with one unused bit set: same bytes, another spelling.
                    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
                    var chars = Array(text.utf8)
                    chars[chars.count - 1] = alphabet[alphabet.firstIndex(of: chars.last!)! ^ 1]
                    #expect(TripTokens.fromBase64URL(String(decoding: chars, as: UTF8.self)) == nil)
                    #expect(TripTokens.fromBase64URL(text + "=") == nil)
                }
            }
        }
        for bad in ["A", "AAAAA", "ab+c", "ab/c", "ab c", "é"] { #expect(TripTokens.fromBase64URL(bad) == nil, "\(bad)") }
    }

    @Test func anotherKeysTokenIsRefused() {
        let other = TripTokens(secret: TripTokens.randomSecret())
        #expect(throws: TripTokenError.invalid) { try other.trip(tokens.token(trip), now: 1_565_199_000) }
    }

    @Test func aTripLongOverIsOver() throws {
        let token = tokens.token(trip)
        let end = trip.plannedEnd!
        #expect(end == 1_565_202_960 + 180)
        #expect(try tokens.trip(token, now: end + TripTokens.overAfter) == trip)
        #expect(throws: TripTokenError.over(end: end)) { try tokens.trip(token, now: end + TripTokens.overAfter + 1) }
    }

    @Test func anOversizedTokenIsRefusedUnread() {
        #expect(throws: TripTokenError.tooLong) { try tokens.trip(String(repeating: "A", count: TripTokens.maximumLength + 1), now: 0) }
    }

    /// Random bytes, signed with the right key (as a server bug or a leaked key would make
    /// them): the reader refuses what does not parse, and never crashes.
    @Test func signedGarbageIsRefusedNotCrashedOn() {
        var g = SystemRandomNumberGenerator()
        for n in [1, 2, 5, 20, 100, 400] {
            for _ in 0..<200 {
                let body = [UInt8(1)] + (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
                _ = TripTokens.decode(body)
            }
        }
    }
}
