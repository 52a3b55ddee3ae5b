#if canImport(Glibc)
import Glibc
#endif
import GalleryCore

// Parse first (exits with usage on bad input), then run on the GLib main loop — the main thread's
// only loop; see docs/ARCHITECTURE.md.
let options = Options.parseOrExit()
let status = MainActor.assumeIsolated {
    options.list ? ListCommand(options: options).run() : GalleryViewerApplication(options: options).run()
}
exit(status)
