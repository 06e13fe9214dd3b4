// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Decibar",
    products: [
        .executable(name: "decibar", targets: ["decibar"]),
        .library(name: "DecibarCore", targets: ["DecibarCore"]),
        .library(name: "DecibarAudio", targets: ["DecibarAudio"]),
        .library(name: "DecibarRender", targets: ["DecibarRender"]),
        .library(name: "DecibarApp", targets: ["DecibarApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure Swift: levels, smoothing, layouts, formats. No C, no devices, no clocks.
        .target(name: "DecibarCore", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),

        // Thin system-library targets: a module map and a shim header each.
        // FFmpeg and libcurl are the exceptions to plain system-library targets: their headers are used
        // as they are, but the libraries are opened on first use (see Sources/CFFmpeg/include/CFFmpeg.h).
        .target(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        // Opening a C library on first use: its functions through a table of pointers (CLoader.h).
        .target(name: "CLoader", path: "Sources/CLoader"),
        .target(name: "CPulse", dependencies: ["CLoader"], path: "Sources/CPulse"),
        .target(name: "CSndfile", dependencies: ["CLoader"], path: "Sources/CSndfile"),
        .target(name: "CFFTW", dependencies: ["CLoader"], path: "Sources/CFFTW"),
        .target(name: "CEBUR128", dependencies: ["CLoader"], path: "Sources/CEBUR128"),
        .target(name: "CRubberBand", dependencies: ["CLoader"], path: "Sources/CRubberBand"),
        .target(name: "CPNG", dependencies: ["CLoader"], path: "Sources/CPNG"),
        .target(name: "CSixel", dependencies: ["CLoader"], path: "Sources/CSixel"),
        .target(name: "CSystemd", dependencies: ["CLoader"], path: "Sources/CSystemd"),
        .target(name: "CSDL2", dependencies: ["CLoader"], path: "Sources/CSDL2"),
        .target(name: "CSDL2TTF", dependencies: ["CLoader"], path: "Sources/CSDL2TTF"),
        .target(name: "CFontconfig", dependencies: ["CLoader"], path: "Sources/CFontconfig"),
        // libpipewire: its client API is mostly inline functions over SPA's method tables, so a small
        // C API wraps them (PipeWire's headers stay in pipewire.c; see CPipeWire.h).
        .target(name: "CPipeWire", dependencies: ["CLoader"], path: "Sources/CPipeWire",
                cSettings: [.unsafeFlags(["-I/usr/include/pipewire-0.3", "-I/usr/include/spa-0.2"])]),
        .target(name: "CEGL", dependencies: ["CLoader"], path: "Sources/CEGL"),
        .target(name: "CGL", dependencies: ["CLoader"], path: "Sources/CGL"),
        // libwayland-client and the wlr-layer-shell protocol (its scanner output is included by wayland.c).
        .target(name: "CWayland", dependencies: ["CLoader"], path: "Sources/CWayland", exclude: ["protocols"]),
        // libcurl likewise, opened on first use (see Sources/CCurl/include/CCurl.h).
        .target(name: "CCurl", path: "Sources/CCurl"),
        .target(name: "CLiblo", dependencies: ["CLoader"], path: "Sources/CLiblo"),
        // Decibar's Milkdrop plug-in, opened from a path (Sources/MilkdropPlugin is the plug-in: C++
        // over libprojectM, built by Scripts/build-milkdrop.sh, not by SwiftPM, which would make a
        // shared library need the Swift runtime's).
        .target(name: "CMilkdrop", dependencies: ["CLoader"], path: "Sources/CMilkdrop"),
        // MPRIS's sd-bus vtables: tables built by C macros over bit-fields, which Swift cannot write.
        .target(name: "CMpris", dependencies: ["CSystemd"], path: "Sources/CMpris"),

        // Adapters: the only Swift code that imports C.
        .target(name: "DecibarAudio", dependencies: ["DecibarCore", "CPulse", "CPipeWire", "CFFTW", "CFFmpeg", "CEBUR128", "CRubberBand", "CSndfile",
                                                   .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "DecibarRender", dependencies: ["DecibarCore", "CSDL2", "CSDL2TTF", "CFontconfig", "CGL", "CEGL", "CPNG", "CSixel", "CWayland", "CMilkdrop"]),
        .target(name: "DecibarSystem", dependencies: ["DecibarCore", "CSystemd", "CMpris"]),
        .target(name: "DecibarNetwork", dependencies: ["DecibarCore", "CCurl", "CLiblo"]),

        // The application: views, sessions, jobs, writers and pipelines the commands run. No
        // ArgumentParser: commands turn their options into the settings structs it takes.
        .target(name: "DecibarApp", dependencies: [
            "DecibarCore", "DecibarAudio", "DecibarRender", "DecibarSystem", "DecibarNetwork",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),

        // The command line only: one file per command and the option groups.
        .executableTarget(name: "decibar", dependencies: [
            "DecibarApp", "DecibarCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // What the kinds of tests share: material with known beats (Scripts/make-beats.py) and its score, a seeded generator.
        .target(name: "DecibarTestSupport", path: "Tests/DecibarTestSupport"),
        .testTarget(name: "DecibarCoreTests", dependencies: ["DecibarCore", "DecibarTestSupport"]),
        // The application's logic in-process: no display, sound server, session bus or runtime folder.
        .testTarget(name: "DecibarAppTests", dependencies: ["DecibarCore", "DecibarAudio", "DecibarApp", "decibar", "DecibarTestSupport"]),
        .testTarget(name: "DecibarSystemTests", dependencies: ["DecibarCore", "DecibarAudio", "DecibarRender", "DecibarNetwork", "DecibarApp", "decibar",
                                                           "DecibarTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, built only by `make fuzz` (Scripts/fuzz.sh sets DECIBAR_FUZZ=1): their entry point
// is libFuzzer's own main, which an ordinary build does not have.
if Context.environment["DECIBAR_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(name: "FuzzOverviewReader", dependencies: ["DecibarCore"], path: "Fuzz/OverviewReader"),
        .executableTarget(name: "FuzzDecoder", dependencies: ["DecibarAudio"], path: "Fuzz/Decoder"),
        .executableTarget(name: "FuzzControlLine", dependencies: ["DecibarCore"], path: "Fuzz/ControlLine"),
        .executableTarget(name: "FuzzCaptions", dependencies: ["DecibarCore"], path: "Fuzz/Captions"),
        .executableTarget(name: "FuzzMilkPreset", dependencies: ["DecibarCore", "DecibarRender", "CMilkdrop"], path: "Fuzz/MilkPreset"),
    ]
}

// `make tsan`'s self-check (Scripts/sanitized-tests.sh sets DECIBAR_TSAN_CHECK=1).
if Context.environment["DECIBAR_TSAN_CHECK"] == "1" {
    package.targets.append(.executableTarget(name: "TSanSelfCheck", path: "Scripts/sanitizers/TSanSelfCheck"))
}
