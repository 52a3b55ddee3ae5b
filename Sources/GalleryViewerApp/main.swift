#if canImport(Glibc)
import Glibc
#endif
import GalleryCore
import GObjectBindings
import GtkBindings

// When the process began, as near as Swift code can tell: the launch's debug log counts from here.
let mainBegan = MonotonicClock.microseconds
// While the process has one thread: the environment is changed only then.
OpenGLSupport.leaveOffUnlessAsked()
// Before any thread allocates (see WorkerTask.returnLargeBlocksWhenFreed).
WorkerTask.returnLargeBlocksWhenFreed()
// The user's language before any text is made, the command line's messages included.
Translation.setUp(localeDirectory: Installation.localeDirectory)
// Parse first (exits with usage on bad input), then run on the GLib main loop — the main thread's
// only loop; see docs/ARCHITECTURE.md.
let options = Options.parseOrExit()
// --list, --download, --follow, --unfollow, --following, --check, --export-following and --import-following run
// without a window and without the session bus.
// The commands are kept alive by name while they run: their main-loop callbacks hold them weakly.
// Without a window no frame waits for the main thread; the workers' jobs are the command's own.
if options.list || options.download != nil || options.check { WorkerTask.keepWorkersAtNormalPriority() }
let status = MainActor.assumeIsolated {
    // The commands' first request waits for GIO's modules and the certificate store (Soup.NetworkSetup):
    // their loading starts now, on a worker, while the command sets itself up.
    if options.list || options.download != nil || options.check { Soup.NetworkSetup.whenLoaded {} }
    if options.version {
        print("gallery-viewer \(AppVersion.string)\n\(DecoderSandbox().protectionSummary())")
        return Int32(0)
    }
    if options.list { return ListCommand(options: options).run() }
    if options.follow || options.unfollow || options.following { return FollowCommand(options: options).run() }
    if options.check { return CheckCommand(options: options).run() }
    if options.exportFollowing != nil || options.importFollowing != nil { return OpmlCommand(options: options).run() }
    if options.download != nil {
        let command = DownloadCommand(options: options)
        return withExtendedLifetime(command) { command.run() }
    }
    let application = GalleryViewerApplication(started: mainBegan)
    return withExtendedLifetime(application) { application.run(arguments: CommandLine.arguments) }
}
exit(status)
