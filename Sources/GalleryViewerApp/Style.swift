import GObjectBindings
import GtkBindings

/// The app's CSS (resources/style.css), found next to the installed binary or in the source tree.
@MainActor
enum Style {
    static func install() {
        // A few lines read once at start-up; not worth an async read.
        guard let path = locate() else {
            return Console.error("style.css not found; using the theme's defaults")
        }
        guard let css = File.smallText(atPath: path) else { return }
        do {
            try CssProvider.install(css)
        } catch {
            Console.error("\(path): \(error.message)")
        }
    }

    /// `<prefix>/share/gallery-viewer/style.css` for an installed app, else the source tree's resources/.
    private static func locate() -> String? {
        var candidates: [String] = []
        if let share = Installation.shareDirectory { candidates.append(share + "/gallery-viewer/style.css") }
        let sourceFile = #filePath
        if let range = sourceFile.firstRange(of: "/Sources/GalleryViewerApp/") {
            candidates.append(String(sourceFile[..<range.lowerBound]) + "/resources/style.css")
        }
        return candidates.first { File.exists(atPath: $0) }
    }
}
