import Testing
import TransitTesting
import GTFS

@Suite("IdTable and UInt64Set")
struct IdTableTests {
    /// Random ids: mostly short strings over a small alphabet (many duplicates), some long
    /// random bytes (including bytes that are not UTF-8), some empty.
    private static func randomKeys(_ n: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("abcdefghijklmnop".utf8)
        return (0..<n).map { _ in
            switch Int.random(in: 0..<100, using: &rng) {
            case 0: return []
            case 1..<70: return (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            default: return (0..<Int.random(in: 1...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
        }
    }

    @Test("insert/find 100k random byte strings against a Dictionary", arguments: [1, 1024])
    func againstDictionary(initialCapacity: Int) {
        let keys = Self.randomKeys(100_000, seed: 0xC0FFEE)
        var table = IdTable(capacity: initialCapacity)
        var oracle: [[UInt8]: Int32] = [:]
        var order: [[UInt8]] = []
        var mismatches = 0
        for key in keys {
            let result = key.withUnsafeBufferPointer { table.insert($0) }
            if let existing = oracle[key] {
                if result.inserted || result.index != existing { mismatches += 1 }
            } else {
                let expected = Int32(order.count)
                oracle[key] = expected
                order.append(key)
                if !result.inserted || result.index != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(table.count == oracle.count)
        #expect(oracle.count > 20_000 && oracle.count < 90_000, "the keys should hold many duplicates (\(oracle.count) distinct)")
        // Every key is found at its insertion index; key(_:) returns its bytes.
        var findMismatches = 0, keyMismatches = 0
        for (index, key) in order.enumerated() {
            if key.withUnsafeBufferPointer({ table.find($0) }) != Int32(index) { findMismatches += 1 }
            if table.key(Int32(index)) != String(decoding: key, as: UTF8.self) { keyMismatches += 1 }
            if String(validating: key, as: UTF8.self) != nil, Array(table.key(Int32(index)).utf8) != key { keyMismatches += 1 }
            if let s = String(validating: key, as: UTF8.self), table.find(s) != Int32(index) { findMismatches += 1 }
        }
        #expect(findMismatches == 0)
        #expect(keyMismatches == 0)
        // Keys never inserted are not found.
        var rng = SeededRandom(seed: 99)
        var absentMisses = 0
        for _ in 0..<20_000 {
            let key = (0..<Int.random(in: 5...9, using: &rng)).map { _ in UInt8.random(in: 0x71...0x7A, using: &rng) }
            if oracle[key] == nil, key.withUnsafeBufferPointer({ table.find($0) }) != nil { absentMisses += 1 }
        }
        #expect(absentMisses == 0)
    }

    @Test("String API: dense indexes, duplicates detected, empty id")
    func strings() {
        var table = IdTable(capacity: 2)
        #expect(table.count == 0)
        #expect(table.find("") == nil)
        #expect(table.find("a") == nil)
        #expect(table.insert("a") == (0, true))
        #expect(table.insert("") == (1, true))
        #expect(table.insert("b") == (2, true))
        #expect(table.insert("a") == (0, false))
        #expect(table.insert("") == (1, false))
        #expect(table.find("") == 1)
        #expect(table.key(1) == "")
        #expect(table.insert("Žvėrynas") == (3, true))
        #expect(table.key(3) == "Žvėrynas")
        #expect(table.find("Žvėrynas") == 3)
        #expect(table.find("ab") == nil)
        #expect(table.count == 4)
        // Prefixes and extensions of a key are distinct keys.
        #expect(table.insert("aa").inserted)
        #expect(table.insert("a\u{0}").inserted)
        #expect(table.count == 6)
        // A copy is independent (value semantics).
        var copy = table
        copy.insert("only in copy")
        #expect(table.find("only in copy") == nil)
        #expect(copy.find("only in copy") == 6)
    }

    @Test("an empty id works in an otherwise empty table")
    func emptyIdFirst() {
        var table = IdTable()
        #expect(table.insert("") == (0, true))
        #expect(table.find("") == 0)
        #expect(table.key(0) == "")
        #expect(table.find("x") == nil)
    }

    @Test("an empty id is the same id whether or not its buffer has a base address")
    func emptyBufferWithoutBaseAddress() {
        let noBase = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let empty: [UInt8] = []
        var table = IdTable()
        #expect(table.insert("x") == (0, true))
        #expect(table.insert("") == (1, true))
        #expect(empty.withUnsafeBufferPointer { table.find($0) } == 1)
        // The empty id is the same whether its buffer has a base address or not.
        #expect(table.find(noBase) == 1)
        #expect(table.insert(noBase) == (1, false))
        #expect(table.count == 2)
    }

    @Test("UInt64Set against Set<UInt64>, including 0 and UInt64.max - 1", arguments: [1, 1024])
    func uint64Set(initialCapacity: Int) {
        var set = UInt64Set(capacity: initialCapacity)
        var oracle = Set<UInt64>()
        var rng = SeededRandom(seed: 12345)
        var special: [UInt64] = [0, 1, UInt64.max - 1, UInt64.max - 2, 1 << 63, 1 << 62, 3 << 62, UInt64(UInt32.max)]
        special += special  // each twice
        var keys: [UInt64] = special
        for _ in 0..<100_000 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: keys.append(UInt64.random(in: 0..<5_000, using: &rng))              // small, many repeats
            case 1: keys.append(UInt64.random(in: 0..<(UInt64.max - 1), using: &rng))   // anywhere but .max
            case 2: keys.append(UInt64.random(in: 0..<300, using: &rng) << 32 | UInt64.random(in: 0..<40, using: &rng))
            default: keys.append(keys.randomElement(using: &rng)!)                      // a repeat
            }
        }
        keys += special
        var mismatches = 0
        for key in keys where set.insert(key) != oracle.insert(key).inserted { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(set.count == oracle.count)
        // Re-inserting everything changes nothing.
        for key in oracle where set.insert(key) { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(set.count == oracle.count)
    }

    @Test("UInt64Set: UInt64.max")
    func uint64SetMax() {
        var set = UInt64Set()
        let first = set.insert(UInt64.max - 1), again = set.insert(UInt64.max - 1)
        #expect(first && !again)
        let firstMax = set.insert(UInt64.max)
        #expect(firstMax)
        // Slots hold key + 1 with 0 for "empty": UInt64.max is kept aside and counted once.
        let secondMax = set.insert(UInt64.max)
        #expect(!secondMax)
        #expect(set.count == 2)
    }
}
