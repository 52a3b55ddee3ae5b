import GObjectBindings
import GalleryCore

/// The username entry's state beyond its text: whether the app is setting the controls itself (so their
/// signals are not read as the user's), what the entry held before its last change, and a `/@NAME` link's
/// server lookup in flight.
@MainActor
final class SearchInput {
    private(set) var isUpdatingControls = false
    var previousText = ""
    var lookup: Cancellable?

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

/// Profile links typed or pasted in the username entry (or given on the command line): the link picks the
/// source, and a `/@NAME` link's server is asked what it runs (Mastodon or Misskey) before the search.
extension MainWindow {
    /// Searches what a link names. `declaredSource` (the command line's --source) reads a `/@NAME` link
    /// without asking its server; a link of another service with it gets a message.
    public func search(link text: String, declaredSource: SourceKind? = nil) {
        guard !isDestroyed else { return }
        switch ProfileLink.read(text) {
        case .username:
            search(source: declaredSource ?? header.selectedSource ?? .deviantArt, username: text)
        case .unusable(let error):
            showLinkProblem(error, link: text)
        case .link(let link):
            switch link.target(declared: declaredSource) {
            case .success(let target): search(source: target.source, username: target.username)
            case .failure(let error): showLinkProblem(error, link: text)
            case nil: lookUpServer(of: link, linkText: text)
            }
        }
    }

    /// The entry's text changed. A link that arrived whole (pasted, dropped, middle-clicked), not typed
    /// letter by letter, is searched at once; what is typed waits for Enter.
    func usernameEntryChanged() {
        let text = header.usernameEntry.text
        defer { input.previousText = text }
        guard !input.isUpdatingControls, SearchInput.insertedLength(from: input.previousText, to: text) > 1 else { return }
        if case .username = ProfileLink.read(text) { return }
        search(link: text)
    }

    /// Asks the link's server what it runs, showing that it does; the answer picks Mastodon or Misskey.
    private func lookUpServer(of link: ProfileLink, linkText: String) {
        guard case .fediverse(let name, let server) = link else { return }
        prepareForSearch(showing: linkText)
        // TRANSLATORS: {server} is a server's name such as mastodon.social.
        statusPage.set(iconName: nil, title: tr("Asking {server} what it runs…", ["server": server]),
                       description: tr("Mastodon or Misskey"))
        stack.visibleChildName = "status"
        updateTitles()
        let lookup = ServerSoftwareLookup(client: services.client)
        input.lookup = lookup.sourceKind(forServer: server, askingAt: services.serverLookupOrigin()) {
            [weak self] result in
            guard let self, !self.isDestroyed else { return }
            self.input.lookup = nil
            switch result {
            case .success(let kind): self.search(source: kind, username: ProfileLink.address(name, server))
            case .failure(let error): self.showLinkProblem(error, link: linkText)
            }
        }
    }

    /// The link stays in the entry, so that Try Again (and Enter) ask again.
    private func showLinkProblem(_ error: GalleryError, link: String) {
        prepareForSearch(showing: link)
        showError(error)
    }

    /// A new search that shows `text` (the link) in the entry.
    private func prepareForSearch(showing text: String) {
        input.updatingControls {
            if header.usernameEntry.text != text { header.usernameEntry.text = text }
        }
        clearForNewSearch()
    }
}
