import TransitModel

/// The generator lives in TransitModel, for the benchmark and the fuzz seeds too; the tests
/// keep reaching it through TransitTesting.
public typealias SeededRandom = TransitModel.SeededRandom
