import FeedNetwork
import GTFSRealtime
import Realtime
import Testing
import TransitTesting

@Suite struct RealtimeStateTests {
    /// No message, no change: the state routes on the static timetable itself.
    @Test func noMessages() throws {
        var b = NetworkBuilder()
        b.line("A", "B")
        let network = try b.network()
        let state = RealtimeState.build(network: network, messages: [:])
        #expect(state.timetable === network.timetable && state.reports.isEmpty)
    }
}
