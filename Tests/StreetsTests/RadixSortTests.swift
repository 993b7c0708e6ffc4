@testable import Streets
import Testing

@Suite struct RadixSortTests {
    /// Against the standard library's stable order by key, on keys that share bytes
    /// (skipped passes), negative Int64s (grid rows south of the equator) and repeats.
    @Test func sameOrderAsAStableSortByKey() {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 17, 1000, 50_000] {
            let raw: [Int64] = (0..<size).map { _ in
                let row = Int64.random(in: -300...300, using: &rng), column = Int64.random(in: -5000...5000, using: &rng)
                return row << 32 + column
            }
            var keys = raw.map(orderedBits), values = Array(Int32(0)..<Int32(size))
            radixSort(keys: &keys, values: &values)
            let expected = Array(Int32(0)..<Int32(size)).sorted { (a: Int32, b: Int32) -> Bool in
                let ka = raw[Int(a)], kb = raw[Int(b)]
                return ka != kb ? ka < kb : a < b
            }
            #expect(values == expected, "size \(size)")
            #expect(keys == expected.map { orderedBits(raw[Int($0)]) })
        }
    }
}
