import Foundation
import Testing

/// The layers, as OpenTripPlanner's raptor module keeps its own: read from the sources'
/// `import` lines and from Package.swift's declared dependencies, so a reach outside a
/// layer fails here (and `--explicit-target-dependency-import-check error` in
/// Scripts/test.sh keeps the two in step).
@Suite struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The modules a target's sources import (`import X`, `@testable import X`, `import struct X.Y`).
    static func imports(of target: String) throws -> Set<String> {
        try imports(in: root.appendingPathComponent("Sources").appendingPathComponent(target))
    }

    static func imports(in folder: URL) throws -> Set<String> {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no Swift files in \(folder.path)")
        var out = Set<String>()
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                while let first = words.first, first.hasPrefix("@") || ["public", "internal", "private", "package"].contains(first) {
                    words.removeFirst()
                }
                guard words.first == "import", words.count >= 2 else { continue }
                let module = words.count >= 3 && ["struct", "class", "enum", "protocol", "func", "typealias", "var", "let"]
                    .contains(words[1]) ? words[2] : words[1]
                out.insert(String(module.split(separator: ".")[0]))
            }
        }
        return out
    }

    /// The target's dependencies as Package.swift declares them (names in its `dependencies: [...]`).
    static func declared(_ target: String) throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let start = manifest.range(of: "name: \"\(target)\", dependencies: [") else { return [] }
        let rest = manifest[start.upperBound...]
        // The list ends at its first "]" (a `.product(name:package:)` holds none), before
        // any `resources: [...]` that follows it.
        let end = rest.firstIndex(of: "]") ?? rest.endIndex
        var names = Set<String>()
        var scanner = rest[..<end]
        while let open = scanner.firstIndex(of: "\"") {
            let after = scanner[scanner.index(after: open)...]
            guard let close = after.firstIndex(of: "\"") else { break }
            names.insert(String(after[..<close]))
            scanner = after[after.index(after: close)...]
        }
        return names
    }

    /// Modules of the toolchain every layer may use.
    static let system: Set<String> = ["Foundation", "Dispatch", "Synchronization"]

    @Test("Raptor imports only Timetable and TransitModel")
    func raptor() throws {
        let reach = try Self.imports(of: "Raptor").union(Self.declared("Raptor")).subtracting(Self.system)
        #expect(reach.isSubset(of: ["Timetable", "TransitModel"]), "Raptor reaches \(reach.sorted())")
    }

    /// The timetable is the routing arrays alone: its builder, names, shapes and the stop
    /// grids with their PROJ projections live beside it (FeedNetwork).
    @Test("Timetable imports only TransitModel")
    func timetable() throws {
        let reach = try Self.imports(of: "Timetable").union(Self.declared("Timetable")).subtracting(Self.system)
        #expect(reach.isSubset(of: ["TransitModel"]), "Timetable reaches \(reach.sorted())")
    }

    /// The faces own their formats: the JSON wire format (PlanJSON), the terminal's text
    /// (PlanText), the HTTP API (Server), the command (TransitCLI). The planner knows none of
    /// them, nor the database or the GTFS reader: it plans on a timetable it is given.
    @Test("Planner imports no face, no store and no feed reader")
    func planner() throws {
        let reach = try Self.imports(of: "Planner").union(Self.declared("Planner"))
        let forbidden: Set<String> = ["PlanJSON", "PlanText", "Server", "TransitCLI", "Coverage", "TransitStore", "GTFS",
                                      "CLibPQ", "Hummingbird", "NIOCore", "NIOPosix", "Logging", "ArgumentParser"]
        #expect(reach.isDisjoint(with: forbidden), "Planner reaches \(reach.intersection(forbidden).sorted())")
        // Realtime: the overlay of GTFS-Realtime updates; GTFSRealtime: their plain values
        // (the alerts on rides). Neither reads files or the network.
        #expect(reach.subtracting(Self.system).isSubset(of: ["Raptor", "Timetable", "FeedNetwork", "TransitModel", "Geo", "Streets",
                                                              "Realtime", "GTFSRealtime"]),
                "Planner reaches \(reach.subtracting(Self.system).sorted())")
    }

    /// The realtime overlay is built from messages already read: no store, no HTTP, no face.
    @Test("Realtime imports only GTFSRealtime, FeedNetwork, Timetable and TransitModel")
    func realtime() throws {
        let reach = try Self.imports(of: "Realtime").union(Self.declared("Realtime")).subtracting(Self.system)
        #expect(reach.isSubset(of: ["GTFSRealtime", "FeedNetwork", "Timetable", "TransitModel"]), "Realtime reaches \(reach.sorted())")
        let reader = try Self.imports(of: "GTFSRealtime").union(Self.declared("GTFSRealtime")).subtracting(Self.system)
        #expect(reader.isSubset(of: ["SwiftProtobuf", "swift-protobuf"]), "GTFSRealtime reaches \(reader.sorted())")
    }

    /// Following a trip sits on the planner: tokens, matching and events, no I/O and no face
    /// (the stream's JSON is PlanJSON's, its HTTP the Server's, the terminal's lines the CLI's).
    @Test("Follow imports the planner's layers and swift-crypto, no face and no store")
    func follow() throws {
        let reach = try Self.imports(of: "Follow").union(Self.declared("Follow")).subtracting(Self.system)
        #expect(reach.isSubset(of: ["Planner", "Realtime", "GTFSRealtime", "FeedNetwork", "Timetable", "Raptor", "TransitModel",
                                    "Crypto", "swift-crypto"]), "Follow reaches \(reach.sorted())")
    }

    /// The walk graph is a leaf: no database, no timetable, no face; it is built from the
    /// tables it is given.
    @Test("Streets imports only Geo and TransitModel")
    func streets() throws {
        let reach = try Self.imports(of: "Streets").union(Self.declared("Streets")).subtracting(Self.system)
        #expect(reach.isSubset(of: ["Geo", "TransitModel"]), "Streets reaches \(reach.sorted())")
    }

    @Test("TransitModel depends on nothing")
    func model() throws {
        let reach = try Self.imports(of: "TransitModel").union(Self.declared("TransitModel")).subtracting(Self.system)
        #expect(reach.isEmpty, "TransitModel reaches \(reach.sorted())")
    }

    /// No type in Planner writes JSON or terminal text: no JSON writer, no serialization,
    /// no ANSI escapes, no printing.
    @Test("Planner writes no JSON and no terminal text")
    func plannerWritesNoFormats() throws {
        let folder = Self.root.appendingPathComponent("Sources/Planner")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for marker in ["JSONSerialization", "JSONEncoder", "JSONDecoder", "JSONWriter", "JSONText", "\\u{1B}[", "print(",
                           "FileHandle.standard"] {
                #expect(!text.contains(marker), "Sources/Planner/\(file) contains \(marker)")
            }
        }
    }

    /// The rules above can fail: they see an import that breaks them.
    @Test("the import reader sees every form of import")
    func readerSeesImports() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("import Foundation\n@testable import Server\nimport struct PlanJSON.JSONWriter\n// import Nothing\nlet x = 1\n".utf8)
            .write(to: dir.appendingPathComponent("A.swift"))
        try Data("@preconcurrency import NIOCore\npublic import Coverage\n".utf8).write(to: dir.appendingPathComponent("B.swift"))
        #expect(try Self.imports(in: dir) == ["Foundation", "Server", "PlanJSON", "NIOCore", "Coverage"])
        #expect(try Self.imports(of: "Raptor").contains("Timetable"))
        #expect(try Self.declared("Raptor") == ["Timetable", "TransitModel"])
        #expect(try Self.declared("Planner").contains("Raptor"))
    }
}
