#if canImport(Glibc)
import Glibc
#endif
import GObjectBindings
import GalleryCore

/// `gallery-viewer --export-following FILE|-` and `--import-following FILE|-`: the followed galleries as an
/// OPML subscription list (`FollowOpml`), out to a feed reader or in from one, without a window. The network is
/// used only to ask a `/@NAME` feed's server whether it runs Mastodon or Misskey, once per server.
/// Exit status: 0 done, 65 (EX_DATAERR) not a subscription list the app can read, 66 (EX_NOINPUT) the file could
/// not be read, 73 (EX_CANTCREAT) the list could not be written, 74 (EX_IOERR) the store failed.
@MainActor
struct OpmlCommand {
    static let invalidListStatus: Int32 = 65
    static let unreadableStatus: Int32 = 66
    static let cannotWriteStatus: Int32 = 73

    let options: Options

    func run() -> Int32 {
        let store = FollowStore()
        store.onRecovery = { Console.error($0.sentence) }
        if let path = options.exportFollowing { return export(store, to: path) }
        return importList(from: options.importFollowing ?? "-", into: store)
    }

    // MARK: Export

    private func export(_ store: FollowStore, to path: String) -> Int32 {
        let galleries: [FollowedGallery]
        switch waitForAnswer({ store.following(completion: $0) }) {
        case .success(let found): galleries = found
        case .failure(let error):
            Console.error(error.sentence)
            return FollowCommand.storeFailedStatus
        }
        // The links go where the sources' requests go: the override of --endpoint (or the environment) for
        // the source it is for. The embedded demo server is not started: its address would not outlive the run.
        let sources = SourceFactory(overriddenSource: options.source, endpointOverride: options.endpointOverride)
        let document = FollowOpml.export(galleries, endpointOverride: { sources.endpoint(for: $0) })
        guard path != "-" else {
            print(document, terminator: "")
            return 0
        }
        // Written beside the file and renamed over it: an interrupted export leaves the old file whole.
        if let error = waitForAnswer({ File(path: path).replaceContents(Bytes(document), completion: $0) }) {
            Console.error(tr("{path} could not be written: {reason}", ["path": path, "reason": error.message]))
            return Self.cannotWriteStatus
        }
        print(trn("Exported {count} gallery to {path}.", "Exported {count} galleries to {path}.", galleries.count,
                  ["path": path]))
        return 0
    }

    // MARK: Import

    private func importList(from path: String, into store: FollowStore) -> Int32 {
        let bytes: [UInt8]
        switch Self.readBounded(path) {
        case .success(let read): bytes = read
        case .failure(let problem):
            return problem.tooLarge ? fail(.tooLarge(limit: FollowOpml.maxBytes)) : unreadable(path, problem.reason)
        }
        let list: FollowOpml.Import
        switch waitForAnswer({ FollowOpml.parse(bytes, completion: $0) }) {
        case .success(let read): list = read
        case .failure(let error): return fail(error)
        }
        guard let (fediverse, unknownAccounts) = resolve(list.fediverseAccounts) else {
            return CommandSession.interruptedStatus
        }
        let (counts, failure) = waitForAnswer { done in
            FollowOpml.follow(list.galleries + fediverse, in: store) { done(($0, $1)) }
        }
        // TRANSLATORS: the end of --import-following; {already} and {unknown} are numbers.
        print(trn("Imported {count} gallery, {already} already followed, {unknown} not recognised.",
                  "Imported {count} galleries, {already} already followed, {unknown} not recognised.", counts.added,
                  ["already": counts.alreadyFollowed, "unknown": list.notRecognised + unknownAccounts]))
        guard let failure else { return 0 }
        Console.error(failure.sentence)
        return FollowCommand.storeFailedStatus
    }

    /// The `/@NAME` accounts as Mastodon or Misskey galleries (`FollowOpmlAccounts`), and how many were left
    /// out because their server did not say. Nil after Ctrl+C: nothing is followed then.
    private func resolve(_ accounts: [FollowOpml.FediverseAccount]) -> ([FollowOpml.Entry], Int)? {
        guard !accounts.isEmpty else { return ([], 0) }
        let session = CommandSession(options: options)
        let resolver = FollowOpmlAccounts(client: session.client, askingAt: session.serverLookupOrigin)
        var outcome: FollowOpmlAccounts.Outcome?
        resolver.resolve(accounts) { outcome = $0 }
        session.runLoop(until: { outcome != nil || session.interrupted })
        guard let outcome, !session.interrupted else {
            resolver.cancel()
            return nil
        }
        outcome.problems.forEach { Console.error($0.sentence) }
        return (outcome.entries, outcome.leftOut)
    }

    private func fail(_ error: FollowOpmlError) -> Int32 {
        Console.error(error.sentence)
        return Self.invalidListStatus
    }

    private func unreadable(_ path: String, _ reason: String) -> Int32 {
        Console.error(tr("{path} could not be read: {reason}", ["path": path == "-" ? "stdin" : path, "reason": reason]))
        return Self.unreadableStatus
    }

    private struct ReadProblem: Error {
        var tooLarge = false
        var reason = ""
    }

    /// At most one byte more than `FollowOpml.maxBytes` of the file (or of standard input for "-"), so a huge
    /// or endless one (a device, a pipe) is refused after a megabyte, not read whole. Synchronous: a command
    /// without a window, reading one small file.
    private static func readBounded(_ path: String) -> Result<[UInt8], ReadProblem> {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadProblem(reason: String(cString: strerror(errno)))) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let limit = FollowOpml.maxBytes + 1
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes[count...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(ReadProblem(reason: String(cString: strerror(errno))))
            }
            count += got
        }
        guard count <= FollowOpml.maxBytes else { return .failure(ReadProblem(tooLarge: true)) }
        return .success(Array(bytes[..<count]))
    }
}
