// swift-tools-version:6.0
// Fuzzing harnesses for Tern's input surfaces (issue #29), built with libFuzzer:
//   bash scripts/fuzz.sh [--seconds N] [--runs N] [HARNESS...]
// A package of its own, so that the appliance's build and tests never link libFuzzer.
import PackageDescription

let package = Package(
    name: "TernFuzz",
    dependencies: [.package(name: "Tern", path: "..")],
    targets: [
        .executableTarget(
            name: "tern-fuzz",
            dependencies: [.product(name: "TernInputs", package: "Tern")],
            path: "Sources/TernFuzz",
            // libFuzzer brings main(): the harness is a library of entry points
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
