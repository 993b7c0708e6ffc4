import Dispatch
import NIOCore
import Synchronization

/// Token buckets per client for the requests that cost CPU (trip plans): each client may
/// send `burst` at once and `ratePerSecond` on average after that. Memory is bounded: a
/// bucket that has been idle long enough to be full again is the same as no bucket, so
/// such buckets are dropped once a minute and whenever the table reaches `maxClients`;
/// when many clients are active at once the least recently seen go.
///
/// The client is the connection's peer address, IPv6 by its /64 (one host usually holds
/// a whole /64, so counting single addresses would let it pick a fresh one per request).
/// Behind a reverse proxy every request comes from the proxy: limit there instead and
/// run with `--plan-rate 0`.
final class RateLimiter: Sendable {
    /// Tokens added per second; 0 means no limit.
    let ratePerSecond: Double
    /// Bucket size: how many requests a client may send at once.
    let burst: Double
    let maxClients: Int
    private let table = Mutex(Table())

    private struct Table {
        /// Client key -> bucket.
        var buckets: [ClientKey: Bucket] = [:]
        var lastSweepNanos: UInt64 = 0
    }

    private struct Bucket {
        var tokens: Double
        var updatedNanos: UInt64
    }

    /// An IPv4 address, or an IPv6 /64 prefix, or a unix socket path's stand-in.
    enum ClientKey: Hashable {
        case v4(UInt32)
        case v6(UInt64)
        case other
    }

    init(ratePerSecond: Double, burst: Int, maxClients: Int = 100_000) {
        self.ratePerSecond = ratePerSecond
        self.burst = Double(max(1, burst))
        self.maxClients = max(2, maxClients)
    }

    var isLimiting: Bool { ratePerSecond > 0 }

    /// Number of clients remembered (for tests and the health of the table).
    var clientCount: Int { table.withLock { $0.buckets.count } }

    /// Takes one token for `client`: nil when the request may go ahead, otherwise the
    /// whole seconds until the client has a token again (at least 1).
    func take(_ client: ClientKey, nowNanos: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Int? {
        guard isLimiting else { return nil }
        let rate = ratePerSecond, burst = burst, maxClients = maxClients
        return table.withLock { t -> Int? in
            if nowNanos &- t.lastSweepNanos > 60_000_000_000 || t.buckets.count >= maxClients {
                Self.sweep(&t, nowNanos: nowNanos, rate: rate, burst: burst, maxClients: maxClients)
            }
            var b = t.buckets[client] ?? Bucket(tokens: burst, updatedNanos: nowNanos)
            let elapsed = Double(nowNanos &- b.updatedNanos) / 1e9
            b.tokens = min(burst, b.tokens + max(0, elapsed) * rate)
            b.updatedNanos = nowNanos
            if b.tokens >= 1 {
                b.tokens -= 1
                t.buckets[client] = b
                return nil
            }
            t.buckets[client] = b
            return max(1, Int(((1 - b.tokens) / rate).rounded(.up)))
        }
    }

    private static func sweep(_ t: inout Table, nowNanos: UInt64, rate: Double, burst: Double, maxClients: Int) {
        t.lastSweepNanos = nowNanos
        // Full again by now: forgetting it changes nothing.
        t.buckets = t.buckets.filter { _, b in b.tokens + Double(nowNanos &- b.updatedNanos) / 1e9 * rate < burst }
        // Still crowded (many clients active at once): keep the most recent half, so
        // that the next sweeps are not one per new client.
        if t.buckets.count >= maxClients * 3 / 4 {
            let byAge = t.buckets.sorted { $0.value.updatedNanos > $1.value.updatedNanos }
            t.buckets = Dictionary(uniqueKeysWithValues: byAge.prefix(maxClients / 2).map { ($0.key, $0.value) })
        }
    }

    /// The key of a connection's peer.
    static func key(_ address: SocketAddress?) -> ClientKey {
        switch address {
        case .v4(let a)?:
            return .v4(UInt32(bigEndian: a.address.sin_addr.s_addr))
        case .v6(let a)?:
            let bytes = withUnsafeBytes(of: a.address.sin6_addr) { Array($0) }
            // IPv4 mapped into IPv6 (::ffff:a.b.c.d): the IPv4 client it is.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return .v4(bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
            }
            return .v6(bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        default:
            return .other
        }
    }
}
