import Testing
import TransitModel

@Suite("ServiceDate")
struct ServiceDateTests {
    /// Independent of the code under test: the Gregorian leap-year rule.
    private static func leap(_ y: Int) -> Bool { y % 400 == 0 || (y % 4 == 0 && y % 100 != 0) }
    private static func monthLength(_ y: Int, _ m: Int) -> Int {
        [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }
    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    @Test("parses YYYYMMDD")
    func parses() throws {
        let d = try #require(ServiceDate.parse("20180526"))
        #expect(d.components == (2018, 5, 26))
        #expect(d == ServiceDate(year: 2018, month: 5, day: 26))
        #expect(d.description == "20180526")
        #expect(d.iso8601 == "2018-05-26")
        #expect(ServiceDate.parse(" 20180526 ") == d)
        #expect(ServiceDate.parse("19700101")?.daysSinceEpoch == 0)
        #expect(ServiceDate.parse("19700102")?.daysSinceEpoch == 1)
        #expect(ServiceDate.parse("19691231")?.daysSinceEpoch == -1)
        #expect(ServiceDate.parse("20000301")?.daysSinceEpoch == 11_017)
    }

    @Test("rejects malformed or impossible dates", arguments: [
        "20190229", "2018-05-26", "2018052", "201805261", "", "        ", "20181301", "20180001",
        "20180100", "20180132", "20180431", "2018O526", "+2018052", "-20180526", "18991231", "30000101",
        "19000229", "21000229",
    ])
    func rejects(text: String) {
        #expect(ServiceDate.parse(text) == nil, "\(text.debugDescription) should not parse")
    }

    @Test("leap years")
    func leapYears() {
        #expect(ServiceDate.parse("20200229") != nil)
        #expect(ServiceDate.parse("20000229") != nil)
        #expect(ServiceDate.parse("20240229") != nil)
        #expect(ServiceDate.parse("19000229") == nil)
        #expect(ServiceDate.parse("21000229") == nil)
        #expect(ServiceDate.parse("20190229") == nil)
        #expect(ServiceDate(year: 2016, month: 2, day: 29) != nil)
        #expect(ServiceDate(year: 2017, month: 2, day: 29) == nil)
        for y in 1900...2999 { #expect(ServiceDate.isLeap(y) == Self.leap(y), "\(y)") }
        #expect(ServiceDate.daysInMonth(year: 2000, month: 2) == 29)
        #expect(ServiceDate.daysInMonth(year: 1900, month: 2) == 28)
        // A leap year has 366 days, a common year 365.
        let y2020 = ServiceDate(year: 2021, month: 1, day: 1)!.daysSinceEpoch - ServiceDate(year: 2020, month: 1, day: 1)!.daysSinceEpoch
        let y2019 = ServiceDate(year: 2020, month: 1, day: 1)!.daysSinceEpoch - ServiceDate(year: 2019, month: 1, day: 1)!.daysSinceEpoch
        #expect(y2020 == 366)
        #expect(y2019 == 365)
    }

    @Test("init(year:month:day:) rejects out-of-range parts")
    func initRejects() {
        #expect(ServiceDate(year: 2018, month: 0, day: 1) == nil)
        #expect(ServiceDate(year: 2018, month: 13, day: 1) == nil)
        #expect(ServiceDate(year: 2018, month: 1, day: 0) == nil)
        #expect(ServiceDate(year: 2018, month: 4, day: 31) == nil)
        #expect(ServiceDate(year: 1899, month: 12, day: 31) == nil)
        #expect(ServiceDate(year: 3000, month: 1, day: 1) == nil)
        #expect(ServiceDate(year: 1900, month: 1, day: 1) != nil)
        #expect(ServiceDate(year: 2999, month: 12, day: 31) != nil)
    }

    @Test("weekday: 0 = Monday … 6 = Sunday")
    func weekday() {
        #expect(ServiceDate(year: 1970, month: 1, day: 1)!.weekday == 3)   // Thursday
        #expect(ServiceDate(year: 2020, month: 4, day: 20)!.weekday == 0)  // Monday
        #expect(ServiceDate(year: 2020, month: 4, day: 26)!.weekday == 6)  // Sunday
        #expect(ServiceDate(year: 1969, month: 12, day: 31)!.weekday == 2) // Wednesday (negative days)
        #expect(ServiceDate(year: 1900, month: 1, day: 1)!.weekday == 0)   // Monday
        #expect(ServiceDate(year: 2000, month: 1, day: 1)!.weekday == 5)   // Saturday
        #expect(ServiceDate(year: 2018, month: 5, day: 26)!.weekday == 5)  // Saturday
    }

    @Test("every day from 1990 to 2040: components, parse, description, iso8601, weekday")
    func everyDay() throws {
        var previous = try #require(ServiceDate(year: 1989, month: 12, day: 31))
        var failures = 0
        for y in 1990...2040 {
            for m in 1...12 {
                for d in 1...Self.monthLength(y, m) {
                    guard let date = ServiceDate(year: y, month: m, day: d) else {
                        Issue.record("\(y)-\(m)-\(d) rejected"); failures += 1; continue
                    }
                    let c = date.components
                    let text = Self.pad(y, 4) + Self.pad(m, 2) + Self.pad(d, 2)
                    let ok = c.year == y && c.month == m && c.day == d
                        && date.daysSinceEpoch == previous.daysSinceEpoch + 1
                        && date.weekday == (previous.weekday + 1) % 7
                        && ServiceDate.parse(text) == date
                        && date.description == text
                        && date.iso8601 == "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
                        && previous.adding(days: 1) == date
                        && ServiceDate(daysSinceEpoch: date.daysSinceEpoch) == date
                    if !ok {
                        failures += 1
                        if failures < 10 { Issue.record("mismatch on \(text): components \(c), days \(date.daysSinceEpoch)") }
                    }
                    previous = date
                }
            }
        }
        #expect(failures == 0)
        #expect(previous == ServiceDate(year: 2040, month: 12, day: 31))
    }

    @Test("adding(days:)")
    func adding() {
        let d = ServiceDate(year: 2018, month: 12, day: 31)!
        #expect(d.adding(days: 1) == ServiceDate(year: 2019, month: 1, day: 1))
        #expect(d.adding(days: 0) == d)
        #expect(d.adding(days: -365) == ServiceDate(year: 2017, month: 12, day: 31))
        #expect(d.adding(days: 60) == ServiceDate(year: 2019, month: 3, day: 1))
        #expect(ServiceDate(year: 2020, month: 2, day: 28)!.adding(days: 1) == ServiceDate(year: 2020, month: 2, day: 29))
        #expect(ServiceDate(year: 2020, month: 2, day: 28)!.adding(days: 2) == ServiceDate(year: 2020, month: 3, day: 1))
        #expect(ServiceDate(year: 2020, month: 3, day: 1)!.adding(days: -1) == ServiceDate(year: 2020, month: 2, day: 29))
        #expect(ServiceDate(year: 1970, month: 1, day: 1)!.adding(days: -1) == ServiceDate(year: 1969, month: 12, day: 31))
        // 400 Gregorian years are exactly 146,097 days.
        #expect(ServiceDate(year: 2000, month: 3, day: 1)!.adding(days: 146_097).components == (2400, 3, 1))
        #expect(ServiceDate(year: 2020, month: 4, day: 20)!.adding(days: 7).weekday == 0)
    }

    @Test("ordering")
    func ordering() {
        #expect(ServiceDate.parse("20180526")! < ServiceDate.parse("20180527")!)
        #expect(ServiceDate.parse("20181231")! < ServiceDate.parse("20190101")!)
        #expect([ServiceDate.parse("20200101")!, ServiceDate.parse("19991231")!].sorted().first == ServiceDate.parse("19991231"))
    }
}
