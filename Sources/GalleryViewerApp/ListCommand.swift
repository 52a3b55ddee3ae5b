import GObjectBindings
import GalleryCore

/// `gallery-viewer --list [--json] [--source S] [--endpoint URL] USERNAME|LINK`: prints every item of every
/// page and exits — the same sources, client and messages as the window, without one.
@MainActor
struct ListCommand {
    let options: Options

    func run() -> Int32 {
        let session = CommandSession(options: options)
        let source: any GallerySource
        switch session.makeSource() {
        case .success(let made): source = made
        case .failure(let error): return session.fail(error)
        }
        let failure = session.readGallery(source) { item in print(line(for: item)) }
        if session.interrupted { return CommandSession.interruptedStatus }
        session.reportItemCeiling()
        return failure.map(session.fail) ?? (session.stoppedAtItemCeiling ? 1 : 0)
    }

    private func line(for item: GalleryItem) -> String {
        options.json ? ItemLine.json(item) : ItemLine.fields(item).joined(separator: "\t")
    }
}
