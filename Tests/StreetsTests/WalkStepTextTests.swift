import Geo
import Streets
import Testing

/// The sentences of a walk's steps: one for every action, each unnamed kind named, and
/// the distance as the rest of the answer prints distances.
@Suite struct WalkStepTextTests {
    static func step(_ a: WalkStep.Action, _ street: String?, _ kind: StreetKind = .road, _ m: Double = 120,
                     heading: String? = nil) -> WalkStep {
        WalkStep(action: a, street: street, kind: kind, meters: m, heading: heading, pointIndex: 0)
    }

    @Test("every action has its sentence")
    func actions() {
        let cases: [(WalkStep, String)] = [
            (Self.step(.depart, "Via Torino", heading: "north"), "Head north on Via Torino, 120 m"),
            (Self.step(.depart, "Via Torino"), "Start on Via Torino, 120 m"),
            (Self.step(.depart, "Piazza del Duomo", .area, heading: "south-east"), "Head south-east across Piazza del Duomo, 120 m"),
            (Self.step(.continueOn, "Via Torino"), "Continue on Via Torino, 120 m"),
            (Self.step(.left, "Via Torino"), "Turn left onto Via Torino, 120 m"),
            (Self.step(.right, "Via Dante"), "Turn right onto Via Dante, 120 m"),
            (Self.step(.slightLeft, "Via Dante"), "Turn slightly left onto Via Dante, 120 m"),
            (Self.step(.slightRight, "Via Dante"), "Turn slightly right onto Via Dante, 120 m"),
            (Self.step(.sharpLeft, "Via Dante"), "Turn sharp left onto Via Dante, 120 m"),
            (Self.step(.sharpRight, "Via Dante"), "Turn sharp right onto Via Dante, 120 m"),
            (Self.step(.uTurn, "Via Dante"), "Make a U-turn, 120 m"),
            (Self.step(.steps, nil, .steps, 20), "Take the steps, 20 m"),
            (Self.step(.cross, "Corso Buenos Aires", .crossing, 14), "Cross Corso Buenos Aires, 10 m"),
            (Self.step(.cross, nil, .crossing, 16), "Cross the road, 20 m"),
            (Self.step(.crossArea, "Piazza del Duomo", .area, 180), "Cross Piazza del Duomo, 180 m"),
            (Self.step(.crossArea, nil, .area, 1400), "Cross the square, 1.4 km"),
        ]
        for (step, sentence) in cases { #expect(step.english == sentence) }
        // Every action is in the list above.
        #expect(Set(cases.map(\.0.action)) == Set(WalkStep.Action.allCases))
    }

    @Test("an unnamed way is named by its kind")
    func unnamedKinds() {
        let expected: [StreetKind: String] = [
            .footway: "the footpath", .service: "the service road", .pedestrian: "the pedestrian street",
            .area: "the square", .road: "the road", .crossing: "the crossing", .steps: "the steps",
        ]
        #expect(Set(expected.keys) == Set(StreetKind.allCases))
        for kind in StreetKind.allCases {
            #expect(Self.step(.continueOn, nil, kind, 50).english == "Continue on \(expected[kind]!), 50 m")
            #expect(Self.step(.left, nil, kind, 50).sentence == "Turn left onto \(expected[kind]!)")
        }
        #expect(Set(StreetKind.allCases.map(\.name)).count == StreetKind.allCases.count)
    }

    @Test("distances: to 10 m, kilometres from 1 km, a few steps under 10 m")
    func distances() {
        #expect(WalkStep.distance(0) == "a few steps")
        #expect(WalkStep.distance(9.9) == "a few steps")
        #expect(WalkStep.distance(10) == "10 m")
        #expect(WalkStep.distance(124) == "120 m")
        #expect(WalkStep.distance(125) == "130 m")
        #expect(WalkStep.distance(1240) == "1.2 km")
        #expect(Self.step(.right, "Via Dante", .road, 3).english == "Turn right onto Via Dante, a few steps")
    }

    @Test("a step starts at its point of the walk's geometry")
    func start() {
        let g = [Coordinate(latitude: 45.46, longitude: 9.18), Coordinate(latitude: 45.461, longitude: 9.181)]
        var s = Self.step(.left, "Via Dante")
        s.pointIndex = 1
        let walk = WalkRoute(model: .streets, meters: 130, walkMeters: 130, geometry: g, steps: [s])
        #expect(walk.start(of: s) == g[1])
        s.pointIndex = 2
        #expect(walk.start(of: s) == g[1])
        s.pointIndex = -1
        #expect(walk.start(of: s) == g[0])
        #expect(WalkRoute(model: .beeline, meters: 0, walkMeters: 0, geometry: [], steps: []).start(of: s) == nil)
    }
}
