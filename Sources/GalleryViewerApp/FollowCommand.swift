#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import GObjectBindings
import GalleryCore

/// `gallery-viewer --follow | --unfollow [--source S] USERNAME|LINK` and `--following [--json]`: change or
/// print the followed galleries in the store the window uses, without a window and without the network (a
/// `/@NAME` link's server aside, asked what it runs as for `--list`). Exit status: 0 done (also when already
/// followed), 1 a name no source takes or a gallery not followed, 74 (EX_IOERR) the store failed.
@MainActor
struct FollowCommand {
    static let storeFailedStatus: Int32 = 74

    let options: Options

    func run() -> Int32 {
        let store = FollowStore()
        store.onRecovery = { Console.error($0.sentence) }
        if options.following { return list(store) }
        let session = CommandSession(options: options)
        let key: FollowedGallery.Key
        switch session.resolveGallery().flatMap(Self.normalized) {
        case .success(let found): key = found
        case .failure(let error): return session.fail(error)
        }
        let gallery = "\(key.username) (\(key.source.displayName))"
        if options.follow {
            let outcome = waitForAnswer { store.follow(key, displayName: key.username, completion: $0) }
            return report(outcome) { added in
                print(added ? "Following \(gallery)." : "Already following \(gallery).")
                return 0
            }
        }
        let outcome = waitForAnswer { store.unfollow(key, completion: $0) }
        return report(outcome) { removed in
            guard removed else {
                Console.error(FollowStoreError.notFollowed(key).sentence)
                return 1
            }
            print("No longer following \(gallery).")
            return 0
        }
    }

    /// The username as the source searches it ("user:müller_x" becomes "Müller x"), so one gallery is one
    /// entry however it was typed. Only the source's rules run: it sends nothing (the demo source needs an
    /// address to be made, and is given one it never uses).
    private static func normalized(_ target: (source: SourceKind, username: String))
        -> Result<FollowedGallery.Key, GalleryError> {
        Result { () throws(GalleryError) in
            let made = try target.source.makeSource(username: target.username,
                                                    endpointOverride: target.source == .demo ? "http://127.0.0.1" : nil)
            return FollowedGallery.Key(source: made.kind, username: made.username)
        }
    }

    private func list(_ store: FollowStore) -> Int32 {
        report(waitForAnswer { store.following(completion: $0) }) { galleries in
            for gallery in galleries { print(line(for: gallery)) }
            return 0
        }
    }

    /// SOURCE, USERNAME, the display name, how many images are new, when followed and last checked (ISO 8601,
    /// "-" when never) and the last problem, tab-separated; each text cleaned again, since it goes to a terminal.
    private func line(for gallery: FollowedGallery) -> String {
        let time = { (milliseconds: Int64?) in milliseconds.flatMap { DateText.iso8601(Int($0 / 1000)) } }
        guard options.json else {
            return [gallery.key.source.rawValue, gallery.key.username, gallery.displayName, String(gallery.newCount),
                    time(gallery.followedAt) ?? "-", time(gallery.lastCheckedAt) ?? "-", gallery.lastProblem ?? ""]
                .map { DisplayText.clean($0) }.joined(separator: "\t")
        }
        let record = ListedFollow(source: gallery.key.source.rawValue, username: gallery.key.username,
                                  displayName: gallery.displayName, new: gallery.newCount, followed: time(gallery.followedAt),
                                  lastChecked: time(gallery.lastCheckedAt), lastProblem: gallery.lastProblem)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private func report<Value>(_ outcome: Result<Value, FollowStoreError>, _ done: (Value) -> Int32) -> Int32 {
        switch outcome {
        case .success(let value): return done(value)
        case .failure(let error):
            Console.error(error.sentence)
            return Self.storeFailedStatus
        }
    }
}

/// One `--following --json` line; unknown values left out.
private struct ListedFollow: Encodable {
    let source: String
    let username: String
    let displayName: String
    /// Images found new and not seen yet.
    let new: Int
    let followed: String?
    let lastChecked: String?
    let lastProblem: String?

    enum CodingKeys: String, CodingKey {
        case source, username, displayName = "display_name", new, followed, lastChecked = "last_checked",
             lastProblem = "last_problem"
    }
}
