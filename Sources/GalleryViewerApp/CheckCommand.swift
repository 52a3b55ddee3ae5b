import GObjectBindings
import GalleryCore

/// `gallery-viewer --check [--json]`: checks every followed gallery, as the window does (same store, client
/// and limits, so a gallery checked less than 15 minutes ago is skipped), and prints the items this check found
/// new: `--list`'s lines prefixed by the gallery's source and username, or with `--json` `--list --json`'s
/// objects with `gallery_source` and `gallery_username`. Failures and a summary go to standard error.
///
/// Exit status (README): 0 new items were found, 2 nothing new, 3 some gallery failed (its problem is kept
/// for the window; new items of the others are still printed), 75 (EX_TEMPFAIL) offline, no gallery could be
/// reached, 74 (EX_IOERR) the store failed, 130 interrupted.
@MainActor
struct CheckCommand {
    static let newItemsStatus: Int32 = 0
    static let nothingNewStatus: Int32 = 2
    static let someFailedStatus: Int32 = 3
    static let offlineStatus: Int32 = 75

    let options: Options

    func run() -> Int32 {
        let session = CommandSession(options: options)
        let store = FollowStore()
        store.onRecovery = { Console.error($0.sentence) }
        let sources = SourceFactory(overriddenSource: options.source, endpointOverride: options.endpointOverride)
        defer { sources.shutDown() }
        let configuration = session.client.configuration
        let checker = FollowChecker(store: store, makeClient: { HTTPClient(configuration: configuration) },
                                    endpointOverride: { kind in sources.endpointForCheck(kind) })
        var report: FollowCheckReport?
        checker.check { report = $0 }
        session.runLoop(until: { report != nil || session.interrupted })
        if session.interrupted {
            checker.cancel()
            // What was acknowledged is on disk; a write under way finishes or rolls back as a whole.
            session.runLoop(until: { !store.isBusy })
            return CommandSession.interruptedStatus
        }
        session.runLoop(until: { !store.isBusy })
        guard let report else { return CommandSession.interruptedStatus }
        return finish(report)
    }

    private func finish(_ report: FollowCheckReport) -> Int32 {
        if let error = report.storeError {
            Console.error(error.sentence)
            return FollowCommand.storeFailedStatus
        }
        for found in report.newItems {
            print(options.json ? ItemLine.json(found.item, gallery: found.gallery)
                : ([found.gallery.source.rawValue, DisplayText.clean(found.gallery.username)] + ItemLine.fields(found.item))
                    .joined(separator: "\t"))
        }
        for failure in report.failures {
            Console.error("\(failure.key.username) (\(failure.key.source.displayName)): \(failure.sentence)")
        }
        if report.offline {
            Console.error(tr("Offline: no followed gallery could be reached. Nothing was recorded."))
            return Self.offlineStatus
        }
        Console.error(trn("{count} new item; galleries checked: {checked}, unchanged: {unchanged}, skipped (checked recently): {skipped}, failed: {failed}.",
                          "{count} new items; galleries checked: {checked}, unchanged: {unchanged}, skipped (checked recently): {skipped}, failed: {failed}.",
                          report.newItems.count,
                          ["checked": report.checked, "unchanged": report.notModified, "skipped": report.skipped,
                           "failed": report.failures.count]))
        if !report.failures.isEmpty { return Self.someFailedStatus }
        return report.newItems.isEmpty ? Self.nothingNewStatus : Self.newItemsStatus
    }
}
