import GTFSRealtime
import Realtime
import Testing

@Suite struct RealtimeAlertsTests {
    typealias M = RealtimeMessage
    static let ride = AlertTarget(feedId: "bart", agencyId: "BART", routeId: "1", routeType: 1, directionId: 0, tripId: "T1",
                                  startDate: "20190807", stopIds: ["12TH", "SFIA"], from: 1_000, to: 2_000)

    static func alert(_ id: String, _ entities: [M.InformedEntity], periods: [M.ActivePeriod] = []) -> M.Alert {
        M.Alert(entityId: id, activePeriods: periods, informedEntities: entities, header: [M.Translation(text: id)])
    }

    static func matched(_ alerts: [M.Alert], _ target: AlertTarget = ride) -> [String] {
        RealtimeAlerts.matching(target, in: ["bart": M(timestamp: 0, alerts: alerts)]).map(\.entityId)
    }

    @Test("an entity names a ride when every field it gives matches")
    func selectors() {
        #expect(Self.matched([Self.alert("route", [M.InformedEntity(routeId: "1")])]) == ["route"])
        #expect(Self.matched([Self.alert("other route", [M.InformedEntity(routeId: "2")])]) == [])
        #expect(Self.matched([Self.alert("agency", [M.InformedEntity(agencyId: "BART")])]) == ["agency"])
        #expect(Self.matched([Self.alert("stop", [M.InformedEntity(stopId: "SFIA")])]) == ["stop"])
        // Route and stop together: that stop on that route only.
        #expect(Self.matched([Self.alert("stop on route", [M.InformedEntity(routeId: "1", stopId: "12TH")])]) == ["stop on route"])
        #expect(Self.matched([Self.alert("stop on other route", [M.InformedEntity(routeId: "2", stopId: "12TH")])]) == [])
        #expect(Self.matched([Self.alert("trip", [M.InformedEntity(trip: M.TripDescriptor(tripId: "T1"))])]) == ["trip"])
        #expect(Self.matched([Self.alert("trip other day", [M.InformedEntity(trip: M.TripDescriptor(tripId: "T1", startDate: "20190808"))])]) == [])
        #expect(Self.matched([Self.alert("direction only", [M.InformedEntity(directionId: 0)])]) == [], "a direction alone names nothing")
        #expect(Self.matched([Self.alert("route, other direction", [M.InformedEntity(routeId: "1", directionId: 1)])]) == [])
        // Any one entity of several is enough.
        #expect(Self.matched([Self.alert("several", [M.InformedEntity(routeId: "9"), M.InformedEntity(stopId: "12TH")])]) == ["several"])
    }

    @Test("active periods: open ends, overlap with the ride, none means always")
    func periods() {
        let e = [M.InformedEntity(routeId: "1")]
        #expect(Self.matched([Self.alert("always", e)]) == ["always"])
        #expect(Self.matched([Self.alert("before", e, periods: [M.ActivePeriod(start: 0, end: 999)])]) == [])
        #expect(Self.matched([Self.alert("overlaps", e, periods: [M.ActivePeriod(start: 0, end: 1_000)])]) == ["overlaps"])
        #expect(Self.matched([Self.alert("open end", e, periods: [M.ActivePeriod(start: 1_500)])]) == ["open end"])
        #expect(Self.matched([Self.alert("after", e, periods: [M.ActivePeriod(start: 2_001, end: nil)])]) == [])
        #expect(Self.matched([Self.alert("second period", e, periods: [M.ActivePeriod(end: 10), M.ActivePeriod(start: 1_900, end: 3_000)])]) == ["second period"])
        // Another feed's alerts are not this ride's.
        var elsewhere = Self.ride
        elsewhere.feedId = "muni"
        #expect(Self.matched([Self.alert("route", e)], elsewhere) == [])
    }
}
