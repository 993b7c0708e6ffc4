import Foundation
import Geo
import Planner
import PlanText
import Testing
import TransitModel

/// Times in a person's words, and names grouped into places (the terminal planner's input).
@Suite struct TimeWordsTests {
    @Test("clock times, days and ISO 8601 are read; anything else is refused")
    func parse() {
        #expect(TimeWords.parse("8:30") == .clock(dayOffset: 0, weekday: nil, hour: 8, minute: 30))
        #expect(TimeWords.parse("17:45") == .clock(dayOffset: 0, weekday: nil, hour: 17, minute: 45))
        #expect(TimeWords.parse("5:45pm") == .clock(dayOffset: 0, weekday: nil, hour: 17, minute: 45))
        #expect(TimeWords.parse("12am") == .clock(dayOffset: 0, weekday: nil, hour: 0, minute: 0))
        #expect(TimeWords.parse("12pm") == .clock(dayOffset: 0, weekday: nil, hour: 12, minute: 0))
        #expect(TimeWords.parse("Tomorrow 7:05") == .clock(dayOffset: 1, weekday: nil, hour: 7, minute: 5))
        #expect(TimeWords.parse("today 23:59") == .clock(dayOffset: 0, weekday: nil, hour: 23, minute: 59))
        #expect(TimeWords.parse("mon 9:00") == .clock(dayOffset: 0, weekday: 0, hour: 9, minute: 0))
        #expect(TimeWords.parse("Sunday 9am") == .clock(dayOffset: 0, weekday: 6, hour: 9, minute: 0))
        #expect(TimeWords.parse("now") == .now)
        #expect(TimeWords.parse("2020-04-20T08:30") == .exact(.local(year: 2020, month: 4, day: 20, hour: 8, minute: 30, second: 0)))
        #expect(TimeWords.parse("2020-04-20 08:30") == .exact(.local(year: 2020, month: 4, day: 20, hour: 8, minute: 30, second: 0)))
        #expect(TimeWords.parse("2020-04-20T08:30:00Z") == .exact(.instant(1_587_371_400)))
        for bad in ["", "9", "25:00", "8:60", "8:5", "13pm", "0am", "yesterday 8:00", "tomorrow", "8:30 tomorrow", "2020-02-30T08:00", "８:30"] {
            #expect(TimeWords.parse(bad) == nil, "\"\(bad)\" was read as a time")
        }
    }

    @Test("a time without a date lands on the timetable's dates, same weekday, and says so")
    func resolve() {
        let utc = TimeZone(identifier: "UTC")!
        let period = (first: ServiceDate(year: 2020, month: 4, day: 16)!, last: ServiceDate(year: 2020, month: 10, day: 25)!)
        // Saturday 2026-11-21, 10:00 UTC.
        let now: Int64 = 1_795_255_200
        let (t, note) = TimeWords.resolve(.clock(dayOffset: 0, weekday: nil, hour: 8, minute: 30), now: now, zone: utc, period: period)
        #expect(t == .local(year: 2020, month: 10, day: 24, hour: 8, minute: 30, second: 0))  // the last Saturday
        #expect(note?.contains("2026-11-21 is outside the timetable's dates (2020-04-16 to 2020-10-25)") == true, "\(note ?? "")")
        #expect(note?.contains("Saturday 2020-10-24, the last Saturday in them") == true)
        // Monday: the next Monday (2026-11-23), moved to the last Monday.
        let (m, _) = TimeWords.resolve(.clock(dayOffset: 0, weekday: 0, hour: 9, minute: 0), now: now, zone: utc, period: period)
        #expect(m == .local(year: 2020, month: 10, day: 19, hour: 9, minute: 0, second: 0))
        // Before the dates: the first such weekday in them.
        let early = (first: ServiceDate(year: 2030, month: 1, day: 1)!, last: ServiceDate(year: 2030, month: 12, day: 31)!)
        let (e, en) = TimeWords.resolve(.clock(dayOffset: 1, weekday: nil, hour: 7, minute: 0), now: now, zone: utc, period: early)
        #expect(e == .local(year: 2030, month: 1, day: 6, hour: 7, minute: 0, second: 0))  // the first Sunday of 2030
        #expect(en?.contains("the first Sunday in them") == true)
        // Inside the dates: nothing moves, nothing is said; now keeps its seconds.
        let inside = (first: ServiceDate(year: 2026, month: 1, day: 1)!, last: ServiceDate(year: 2026, month: 12, day: 31)!)
        let (n, nn) = TimeWords.resolve(nil, now: now + 7, zone: utc, period: inside)
        #expect(n == .local(year: 2026, month: 11, day: 21, hour: 10, minute: 0, second: 7) && nn == nil)
        // A given date is never moved.
        let exact = QueryTime.local(year: 2031, month: 1, day: 7, hour: 8, minute: 0, second: 0)
        #expect(TimeWords.resolve(.exact(exact), now: now, zone: utc, period: period).time == exact)
    }

    @Test("stops of one name close together are one place; a tie at the top is a choice")
    func places() {
        func stop(_ id: String, _ name: String, _ lat: Double, _ score: Double, feed: String = "f") -> StopCandidate {
            StopCandidate(feed: feed, id: id, name: name, coordinate: Coordinate(latitude: lat, longitude: 18), score: score,
                          routes: [("tram", id)])
        }
        // Three poles of one roundabout (within 500 m), one stop of that name 5 km away.
        let found = PlaceFinder.group([stop("1", "Rondo", 53.000, 4), stop("2", "Rondo", 53.002, 4), stop("3", "Rondo", 53.003, 4),
                                       stop("4", "Rondo", 53.050, 4)])
        #expect(found.map(\.stops.count) == [3, 1])
        #expect(PlaceFinder.decide(found) == .ambiguous(found))
        // The middle of the poles, for several stops; the stop itself for one.
        #expect(found[0].place == .coordinate(Coordinate(latitude: 53.001667, longitude: 18)))
        #expect(found[1].place == .stop(feed: "f", id: "4"))
        // A better score wins alone; the same name in another feed is another place.
        let one = PlaceFinder.group([stop("1", "Plac", 53, 3), stop("2", "Plac Wolności", 53.1, 4), stop("9", "Plac", 53, 3, feed: "g")])
        #expect(one.count == 3)
        #expect(PlaceFinder.decide(one) == .found(one[0]) && one[0].name == "Plac Wolności")
        #expect(PlaceFinder.decide([]) == .notFound(suggestions: []))
    }

    /// fuzz-time, 2026-11-22: the words accepted what `QueryTime.parse` accepted, signs
    /// inside the numbers included (see FuzzRegressionTests in PlannerTests).
    @Test("ISO 8601 times with signs inside the numbers are not times in words either",
          arguments: ["2015-09-01T05:-8:00", "2015-09-01T-1:30", "2015-09-01T+5:30", "2015-09-01T05:30:-1",
                      "+015-09-01T05:30", "2015-09-01T05:30+-1:00", "2015-09-01T05:30+05:99", "2015-09-01T05:30+24:00",
                      "2015-09-01T05:30:00+0a:00", "2015-09-01T05:30Zulu"])
    func fuzzFoundTimes(_ text: String) {
        #expect(TimeWords.parse(text) == nil)
    }
}
