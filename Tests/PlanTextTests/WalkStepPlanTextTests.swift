import Foundation
import GTFS
import Geo
import PlanJSON
import Planner
@testable import PlanText
import Streets
import Testing
import TransitModel
import TransitTesting

/// A walk along streets in the terminal's text and on the SVG map: its turns lettered under
/// its step (still one step), its path drawn with the streets' names along it.
@Suite struct WalkStepPlanTextTests {
    /// Oakland downtown to the Mission (bart-2018), option 1: the first walk made a street
    /// walk by hand (three steps), the last a beeline.
    static func answer() throws -> (plain: PlanAnswer, walked: PlanAnswer) {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
        let planner = try PlannerAssembly.assemble(snapshot).planner
        let query = PlanQuery(from: .coordinate(Coordinate(latitude: 37.8044, longitude: -122.2712)),
                              to: .coordinate(Coordinate(latitude: 37.7700, longitude: -122.4180)),
                              time: .local(year: 2018, month: 6, day: 5, hour: 8, minute: 30, second: 0))
        guard case .itineraries(let plain) = planner.answer(query) else { throw Failure() }
        var walked = plain
        var legs = walked.options[0].itinerary.legs
        let first = try #require(legs.firstIndex { $0.mode == .walk }), last = try #require(legs.lastIndex { $0.mode == .walk })
        try #require(first != last)
        legs[first].walk = streetWalk(legs[first].from.coordinate, legs[first].to.coordinate)
        legs[first].geometry = legs[first].walk!.geometry
        legs[last].walk = WalkRoute(model: .beeline, meters: legs[last].distanceMeters, walkMeters: legs[last].distanceMeters,
                                    geometry: legs[last].geometry, steps: [])
        walked.options[0].itinerary.legs = legs
        return (plain, walked)
    }

    struct Failure: Error {}

    static func streetWalk(_ a: Coordinate, _ b: Coordinate, names: [String?] = ["14th Street", "Frank H. Ogawa Plaza", nil]) -> WalkRoute {
        let corner = Coordinate(latitude: a.latitude, longitude: b.longitude)
        let plaza = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: b.longitude)
        let path = Coordinate(latitude: b.latitude + 0.00004, longitude: b.longitude)
        let g = [a, corner, plaza, path, b]
        func m(_ i: Int) -> Double { Geodesic.distance(g[i], g[i + 1]) }
        let steps = [
            WalkStep(action: .depart, street: names[0], kind: .road, meters: m(0), heading: "east", pointIndex: 0),
            WalkStep(action: .crossArea, street: names[1], kind: .area, meters: m(1), pointIndex: 1),
            WalkStep(action: .slightRight, street: names[2], kind: .footway, meters: m(2) + m(3), pointIndex: 2),
        ]
        let meters = (0..<4).map(m).reduce(0, +)
        return WalkRoute(model: .streets, meters: meters, walkMeters: meters, geometry: g, steps: steps)
    }

    @Test("a street walk's turns are lettered under its step; the steps and the table are unchanged")
    func subSteps() throws {
        let (plain, walked) = try Self.answer()
        let before = PlanAnswerText.render(AnswerDocument(plain), from: "A", to: "B", option: 0)
        let doc = AnswerDocument(walked)
        let after = PlanAnswerText.render(doc, from: "A", to: "B", option: 0)
        let lines = after.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let walk = walked.options[0].itinerary.legs.first { $0.walk?.model == .streets }!.walk!
        // The walk's step, then its three turns, lettered and indented under its sentence.
        let at = try #require(lines.firstIndex { $0.hasPrefix("  1. ") && $0.contains("Walk ") })
        let column = lines[at].range(of: "Walk ")!.lowerBound.utf16Offset(in: lines[at])
        let indent = String(repeating: " ", count: column)
        #expect(Array(lines[(at + 1)...(at + 3)]) == zip(["a", "b", "c"], walk.steps).map { "\(indent)\($0). \($1.english)" })
        #expect(lines[at + 1].contains("Head east on 14th Street, ") && lines[at + 3].contains("Turn slightly right onto the footpath, "))
        #expect(lines[at + 4].hasPrefix("  2. "))
        // Take the sub-steps away and the text is today's: same table, same numbered steps
        // (the beeline walk prints nothing new).
        let without = lines.filter { !$0.hasPrefix(indent) || $0.dropFirst(column).first == " " }
        #expect(without.joined(separator: "\n") == before)
        #expect(lines.count == before.split(separator: "\n", omittingEmptySubsequences: false).count + 3)
        #expect(PlanAnswerText.steps(doc, option: 0) == PlanAnswerText.steps(AnswerDocument(plain), option: 0))
    }

    @Test("sub-steps are lettered a … z, then aa, ab …")
    func letters() {
        let lettered = (0..<30).map { PlanAnswerText.letters($0) }
        #expect(lettered.prefix(3) == ["a", "b", "c"] && lettered[25] == "z" && lettered[26] == "aa" && lettered[29] == "ad")
        #expect(PlanAnswerText.letters(26 * 27) == "aaa")
    }

    @Test("a long turn wraps under its words")
    func wrapped() {
        let line = "            b. Turn slightly right onto Via Privata Giovanni Battista Piranesi al Parco Nord, 120 m"
        let lines = TextWrap.wrap(line, width: 60).split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("            b. Turn "))
        #expect(lines[1].hasPrefix(String(repeating: " ", count: 15)) && lines[1].dropFirst(15).first != " ")
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == line.trimmingCharacters(in: .whitespaces))
    }

    /// The pairs of a path's `d` attribute ("M1.0 2.0 3.0 4.0").
    static func pairs(_ svg: String, leg: Int) throws -> [String] {
        let line = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<path data-leg=\"\(leg)\"") })
        let d = try #require(line.range(of: " d=\"")).upperBound
        let numbers = line[d...].prefix { $0 != "\"" }.dropFirst().split(separator: " ")
        return stride(from: 0, to: numbers.count - 1, by: 2).map { "\(numbers[$0]) \(numbers[$0 + 1])" }
    }

    @Test("the SVG draws the street walk along its path, with the names of its long steps")
    func svg() throws {
        // A walk alone across central Milan, 1.2 km: long enough on the map for its names.
        let a = Coordinate(latitude: 45.4642, longitude: 9.1800), b = Coordinate(latitude: 45.4560, longitude: 9.1920)
        let walk = Self.streetWalk(a, b, names: ["Via Torino", "Piazza del Duomo", nil])
        let map = ItineraryMap(features: [
            .init(geometry: .lineString(walk.geometry), legIndex: 0, role: "leg", mode: .walk, color: ItineraryMap.walkColor),
            .init(geometry: .point(a), legIndex: 0, role: "start", mode: .walk, color: ItineraryMap.startColor),
            .init(geometry: .point(b), legIndex: 0, role: "destination", mode: .walk, color: ItineraryMap.destinationColor),
        ])
        let steps = walk.steps.map { s in
            AnswerDocument.WalkStep(action: s.action.rawValue, street: s.street, kind: s.kind.name, meters: s.meters, heading: s.heading,
                                    instruction: s.english, point: [walk.geometry[s.pointIndex].longitude, walk.geometry[s.pointIndex].latitude])
        }
        let plain = ItinerarySVG.render(map, steps: ["Walk 1.6 km (20 min) to your destination"], network: nil, title: "A → B")
        let svg = ItinerarySVG.render(map, steps: ["Walk 1.6 km (20 min) to your destination"], network: nil, title: "A → B",
                                      streets: [0: steps])
        // Every point of the path is drawn, in order, as without street data.
        #expect(try Self.pairs(svg, leg: 0).count == walk.geometry.count)
        #expect(try Self.pairs(svg, leg: 0) == Self.pairs(plain, leg: 0))
        #expect(svg.contains("<path data-leg=\"0\" data-mode=\"walk\" data-walk=\"streets\""))
        #expect(!plain.contains("data-walk") && !plain.contains("street-names"))
        // The named steps' names along the path; the unnamed one has none.
        let labels = svg.split(separator: "\n").filter { $0.hasPrefix("<text class=\"street-name\"") }
        #expect(labels.count == 2)
        #expect(labels.contains { $0.hasSuffix(">Via Torino</text>") } && labels.contains { $0.hasSuffix(">Piazza del Duomo</text>") })
        // Via Torino runs east-west here (level), the square's crossing north-south (upright).
        #expect(labels.first { $0.contains("Via Torino") }!.contains("rotate(0.0 "))
        #expect(labels.first { $0.contains("Piazza del Duomo") }.map { $0.contains("rotate(90.0 ") || $0.contains("rotate(-90.0 ") } == true)
        // Otherwise the picture is the same.
        var stripped = svg.replacingOccurrences(of: " data-walk=\"streets\"", with: "")
        if let start = stripped.range(of: "<g id=\"street-names\""), let end = stripped.range(of: "</g>\n", range: start.upperBound..<stripped.endIndex) {
            stripped.removeSubrange(start.lowerBound..<end.upperBound)
        }
        #expect(stripped == plain)
    }

    @Test("the answer's map of a street walk draws its path; street walks by leg for the SVG")
    func answerMap() throws {
        let (_, walked) = try Self.answer()
        let doc = AnswerDocument(walked)
        let streets = PlanAnswerText.streetWalks(doc, option: 0)
        let leg = try #require(walked.options[0].itinerary.legs.firstIndex { $0.walk?.model == .streets })
        #expect(Array(streets.keys) == [leg])
        let svg = ItinerarySVG.render(doc.map(of: 0), steps: PlanAnswerText.steps(doc, option: 0), network: nil, title: "T", streets: streets)
        let line = try #require(doc.map(of: 0).features.first { $0.legIndex == leg && $0.role == "leg" })
        #expect(line.geometry == .lineString(walked.options[0].itinerary.legs[leg].walk!.geometry.map {
            Coordinate(latitude: ($0.latitude * 1e6).rounded() / 1e6, longitude: ($0.longitude * 1e6).rounded() / 1e6)
        }))
        // At this scale (15 km across) a 100 m walk's corners may fall on one pixel, but it is no straight line.
        #expect(try Self.pairs(svg, leg: leg).count > 2)
        #expect(svg.contains("<path data-leg=\"\(leg)\" data-mode=\"walk\" data-walk=\"streets\""))
    }
}
