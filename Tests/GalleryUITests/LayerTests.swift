import Foundation
import XCTest

/// The layers as the sources import them. SwiftPM hands every target the module maps of all the C modules
/// below it, so a target's dependency list alone does not stop `import CGtk` in GalleryUI: these tests do.
/// Inside GtkBindings the compiler does the rest: its C modules are `internal import`s, so no GTK, GDK,
/// cairo or GLib type can appear in its public API.
final class LayerTests: XCTestCase {
    func testTheUIAndTheAppImportNoCModule() throws {
        for target in ["GalleryUI", "GalleryViewerApp"] {
            for (file, imports) in try Self.imports(in: target) {
                XCTAssertEqual(imports.filter { Self.cModules.contains($0.module) }.map(\.line), [],
                               "\(file): \(target) reaches GTK and GLib through the bindings only")
            }
        }
    }

    func testGtkBindingsKeepTheirCModulesInternal() throws {
        for target in ["GtkBindings", "GStreamerBindings", "SQLiteBindings"] {
            let imports = try Self.imports(in: target)
            XCTAssertFalse(imports.isEmpty)
            for (file, imports) in imports {
                for found in imports where Self.cModules.contains(found.module) {
                    XCTAssertTrue(found.isInternal, "\(file): `\(found.line)` would let C types into \(target)' API")
                }
            }
        }
    }

    /// The store's SQLite stays in GalleryCore: the window and the command line ask `FollowStore`.
    func testOnlyTheCoreReachesTheDatabase() throws {
        for target in ["GalleryUI", "GalleryViewerApp"] {
            for (file, imports) in try Self.imports(in: target) {
                XCTAssertFalse(imports.contains { $0.module == "SQLiteBindings" }, "\(file): \(target) goes through FollowStore")
            }
        }
    }

    func testTheCoreSeesNoGtk() throws {
        for (file, imports) in try Self.imports(in: "GalleryCore") {
            XCTAssertFalse(imports.contains { $0.module == "CGtk" || $0.module == "CPortal" }, "\(file): GalleryCore has no widgets")
            XCTAssertFalse(imports.contains { $0.module == "CGStreamer" }, "\(file): GalleryCore plays through GStreamerBindings")
            XCTAssertFalse(imports.contains { $0.module == "CSQLite" }, "\(file): GalleryCore reaches SQLite through SQLiteBindings")
        }
    }

    /// cairo draws the demo server's pictures; below the widgets nothing else may link it, or the sandboxed
    /// decoder helper would load it (and X11, xcb, fontconfig, freetype with it) at every start.
    func testOnlyTheDemoServerDrawsWithCairo() throws {
        for target in ["DecoderBindings", "GObjectBindings", "GalleryCore", "GalleryDecoder", "GalleryViewerApp"] {
            for (file, imports) in try Self.imports(in: target) {
                XCTAssertFalse(imports.contains { $0.module == "CCairo" }, "\(file): \(target) links no cairo of its own")
            }
        }
    }

    /// FoundationEssentials (JSONDecoder, URLComponents) and no more: the whole of Foundation brings ICU and its
    /// data, which doubled the app's size and the work of loading it before `--download` sends its first request.
    func testTheShippedProgramsImportFoundationEssentialsOnly() throws {
        for target in ["GObjectBindings", "DecoderBindings", "GtkBindings", "GStreamerBindings", "SQLiteBindings",
                       "GalleryCore", "GalleryUI", "GalleryViewerApp", "GalleryDemoServer", "GalleryHostileServer",
                       "DemoServerCommand", "GalleryDecoder"] {
            for (file, imports) in try Self.imports(in: target) {
                XCTAssertEqual(imports.filter { ["Foundation", "FoundationInternationalization"].contains($0.module) }.map(\.line), [],
                               "\(file): import FoundationEssentials instead")
            }
        }
    }

    // MARK: Reading the sources

    private struct Import {
        var line: String
        var module: String
        /// `internal`, `fileprivate` or `private import`: nothing of the module shows in the file's public API.
        var isInternal: Bool
    }

    private static var sourcesPath: String {
        let file = #filePath
        let root = file.firstRange(of: "/Tests/GalleryUITests/").map { String(file[..<$0.lowerBound]) } ?? "."
        return root + "/Sources"
    }

    /// The system library modules: the folders of Sources with a module map.
    private static var cModules: Set<String> {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sourcesPath)) ?? []
        return Set(folders.filter { FileManager.default.fileExists(atPath: "\(sourcesPath)/\($0)/module.modulemap") })
    }

    /// Every Swift file under Sources/`target` (sub-folders included) with its import declarations.
    private static func imports(in target: String) throws -> [(file: String, imports: [Import])] {
        XCTAssertEqual(cModules, ["CCairo", "CGLib", "CGStreamer", "CGtk", "CPortal", "CSQLite", "CSoup"], "the C modules the rules are about")
        let folder = sourcesPath + "/" + target
        let files = try XCTUnwrap(FileManager.default.subpaths(atPath: folder), folder)
            .filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertFalse(files.isEmpty, "no Swift files in \(folder)")
        return try files.map { file in
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            return ("\(target)/\(file)", text.split(separator: "\n").compactMap { parse(String($0)) })
        }
    }

    /// `import X`, `@preconcurrency import X`, `internal import X`, `import struct X.Y`…
    private static func parse(_ line: String) -> Import? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        let access = ["public", "package", "internal", "fileprivate", "private"]
        let level = words.first.flatMap { access.contains($0) ? $0 : nil }
        if level != nil { words.removeFirst() }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        let module = String(path.prefix { $0 != "." })
        return Import(line: line.trimmingCharacters(in: .whitespaces), module: module,
                      isInternal: ["internal", "fileprivate", "private"].contains(level ?? "public"))
    }
}
