import ArgumentParser
import Dispatch
import FeedNetwork
#if canImport(Glibc)
import Glibc
/// glibc's malloc_trim(3), which the Glibc module does not export.
@_silgen_name("malloc_trim") func malloc_trim(_ pad: Int) -> Int32
#else
func malloc_trim(_ pad: Int) -> Int32 { 0 }
#endif
import Foundation
import Geo
import GTFSRealtime
import Planner
import Raptor
import Realtime
import Server
import Streets
import Synchronization
import Timetable
import TransitModel
import TransitStore

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure timetable loading and routing speed on a seeded set of random queries.",
        discussion: """
            Loads the timetable (from the database, or --gtfs files), then runs the same seeded \
            random queries (stops and points near stops, times across the busiest service day) \
            of each kind single-threaded and on all cores. Also times one plain pass over all of \
            that day's stop events, the floor any algorithm pays to look at the whole day, and \
            prints each latency as a ratio to it. Use a release build.
            """
    )

    @Option(help: "Queries of each kind.") var queries = 1000
    @Option(help: ArgumentHelp("Also write the \"answer\" queries as /v1/plan paths, one per line, for load tests of `transit serve` (Scripts/bench-api.sh).", valueName: "file"))
    var urls: String?
    @Option(help: "Seed of the random queries.") var seed: UInt64 = 42
    @Option(name: .customLong("kind"), help: ArgumentHelp("Time only this kind (repeatable): depart-at, arrive-by, range-60, answer.", valueName: "kind"))
    var onlyKinds: [String] = []
    @Option(help: "Time each kind this many times in a row (on a noisy machine, compare builds by their best pass).")
    var passes = 1
    @Flag(help: "Also load the streets (transit import-osm) and compare street walks with beeline walks on the same queries: load and build times with and without them, the walk graph's memory, and each kind's latency with the request's streets option on and off (default kinds: depart-at and answer).")
    var streets = false


    static let kindNames = ["depart-at", "arrive-by", "range 60", "answer"]

    func validate() throws {
        for k in onlyKinds where !Self.kindNames.contains(k.replacingOccurrences(of: "-60", with: " 60")) {
            throw ValidationError("unknown kind \(k): the kinds are depart-at, arrive-by, range-60, answer")
        }
        guard (1...100).contains(passes) else { throw ValidationError("passes must be 1 to 100") }
    }
    @OptionGroup var source: TimetableSourceOptions

    func run() throws {
        try runReportingErrors {
            let rssBefore = residentBytes()
            let t0 = Date()
            var streetReport: [String] = []
            let network: TransitNetwork
            if streets { (network, streetReport) = try loadStreets() } else { network = try source.loadNetwork() }
            let loadSeconds = Date().timeIntervalSince(t0)
            // Hand the loader's freed buffers back to the system, so that the resident
            // size below is the timetable's, not what glibc keeps in reserve.
            _ = malloc_trim(0)
            let rssAfter = residentBytes()
            let tt = network.timetable
            let stopTimes = tt.stopEventCount
            let planner = PlannerAssembly.assemble(network).planner
            print("timetable: \(network.snapshot.feedIds.joined(separator: ", "))")
            print("  \(Output.grouped(stopTimes)) stop times (frequencies expanded), \(Output.grouped(tt.tripCount)) trips, \(Output.grouped(tt.routeCount)) routes, \(Output.grouped(tt.stopCount)) stops, \(Output.grouped(tt.footTarget.count)) footpath candidates")
            // --streets: the loads are timed below (without and with, median of 3 each).
            print(String(format: "  %@resident memory %.0f MB (+%.0f MB, %.1f bytes per stop time)",
                         streets ? "" : String(format: "load and build: %.2f s; ", loadSeconds), Double(rssAfter) / 1e6,
                         Double(rssAfter - rssBefore) / 1e6, Double(rssAfter - rssBefore) / Double(max(1, stopTimes))))
            for line in streetReport { print(line) }

            let eventsByFeed = stopEventsPerFeedAndDay(network)
            // The busiest day of all feeds together, and of each feed.
            let total = (0..<tt.dayCount).map { d in eventsByFeed.reduce(0) { $0 + $1[d] } }
            let day = total.indices.max { total[$0] < total[$1] } ?? 0
            let events = total.isEmpty ? 0 : total[day]
            let date = tt.firstDay.adding(days: day)
            let floor = dayPass(tt, day: day)
            print("  busiest day \(date.iso8601): \(Output.grouped(events)) stop events; one plain pass over them: \(String(format: "%.3f", floor * 1000)) ms")

            // Queries stay within one feed (both ends, on that feed's busiest day): a trip
            // from Vilnius to Sacramento has no answer and measures nothing useful.
            var rng = SeededRandom(seed: seed)
            var stopsByFeed: [[Int]] = Array(repeating: [], count: network.snapshot.feedIds.count)
            // --streets: only stops that snap to the streets, so that every walk of the
            // comparison can be a street walk (an extract may cover part of a feed's area).
            for s in 0..<tt.stopCount where tt.stopBoardable[s] && tt.stopRouteOffsets[s + 1] > tt.stopRouteOffsets[s]
                && (!streets || network.snap(ofStop: StopIndex(s)) != nil) {
                stopsByFeed[tt.stopFeed[s].index].append(s)
            }
            if streets {
                let boardable = (0..<tt.stopCount).filter { tt.stopBoardable[$0] && tt.stopRouteOffsets[$0 + 1] > tt.stopRouteOffsets[$0] }.count
                print("  queries between the \(Output.grouped(stopsByFeed.reduce(0) { $0 + $1.count })) of \(Output.grouped(boardable)) served stops that snap to the streets (and points within 500 m of them)")
            }
            let feeds = stopsByFeed.indices.filter { !stopsByFeed[$0].isEmpty }
            guard !feeds.isEmpty else { throw CLIError(streets ? "no served stop snaps to the streets: is the extract of the feeds' area?" : "no stop is served: nothing to plan") }
            var feedDays = eventsByFeed.map { e in e.indices.max { e[$0] < e[$1] } ?? 0 }
            // --realtime: the overlay timed, and the queries on the day its updates are for.
            let realtimeMessages = try source.realtime.isEmpty ? nil : readRealtime(network)
            if let realtimeMessages {
                for (feedId, m) in realtimeMessages {
                    guard let f = network.snapshot.feedIds.firstIndex(of: feedId) else { continue }
                    var dates: [String: Int] = [:]
                    for u in m.tripUpdates { if let d = u.trip.startDate { dates[d, default: 0] += 1 } }
                    if let d = dates.max(by: { $0.value < $1.value })?.key, let day = ServiceDate.parse(d) {
                        let k = Int(day.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
                        if (0..<tt.dayCount).contains(k) { feedDays[f] = k }
                    }
                }
            }
            func place(_ feed: Int) -> Place {
                let stops = stopsByFeed[feed]
                let s = stops[Int(rng.next() % UInt64(stops.count))]
                if rng.next() % 2 == 0 { return .stop(feed: network.snapshot.feedIds[feed], id: network.snapshot.stops[s].stopId) }
                let c = Geodesic.destination(from: network.coordinate(ofStop: StopIndex(s))!, azimuthDegrees: Double(rng.next() % 360),
                                             meters: Double(rng.next() % 500))
                return .coordinate(c)
            }
            var kinds: [(String, [PlanQuery])] = []
            // "answer": what `transit plan` and the API serve: the model's answer, the next
            // departures within 60 min, five itineraries with their legs, shapes and labels.
            for kind in Self.kindNames {
                var list: [PlanQuery] = []
                for _ in 0..<queries {
                    let feed = feeds[Int(rng.next() % UInt64(feeds.count))]
                    let (y, m, d) = tt.firstDay.adding(days: feedDays[feed]).components
                    let seconds = 5 * 3600 + Int(rng.next() % UInt64(18 * 3600))
                    list.append(PlanQuery(from: place(feed), to: place(feed),
                                          time: .local(year: y, month: m, day: d, hour: seconds / 3600, minute: seconds / 60 % 60, second: 0),
                                          arriveBy: kind == "arrive-by", window: kind == "range 60" ? 3600 : nil))
                }
                kinds.append((kind, list))
                if kind == "answer", let urls {
                    try Data(list.map(Self.planPath).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: urls))
                }
            }
            let only = Set(onlyKinds.map { $0.replacingOccurrences(of: "-60", with: " 60") })
            if streets {
                compareStreets(planner, kinds.filter { only.isEmpty ? ["depart-at", "answer"].contains($0.0) : only.contains($0.0) })
                return
            }
            if let realtimeMessages {
                // The static router's tables warm, as on a server that has been answering.
                for q in kinds[0].1.prefix(20) { _ = try? planner.plan(q) }
                let state = benchRealtimeBuild(network, planner, realtimeMessages)
                compareRealtime(planner, state, kinds.filter { only.isEmpty ? ["depart-at", "answer"].contains($0.0) : only.contains($0.0) })
                return
            }
            print("")
            print("\(Output.pad("kind", 10)) \(Output.pad("threads", 7, right: true)) \(Output.pad("p50 ms", 8, right: true)) \(Output.pad("p95 ms", 8, right: true)) \(Output.pad("p99 ms", 8, right: true)) \(Output.pad("queries/s", 10, right: true)) \(Output.pad("p50/pass", 9, right: true)) \(Output.pad("p95/pass", 9, right: true)) \(Output.pad("answered", 9, right: true))")
            let cores = ProcessInfo.processInfo.activeProcessorCount
            // Kind -> single-thread (p50, p95) as ratios to the day pass (the last pass's).
            var ratios: [String: (Double, Double)] = [:]
            for (name, list) in kinds where only.isEmpty || only.contains(name) {
                for threads in Set([1, cores]).sorted() { for _ in 0..<passes {
                    let (latencies, wall, answered) = run(planner, list, threads: threads, answer: name == "answer")
                    let sorted = latencies.sorted()
                    func pct(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
                    let p50 = pct(0.5) / 1000 / floor, p95 = pct(0.95) / 1000 / floor
                    if threads == 1 { ratios[name] = (p50, p95) }
                    print("\(Output.pad(name, 10)) \(Output.pad(String(threads), 7, right: true)) \(Output.pad(String(format: "%.2f", pct(0.5)), 8, right: true)) \(Output.pad(String(format: "%.2f", pct(0.95)), 8, right: true)) \(Output.pad(String(format: "%.2f", pct(0.99)), 8, right: true)) \(Output.pad(String(format: "%.0f", Double(list.count) / wall), 10, right: true)) \(Output.pad(String(format: "%.1fx", p50), 9, right: true)) \(Output.pad(String(format: "%.1fx", p95), 9, right: true)) \(Output.pad("\(answered * 100 / max(1, list.count))%", 9, right: true))")
                } }
            }
            // The targets, as ratios to the plain day pass, single-threaded.
            let targets: [(String, Double, Double)] = [("depart-at", 1, 3), ("arrive-by", 1, 3), ("answer", 2, 6)]
            let lines = targets.compactMap { t -> String? in
                guard let (p50, p95) = ratios[t.0] else { return nil }
                let met = p50 <= t.1 && p95 <= t.2
                return String(format: "  %@ p50 %.2fx (target <= %.0fx), p95 %.2fx (target <= %.0fx): %@", Output.pad(t.0, 10), p50, t.1, p95, t.2, met ? "met" : "missed")
            }
            if !lines.isEmpty {
                print("")
                print("targets, 1 thread, as ratios to the day pass (\(String(format: "%.3f", floor * 1000)) ms):")
                for l in lines { print(l) }
            }
        }
    }

    /// `--streets`: times the load and build without and with the streets the way
    /// `transit serve` and `transit plan` do them (`NetworkSources.load`, the streets read
    /// beside the feeds, then `TimetableBuilder.build`; median of 5 each), and the parts
    /// on their own: the timetable build from one snapshot (median of 3), the streets'
    /// read from the database and the walk graph's build. Returns the network with streets
    /// and the lines describing it.
    private func loadStreets() throws -> (TransitNetwork, [String]) {
        guard source.gtfs.isEmpty else { throw CLIError("--streets plans on the database's feeds and streets, not --gtfs files") }
        let db = try source.db.connect()
        let feeds = source.feeds.isEmpty ? nil : source.feeds
        func median(_ run: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<3 {
                _ = malloc_trim(0)
                let t = Date()
                try run()
                times.append(Date().timeIntervalSince(t))
            }
            return times.sorted()[1]
        }
        // One load of each to warm up, then 5 of each taken in turn (so that a noisy moment
        // falls on both): their medians.
        var network: TransitNetwork?
        var withoutTimes: [Double] = [], withTimes: [Double] = []
        for round in 0..<6 {
            network = nil
            _ = malloc_trim(0)
            var t = Date()
            network = try TimetableBuilder.build(try NetworkSources.load(db: db, feeds: feeds, streets: false).snapshot)
            if round > 0 { withoutTimes.append(Date().timeIntervalSince(t)) }
            network = nil
            _ = malloc_trim(0)
            t = Date()
            let sources = try NetworkSources.load(db: db, feeds: feeds, streets: true)
            network = try TimetableBuilder.build(sources.snapshot, graph: sources.streets)
            if round > 0 { withTimes.append(Date().timeIntervalSince(t)) }
        }
        let loadWithout = withoutTimes.sorted()[2], loadWith = withTimes.sorted()[2]
        guard let network, network.streets != nil else {
            throw CLIError("no streets are loaded: import them first (transit import-osm FILE.osm.pbf)")
        }
        if network.snapshot.feedIds.isEmpty { throw CLIError("no feeds are loaded: import one first (transit import FEED.zip)") }
        // The parts, one at a time.
        let snapshot = try SnapshotLoader(db: db).load(feeds: feeds)
        var tables: StreetTables?
        let streetRead = try median { tables = try StreetStore(db: db).load() }
        let graphBuild = median { _ = WalkGraph(tables!) }
        let buildWithout = try median { _ = try TimetableBuilder.build(snapshot) }
        let graph = network.streets!
        let buildWith = try median { _ = try TimetableBuilder.build(snapshot, graph: graph) }
        let tt = network.timetable
        let footBytes = (tt.footStreet.count + tt.footStreetStepFree.count) * MemoryLayout<Double>.stride
        // Two snaps per stop (walking and step-free).
        let snapBytes = 2 * tt.stopCount * MemoryLayout<StreetSnap?>.stride
        let regions = graph.versions.sorted { $0.key < $1.key }.map { "\($0.key) v\($0.value)" }.joined(separator: ", ")
        return (network, [
            "streets: \(regions): \(Output.grouped(graph.nodeCount)) nodes, \(Output.grouped(graph.edgeCount)) edges",
            String(format: "  load and build (median of 5, as transit serve does them): %.3f s without streets, %.3f s with: %.2fx",
                   loadWithout, loadWith, loadWith / loadWithout),
            String(format: "  parts (median of 3): timetable build %.3f s without streets, %.3f s with the graph built (%.2fx); streets read %.3f s, walk graph build %.3f s",
                   buildWithout, buildWith, buildWith / buildWithout, streetRead, graphBuild),
            String(format: "  walk graph: %.1f MB, %.0f bytes per edge; footpath street arrays %.2f MB (%@ footpaths x 2 x 8 bytes); stop snaps %.2f MB",
                   Double(graph.memoryBytes) / 1e6, Double(graph.memoryBytes) / Double(max(1, graph.edgeCount)), Double(footBytes) / 1e6,
                   Output.grouped(tt.footStreet.count), Double(snapBytes) / 1e6),
        ])
    }

    /// `--streets`: each query of each kind planned with the streets option off (beelines)
    /// and on (`compare`).
    private func compareStreets(_ planner: JourneyPlanner, _ kinds: [(String, [PlanQuery])]) {
        compare(planner, kinds, title: "streets against beelines", column: "walks", labels: ("beeline", "streets"),
                set: { $0.streets = $1 }) { name, off, on in
            String(format: "%@ p50 streets - p50 beeline: %+.2f ms", Output.pad(name, 10), Self.median(on) - Self.median(off))
        }
    }

    /// `--realtime FEED=FILE` (the option `transit plan` has too; `realtime-messages` writes
    /// seeded ones): the messages read (a feed's files merged), by feed. The overlay's build
    /// is timed, then each kind with realtime off and on, the same queries on the message's
    /// day (default kinds: depart-at and answer).
    private func readRealtime(_ network: TransitNetwork) throws -> [String: RealtimeMessage] {
        var byFeed: [String: [RealtimeMessage]] = [:]
        for r in source.realtime {
            guard let source = try? RealtimeSource.parse(r), case .file(let path) = source.location else {
                throw CLIError("--realtime \(r): give FEED=FILE")
            }
            guard network.snapshot.feedIds.contains(source.feedId) else { throw CLIError("--realtime names feed \"\(source.feedId)\", which is not loaded") }
            switch readRealtimeFile(path) {
            case .success(let m): byFeed[source.feedId, default: []].append(m)
            case .failure(let e): throw CLIError(e.description)
            }
        }
        return byFeed.compactMapValues(RealtimeMessage.merging)
    }

    /// `--realtime`: builds the overlay and its router the way `transit serve` does before
    /// each swap (`RealtimeState.build`, `JourneyPlanner.prepare(realtime:)`: the router
    /// with the tables the static router's requests use; the state stored under a lock):
    /// one build to warm up, then the median of 5. Prints the counts and times; returns the
    /// state.
    private func benchRealtimeBuild(_ network: TransitNetwork, _ planner: JourneyPlanner, _ messages: [String: RealtimeMessage]) -> RealtimeState {
        let slot = Mutex<RealtimeState?>(nil)
        var builds: [Double] = [], routers: [Double] = [], totals: [Double] = []
        for round in 0..<6 {
            slot.withLock { $0 = nil }
            _ = malloc_trim(0)
            let t0 = DispatchTime.now().uptimeNanoseconds
            let state = RealtimeState.build(network: network, messages: messages)
            let t1 = DispatchTime.now().uptimeNanoseconds
            planner.prepare(realtime: state)
            slot.withLock { $0 = state }
            let t2 = DispatchTime.now().uptimeNanoseconds
            if round > 0 {
                builds.append(Double(t1 - t0) / 1e6); routers.append(Double(t2 - t1) / 1e6); totals.append(Double(t2 - t0) / 1e6)
            }
        }
        let state = slot.withLock { $0! }
        print("")
        for r in state.reports {
            let rejected = r.rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("realtime: \(r.feedId): \(Output.grouped(r.tripUpdates)) trip updates, \(Output.grouped(r.applied)) applied\(rejected.isEmpty ? "" : " (not applied: \(rejected))")")
        }
        let tt = state.timetable, st = network.timetable
        print("  overlay: \(Output.grouped(tt.routeRemovedDays.count)) route-days replaced by \(Output.grouped(tt.routeCount - st.routeCount)) routes of \(Output.grouped(tt.tripCount - st.tripCount)) trips (the static timetable: \(Output.grouped(st.routeCount)) routes, \(Output.grouped(st.tripCount)) trips)")
        let median = { (v: [Double]) in v.sorted()[v.count / 2] }
        print(String(format: "  build and swap (median of 5): %.1f ms (overlay %.1f ms, its router %.1f ms)", median(totals), median(builds), median(routers)))
        return state
    }

    /// `--realtime`: each query of each kind planned with realtime off and on (`compare`).
    private func compareRealtime(_ planner: JourneyPlanner, _ state: RealtimeState, _ kinds: [(String, [PlanQuery])]) {
        compare(planner, kinds, title: "realtime on against off", column: "realtime", labels: ("off", "on"), realtime: state,
                set: { $0.realtime = $1 }) { name, off, on in
            String(format: "%@ p50 on / p50 off: %.2fx", Output.pad(name, 10), Self.median(on) / Self.median(off))
        }
    }

    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    /// Each query of each kind planned with an option off and on (`set`), one after the
    /// other (alternating which goes first), single-threaded: a row of latencies for each
    /// (p50, p95, p99, mean, share answered with rides), one of the differences, and
    /// `summary`'s line.
    private func compare(_ planner: JourneyPlanner, _ kinds: [(String, [PlanQuery])], title: String, column: String,
                         labels: (off: String, on: String), realtime: RealtimeState? = nil, set: (inout PlanQuery, Bool) -> Void,
                         summary: (_ name: String, _ off: [Double], _ on: [Double]) -> String) {
        print("")
        print("\(title), same queries, 1 thread (ms)")
        print("\(Output.pad("kind", 10)) \(Output.pad(column, 8)) \(Output.pad("p50", 7, right: true)) \(Output.pad("p95", 7, right: true)) \(Output.pad("p99", 7, right: true)) \(Output.pad("mean", 7, right: true)) \(Output.pad("answered", 9, right: true))")
        for (name, list) in kinds { for _ in 0..<passes {
            var off: [Double] = [], on: [Double] = [], delta: [Double] = [], answered = [0, 0]
            for (i, q) in list.enumerated() {
                var times = [0.0, 0.0]
                for k in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                    var query = q
                    set(&query, k == 1)
                    let t = DispatchTime.now().uptimeNanoseconds
                    let ok = name == "answer" ? (try? planner.answer(query, realtime: realtime).get())?.options.contains { $0.journey.rides > 0 } ?? false
                                              : (try? planner.plan(query, realtime: realtime))?.journeys.contains { $0.rides > 0 } ?? false
                    times[k] = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
                    if ok { answered[k] += 1 }
                }
                off.append(times[0]); on.append(times[1]); delta.append(times[1] - times[0])
            }
            func row(_ label: String, _ v: [Double], _ answered: Int?) {
                let s = v.sorted()
                func pct(_ q: Double) -> String { String(format: "%.2f", s[min(s.count - 1, Int(Double(s.count) * q))]) }
                print("\(Output.pad(name, 10)) \(Output.pad(label, 8)) \(Output.pad(pct(0.5), 7, right: true)) \(Output.pad(pct(0.95), 7, right: true)) \(Output.pad(pct(0.99), 7, right: true)) \(Output.pad(String(format: "%.2f", v.reduce(0, +) / Double(max(1, v.count))), 7, right: true)) \(Output.pad(answered.map { "\($0 * 100 / max(1, list.count))%" } ?? "", 9, right: true))")
            }
            row(labels.off, off, answered[0])
            row(labels.on, on, answered[1])
            row("diff", delta, nil)
            print(summary(name, off, on))
        } }
    }

    /// A query as the HTTP API takes it: `/v1/plan?from=…&to=…&time=…`.
    static func planPath(_ q: PlanQuery) -> String {
        func place(_ p: Place) -> String {
            switch p {
            case .coordinate(let c): return String(format: "%.6f,%.6f", c.latitude, c.longitude)
            case .stop(let feed, let id): return "stop:" + (feed.map { "\($0):" } ?? "") + id
            }
        }
        func enc(_ s: String) -> String {
            s.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:,")) ?? s
        }
        var time = ""
        if case .local(let y, let mo, let d, let h, let mi, let sec) = q.time {
            time = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, sec)
        }
        return "/v1/plan?from=\(enc(place(q.from)))&to=\(enc(place(q.to)))&time=\(time)" + (q.arriveBy ? "&arriveBy=true" : "")
    }

    private func run(_ planner: JourneyPlanner, _ list: [PlanQuery], threads: Int, answer: Bool) -> ([Double], Double, Int) {
        let latencies = UnsafeMutableBufferPointer<Double>.allocate(capacity: list.count)
        let answered = UnsafeMutableBufferPointer<Int>.allocate(capacity: list.count)
        defer { latencies.deallocate(); answered.deallocate() }
        let lat = UnsafeMutableSendable(latencies), ans = UnsafeMutableSendable(answered)
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var i = worker
            while i < list.count {
                let t = DispatchTime.now().uptimeNanoseconds
                let ok = answer ? (try? planner.answer(list[i]).get())?.options.contains { $0.journey.rides > 0 } ?? false
                                : (try? planner.plan(list[i]))?.journeys.contains { $0.rides > 0 } ?? false
                lat.buffer[i] = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9
                ans.buffer[i] = ok ? 1 : 0
                i += threads
            }
        }
        let wall = Date().timeIntervalSince(start)
        return (Array(latencies), wall, answered.reduce(0, +))
    }

    /// Stop events (trips running × their stops) per feed and timetable day.
    private func stopEventsPerFeedAndDay(_ network: TransitNetwork) -> [[Int]] {
        let tt = network.timetable
        var events = [[Int]](repeating: [Int](repeating: 0, count: tt.dayCount), count: network.snapshot.feedIds.count)
        for r in 0..<tt.routeCount {
            let feed = Int(network.snapshot.routes[tt.routeSourceRoute[r].index].feed)
            let stops = Int(tt.routeStopOffsets[r + 1] - tt.routeStopOffsets[r])
            // One service per route: every trip of the route runs on the same days.
            let trips = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r])
            for day in 0..<tt.dayCount where tt.serviceRuns(tt.routeService[r], day: day) { events[feed][day] += stops * trips }
        }
        return events
    }

    /// Seconds for one pass reading every departure and arrival of the day's running
    /// trips (median of 9 passes).
    private func dayPass(_ tt: Timetable, day: Int) -> Double {
        var times: [Double] = []
        var sink: Int64 = 0
        for _ in 0..<9 {
            let t = DispatchTime.now().uptimeNanoseconds
            for r in 0..<tt.routeCount {
                let nt = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r]), base = Int(tt.routeTripOffsets[r])
                let stops = Int(tt.routeStopOffsets[r + 1] - tt.routeStopOffsets[r]), shift = Int(tt.routeArrivalShift[r])
                for j in 0..<nt where tt.serviceRuns(tt.tripService[base + j], day: day) {
                    for pos in 0..<stops { sink &+= Int64(tt.runTime(base + j, pos)) &+ Int64(tt.runTime(base + j, shift + pos)) }
                }
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9)
        }
        if sink == 42 { print("") }
        return times.sorted()[4]
    }
}

/// Wraps a buffer that threads write at distinct indexes.
struct UnsafeMutableSendable<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ b: UnsafeMutableBufferPointer<T>) { buffer = b }
}

