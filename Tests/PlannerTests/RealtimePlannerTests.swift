import FeedNetwork
import GTFSRealtime
import Planner
import Raptor
import Realtime
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The planner on a realtime state (docs/routing-model.md, "Realtime", "In the answers"):
///
///     A ──R1── B ──R1── C ──R1── D        2 km apart
///     T1   A 0:00   B 0:10   C 0:20   D 0:30      late by 5 min from B, skips C
///     T2   A 1:00   B 1:10   C 1:20   D 1:30      no update
@Suite("Planner with realtime")
struct RealtimePlannerTests {
    static func setup() throws -> (JourneyPlanner, RealtimeState) {
        var b = NetworkBuilder()
        b.line("A", "B", "C", "D")
        b.trip("T1", route: "R1", "A 0:00, B 0:10, C 0:20, D 0:30")
        b.trip("T2", route: "R1", "A 1:00, B 1:10, C 1:20, D 1:30")
        let network = try b.network()
        let message = RealtimeMessage(timestamp: Rules.utc("0:00"), tripUpdates: [
            .init(entityId: "e1", trip: .init(tripId: "T1", startDate: "20200420"), stopTimeUpdates: [
                .init(stopId: "B", arrival: .init(delay: 300)),
                .init(stopId: "C", scheduleRelationship: .skipped),
            ]),
        ])
        let state = RealtimeState.build(network: network, messages: ["test": message])
        return (JourneyPlanner(network: network), state)
    }

    static func query(_ from: String, _ to: String, realtime: Bool = true) -> PlanQuery {
        PlanQuery(from: .stop(feed: nil, id: from), to: .stop(feed: nil, id: to),
                  time: Rules.localTime("0:00", on: Rules.testDate), realtime: realtime)
    }

    @Test func aLateRideCarriesItsScheduledAndExpectedTimes() throws {
        let (planner, state) = try Self.setup()
        let result = try planner.plan(Self.query("A", "D"), realtime: state)
        let j = result.journeys.first { $0.rides > 0 }!
        #expect(j.arrival == Rules.utc("0:35"))
        let itinerary = planner.itinerary(j, in: result)
        let ride = itinerary.legs.first { $0.ride != nil }!
        // Names from the static trip; times as expected.
        #expect(ride.ride?.tripId == "T1" && ride.ride?.routeShortName == "R1")
        #expect(ride.departure == Rules.utc("0:00") && ride.arrival == Rules.utc("0:35"))
        let rt = try #require(ride.realtime)
        #expect(rt.scheduledDeparture == Rules.utc("0:00") && rt.expectedDeparture == Rules.utc("0:00"))
        #expect(rt.scheduledArrival == Rules.utc("0:30") && rt.expectedArrival == Rules.utc("0:35"))
        #expect(rt.departureDelaySeconds == 0 && rt.arrivalDelaySeconds == 300)
        #expect(rt.skippedStops.map { planner.network.snapshot.stops[$0.index].stopId } == ["C"])
        #expect(rt.entityId == "e1" && rt.feedId == "test")
        // The stops passed show the expected times.
        #expect(ride.ride?.intermediateStops.map(\.arrival) == [Rules.utc("0:15"), Rules.utc("0:25")])
    }

    @Test func realtimeOffOrNoStateIsTheStaticAnswer() throws {
        let (planner, state) = try Self.setup()
        for result in [try planner.plan(Self.query("A", "D", realtime: false), realtime: state),
                       try planner.plan(Self.query("A", "D")), try planner.plan(Self.query("A", "D"), realtime: nil)] {
            let j = result.journeys.first { $0.rides > 0 }!
            #expect(j.arrival == Rules.utc("0:30") && j.legRealtime.isEmpty)
            #expect(planner.itinerary(j, in: result).legs.allSatisfy { $0.realtime == nil })
        }
    }

    @Test func aSkippedStopIsNotAlightedAt() throws {
        let (planner, state) = try Self.setup()
        let result = try planner.plan(Self.query("A", "C"), realtime: state)
        let j = result.journeys.first { $0.rides > 0 }!
        // T1 passes C without stopping: T2 it is, with no realtime facts.
        #expect(j.arrival == Rules.utc("1:20"))
        #expect(planner.itinerary(j, in: result).legs.allSatisfy { $0.realtime == nil })
    }

    @Test func theAnswerWithAlternativesRoutesOnTheState() throws {
        let (planner, state) = try Self.setup()
        let answer = try planner.answer(Self.query("A", "D"), realtime: state).get()
        let rides = answer.options.flatMap { $0.itinerary.legs }.filter { $0.ride != nil }
        #expect(rides.contains { $0.realtime?.arrivalDelaySeconds == 300 && $0.arrival == Rules.utc("0:35") })
        #expect(rides.contains { $0.ride?.tripId == "T2" && $0.realtime == nil })
        let plain = try planner.answer(Self.query("A", "D"), realtime: nil).get()
        #expect(plain.options.flatMap { $0.itinerary.legs }.allSatisfy { $0.realtime == nil })
    }
}
