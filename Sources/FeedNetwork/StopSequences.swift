import TransitModel

/// The feeds' stop_sequence values and passed-through stop times, kept after the stop
/// times are dropped (`TimetableBuilder.metadata`): GTFS-Realtime names a stop time by its
/// trip and `stop_sequence`.
///
/// Positions: stop time `position` of source trip `t` is its 0-based index among all of
/// that trip's stop times in `stop_sequence` order, the order the snapshot and the
/// timetable use (`FeedSnapshot.stopTimes(ofTrip:)`). Every timetable trip made from `t`
/// (`Timetable.tripSource`: one per run when frequencies.txt expands it) shares these
/// positions. A trip left out of the timetable (first or last stop time untimed, fewer than
/// two boardable stops) still has them. The timetable's route position is the same number
/// unless the trip passes through stops it cannot board (location_type ≠ 0 or no
/// coordinates): those are dropped from its route; `routePosition(ofSourceTrip:position:)`
/// maps one to the other.
///
/// Compact: a trip whose sequences are `b, b+1, b+2…`, where `b` is its feed's usual first
/// stop_sequence (the most common among such trips: 1 in most feeds, 0 in some), and which
/// passes through no stop costs only its stop time count (4 bytes). Other consecutive
/// sequences cost 12 bytes more, other ones 12 bytes + 4 per stop time; trips passing
/// through stops 8 bytes + 4 per stop time.
public struct StopSequences: Sendable {
    // Source trip -> its stop time count.
    let stopTimeCounts: [Int32]
    // Feed -> its usual first stop_sequence.
    let feedFirst: [Int32]
    // Trips whose sequences are not `feedFirst, feedFirst + 1, …`, ascending; each one's first
    // sequence, and its sequences at values[valueOffsets[i] ..< valueOffsets[i + 1]] (none:
    // `first + k`).
    let shiftedTrips: [Int32]
    let shiftedFirst: [Int32]
    let valueOffsets: [Int32]
    let values: [Int32]
    // Trips passing through a stop they cannot board, ascending; stop time position ->
    // route position (or -1) at routePositions[passedOffsets[i] ..< passedOffsets[i + 1]].
    let passedTrips: [Int32]
    let passedOffsets: [Int32]
    let routePositions: [Int32]

    /// No trips (a network built without the stop times).
    public init() {
        stopTimeCounts = []; feedFirst = []; shiftedTrips = []; shiftedFirst = []; valueOffsets = [0]; values = []
        passedTrips = []; passedOffsets = [0]; routePositions = []
    }

    /// From a snapshot with its stop times; `boardable[s]`: the timetable keeps stop `s`.
    /// One pass over the stop times classifies each trip (its first sequence; consecutive
    /// or not; passing through a stop or not), then the irregular ones are stored.
    init(_ s: FeedSnapshot, boardable: [Bool]) {
        let tripCount = s.trips.count
        let bare = s.stopTimeSequence.count != s.stopTimeStop.count
        var counts = [Int32](repeating: 0, count: tripCount)
        var tripFirst = [Int32](repeating: 1, count: tripCount)
        var consecutive = [Bool](repeating: true, count: tripCount)
        var passesThrough = [Bool](repeating: false, count: tripCount)
        s.stopTimeSequence.withUnsafeBufferPointer { seq in
            s.stopTimeStop.withUnsafeBufferPointer { stop in
                for t in 0..<tripCount {
                    let lo = Int(s.tripStopTimes[t]), hi = Int(s.tripStopTimes[t + 1])
                    counts[t] = Int32(hi - lo)
                    for st in lo..<hi where !boardable[Int(stop[st])] { passesThrough[t] = true; break }
                    guard !bare, hi > lo else { continue }
                    let base = seq[lo]
                    tripFirst[t] = base
                    for st in lo..<hi where seq[st] != base &+ Int32(st - lo) { consecutive[t] = false; break }
                }
            }
        }
        // Each feed's usual first stop_sequence among trips numbered consecutively; ties go
        // to 1, then to the lower value.
        var firstCounts = [[Int32: Int]](repeating: [:], count: max(s.feedIds.count, 1))
        for t in 0..<tripCount where consecutive[t] && counts[t] > 0 { firstCounts[Int(s.trips[t].feed)][tripFirst[t], default: 0] += 1 }
        let feedFirst = firstCounts.map { c in
            c.max { ($0.value, $0.key == 1 ? 1 : 0, -$0.key) < ($1.value, $1.key == 1 ? 1 : 0, -$1.key) }?.key ?? 1
        }
        var shifted: [Int32] = [], first: [Int32] = [], offsets: [Int32] = [0], values: [Int32] = []
        var passed: [Int32] = [], passedOffsets: [Int32] = [0], positions: [Int32] = []
        for t in 0..<tripCount where counts[t] > 0 {
            let range = s.stopTimes(ofTrip: t)
            if !consecutive[t] || tripFirst[t] != feedFirst[Int(s.trips[t].feed)] {
                shifted.append(Int32(t)); first.append(tripFirst[t])
                if !consecutive[t] { values.append(contentsOf: s.stopTimeSequence[range]) }
                offsets.append(Int32(values.count))
            }
            if passesThrough[t] {
                passed.append(Int32(t))
                var next: Int32 = 0
                for st in range {
                    if boardable[Int(s.stopTimeStop[st])] { positions.append(next); next += 1 } else { positions.append(-1) }
                }
                passedOffsets.append(Int32(positions.count))
            }
        }
        stopTimeCounts = counts; self.feedFirst = feedFirst; shiftedTrips = shifted; shiftedFirst = first; valueOffsets = offsets
        self.values = values; passedTrips = passed; self.passedOffsets = passedOffsets; routePositions = positions
    }

    /// The feeds' stop_times rows (every source trip's, those left out of the timetable too).
    public var stopTimeCount: Int { stopTimeCounts.reduce(0) { $0 + Int($1) } }

    /// Bytes held by the arrays (elements only).
    public var bytes: Int {
        4 * (stopTimeCounts.count + feedFirst.count + shiftedTrips.count + shiftedFirst.count + valueOffsets.count + values.count
             + passedTrips.count + passedOffsets.count + routePositions.count)
    }

    /// Bytes held beyond the stop time counts, the feeds' first sequences and the two
    /// offset tables' first entries: what trips off their feed's usual numbering or passing
    /// through stops cost (0 when there are none).
    public var irregularBytes: Int { bytes - 4 * stopTimeCounts.count - 4 * feedFirst.count - 8 }

    /// How many trips have sequences other than their feed's usual consecutive ones
    /// (shifted or gapped), and how many of those are gapped (values stored).
    public var irregularTripCount: (shifted: Int, gapped: Int) {
        (shiftedTrips.count, (0..<shiftedTrips.count).filter { valueOffsets[$0 + 1] > valueOffsets[$0] }.count)
    }

    private static func find(_ sorted: [Int32], _ t: Int) -> Int? {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(sorted[mid]) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && Int(sorted[lo]) == t ? lo : nil
    }

    /// The number of stop times of source trip `trip`.
    public func stopTimeCount(ofSourceTrip trip: Int) -> Int { Int(stopTimeCounts[trip]) }

    /// The stop_sequence of stop time `position` of source trip `trip` of feed `feed`
    /// (precondition: `0 <= position < stopTimeCount(ofSourceTrip: trip)`).
    public func stopSequence(ofSourceTrip trip: Int, feed: Int, position: Int) -> Int32 {
        precondition(position >= 0 && position < Int(stopTimeCounts[trip]), "no stop time \(position) in trip \(trip)")
        guard let i = Self.find(shiftedTrips, trip) else { return feedFirst[feed] + Int32(position) }
        let lo = Int(valueOffsets[i]), hi = Int(valueOffsets[i + 1])
        return hi > lo ? values[lo + position] : shiftedFirst[i] + Int32(position)
    }

    /// The position of the stop time of source trip `trip` of feed `feed` whose
    /// stop_sequence is `seq`; nil when the trip has none.
    public func position(ofStopSequence seq: Int32, inSourceTrip trip: Int, feed: Int) -> Int? {
        let count = Int(stopTimeCounts[trip])
        var first = count > 0 ? feedFirst[feed] : 0
        if let i = Self.find(shiftedTrips, trip) {
            let lo = Int(valueOffsets[i]), hi = Int(valueOffsets[i + 1])
            if hi > lo {
                // Ascending within a trip: binary search.
                var a = lo, b = hi
                while a < b {
                    let mid = (a + b) / 2
                    if values[mid] < seq { a = mid + 1 } else { b = mid }
                }
                return a < hi && values[a] == seq ? a - lo : nil
            }
            first = shiftedFirst[i]
        }
        let p = Int(seq) - Int(first)
        return p >= 0 && p < count ? p : nil
    }

    /// The timetable's route position of stop time `position` of source trip `trip`: the
    /// same number unless the trip passes through stops the timetable drops (then fewer,
    /// and nil at those). Only meaningful for trips in the timetable.
    public func routePosition(ofSourceTrip trip: Int, position: Int) -> Int? {
        guard let i = Self.find(passedTrips, trip) else { return position }
        let p = routePositions[Int(passedOffsets[i]) + position]
        return p >= 0 ? Int(p) : nil
    }
}

extension TransitNetwork {
    /// The stop_sequence of stop time `position` (0-based, in stop_sequence order, among
    /// all the trip's stop times: see `StopSequences`) of source trip `trip` (an index in
    /// `snapshot.trips`, as `Timetable.tripSource` gives).
    public func stopSequence(ofSourceTrip trip: Int, position: Int) -> Int32 {
        stopSequences.stopSequence(ofSourceTrip: trip, feed: Int(snapshot.trips[trip].feed), position: position)
    }

    /// The position (as in `stopSequence(ofSourceTrip:position:)`) of the stop time of
    /// source trip `trip` with stop_sequence `seq`; nil when the trip has no such stop time.
    public func position(ofStopSequence seq: Int32, inSourceTrip trip: Int) -> Int? {
        stopSequences.position(ofStopSequence: seq, inSourceTrip: trip, feed: Int(snapshot.trips[trip].feed))
    }
}
