import Dispatch
import Foundation

/// The server's notion of now: the system clock, or a replay clock that starts at a given
/// instant and runs `speed` times as fast (`--clock START[xSPEED]`), so that a recorded
/// realtime sequence can be replayed at speed.
public struct FollowClock: Sendable, Equatable {
    /// The replayed instant at `origin` (nil: the system clock).
    public let start: Int64?
    public let speed: Double
    /// Uptime (nanoseconds) when the clock was made.
    let origin: UInt64

    public static let system = FollowClock(start: nil, speed: 1)

    public init(start: Int64?, speed: Double = 1) {
        self.start = start; self.speed = speed
        origin = DispatchTime.now().uptimeNanoseconds
    }

    /// Now, in UTC seconds.
    public func now() -> Int64 {
        guard let start else { return Int64(Date().timeIntervalSince1970) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - origin) / 1e9
        return start + Int64((elapsed * speed).rounded(.down))
    }

    /// Real seconds the clock takes to move `seconds`.
    public func realSeconds(_ seconds: Double) -> Double { seconds / speed }

    /// `2020-05-04T08:00:00Z`, `2020-05-04T08:00:00+02:00x60` (an instant with its zone,
    /// then optionally `x` and a speed from 0.01 to 10000).
    public static func parse(_ text: String) -> FollowClock? {
        var instant = Substring(text), speed = 1.0
        if let x = text.lastIndex(where: { $0 == "x" || $0 == "X" }) {
            guard let s = Double(text[text.index(after: x)...]), s >= 0.01, s <= 10_000 else { return nil }
            speed = s; instant = text[..<x]
        }
        let f = ISO8601DateFormatter()
        guard let date = f.date(from: String(instant)) else { return nil }
        return FollowClock(start: Int64(date.timeIntervalSince1970), speed: speed)
    }
}
