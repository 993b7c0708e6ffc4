import Planner
import Testing

/// Inputs with which the fuzz targets (`Scripts/fuzz.sh`, checks in Sources/FuzzChecks)
/// found faults in the planner's readers: one test each, the input inlined.
@Suite("Planner: fuzz findings")
struct FuzzRegressionTests {
    /// fuzz-time, 2026-11-22, input "2015-09-01T05:-8:00": `QueryTime.parse` read each
    /// number with `Int(_:)`, which takes a sign, so the API's `time` and the terminal
    /// planner's words accepted minute -8 (and "+5", "-1" hours, offsets such as "+-1:00"
    /// or "+05:99"). Only digits, and offsets of at most 23:59, are read now (the terminal's
    /// `TimeWords` likewise: PlanTextTests).
    @Test("ISO 8601 times: signs inside the numbers and impossible offsets are refused",
          arguments: ["2015-09-01T05:-8:00", "2015-09-01T-1:30", "2015-09-01T+5:30", "2015-09-01T05:30:-1",
                      "+015-09-01T05:30", "2015-09-01T05:30+-1:00", "2015-09-01T05:30+05:99", "2015-09-01T05:30+24:00",
                      "2015-09-01T05:30:00+0a:00", "2015-09-01T05:30Zulu"])
    func queryTimeDigitsOnly(_ text: String) {
        #expect(QueryTime.parse(text) == nil, "\(text) read as \(String(describing: QueryTime.parse(text)))")
    }

    @Test("ISO 8601 times that are right still read")
    func queryTimeStillReads() {
        #expect(QueryTime.parse("2015-09-01T05:08:00") == .local(year: 2015, month: 9, day: 1, hour: 5, minute: 8, second: 0))
        #expect(QueryTime.parse("2015-09-01 05:08") == .local(year: 2015, month: 9, day: 1, hour: 5, minute: 8, second: 0))
        #expect(QueryTime.parse("2015-09-01T05:08:00Z") == .instant(1_441_084_080))
        #expect(QueryTime.parse("2015-09-01T05:08:00+23:59") == .instant(1_441_084_080 - 86_340))
        #expect(QueryTime.parse("2015-09-01T05:08-07:30") == .instant(1_441_084_080 + 27_000))
    }
}
