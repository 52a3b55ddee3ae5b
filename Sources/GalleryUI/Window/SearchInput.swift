import GObjectBindings
import GalleryCore

/// The username entry beyond its text, and profile links typed or pasted there (or given on the command line):
/// whether the app is setting the controls itself (so their signals are not read as the user's), what the
/// entry held before its last change, and a link's search: the link picks the source, and a `/@NAME` link's
/// server is asked what it runs (Mastodon or Misskey) before the search.
@MainActor
final class SearchInput {
    private let header: HeaderControls
    private let services: GalleryServices
    private(set) var isUpdatingControls = false
    private var previousText = ""
    private var lookup: Cancellable?

    /// Search this user of this source.
    var onSearch: (@MainActor (SourceKind, String) -> Void)?
    /// A link that leads to no search: the error, and the link (it stays in the entry).
    var onLinkProblem: (@MainActor (GalleryError, String) -> Void)?
    /// Asking a server (the first text) what it runs, for a link (the second).
    var onAskingServer: (@MainActor (String, String) -> Void)?
    /// The source of the gallery shown, if any.
    var shownSource: (@MainActor () -> SourceKind?)?

    init(header: HeaderControls, services: GalleryServices) {
        self.header = header
        self.services = services
        header.usernameEntry.onChanged { [weak self] in self?.entryChanged() }
        header.usernameEntry.onActivate { [weak self] in self?.searchFromHeader() }
        header.sourceSelector.onChanged { [weak self] in self?.sourceChanged() }
    }

    /// Enter in the entry: the user typed, in the source picked.
    private func searchFromHeader() {
        guard let source = header.selectedSource else { return }
        onSearch?(source, header.usernameEntry.text)
    }

    /// Another source picked: its placeholder, and, with a username already there, that user's gallery from
    /// the newly chosen source.
    private func sourceChanged() {
        guard let source = header.selectedSource else { return }
        header.usernameEntry.placeholder = source.usernamePlaceholder
        if !isUpdatingControls, !header.usernameEntry.text.trimmed.isEmpty, shownSource?() != source {
            searchFromHeader()
        }
    }

    /// Sets the source picker and the entry without their signals starting searches of their own.
    func updatingControls(_ body: () -> Void) {
        let outer = isUpdatingControls
        isUpdatingControls = true
        body()
        isUpdatingControls = outer
    }

    func cancelLookup() {
        lookup?.cancel()
        lookup = nil
    }

    /// Searches what a link names. `declaredSource` (the command line's --source) reads a `/@NAME` link
    /// without asking its server; a link of another service with it gets a message.
    func search(link text: String, declaredSource: SourceKind?) {
        switch ProfileLink.read(text) {
        case .username:
            onSearch?(declaredSource ?? header.selectedSource ?? .deviantArt, text)
        case .unusable(let error):
            onLinkProblem?(error, text)
        case .link(let link):
            switch link.target(declared: declaredSource) {
            case .success(let target): onSearch?(target.source, target.username)
            case .failure(let error): onLinkProblem?(error, text)
            case nil: lookUpServer(of: link, linkText: text)
            }
        }
    }

    /// The entry's text changed. A link that arrived whole (pasted, dropped, middle-clicked), not typed
    /// letter by letter, is searched at once; what is typed waits for Enter.
    private func entryChanged() {
        let text = header.usernameEntry.text
        defer { previousText = text }
        guard !isUpdatingControls, Self.insertedLength(from: previousText, to: text) > 1 else { return }
        if case .username = ProfileLink.read(text) { return }
        search(link: text, declaredSource: nil)
    }

    /// Asks the link's server what it runs, showing that it does; the answer picks Mastodon or Misskey.
    private func lookUpServer(of link: ProfileLink, linkText: String) {
        guard case .fediverse(let name, let server) = link else { return }
        onAskingServer?(server, linkText)
        let lookup = ServerSoftwareLookup(client: services.client)
        self.lookup = lookup.sourceKind(forServer: server, askingAt: services.serverLookupOrigin()) {
            [weak self] result in
            guard let self else { return }
            self.lookup = nil
            switch result {
            case .success(let kind): self.onSearch?(kind, ProfileLink.address(name, server))
            case .failure(let error): self.onLinkProblem?(error, linkText)
            }
        }
    }

    /// Characters one change put in: what `new` holds between the start and the end it shares with `old`. A
    /// key typed puts in one; a paste several, also over a longer selection it replaces.
    nonisolated static func insertedLength(from old: String, to new: String) -> Int {
        let old = Array(old), new = Array(new)
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return new.count - prefix - suffix
    }
}
