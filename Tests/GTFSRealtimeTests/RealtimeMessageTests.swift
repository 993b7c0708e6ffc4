import GTFSRealtime
import Testing

@Suite struct RealtimeMessageTests {
    /// A message made in code is a full dataset unless it says otherwise (only full
    /// datasets are applied).
    @Test func defaults() {
        let m = RealtimeMessage(timestamp: 1_565_200_000)
        #expect(m.incrementality == .fullDataset && m.tripUpdates.isEmpty && m.version == "2.0")
    }
}
