import Foundation
import GTFS
import Planner
import Raptor
import Testing
import Timetable
import TransitModel

@Suite struct SmokeTests {
    @Test func bartMorningTrip() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (snapshot, _) = try SnapshotSink.load(path: root.appendingPathComponent("Data/bart-2018.zip").path, feedId: "bart")
        let tt = try TimetableBuilder.build(snapshot)
        print("routes \(tt.routeCount) trips \(tt.tripCount) footpaths \(tt.footTarget.count) days \(tt.dayCount) warnings \(tt.warnings)")
        let planner = JourneyPlanner(timetable: tt)
        for arriveBy in [false, true] {
            let result = try planner.plan(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"),
                                                    time: .local(year: 2018, month: 6, day: 5, hour: 8, minute: 30, second: 0),
                                                    arriveBy: arriveBy))
            print(result.timeZone, result.time)
            for j in result.journeys {
                print("rides \(j.rides) dep \(j.departure - result.time) arr \(j.arrival - result.time)")
                for leg in j.legs { print("   \(leg)") }
            }
            #expect(!result.journeys.isEmpty)
        }
    }
}
