/// Sorts `keys` ascending and reorders `values` with them, stably (equal keys keep their
/// order): a least-significant-byte-first radix sort that skips the bytes all keys share.
/// Written here rather than `sort(by:)` because the walk graph's build sorts every
/// segment's grid cell and every node's OpenStreetMap id: on Milan (89,511 edges) the
/// stable `sort(by:)` of (key, segment) pairs was a third of the graph's build.
func radixSort(keys: inout [UInt64], values: inout [Int32]) {
    precondition(keys.count == values.count)
    let n = keys.count
    guard n > 1 else { return }
    var differing: UInt64 = 0
    let first = keys[0]
    for k in keys { differing |= k ^ first }
    var keys2 = [UInt64](repeating: 0, count: n), values2 = [Int32](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: 256)
    for byte in 0..<8 where (differing >> (8 * UInt64(byte))) & 0xff != 0 {
        let shift = 8 * UInt64(byte)
        for i in 0..<256 { counts[i] = 0 }
        for k in keys { counts[Int((k >> shift) & 0xff)] += 1 }
        var sum = 0
        for i in 0..<256 { let c = counts[i]; counts[i] = sum; sum += c }
        keys.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                keys2.withUnsafeMutableBufferPointer { k2 in
                    values2.withUnsafeMutableBufferPointer { v2 in
                        counts.withUnsafeMutableBufferPointer { c in
                            for i in 0..<n {
                                let b = Int((k[i] >> shift) & 0xff)
                                let to = c[b]
                                c[b] = to + 1
                                k2[to] = k[i]; v2[to] = v[i]
                            }
                        }
                    }
                }
            }
        }
        swap(&keys, &keys2); swap(&values, &values2)
    }
}

/// An Int64 as a UInt64 of the same order (the sign bit flipped).
@inline(__always) func orderedBits(_ x: Int64) -> UInt64 { UInt64(bitPattern: x) ^ (1 << 63) }
