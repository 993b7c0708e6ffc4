// swift-tools-version:6.1
import PackageDescription

// Layers (see README "Layout"): model ← GTFS ← store; Geo is a leaf; the CLI sits on top.
// `Scripts/test.sh` builds with `--explicit-target-dependency-import-check error`, so an
// import that is not declared here fails the build.
let package = Package(
    name: "transit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "transit", targets: ["TransitCLI"]),
        .executable(name: "realtime-messages", targets: ["RealtimeMessages"]),
        // For the libFuzzer package in Fuzz/ (a package can only use another's products).
        .library(name: "TransitLibraries", targets: ["FuzzChecks", "GTFS", "TransitModel", "Planner", "PlanText", "Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.30.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CProj", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),

        .target(name: "TransitModel"),
        .target(name: "GTFS", dependencies: [
            "TransitModel",
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .target(name: "Geo", dependencies: ["CProj"]),
        .target(name: "TransitStore", dependencies: ["TransitModel", "GTFS", "Streets", "FeedNetwork", "Timetable", "Geo", "CLibPQ"]),
        // The timetable: the routing arrays the router reads, immutable; nothing else.
        .target(name: "Timetable", dependencies: ["TransitModel"]),
        // The walk graph: OpenStreetMap's walkable ways in flat arrays, snapping, searches,
        // paths and their turn-by-turn steps. A leaf that does no I/O (TransitStore loads it).
        .target(name: "Streets", dependencies: ["Geo", "TransitModel"]),
        // Beside it: the builder (snapshot -> timetable; PROJ for footpaths), the feeds' names,
        // shapes, station children and the stop grids for walks (TransitNetwork).
        .target(name: "FeedNetwork", dependencies: ["Timetable", "TransitModel", "Geo", "Streets"]),
        // GTFS-Realtime messages read from protocol buffers (code generated once from
        // gtfs-realtime.proto, `Scripts/generate-protobuf.sh`) into plain values. No I/O.
        .target(name: "GTFSRealtime", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
                exclude: ["gtfs-realtime.proto"]),
        // The realtime overlay: GTFS-Realtime updates matched to the timetable's trips and
        // applied to a copy of what they change (the static timetable stays as it is).
        .target(name: "Realtime", dependencies: ["GTFSRealtime", "FeedNetwork", "Timetable", "TransitModel"]),
        // Following a trip: the signed, self-contained trip tokens, matching them to a timetable,
        // and what a follower is told as realtime states and the clock move on. No I/O.
        .target(name: "Follow", dependencies: ["Planner", "Realtime", "GTFSRealtime", "FeedNetwork", "Timetable", "Raptor", "TransitModel",
                                          .product(name: "Crypto", package: "swift-crypto")]),
        // The router: RAPTOR over a Timetable. No I/O, no logging, no globals.
        .target(name: "Raptor", dependencies: ["Timetable", "TransitModel"]),
        // The planner: places, times and walks around the router; typed answers. No faces:
        // it writes no JSON and no terminal text.
        .target(name: "Planner", dependencies: ["Raptor", "Timetable", "FeedNetwork", "TransitModel", "Geo", "Streets", "Realtime", "GTFSRealtime"], resources: [
            // The airports with an IATA code (stop search), generated: `Scripts/airports.sh`.
            .copy("Resources/airports-iata.csv"),
        ]),
        // Coverage regions: where each feed serves (GEOS for unions and simplification).
        .target(name: "Coverage", dependencies: ["Timetable", "FeedNetwork", "Raptor", "TransitModel", "Geo", "CGEOS"]),
        // The JSON wire format of plan answers and errors: written by the HTTP API and
        // `transit plan --json`, read back by `transit plan --server`.
        .target(name: "PlanJSON", dependencies: ["Follow", "Streets", "Planner", "Raptor", "Timetable", "FeedNetwork", "TransitModel", "Geo", "Realtime", "GTFSRealtime"]),
        // The terminal's face: plan answers as text, times in words, places by name, the
        // itinerary map as SVG. Used by the CLI (a library so the fuzz checks and tests reach it).
        .target(name: "PlanText", dependencies: ["Streets", "PlanJSON", "Planner", "Coverage", "Timetable", "FeedNetwork", "TransitModel", "Geo"]),
        // The HTTP API: Hummingbird over a LiveTimetable kept in step with the database.
        .target(name: "Server", dependencies: [
            "Planner", "PlanJSON", "Coverage", "TransitStore", "Timetable", "FeedNetwork", "TransitModel", "Geo", "Streets",
            "Realtime", "GTFSRealtime", "Follow",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "DequeModule", package: "swift-collections"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [
            // The OpenAPI document, generated: `swift run transit openapi > Sources/Server/Resources/openapi.json`.
            .copy("Resources/openapi.json"),
            // The trip planner page served at `/`: plain modules, no build step.
            .copy("Resources/page"),
        ]),
        .executableTarget(name: "TransitCLI", dependencies: [
            "TransitModel", "GTFS", "TransitStore", "Timetable", "FeedNetwork", "Raptor", "Planner", "PlanJSON", "PlanText", "Coverage", "Geo", "Server", "Streets",
            "GTFSRealtime", "Realtime", "Follow",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Shared by the tests: fixtures, the reference router, tiny networks built in code
        // (NetworkBuilder) and the compact journey strings (CompactJourney).
        // Seeded GTFS-Realtime messages for the realtime benchmarks and load tests (a tool beside
        // the tests, not part of the service: it uses the tests' generator).
        .executableTarget(name: "RealtimeMessages", dependencies: [
            "GTFS", "GTFSRealtime", "TransitModel", "TransitTesting",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "TransitTesting", dependencies: ["GTFS", "TransitStore", "Timetable", "FeedNetwork", "Raptor", "TransitModel", "Geo", "Streets", "GTFSRealtime"]),
        // The fuzz targets' checks and seeds: run by libFuzzer (Fuzz/, Scripts/fuzz.sh) and by FuzzChecksTests.
        .target(name: "FuzzChecks", dependencies: ["GTFS", "TransitModel", "Planner", "PlanText", "Server", "GTFSRealtime"]),

        // The layers' rules, read from the sources and this manifest (no target dependencies).
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "TransitModelTests", dependencies: ["TransitModel"]),
        .testTarget(name: "FollowTests", dependencies: ["Follow", "TransitModel", "Planner", "Realtime", "GTFSRealtime", "GTFS", "FeedNetwork",
                                                       "TransitTesting", "PlanJSON"]),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "TransitModel", "TransitTesting"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "TransitTesting"]),
        .testTarget(name: "StreetsTests", dependencies: ["Streets", "Geo", "TransitModel", "TransitStore", "TransitTesting"]),
        .testTarget(name: "TransitStoreTests", dependencies: ["Streets", "TransitStore", "GTFS", "TransitTesting"]),
        .testTarget(name: "TimetableTests", dependencies: ["Streets", "Timetable", "FeedNetwork", "TransitModel", "TransitStore", "GTFS", "Geo", "TransitTesting"]),
        .testTarget(name: "CoverageTests", dependencies: ["Streets", "Coverage", "Timetable", "FeedNetwork", "Planner", "PlanJSON", "PlanText", "TransitModel", "GTFS", "Geo", "TransitTesting"]),
        .testTarget(name: "ServerTests", dependencies: ["Streets", "Server", "Planner", "Raptor", "FeedNetwork", "Geo", "TransitModel", "TransitStore", "TransitTesting", "GTFSRealtime"]),
        .testTarget(name: "FuzzChecksTests", dependencies: ["FuzzChecks", "FeedNetwork", "Geo", "TransitTesting"]),
        // The router's own tests: timetables built in code, RaptorRequest in, journeys out (no planner).
        .testTarget(name: "RaptorTests", dependencies: ["Streets", "Raptor", "Timetable", "FeedNetwork", "TransitModel", "GTFS", "Geo", "TransitTesting"]),
        .testTarget(name: "PlannerTests", dependencies: ["Streets", "Planner", "PlanJSON", "Raptor", "Timetable", "FeedNetwork", "TransitModel", "GTFS", "Geo", "TransitTesting", "Realtime", "GTFSRealtime"]),
        .testTarget(name: "GTFSRealtimeTests", dependencies: ["GTFSRealtime", "TransitTesting"]),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime", "GTFSRealtime", "FeedNetwork", "Timetable", "Raptor", "TransitModel", "GTFS", "TransitTesting"]),
        .testTarget(name: "PlanJSONTests", dependencies: ["Streets", "PlanJSON", "Planner", "Timetable", "FeedNetwork", "TransitModel", "GTFS", "Geo", "TransitTesting"]),
        .testTarget(name: "PlanTextTests", dependencies: ["Streets", "PlanText", "PlanJSON", "Planner", "Timetable", "FeedNetwork", "TransitModel", "GTFS", "Geo", "TransitTesting"]),
    ]
)
