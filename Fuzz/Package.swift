// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets over the root package's readers (see Scripts/fuzz.sh, which builds this
// with `--sanitize=fuzzer --sanitize=address` in release). Each executable is one file with
// libFuzzer's entry points and no main of its own: libFuzzer brings main. The checks live in
// the root package's FuzzChecks target, so that FuzzChecksTests run them in every test run.
let package = Package(
    name: "transit-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "transit", path: ".."),
    ],
    targets: ["csv", "gtfs", "time", "query", "realtime"].map { name in
        .executableTarget(name: "fuzz-\(name)",
                          dependencies: [.product(name: "TransitLibraries", package: "transit")],
                          path: "Sources/fuzz-\(name)")
    }
)
