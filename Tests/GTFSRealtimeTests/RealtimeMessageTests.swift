import GTFSRealtime
import Testing

@Suite struct RealtimeMessageTests {
    /// A message made in code is a full dataset unless it says otherwise (only full
    /// datasets are applied).
    @Test func defaults() {
        let m = RealtimeMessage(timestamp: 1_565_200_000)
        #expect(m.incrementality == .fullDataset && m.tripUpdates.isEmpty && m.version == "2.0")
    }

    @Test("one feed's TripUpdates and Alerts messages merge: entities together, the TripUpdates' time")
    func merging() {
        let updates = RealtimeMessage(timestamp: 100, tripUpdates: [RealtimeMessage.TripUpdate(entityId: "u", trip: .init(tripId: "t"))])
        let alerts = RealtimeMessage(timestamp: 200, alerts: [RealtimeMessage.Alert(entityId: "a")])
        let m = RealtimeMessage.merging([alerts, updates])
        #expect(m?.tripUpdates.map(\.entityId) == ["u"] && m?.alerts.map(\.entityId) == ["a"])
        #expect(m?.timestamp == 100)
        #expect(RealtimeMessage.merging([alerts])?.timestamp == 200)
        #expect(RealtimeMessage.merging([]) == nil)
        var d = alerts
        d.incrementality = .differential
        #expect(RealtimeMessage.merging([updates, d])?.incrementality == .differential)
    }
}
