/// Interns byte-string ids (`stop_id`, `trip_id`, …) into dense `Int32` indexes.
///
/// Hand-written open addressing over one byte arena instead of `[String: Int32]`: the
/// importer looks up two ids per stop time, and building a `String` per lookup costs more
/// than the rest of the row's validation. Indexes are dense, in insertion order.
public struct IdTable: Sendable {
    private var arena: [UInt8] = []
    /// Id index -> start of its bytes in `arena`; one extra entry marks the end.
    private var starts: [Int32] = [0]
    /// Hash slot -> id index, or -1 when empty. Always a power of two in size.
    private var slots: [Int32]
    private var hashes: [UInt32] = []

    public init(capacity: Int = 1024) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = Array(repeating: -1, count: n)
        hashes.reserveCapacity(capacity)
    }

    /// Number of distinct ids.
    public var count: Int { starts.count - 1 }

    /// Eight bytes a step (ids are mostly 5–30 bytes), then a final mix.
    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        var tail: UInt64 = 0
        if let base = key.baseAddress {  // an empty key may have none: it hashes like ""
            let raw = UnsafeRawPointer(base)
            var i = 0
            while i + 8 <= key.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 29
                i += 8
            }
            var shift: UInt64 = 0
            while i < key.count { tail |= UInt64(base[i]) << shift; shift += 8; i += 1 }
        }
        h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 32
        return UInt32(truncatingIfNeeded: h)
    }

    @inline(__always)
    private func equals(_ index: Int32, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = Int(starts[Int(index)]), e = Int(starts[Int(index) + 1])
        guard e - s == key.count else { return false }
        return arena.withUnsafeBufferPointer { a in
            key.count == 0 || memcmpBytes(a.baseAddress! + s, key.baseAddress!, key.count)
        }
    }

    /// The index of `key`, or nil.
    public func find(_ key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let h = IdTable.hash(key)
        let mask = slots.count - 1
        var slot = Int(h) & mask
        while true {
            let idx = slots[slot]
            if idx < 0 { return nil }
            if hashes[Int(idx)] == h && equals(idx, key) { return idx }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `key` if new. Returns its index and whether it was inserted.
    @discardableResult
    public mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> (index: Int32, inserted: Bool) {
        if (count + 1) * 2 > slots.count { grow() }
        let h = IdTable.hash(key)
        let mask = slots.count - 1
        var slot = Int(h) & mask
        while true {
            let idx = slots[slot]
            if idx < 0 { break }
            if hashes[Int(idx)] == h && equals(idx, key) { return (idx, false) }
            slot = (slot + 1) & mask
        }
        let newIndex = Int32(count)
        arena.append(contentsOf: key)
        starts.append(Int32(arena.count))
        hashes.append(h)
        slots[slot] = newIndex
        return (newIndex, true)
    }

    public func find(_ key: String) -> Int32? {
        var k = key
        return k.withUTF8 { find($0) }
    }

    @discardableResult
    public mutating func insert(_ key: String) -> (index: Int32, inserted: Bool) {
        var k = key
        return k.withUTF8 { insert($0) }
    }

    /// The id at `index`.
    public func key(_ index: Int32) -> String {
        let s = Int(starts[Int(index)]), e = Int(starts[Int(index) + 1])
        return String(decoding: arena[s..<e], as: UTF8.self)
    }

    private mutating func grow() {
        var newSlots = Array(repeating: Int32(-1), count: slots.count * 2)
        let mask = newSlots.count - 1
        for i in 0..<count {
            var slot = Int(hashes[i]) & mask
            while newSlots[slot] >= 0 { slot = (slot + 1) & mask }
            newSlots[slot] = Int32(i)
        }
        slots = newSlots
    }
}

@inline(__always)
func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n { if a[i] != b[i] { return false }; i += 1 }
    return true
}

/// A set of 64-bit keys (open addressing), for composite keys such as
/// (trip index, stop_sequence): 8 bytes a key at most half full.
public struct UInt64Set: Sendable {
    private var slots: [UInt64]
    /// 64 - log2(slots.count): Fibonacci hashing takes the product's top bits, which
    /// depend on every bit of the key (the low bits of (trip << 32 | seq) would not).
    private var shift: UInt64
    public private(set) var count = 0

    public init(capacity: Int = 1024) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = Array(repeating: 0, count: n)
        shift = UInt64(64 - n.trailingZeroBitCount)
    }

    /// Slots hold `key + 1` (0 marks an empty slot), so `UInt64.max` is kept aside.
    private var hasMax = false

    /// Inserts `key`; false when it was already there.
    @inline(__always)
    public mutating func insert(_ key: UInt64) -> Bool {
        if key == .max {
            if hasMax { return false }
            hasMax = true
            count += 1
            return true
        }
        if (count + 1) * 2 > slots.count { grow() }
        let stored = key &+ 1  // 0 marks an empty slot
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
        while true {
            let v = slots[slot]
            if v == 0 { slots[slot] = stored; count += 1; return true }
            if v == stored { return false }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        count = hasMax ? 1 : 0
        for v in old where v != 0 { _ = insert(v &- 1) }
    }
}
