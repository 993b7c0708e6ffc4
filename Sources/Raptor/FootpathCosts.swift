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
        let walk: FootpathWalk
        init(_ p: RoutingParameters, _ walk: FootpathWalk) {
            walkSpeed = p.walkSpeed; walkDetourFactor = p.walkDetourFactor
            maxTransferWalk = p.maxTransferWalk; transferSlack = p.transferSlack; self.walk = walk
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

    /// Footpath -> street walk meters as `Timetable.footStreet` (or its step-free
    /// variant); empty: every footpath is a beeline.
    let street: [Double]

    static func shared(_ tt: Timetable, _ p: RoutingParameters, _ walk: FootpathWalk, in derived: DerivedTables) -> FootpathCosts {
        derived.get(Key(p, walk)) { FootpathCosts(tt, p, walk) }
    }

    /// The walkMeters of footpath `f`: along streets where it has a street walk, else the beeline's.
    func walkMeters(_ f: Int, _ tt: Timetable, _ p: RoutingParameters) -> Double { Self.walkMeters(f, street, tt, p) }

    static func walkMeters(_ f: Int, _ street: [Double], _ tt: Timetable, _ p: RoutingParameters) -> Double {
        if !street.isEmpty && street[f].isFinite { return street[f] }
        return p.walkMeters(beeline: tt.footBeeline[f])
    }

    init(_ tt: Timetable, _ p: RoutingParameters, _ walkModel: FootpathWalk) {
        let street: [Double]
        switch walkModel {
        case .beeline: street = []
        case .streets: street = tt.footStreet
        case .stepFree: street = tt.footStreetStepFree
        }
        self.street = street
        var change = [Int32](repeating: Self.unusable, count: tt.footTarget.count)
        for s in 0..<tt.stopCount {
            var beyondFromHere = false
            for f in Int(tt.footOffsets[s])..<Int(tt.footOffsets[s + 1]) {
                let rule = TransferRule(rawValue: tt.footRule[f])!
                // A street walk is never shorter than the beeline: past maxTransferWalk in
                // beeline, the rest of the (rule-less, by beeline) list is too.
                let tooFar = street.isEmpty ? p.walkMeters(beeline: tt.footBeeline[f]) > p.maxTransferWalk
                    : tt.footBeeline[f] > p.maxTransferWalk
                if beyondFromHere || rule == .none && tooFar {
                    beyondFromHere = true
                    change[f] = Self.beyond
                    continue
                }
                let walk: Int64
                if street.isEmpty {
                    walk = p.walkSeconds(beeline: tt.footBeeline[f])
                } else {
                    // Both ends snap but no street walk: no footpath, unless a rule makes one.
                    if street[f] == .infinity && rule == .none { continue }
                    let meters = Self.walkMeters(f, street, tt, p)
                    if rule == .none && meters > p.maxTransferWalk { continue }
                    walk = p.walkSeconds(walkMeters: meters)
                }
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
        let source = tt.footSources()
        var inOffsets: [Int32] = [0], inSource: [StopIndex] = [], inChange: [Int32] = [], inFoot: [Int32] = []
        inOffsets.reserveCapacity(tt.stopCount + 1)
        for s in 0..<tt.stopCount {
            for i in Int(tt.footInOffsets[s])..<Int(tt.footInOffsets[s + 1]) {
                let f = Int(tt.footIn[i])
                guard change[f] >= 0 else { continue }
                inSource.append(source[f]); inChange.append(change[f]); inFoot.append(Int32(f))
            }
            inOffsets.append(Int32(inSource.count))
        }
        self.change = change
        self.inOffsets = inOffsets; self.inSource = inSource; self.inChange = inChange; self.inFoot = inFoot
    }
}
