// swift-tools-version:6.1
import PackageDescription

// Kept apart from the main package so its users never resolve the benchmark tooling.
let package = Package(
    name: "DecibarBenchmarks",
    dependencies: [
        .package(name: "Decibar", path: ".."),
        // The repository was renamed from package-benchmark; the old URL still resolves but warns on every run.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Run with `swift package --disable-sandbox benchmark` from this folder.
        .executableTarget(
            name: "LevelProcessing",
            dependencies: [
                .product(name: "DecibarCore", package: "Decibar"),
                .product(name: "DecibarAudio", package: "Decibar"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LevelProcessing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // A display frame of each mode, drawn offscreen: time and allocations (goal: none).
        .executableTarget(
            name: "DisplayFrames",
            dependencies: [
                .product(name: "DecibarApp", package: "Decibar"),
                .product(name: "DecibarAudio", package: "Decibar"),
                .product(name: "DecibarCore", package: "Decibar"),
                .product(name: "DecibarRender", package: "Decibar"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DisplayFrames",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // Frames to run under heaptrack (Scripts/bench-frame-allocations.sh).
        .executableTarget(
            name: "FrameDriver",
            dependencies: [
                .product(name: "DecibarApp", package: "Decibar"),
                .product(name: "DecibarCore", package: "Decibar"),
                .product(name: "DecibarRender", package: "Decibar"),
            ]
        ),

        // The yardstick for LevelProcessor.process: the same arithmetic as a plain C loop.
        .target(name: "CReference"),
        .executableTarget(
            name: "ProcessorVersusC",
            dependencies: ["CReference", .product(name: "DecibarCore", package: "Decibar")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
