@testable import Raptor
import Testing

/// The short list of values kept by key that `DerivedTables` and `DayRoutes.hopSeconds`
/// share: a value is made once while it is kept, the least recently used goes first, and
/// a router's warm start (`adopt`) keeps its own entries first.
@Suite struct RecentlyUsedTests {
    @Test("a kept value is not made again; beyond the capacity the least recently used goes")
    func keepsAndEvicts() {
        let list = RecentlyUsed<Int, String>(capacity: 2)
        var made: [Int] = []
        func get(_ k: Int) -> String { list.get(k) { made.append(k); return "v\(k)" } }
        #expect(get(1) == "v1")
        #expect(get(2) == "v2")
        #expect(get(1) == "v1")  // kept: not made again, and now the most recent
        #expect(made == [1, 2])
        #expect(get(3) == "v3")  // 2 was the least recently used
        #expect(list.all().map(\.key) == [3, 1])
        #expect(get(2) == "v2")
        #expect(made == [1, 2, 3, 2])
        #expect(list.all().map(\.key) == [2, 3])
    }

    @Test("append keeps the entries already kept first and leaves out their keys")
    func append() {
        let list = RecentlyUsed<Int, String>(capacity: 3)
        _ = list.get(1) { "mine" }
        list.append([(1, "theirs"), (2, "b"), (3, "c"), (4, "d")])
        #expect(list.all().map(\.key) == [1, 2, 3])
        #expect(list.get(1) { "new" } == "mine")
    }

    @Test("tables of different key types do not meet; a warm start remakes them")
    func derivedTables() {
        struct A: Hashable, Sendable { let x: Int }
        struct B: Hashable, Sendable { let x: Int }
        let tables = DerivedTables(capacity: 4)
        #expect(tables.get(A(x: 1)) { "a1" } == "a1")
        #expect(tables.get(B(x: 1)) { 7 } == 7)
        #expect(tables.get(A(x: 1)) { "again" } == "a1")
        let next = DerivedTables(capacity: 4)
        next.adopt(from: tables) { key, value in key == AnyHashable(A(x: 1)) ? "remade \(value)" : nil }
        #expect(next.get(A(x: 1)) { "made" } == "remade a1")
        #expect(next.get(B(x: 1)) { 8 } == 8)
    }
}
