// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom up (see docs/ARCHITECTURE.md):
//   CGLib, CGtk, CSoup,    system libraries (GLib/GIO/gdk-pixbuf; GTK 3 + GDK + cairo; libsoup 2.4;
//   CPortal, CCairo        libportal 0.6 with its GTK 3 part; cairo alone, for the demo server's pictures)
//   CGStreamer             GStreamer core, appsrc and pbutils (playback of videos and sounds)
//   DecoderBindings        owning references, GError, GCancellable, translations, GBytes, pixbufs and their
//                          decoding, the decoder protocol: GLib and gdk-pixbuf only (all gallery-decoder links)
//   GObjectBindings        DecoderBindings re-exported, signals, main-loop sources, workers, files, libsoup
//   GStreamerBindings      playbin fed by an appsrc, the bus on the main loop, gtksink, the element allowlist;
//                          CGStreamer is an internal import, so no GStreamer type appears in its public API
//   GtkBindings            one small Swift class per GTK widget type we use; CGtk and CGLib are internal imports,
//                          so no C type appears in its public API (tests reach GTK through @_spi(GtkInterop))
//   CSQLite                Debian's SQLite (libsqlite3): the followed galleries' store
//   SQLiteBindings         owning connection and statement types, SQLiteError; CSQLite is an internal import
//   GalleryCore            sources, page loading, image loading and decoding; no widgets
//   GalleryUI              the window, header bar, gallery list, rows and the large view; depends on no C module
//   GalleryViewerApp       GtkApplication, command line, wiring  -> `gallery-viewer`; depends on no C module
//   GalleryDemoServer      SoupServer with the demo gallery and its fault knobs
//   GalleryHostileServer   the demo server's evil twin (bombs, drips, broken feeds): tests, benchmarks and
//                          `gallery-demo-server --hostile` only; `gallery-viewer` never links it
//   DemoServerCommand      -> `gallery-demo-server`
//   DemoImageGenerator     -> `gallery-demo-images` (renders the demo gallery's images, encodes its videos)
//   GalleryBenchmarks      -> `gallery-benchmarks` (Tests/Benchmarks; `make bench`, never shipped)
//   SoupFloor              -> `gallery-soup-floor`: a bare libsoup 2.4 client the download benchmark times
//   DragLinkSource         -> `gallery-test-drag-source`: a window to drag a link from (end-to-end tests only)
//   CDecoderSandbox        sockets with fds attached, memfd seals, posix_spawn, rlimits, seccomp (libseccomp)
//   GalleryDecoder         -> `gallery-decoder`: the sandboxed helper that decodes network images for the app
// SwiftPM still hands every target the module maps of the C modules below it, so `import CGtk` would compile in
// GalleryUI all the same: Tests/GalleryUITests/LayerTests.swift fails on it.
let package = Package(
    name: "GalleryViewer",
    products: [
        .executable(name: "gallery-viewer", targets: ["GalleryViewerApp"]),
        .executable(name: "gallery-demo-server", targets: ["DemoServerCommand"]),
        .executable(name: "gallery-demo-images", targets: ["DemoImageGenerator"]),
        .executable(name: "gallery-benchmarks", targets: ["GalleryBenchmarks"]),
        .executable(name: "gallery-soup-floor", targets: ["SoupFloor"]),
        .executable(name: "gallery-decoder", targets: ["GalleryDecoder"]),
        .executable(name: "gallery-test-drag-source", targets: ["DragLinkSource"]),
        .executable(name: "gallery-test-follow-writer", targets: ["FollowWriter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Latency percentiles for the benchmarks (with coordinated-omission correction).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // GLib, GIO and gdk-pixbuf: all that the layers without widgets may see.
        .systemLibrary(name: "CGLib", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CGtk", pkgConfig: "gtk+-3.0", providers: [.apt(["libgtk-3-dev"])]),
        // cairo for the demo server's pictures only (see its shim.h).
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CSoup", pkgConfig: "libsoup-2.4", providers: [.apt(["libsoup2.4-dev"])]),
        // Debian's SQLite: the followed galleries' store (GalleryCore/Following), through SQLiteBindings only.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The desktop portals through libportal (Set as Background).
        .systemLibrary(name: "CPortal", pkgConfig: "libportal-gtk3", providers: [.apt(["libportal-gtk3-dev"])]),

        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-app-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // Sockets with descriptors attached, posix_spawn, memfd seals, rlimits and the seccomp filter of the
        // decoder helper (libseccomp).
        .target(name: "CDecoderSandbox", linkerSettings: [.linkedLibrary("seccomp")]),

        // What `gallery-decoder` needs and no more (GLib, GObject, gdk-pixbuf): no libsoup, so the helper loads
        // none of the network's libraries (Tests/Install/check.sh). GObjectBindings re-exports it.
        .target(name: "DecoderBindings", dependencies: ["CGLib"]),
        .target(name: "GObjectBindings", dependencies: ["DecoderBindings", "CGLib", "CSoup", "CDecoderSandbox"]),
        // Owning connection, statement and transaction types over SQLite; CSQLite is an internal import.
        .target(name: "SQLiteBindings", dependencies: ["CSQLite"]),
        .target(name: "GStreamerBindings", dependencies: ["GObjectBindings", "CGLib", "CGStreamer"]),
        .target(name: "GtkBindings", dependencies: ["GObjectBindings", "GStreamerBindings", "CGLib", "CGtk", "CPortal"]),
        .target(
            name: "GalleryCore",
            dependencies: [
                "GObjectBindings", "GStreamerBindings", "SQLiteBindings", "CGLib",
                .product(name: "Collections", package: "swift-collections"),
            ]),
        // No C module: GtkBindings shows no GTK type, so the UI is Swift types over the bindings only.
        .target(name: "GalleryUI", dependencies: ["GalleryCore", "GtkBindings", "GObjectBindings", "GStreamerBindings"]),
        .target(
            name: "GalleryDemoServer",
            dependencies: ["GObjectBindings", "CGLib", "CCairo", .product(name: "Collections", package: "swift-collections")]),
        // Never a dependency of GalleryViewerApp: the installed app carries no decompression bombs
        // (Tests/Install/check.sh looks for its symbols in the installed binary).
        .target(name: "GalleryHostileServer", dependencies: ["GalleryDemoServer", "GObjectBindings"]),
        .executableTarget(
            name: "GalleryViewerApp",
            dependencies: [
                "GalleryUI", "GalleryCore", "GalleryDemoServer", "GtkBindings", "GObjectBindings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // -> `gallery-decoder`: decodes the network's images for the app, in a process of its own (no GTK).
        .executableTarget(name: "GalleryDecoder", dependencies: ["DecoderBindings", "CDecoderSandbox", "CGLib"]),
        .executableTarget(
            name: "DemoServerCommand",
            dependencies: [
                "GalleryDemoServer", "GalleryHostileServer", "GObjectBindings", "CGLib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "DemoImageGenerator",
            dependencies: [
                "GalleryDemoServer", "GStreamerBindings", "CGLib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // A plain executable, not a test target: `make bench` builds it in release mode, and it must not import
        // XCTest (plain `swift build` builds it too). It drives the GLib main loop itself.
        .executableTarget(
            name: "GalleryBenchmarks",
            dependencies: [
                "GalleryUI", "GalleryCore", "GtkBindings", "GObjectBindings", "GStreamerBindings", "GalleryDemoServer",
                "GalleryHostileServer", "CGLib", "CGtk", "CSoup", "CGStreamer",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Tests/Benchmarks",
            exclude: ["run.sh"]),
        // libsoup and nothing of ours: what any libsoup 2.4 client costs before its first answer (`make bench`).
        .executableTarget(name: "SoupFloor", dependencies: ["CSoup"], path: "Tests/SoupFloor"),
        // Another process's window to drag a profile link from onto the app's (Tests/EndToEnd/habits.sh): a real X
        // drag and drop, which no test inside one process makes. Never released or installed (`make release` and
        // `make install` name their products).
        .executableTarget(name: "DragLinkSource", dependencies: ["GtkBindings", "GObjectBindings", "CGLib", "CGtk"],
                          path: "Tests/DragLinkSource"),

        // Follows galleries in a loop, printing a line as each commit is acknowledged, until killed: the kill -9
        // test's child (Tests/GalleryCoreTests/FollowStoreCrashTests.swift). Never released or installed.
        .executableTarget(name: "FollowWriter", dependencies: ["GalleryCore", "GObjectBindings"],
                          path: "Tests/FollowWriter"),

        .target(name: "TestSupport", dependencies: ["GObjectBindings", "GStreamerBindings", "GalleryCore", "GalleryDemoServer", "CGLib"],
                path: "Tests/TestSupport"),
        // GTK only for a GInitiallyUnowned that needs no display (GtkAdjustment), in the ownership tests.
        .testTarget(name: "GObjectBindingsTests", dependencies: ["GObjectBindings", "TestSupport", "CGLib", "CGtk"]),
        .testTarget(name: "GalleryCoreTests",
                    dependencies: ["GalleryCore", "GalleryDemoServer", "GalleryHostileServer", "GObjectBindings", "TestSupport",
                                   "SQLiteBindings", "CGLib"]),
        .testTarget(name: "GalleryDemoServerTests",
                    dependencies: ["GalleryDemoServer", "GObjectBindings", "TestSupport", "CGLib"]),
        .testTarget(name: "GalleryUITests",
                    dependencies: ["GalleryUI", "GalleryCore", "GalleryDemoServer", "GalleryHostileServer", "GtkBindings",
                                   "GObjectBindings", "TestSupport", "CGLib", "CGtk"]),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz` (Tests/Fuzz/run.sh): libFuzzer targets, one per parser the network feeds. They exist only with
// GALLERY_FUZZ=1 and are built with -sanitize=fuzzer,address in a scratch directory of their own, so neither
// `swift build` nor `make test` ever builds them. Each main.swift hands its input callback to libFuzzer's
// LLVMFuzzerRunDriver (declared by CLibFuzzer), since SwiftPM gives every executable a main of its own.
if Context.environment["GALLERY_FUZZ"] == "1" {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["GalleryCore", "CLibFuzzer"], path: "Tests/Fuzz/FuzzSupport"),
    ]
    for name in ["FuzzMediaRSS", "FuzzMastodonJSON", "FuzzLinkHeader", "FuzzCommonsJSON", "FuzzImageHeader",
                 "FuzzBlueskyJSON", "FuzzMisskeyJSON", "FuzzProfileLink", "FuzzDecoderProtocol"] {
        package.targets.append(.executableTarget(name: name, dependencies: ["GalleryCore", "GObjectBindings", "FuzzSupport"],
                                                 path: "Tests/Fuzz/\(name)"))
    }
}
