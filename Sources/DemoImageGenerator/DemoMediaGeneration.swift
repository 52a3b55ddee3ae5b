import CGLib
import Glibc
import GalleryDemoServer
import GStreamerBindings

/// Writes the demo gallery's videos and sound (`DemoMedia`) with GStreamer's own encoders. A file already
/// there is kept (encoding takes seconds) while the pipeline that made it, written beside it as
/// `NAME.pipeline`, is the one asked for now; a changed pipeline makes it again.
enum DemoMediaGeneration {
    /// Returns how many files were written.
    static func run(imagesDirectory: String) throws -> Int {
        let folder = imagesDirectory + "/" + DemoMedia.folder
        g_mkdir_with_parents(folder, 0o755)
        var written = 0
        for media in DemoMedia.allCases {
            let path = folder + "/" + media.fileName
            let recipe = path + ".pipeline"
            if g_file_test(path, G_FILE_TEST_EXISTS) != 0, Self.contents(of: recipe) == media.pipeline { continue }
            // Written beside, then renamed: an interrupted build never leaves half a file under the real name.
            let partial = path + ".part"
            try MediaEncoding.run(media.pipeline, output: partial)
            guard rename(partial, path) == 0, g_file_set_contents(recipe, media.pipeline, -1, nil) != 0 else {
                throw MediaEncoding.Failure(description: "could not rename \(partial) or write \(recipe)")
            }
            written += 1
        }
        return written
    }

    private static func contents(of path: String) -> String? {
        var text: UnsafeMutablePointer<gchar>?
        guard g_file_get_contents(path, &text, nil, nil) != 0, let text else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
