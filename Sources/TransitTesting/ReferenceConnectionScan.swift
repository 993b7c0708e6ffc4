import TransitModel

// The reference router's search: a Connection Scan with a label per number of rides.
//
// Connections are hops (a run's move from one stop time to the next) on one of the three
// service dates, scanned in order of their scan time. The forward scan uses departure times;
// the backward scan runs the same code on the time-reversed timetable: a hop from stop time i to
// i+1 becomes a connection from i+1 to i that "departs" at -arrival and "arrives" at -departure,
// boarding there is allowed where alighting was and vice versa, a change s → t becomes t → s
// with the same duration, and origin and destination swap. The earliest reversed arrival at the
// origin is minus the latest departure.
//
// Labels (all "with at most r rides", hence non-increasing in r):
//   ready[r][s]  earliest time one is at stop s ready to board, after r rides (r = 0: the access
//                walk from the origin; r ≥ 1: alighting at some stop plus one change to s);
//   onBoard[i]   fewest rides with which one can be aboard connection i of a run instance
//                (aboard the previous hop of the same instance, or boarding here from ready);
//   best[k]      earliest arrival at the destination with at most k rides (alighting, then the
//                egress walk).
// A connection departing at t can be boarded from ready[r][s] ≤ t with r + 1 rides. Alighting at
// time a with k rides improves best[k...] by a + egress, and ready[k...][t] by a + change(s, t) for
// every change from s. One footpath at most between rides holds because ready labels are only
// made by alighting, never from other ready labels.
//
// Order: any label a connection makes is at or after its own time, so scanning by time is exact
// except for labels made exactly at the current time (a zero-length hop and a zero change time,
// e.g. a timed transfer at the same stop). Those are caught by scanning the connections of the
// current second again until nothing changes; onBoard is kept per hop (not per run) so that a
// second pass stays exact. Hops of one run are sorted in their trip order on ties.
extension ReferenceTimetable {
    /// Earliest arrivals with at most k rides, `result[k]` for k in 1...maxRides (`never` when
    /// none; `result[0]` unused), for journeys whose access walk starts at or after `start`.
    ///
    /// - `access`/`egress`: stop -> walk seconds from the start point / to the end point, or -1.
    /// - `targetRides`: the scan may stop once no connection can improve `result[targetRides]`
    ///   (1 gives every k; `maxRides` only the last).
    /// - `bound`: connections later than this are not scanned (the caller knows they cannot help).
    func earliestArrivals(_ window: ServiceWindow, direction: Direction, access: [Int32], egress: [Int32],
                          start: Int64, maxRides: Int, targetRides: Int, bound: Int64) -> [Int64] {
        precondition(maxRides >= 1 && maxRides < Int(ReferenceTimetable.notOnBoard), "maxTransfers out of range")
        let forward = direction == .forward
        let S = stopCount, K = maxRides

        let ready = UnsafeMutablePointer<Int64>.allocate(capacity: K * S)
        ready.initialize(repeating: ReferenceTimetable.never, count: K * S)
        let best = UnsafeMutablePointer<Int64>.allocate(capacity: K + 1)
        best.initialize(repeating: ReferenceTimetable.never, count: K + 1)
        let onBoard = UnsafeMutablePointer<UInt8>.allocate(capacity: max(3 * hopCount, 1))
        onBoard.initialize(repeating: ReferenceTimetable.notOnBoard, count: max(3 * hopCount, 1))
        let active = UnsafeMutablePointer<Bool>.allocate(capacity: max(window.active.count, 1))
        active.initialize(from: window.active, count: window.active.count)
        let egressSeconds = UnsafeMutablePointer<Int32>.allocate(capacity: max(S, 1))
        egressSeconds.initialize(from: egress, count: S)
        defer {
            ready.deallocate(); best.deallocate(); onBoard.deallocate(); active.deallocate(); egressSeconds.deallocate()
        }
        for s in 0..<S where access[s] >= 0 {
            for r in 0..<K { ready[r * S + s] = start + Int64(access[s]) }
        }

        let scan = ConnectionRelaxation(
            forward: forward, K: K, S: S, hopCount: hopCount, serviceCount: serviceCount,
            ready: ready, best: best, onBoard: onBoard, active: UnsafePointer(active), egress: UnsafePointer(egressSeconds),
            stStop: stStop, stArrival: stArrival, stDeparture: stDeparture, stBoard: stBoard, stAlight: stAlight,
            runFirstStopTime: runFirstStopTime, runOffset: runOffset, runService: runService, runHopStart: runHopStart,
            hopRun: hopRun,
            changeStart: forward ? forwardChangeStart : backwardChangeStart,
            changeTarget: forward ? forwardChangeTarget : backwardChangeTarget,
            changeSeconds: forward ? forwardChangeSeconds : backwardChangeSeconds)

        // The lists to merge: one per (zone, day), each sorted by key; scan time = key ± base.
        let L = window.lists.count
        var keys: [UnsafePointer<Int32>] = [], hops: [UnsafePointer<Int32>] = []
        var count: [Int] = [], shift: [Int64] = [], day: [Int] = [], base: [Int64] = []
        var cursor: [Int] = [], groupStart: [Int] = []
        for list in window.lists {
            let sorted = forward ? forwardHops[list.zone] : backwardHops[list.zone]
            let listShift = forward ? list.base : -list.base
            keys.append(sorted.keys); hops.append(sorted.hops); count.append(sorted.count)
            shift.append(listShift); day.append(list.day); base.append(list.base)
            // First connection whose scan time is at or after start.
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if Int64(sorted.keys[mid]) + listShift < start { low = mid + 1 } else { high = mid }
            }
            cursor.append(low); groupStart.append(low)
        }

        var groupTime = Int64.min
        var dirty = false
        while true {
            var pick = -1, pickTime = Int64.max
            for l in 0..<L where cursor[l] < count[l] {
                let t = Int64(keys[l][cursor[l]]) + shift[l]
                if t < pickTime { pick = l; pickTime = t }
            }
            if pickTime != groupTime {
                // The second ends: scan it again while it made labels at its own time.
                while dirty {
                    dirty = false
                    for l in 0..<L {
                        var i = groupStart[l]
                        while i < cursor[l] {
                            if scan.relax(hop: Int(hops[l][i]), day: day[l], base: base[l]) { dirty = true }
                            i += 1
                        }
                    }
                }
                if pick < 0 || pickTime > bound || pickTime >= best[targetRides] { break }
                groupTime = pickTime
                for l in 0..<L { groupStart[l] = cursor[l] }
            }
            if scan.relax(hop: Int(hops[pick][cursor[pick]]), day: day[pick], base: base[pick]) { dirty = true }
            cursor[pick] += 1
        }
        return Array(UnsafeBufferPointer(start: best, count: K + 1))
    }

    static let notOnBoard: UInt8 = 255
}

/// One scan's labels and the timetable it reads, all as pointers (see `ReferenceTimetable`).
struct ConnectionRelaxation {
    let forward: Bool
    let K: Int, S: Int, hopCount: Int, serviceCount: Int
    let ready: UnsafeMutablePointer<Int64>
    let best: UnsafeMutablePointer<Int64>
    let onBoard: UnsafeMutablePointer<UInt8>
    let active: UnsafePointer<Bool>
    let egress: UnsafePointer<Int32>
    let stStop: UnsafePointer<Int32>
    let stArrival: UnsafePointer<Int32>
    let stDeparture: UnsafePointer<Int32>
    let stBoard: UnsafePointer<Bool>
    let stAlight: UnsafePointer<Bool>
    let runFirstStopTime: UnsafePointer<Int32>
    let runOffset: UnsafePointer<Int32>
    let runService: UnsafePointer<Int32>
    let runHopStart: UnsafePointer<Int32>
    let hopRun: UnsafePointer<Int32>
    let changeStart: UnsafePointer<Int32>
    let changeTarget: UnsafePointer<Int32>
    let changeSeconds: UnsafePointer<Int32>

    /// Relaxes hop `h` of its run's instance on `day` (whose noon minus 12 h is `base`).
    /// Returns true when it improved a ready label to a time at or before the connection's own
    /// scan time (so that connections of the same second must be scanned again).
    func relax(hop h: Int, day: Int, base: Int64) -> Bool {
        let run = Int(hopRun[h])
        if !active[day * serviceCount + Int(runService[run])] { return false }
        let position = h - Int(runHopStart[run])
        let st = Int(runFirstStopTime[run]) + position
        let shift = base + Int64(runOffset[run])
        let from: Int, to: Int, time: Int64, arrival: Int64, canBoard: Bool, canAlight: Bool, previous: Int
        if forward {
            from = Int(stStop[st]); to = Int(stStop[st + 1])
            time = shift + Int64(stDeparture[st]); arrival = shift + Int64(stArrival[st + 1])
            canBoard = stBoard[st]; canAlight = stAlight[st + 1]
            previous = position > 0 ? h - 1 : -1
        } else {
            from = Int(stStop[st + 1]); to = Int(stStop[st])
            time = -(shift + Int64(stArrival[st + 1])); arrival = -(shift + Int64(stDeparture[st]))
            canBoard = stAlight[st + 1]; canAlight = stBoard[st]
            previous = h + 1 < Int(runHopStart[run + 1]) ? h + 1 : -1
        }

        let slot = day * hopCount + h
        var rides = onBoard[slot]
        if previous >= 0 {
            let aboard = onBoard[day * hopCount + previous]
            if aboard < rides { rides = aboard }
        }
        if canBoard && ready[(K - 1) * S + from] <= time {
            var r = 0
            while ready[r * S + from] > time { r += 1 }
            if UInt8(r + 1) < rides { rides = UInt8(r + 1) }
        }
        if rides == ReferenceTimetable.notOnBoard { return false }
        onBoard[slot] = rides

        let k = Int(rides)
        guard canAlight, arrival < best[k] else { return false }
        if egress[to] >= 0 {
            let end = arrival + Int64(egress[to])
            var j = k
            while j <= K && end < best[j] { best[j] = end; j += 1 }
        }
        var sameSecond = false
        if k < K {
            var c = Int(changeStart[to])
            let last = Int(changeStart[to + 1])
            while c < last {
                let t = Int(changeTarget[c])
                let value = arrival + Int64(changeSeconds[c])
                var r = k
                while r < K && value < ready[r * S + t] { ready[r * S + t] = value; r += 1 }
                if r > k && value <= time { sameSecond = true }
                c += 1
            }
        }
        return sameSecond
    }
}
