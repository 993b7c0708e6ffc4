import Foundation
@testable import PlanJSON
@testable import Planner
import Testing

/// `JSONText` against Foundation's JSONSerialization: the same values back, keys sorted,
/// strings escaped, booleans apart from numbers.
@Suite struct JSONTextTests {
    @Test("escapes, numbers, booleans, nesting; reads back as the same value")
    func roundTrip() throws {
        let value: [String: Any] = [
            "z": "quote \" backslash \\ slash / newline \n tab \t bell \u{07} é 日本",
            "a": [1, 2.5, -0.25, 1e-7, 37.792874, -122.39702, 2.0, 1e20] as [Any],
            "m": ["t": true, "f": false, "zero": 0, "one": 1, "null": NSNull()] as [String: Any],
            "coords": [[-122.4, 37.8], [-122.41, 37.81]],
            "ints": [Int64(9_007_199_254_740_993), Int64(-3)],
            "nan": Double.nan,
        ]
        let text = JSONText.encode(value)
        let back = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(back["z"] as? String == value["z"] as? String)
        let numbers = try #require(back["a"] as? [NSNumber])
        #expect(numbers.map(\.doubleValue) == [1, 2.5, -0.25, 1e-7, 37.792874, -122.39702, 2.0, 1e20])
        #expect(text.contains("\"a\":[1,2.5,-0.25,1e-07,37.792874,-122.39702,2,1e+20]"), "\(text)")
        #expect(text.contains("\"m\":{\"f\":false,\"null\":null,\"one\":1,\"t\":true,\"zero\":0}"), "booleans stay booleans: \(text)")
        #expect(text.contains("\"ints\":[9007199254740993,-3]"))
        #expect(text.contains("\"nan\":null"))
        #expect(text.contains("slash / newline \\n tab \\t bell \\u0007"))
        // Keys in order at every level.
        #expect(text.hasPrefix("{\"a\":") && text.hasSuffix("\"z\":\"quote \\\" backslash \\\\ slash / newline \\n tab \\t bell \\u0007 é 日本\"}"))
    }

    @Test("a plan answer: the same JSON as JSONSerialization gives, value for value")
    func sameAsFoundation() throws {
        let value: [String: Any] = ["itineraries": [["legs": [["mode": "WALK", "distanceMeters": 120.5, "durationSeconds": 95]],
                                                     "labels": ["fastest"], "recommended": true]], "error": NSNull(), "recommended": 0]
        let ours = try JSONSerialization.jsonObject(with: Data(JSONText.encode(value).utf8)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: value)) as? NSDictionary
        #expect(ours == theirs)
    }

    @Test("JSONWriter writes the text JSONText writes for the same values (commas, nesting, escapes, numbers)")
    func writerSameAsText() {
        let text = "quote \" backslash \\ slash / newline \n tab \t bell \u{07} é 日本"
        let value: [String: Any] = [
            "a": [1, 2.5, -0.25, 1e-7, 37.792874, -122.39702, 2.0, 1e20] as [Any],
            "coords": [[-122.4, 37.8], [-122.41, 37.81]],
            "empty": [Any](), "ints": [Int64(9_007_199_254_740_993), Int64(-3)],
            "m": ["f": false, "null": NSNull(), "o": [String: Any](), "one": 1, "t": true, "zero": 0] as [String: Any],
            "nan": Double.nan, "z": text,
        ]
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.beginArray()
        w.int(1); for d in [2.5, -0.25, 1e-7, 37.792874, -122.39702, 2.0, 1e20] { w.double(d) }
        w.endArray()
        w.key("coords"); w.beginArray(); w.pair(-122.4, 37.8); w.pair(-122.41, 37.81); w.endArray()
        w.key("empty"); w.beginArray(); w.endArray()
        w.key("ints"); w.beginArray(); w.int(Int64(9_007_199_254_740_993)); w.int(Int64(-3)); w.endArray()
        w.key("m"); w.beginObject()
        w.field("f", false); w.key("null"); w.null(); w.key("o"); w.beginObject(); w.endObject()
        w.field("one", 1); w.field("t", true); w.field("zero", 0)
        w.endObject()
        w.key("nan"); w.double(.nan)
        w.field("z", text)
        w.endObject()
        #expect(w.text == JSONText.encode(value))
    }

    @Test("ISO times with offsets remembered between transitions = asking the zone every time, across DST changes")
    func zoneOffsetsAcrossTransitions() {
        // Zones with DST (one with a half-hour shift), one that dropped it, one at +5:45;
        // every 7 minutes over a year (transitions inside), ascending, then descending.
        for id in ["Europe/Warsaw", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kathmandu"] {
            let zone = TimeZone(identifier: id)!
            let start: Int64 = 1_546_300_800  // 2019-01-01T00:00Z
            let times = Array(stride(from: start, to: start + 366 * 86_400, by: 420))
            for order in [times, times.reversed()] {
                let offsets = ZoneOffsets(zone)
                var wrong = 0
                for t in order {
                    var ours: [UInt8] = []
                    PlanAnswerJSON.iso(t, offset: offsets.offset(at: t), into: &ours)
                    if String(decoding: ours, as: UTF8.self) != PlanAnswerJSON.iso(t, zone) { wrong += 1 }
                }
                #expect(wrong == 0, "\(id): \(wrong) of \(order.count) times differ")
            }
        }
        #expect(PlanAnswerJSON.iso(1_528_212_840, TimeZone(identifier: "America/Los_Angeles")!) == "2018-06-05T08:34:00-07:00")
    }
}
