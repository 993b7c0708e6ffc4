/// A property an input broke: what was expected and what came out. libFuzzer's entry
/// points (Fuzz/) trap with it, so that the input is kept as a crash; `FuzzChecksTests`
/// record it as a test failure instead.
public struct FuzzFailure: Error, CustomStringConvertible {
    public let target: String
    public let message: String
    public init(_ target: String, _ message: String) { self.target = target; self.message = message }
    public var description: String { "\(target): \(message)" }
}

/// One fuzz target: the check libFuzzer runs on each input, and the inputs it starts from.
///
/// A check takes any bytes and either returns (the code under test answered with a value
/// or its own error, and every property held) or throws a `FuzzFailure`. A crash or a hang
/// inside it is a finding too, as libFuzzer sees it.
public struct FuzzTarget: Sendable {
    /// `fuzz-csv`, …: the executable's name in Fuzz/ and the name Scripts/fuzz.sh takes.
    public let name: String
    public let check: @Sendable (UnsafeRawBufferPointer) throws(FuzzFailure) -> Void
    /// The seed corpus, from samples of real feeds (see `FeedSample`).
    public let seeds: @Sendable ([FeedSample]) -> [[UInt8]]
    /// libFuzzer dictionary entries (tokens the mutations insert whole).
    public let dictionary: @Sendable ([FeedSample]) -> [String]

    public func check(_ bytes: [UInt8]) throws(FuzzFailure) {
        var failure: FuzzFailure?
        bytes.withUnsafeBytes { b in
            do throws(FuzzFailure) { try self.check(b) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public static let csv = FuzzTarget(name: "fuzz-csv", check: CSVCheck.check, seeds: CSVCheck.seeds, dictionary: CSVCheck.dictionary)
    public static let gtfs = FuzzTarget(name: "fuzz-gtfs", check: GTFSCheck.check, seeds: GTFSCheck.seeds, dictionary: GTFSCheck.dictionary)
    public static let time = FuzzTarget(name: "fuzz-time", check: TimeCheck.check, seeds: TimeCheck.seeds, dictionary: TimeCheck.dictionary)
    public static let query = FuzzTarget(name: "fuzz-query", check: QueryCheck.check, seeds: QueryCheck.seeds, dictionary: QueryCheck.dictionary)
    public static let realtime = FuzzTarget(name: "fuzz-realtime", check: RealtimeCheck.check, seeds: RealtimeCheck.seeds, dictionary: RealtimeCheck.dictionary)

    public static let all: [FuzzTarget] = [csv, gtfs, time, query, realtime]
}
