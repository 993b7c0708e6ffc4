import Timetable
import TransitModel

/// The change time of every footpath under one set of walking parameters, made once per
/// timetable for the last few sets asked for (`RaptorRouter.derived`; almost every request
/// uses the defaults). The searches read these instead of working each out (a division, a
/// ceil and three array reads per footpath and search), and the lower bounds walk the
/// usable ones backwards.
struct FootpathCosts: Sendable {
    /// What the change times depend on.
    struct Key: Hashable, Sendable {
        let walkSpeed: Double, walkDetourFactor: Double, maxTransferWalk: Double, transferSlack: Int
        init(_ p: RoutingParameters) {
            walkSpeed = p.walkSpeed; walkDetourFactor = p.walkDetourFactor
            maxTransferWalk = p.maxTransferWalk; transferSlack = p.transferSlack
        }
    }

    /// Change-seconds sentinels, negative (a usable footpath's change is `>= 0`, which is
    /// what the searches test) and far from -1 and the integer limits.
    static let unusable = Int32(-1_000_000_000), beyond = Int32(-1_000_000_001)

    /// Footpath -> change seconds (walk and slack), `unusable` (forbidden), or `beyond`: it
    /// and the rest of its stop's list are too long to walk (the lists hold the ones with a
    /// transfers.txt rule first, then the others by length).
    let change: [Int32]
    /// Stop -> the usable footpaths into it (`inOffsets[s] ..< inOffsets[s + 1]`): the stop
    /// walked from, the change seconds, the footpath.
    let inOffsets: [Int32], inSource: [StopIndex], inChange: [Int32], inFoot: [Int32]

    static func shared(_ tt: Timetable, _ p: RoutingParameters, in derived: DerivedTables) -> FootpathCosts {
        derived.get(Key(p)) { FootpathCosts(tt, p) }
    }

    init(_ tt: Timetable, _ p: RoutingParameters) {
        var change = [Int32](repeating: Self.unusable, count: tt.footTarget.count)
        for s in 0..<tt.stopCount {
            var beyondFromHere = false
            for f in Int(tt.footOffsets[s])..<Int(tt.footOffsets[s + 1]) {
                let rule = TransferRule(rawValue: tt.footRule[f])!
                if beyondFromHere || rule == .none && p.walkMeters(beeline: tt.footBeeline[f]) > p.maxTransferWalk {
                    beyondFromHere = true
                    change[f] = Self.beyond
                    continue
                }
                let walk = p.walkSeconds(beeline: tt.footBeeline[f])
                let seconds: Int64?
                switch rule {
                case .forbidden: seconds = nil
                case .timed: seconds = walk
                case .minimumTime: seconds = max(walk + Int64(p.transferSlack), Int64(tt.footMinTime[f]))
                case .none, .recommended: seconds = walk + Int64(p.transferSlack)
                }
                change[f] = seconds.map { Int32(clamping: $0) } ?? Self.unusable
            }
        }
        var inOffsets: [Int32] = [0], inSource: [StopIndex] = [], inChange: [Int32] = [], inFoot: [Int32] = []
        inOffsets.reserveCapacity(tt.stopCount + 1)
        for s in 0..<tt.stopCount {
            for i in Int(tt.footInOffsets[s])..<Int(tt.footInOffsets[s + 1]) {
                let f = Int(tt.footIn[i])
                guard change[f] >= 0 else { continue }
                inSource.append(tt.footSource[f]); inChange.append(change[f]); inFoot.append(Int32(f))
            }
            inOffsets.append(Int32(inSource.count))
        }
        self.change = change
        self.inOffsets = inOffsets; self.inSource = inSource; self.inChange = inChange; self.inFoot = inFoot
    }
}
