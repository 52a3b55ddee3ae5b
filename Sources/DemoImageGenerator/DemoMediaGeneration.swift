import CGLib
import Glibc
import GalleryDemoServer
import GStreamerBindings

/// Writes the demo gallery's videos and sound (`DemoMedia`) with GStreamer's own encoders. A file already
/// there is kept (encoding takes seconds); remove the media folder to make them again.
enum DemoMediaGeneration {
    /// Returns how many files were written.
    static func run(imagesDirectory: String) throws -> Int {
        let folder = imagesDirectory + "/" + DemoMedia.folder
        g_mkdir_with_parents(folder, 0o755)
        var written = 0
        for media in DemoMedia.allCases {
            let path = folder + "/" + media.fileName
            if g_file_test(path, G_FILE_TEST_EXISTS) != 0 { continue }
            // Written beside, then renamed: an interrupted build never leaves half a file under the real name.
            let partial = path + ".part"
            try MediaEncoding.run(media.pipeline, output: partial)
            guard rename(partial, path) == 0 else { throw MediaEncoding.Failure(description: "could not rename \(partial)") }
            written += 1
        }
        return written
    }
}
