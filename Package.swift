// swift-tools-version:6.0
// Tern: offline, headless turn-by-turn car navigation for embedded Linux.
// The folder list is the pipeline: see docs/architecture.md.
import PackageDescription

let package = Package(
    name: "Tern",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tern", targets: ["tern"]),
        // the engine for a Swift program: NavigationSession, NavigationListener, RouteService
        .library(name: "TernNavigation", targets: ["Navigation", "Drive"]),
        // every surface that reads outside input, for the fuzzing harnesses in fuzz/ (issue #29)
        .library(name: "TernInputs", targets: ["Platform", "Geo", "GPSInput", "MapData", "Routing", "Guidance", "Search", "Console", "Simulation", "TernApp"]),
    ],
    targets: [
        // MARK: C and C++ (the only foreign code; see each module's shim.h for why it exists)
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "COsmium",
            cxxSettings: [.define("NDEBUG", .when(configuration: .release))],
            linkerSettings: [
                .linkedLibrary("z"), .linkedLibrary("bz2"), .linkedLibrary("expat"), .linkedLibrary("pthread"),
            ]
        ),

        // MARK: core (value types, no clock, no threads; MapData alone does file I/O: it maps the
        // .tmap into memory, writes it (MapWriter) and checks its sections with zlib's CRC-32)
        // what Foundation gave that FoundationEssentials lacks (printf, trimming, paths, locks,
        // threads, local time): the appliance links FoundationEssentials only (issue #27)
        .target(name: "Platform"),
        .target(name: "Geo", dependencies: ["Platform"]),
        .target(name: "JSONLines", dependencies: ["Platform"]),
        .target(name: "MapData", dependencies: ["Geo", "CZlib", "Platform"]),
        // destination search: text folding (shared with the import) and the query engine
        .target(name: "Search", dependencies: ["Geo", "MapData", "Platform"]),
        .target(name: "MapCompiler", dependencies: ["Geo", "MapData", "Guidance", "Search", "COsmium", "Platform"]),
        .target(name: "Routing", dependencies: ["Geo", "MapData", "Platform"]),
        .target(name: "Guidance", dependencies: ["Geo", "JSONLines", "MapData", "Routing", "Platform"]),
        .target(name: "Positioning", dependencies: ["Geo"]),
        .target(name: "MapMatching", dependencies: ["Geo", "MapData", "Positioning"]),
        .target(name: "Navigation", dependencies: ["Geo", "JSONLines", "Platform", "MapData", "Routing", "Guidance", "Positioning", "MapMatching"]),
        // the one drive engine (gate, filter, matchers, dead reckoning, navigator) the app, bench and tests run
        .target(name: "Drive", dependencies: ["Geo", "MapData", "Guidance", "Positioning", "MapMatching", "Navigation"]),

        // MARK: I/O leaves (dedicated threads for blocking C calls)
        .target(name: "GPSInput", dependencies: ["CGPS", "Geo", "Platform"]),
        .target(name: "Speech", dependencies: ["CALSA", "CEspeakNG", "JSONLines", "Platform"]),
        .target(name: "Console", dependencies: ["Geo", "Guidance", "Navigation", "Drive", "Speech", "Platform"]),
        .target(name: "DriveLog", dependencies: ["Geo", "GPSInput", "JSONLines", "Navigation", "Platform"]),
        .target(name: "FeatureCheck", dependencies: ["Geo", "MapData", "MapCompiler", "Routing", "Guidance", "Platform"]),
        .target(name: "Simulation", dependencies: ["Geo", "MapData", "MapCompiler", "Routing", "GPSInput", "Platform"]),

        // MARK: command line and wiring
        .target(
            name: "TernApp",
            dependencies: [
                "Geo", "JSONLines", "MapData", "MapCompiler", "Routing", "Guidance", "Positioning", "MapMatching",
                "Navigation", "Drive", "GPSInput", "Speech", "Console", "DriveLog", "Simulation", "FeatureCheck", "Search",
                "Platform",
            ],
            // the commit `tern --version` names
            plugins: ["BuildInfo"]
        ),
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // Release builds link a position-dependent executable: a PIE's 40 000 relocations are
        // read and applied at every start, dirtying 2 MB of Swift metadata pages (issue #27:
        // -2.3 MB of peak RSS while guiding). The libraries, heap and stack are still
        // randomised; the appliance takes no network input. docs/architecture.md says more.
        .executableTarget(name: "tern", dependencies: ["TernApp"],
                          linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(configuration: .release))]),

        // MARK: tests (mirror Sources/)
        .target(name: "TestSupport", dependencies: ["Geo", "GPSInput", "MapData", "MapCompiler", "Simulation"], path: "Tests/TestSupport"),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "MapData", "TestSupport"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo"]),
        .testTarget(name: "JSONLinesTests", dependencies: ["JSONLines", "TestSupport"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapData", "Geo"]),
        .testTarget(name: "SearchTests", dependencies: ["Search", "MapCompiler", "MapData", "Geo", "TestSupport"]),
        .testTarget(name: "MapCompilerTests", dependencies: ["MapCompiler", "MapData", "TestSupport", "Geo", "Platform"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "MapCompiler", "MapData", "Simulation", "TestSupport"]),
        .testTarget(name: "GuidanceTests", dependencies: ["Guidance", "Routing", "MapCompiler", "Simulation", "TestSupport"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Drive", "Positioning", "MapMatching", "MapData", "Geo", "Guidance", "Routing", "MapCompiler", "Simulation", "GPSInput", "Speech", "TestSupport"]),
        .testTarget(name: "GPSInputTests", dependencies: ["GPSInput", "TestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Guidance", "TestSupport"]),
        .testTarget(name: "ConsoleTests", dependencies: ["Console", "Guidance", "Navigation", "TestSupport"]),
        .testTarget(name: "DriveLogTests", dependencies: ["DriveLog", "Navigation", "JSONLines", "Geo", "TestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "GPSInput", "MapCompiler", "MapData", "Routing", "Geo", "TestSupport"]),
        .testTarget(name: "PositioningTests", dependencies: ["Positioning", "GPSInput", "Geo", "TestSupport"]),
        .testTarget(name: "MapMatchingTests", dependencies: ["MapMatching", "Positioning", "MapCompiler", "MapData", "Routing", "Simulation", "Geo", "TestSupport"]),
        .testTarget(name: "FeatureCheckTests", dependencies: ["FeatureCheck", "TestSupport"]),
        .testTarget(name: "TernAppTests", dependencies: ["TernApp", "TestSupport", "JSONLines", "Speech", "Simulation", "Geo", "MapData",
                                                        "MapCompiler", "Navigation", "Routing", "Search", "Console", "Guidance", "GPSInput"]),
    ],
    cxxLanguageStandard: .cxx17
)
