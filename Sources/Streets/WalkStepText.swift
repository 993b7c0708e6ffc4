import Geo
import TransitModel

extension WalkStep {
    /// The step as a person follows it, with its distance as the rest of the answer prints
    /// distances: "Head north on Via Torino, 120 m", "Turn left onto the footpath, a few
    /// steps".
    public var english: String { text(.en) }

    /// The step with its distance in `language` (the catalogue's `step.*` messages).
    public func text(_ language: Language) -> String {
        Catalogue.text("step.withDistance", language, ["sentence": sentence(language), "distance": Self.distance(meters, language)])
    }

    /// The step without its distance: "Head north on Via Torino", "Turn slightly right onto
    /// Via Dante", "Make a U-turn", "Take the steps", "Cross Corso Buenos Aires", "Cross
    /// Piazza del Duomo", "Continue on the footpath".
    public var sentence: String { sentence(.en) }

    /// The step without its distance, in `language`.
    public func sentence(_ language: Language) -> String {
        func say(_ key: String, _ way: String) -> String { Catalogue.text(key, language, ["way": way]) }
        let way = street ?? kind.unnamed(language)
        switch action {
        case .depart:
            // A square or a crossing is crossed from the start, not walked along.
            let across = kind == .area || kind == .crossing
            guard let heading else { return say(across ? "step.startAcross" : "step.start", way) }
            return Catalogue.text(across ? "step.headAcross" : "step.head", language,
                                  ["way": way, "heading": Catalogue.text("heading.\(heading)", language)])
        case .continueOn: return say("step.continue", way)
        case .left: return say("step.left", way)
        case .right: return say("step.right", way)
        case .slightLeft: return say("step.slightLeft", way)
        case .slightRight: return say("step.slightRight", way)
        case .sharpLeft: return say("step.sharpLeft", way)
        case .sharpRight: return say("step.sharpRight", way)
        case .uTurn: return Catalogue.text("step.uTurn", language)
        case .steps: return Catalogue.text("step.steps", language)
        // An unnamed crossing crosses a road whose name is not known.
        case .cross: return say("step.cross", street ?? StreetKind.road.unnamed(language))
        case .crossArea: return say("step.cross", street ?? StreetKind.area.unnamed(language))
        }
    }

    /// A step's length in words: `Words.distance` (to 10 m), "a few steps" under 10 m
    /// (where "10 m" would say more than is known).
    public static func distance(_ meters: Double, _ language: Language = .en) -> String {
        meters < 10 ? Catalogue.text("words.fewSteps", language) : Words.distance(meters, language)
    }
}

extension StreetKind {
    /// What an unnamed way of this kind is called in a step: "the footpath".
    public var unnamed: String { unnamed(.en) }

    /// `unnamed` in `language`.
    public func unnamed(_ language: Language) -> String { Catalogue.text("way.\(name)", language) }

    /// The kind as the API names it (`walkSteps[].kind`).
    public var name: String {
        switch self {
        case .road: return "road"
        case .service: return "service"
        case .footway: return "footway"
        case .pedestrian: return "pedestrian"
        case .steps: return "steps"
        case .crossing: return "crossing"
        case .area: return "area"
        }
    }
}

extension WalkRoute {
    /// Where `step` starts: its point of `geometry` (an index past either end taken as that
    /// end, so every step has a point), nil only when the geometry is empty.
    public func start(of step: WalkStep) -> Coordinate? {
        geometry.isEmpty ? nil : geometry[min(max(step.pointIndex, 0), geometry.count - 1)]
    }
}
