import Testing
import TransitModel

@Suite("ServiceTime")
struct ServiceTimeTests {
    @Test("valid times parse to seconds since noon minus 12 h", arguments: [
        ("5:10:00", 18_600),
        ("05:10:00", 18_600),
        ("25:10:00", 90_600),
        ("00:00:00", 0),
        ("0:00:00", 0),
        (" 08:00:00 ", 28_800),
        ("   08:00:00", 28_800),
        ("08:00:00   ", 28_800),
        ("23:59:59", 86_399),
        ("24:00:00", 86_400),
        ("47:59:59", 172_799),
        ("96:00:00", 345_600),        // maxHours is accepted
        ("096:00:00", 345_600),       // three hour digits
        ("12:34:56", 45_296),
    ])
    func parsesValid(text: String, seconds: Int) {
        let parsed = ServiceTime.parse(text)
        #expect(parsed == ServiceTime(seconds: Int32(seconds)), "\(text)")
    }

    @Test("invalid times are rejected", arguments: [
        "8:0:00", "08:60:00", "08:00:60", "ab:cd:ef", "", "   ", "-1:00:00", "97:00:00", "100:00:00",
        "08:00", "0800:00", "08-00-00", "08:00:00:00", "8:00:0", "08:0a:00", "08:00:1x", "\t08:00:00",
        "+8:00:00", "08 :00:00", "::00:00", "1000:00:00",
    ])
    func rejectsInvalid(text: String) {
        #expect(ServiceTime.parse(text) == nil, "\(text.debugDescription) should not parse")
    }

    @Test("parse from bytes equals parse from String")
    func bytesAndString() {
        let bytes: [UInt8] = Array("25:10:00".utf8)
        let fromBytes = bytes.withUnsafeBufferPointer { ServiceTime.parse($0) }
        #expect(fromBytes == ServiceTime.parse("25:10:00"))
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { ServiceTime.parse($0) } == nil)
    }

    @Test("description is HH:MM:SS, hours past 23 kept")
    func description() {
        #expect(ServiceTime(seconds: 18_600).description == "05:10:00")
        #expect(ServiceTime(seconds: 90_600).description == "25:10:00")
        #expect(ServiceTime(seconds: 0).description == "00:00:00")
        #expect(ServiceTime(seconds: 86_399).description == "23:59:59")
        #expect(ServiceTime(seconds: 345_600).description == "96:00:00")
        #expect("\(ServiceTime(seconds: 3_661))" == "01:01:01")
    }

    @Test("description round-trips through parse for every minute of two days")
    func roundTrip() {
        for s in stride(from: 0, to: 48 * 3600, by: 59) {
            let t = ServiceTime(seconds: Int32(s))
            #expect(ServiceTime.parse(t.description) == t)
        }
    }

    @Test("ordering and the unreachable sentinel")
    func ordering() {
        #expect(ServiceTime(seconds: 1) < ServiceTime(seconds: 2))
        #expect(ServiceTime.parse("23:59:59")! < ServiceTime.parse("24:00:00")!)
        #expect(ServiceTime.parse("96:00:00")! < ServiceTime.unreachable)
        #expect(ServiceTime.maxHours == 96)
    }
}
