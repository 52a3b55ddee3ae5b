import GObjectBindings
import GtkBindings
import GalleryCore

/// The followed galleries as an OPML subscription list (`FollowOpml`), from the main menu: Export writes the
/// list where the user picks (each gallery's public feed, for a feed reader), Import follows the galleries a
/// list names (ours or a feed reader's), the file read on a worker and bounded, each `/@NAME` account's server
/// asked what it runs through a client of the import's own. The window says how it went.
@MainActor
final class FollowingListFile {
    private let window: ApplicationWindow
    private let store: FollowStore
    private let endpointOverride: @MainActor (SourceKind) -> String?
    private let serverLookupOrigin: @MainActor () -> String?
    private var accounts: FollowOpmlAccounts?

    /// A sentence for the window ("Exported 3 galleries to follows.opml.").
    var onNote: (@MainActor (String) -> Void)?
    /// A failure the user must not miss.
    var onProblem: (@MainActor (String) -> Void)?
    /// Galleries were followed: the list shows them.
    var onImported: (@MainActor () -> Void)?

    init(window: ApplicationWindow, store: FollowStore, endpointOverride: @escaping @MainActor (SourceKind) -> String?,
         serverLookupOrigin: @escaping @MainActor () -> String?) {
        self.window = window
        self.store = store
        self.endpointOverride = endpointOverride
        self.serverLookupOrigin = serverLookupOrigin
        SimpleAction.add(to: window, name: "export-following") { [weak self] in self?.chooseExport() }
        SimpleAction.add(to: window, name: "import-following") { [weak self] in self?.chooseImport() }
    }

    func cancel() {
        accounts?.cancel()
        accounts = nil
    }

    // MARK: Export

    private func chooseExport() {
        let chooser = FileChooser(title: tr("Export Followed Galleries"), acceptLabel: tr("_Export"), cancelLabel: tr("_Cancel"),
                                  parent: window, suggestedName: tr("followed-galleries.opml"),
                                  folder: FileChooser.documentsFolder)
        chooser.run { [weak self] path in if let path { self?.export(to: path) } }
    }

    func export(to path: String) {
        store.following { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error): onProblem?(error.sentence)
            case .success(let galleries):
                let document = FollowOpml.export(galleries, endpointOverride: endpointOverride)
                // Written beside the file and renamed over it: a failed export leaves the old file whole.
                File(path: path).replaceContents(Bytes(document)) { [weak self] error in
                    let name = FileSystem.baseName(of: path)
                    if let error {
                        self?.onProblem?(tr("{path} could not be written: {reason}", ["path": name, "reason": error.message]))
                    } else {
                        // TRANSLATORS: after Export Followed Galleries; {path} is a file name.
                        self?.onNote?(trn("Exported {count} gallery to {path}.", "Exported {count} galleries to {path}.",
                                          galleries.count, ["path": name]))
                    }
                }
            }
        }
    }

    // MARK: Import

    private func chooseImport() {
        // TRANSLATORS: the file chooser's filter for OPML files.
        let chooser = FileChooser(openTitle: tr("Import Followed Galleries"), acceptLabel: tr("_Import"), cancelLabel: tr("_Cancel"),
                                  parent: window, folder: FileChooser.documentsFolder, filterName: tr("Subscription Lists (OPML)"),
                                  pattern: "*.opml", allFilesName: tr("All Files"))
        chooser.run { [weak self] path in if let path { self?.importList(from: path) } }
    }

    func importList(from path: String) {
        let name = FileSystem.baseName(of: path)
        WorkerTask.run({ BoundedFileRead.read(atPath: path, maxBytes: FollowOpml.maxBytes) }) { [weak self] read in
            guard let self else { return }
            switch read {
            case .success(let bytes):
                FollowOpml.parse(bytes) { [weak self] parsed in
                    switch parsed {
                    case .success(let list): self?.follow(list)
                    case .failure(let error): self?.onProblem?(error.sentence)
                    }
                }
            case .failure(.tooLarge): onProblem?(FollowOpmlError.tooLarge(limit: FollowOpml.maxBytes).sentence)
            case .failure(.notAFile):
                onProblem?(tr("{path} could not be read: {reason}", ["path": name, "reason": tr("it is not a file")]))
            case .failure(.failed(let reason)):
                onProblem?(tr("{path} could not be read: {reason}", ["path": name, "reason": reason]))
            }
        }
    }

    private func follow(_ list: FollowOpml.Import) {
        let accounts = FollowOpmlAccounts(client: HTTPClient(), askingAt: serverLookupOrigin())
        self.accounts = accounts
        accounts.resolve(list.fediverseAccounts) { [weak self] outcome in
            guard let self else { return }
            self.accounts = nil
            FollowOpml.follow(list.galleries + outcome.entries, in: store) { [weak self] counts, failure in
                guard let self else { return }
                onImported?()
                if let failure {
                    onProblem?(failure.sentence)
                    return
                }
                // TRANSLATORS: after Import Followed Galleries; {already} and {unknown} are numbers.
                onNote?(trn("Imported {count} gallery, {already} already followed, {unknown} not recognised.",
                            "Imported {count} galleries, {already} already followed, {unknown} not recognised.", counts.added,
                            ["already": counts.alreadyFollowed, "unknown": list.notRecognised + outcome.leftOut]))
            }
        }
    }
}
