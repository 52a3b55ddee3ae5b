/// File names for a gallery that is saved while its pages are still being read, newest first.
///
/// `DownloadNames.unique` names the images oldest first (so a file keeps its name when the gallery grows), and
/// the oldest images come on the last page: no name is certain before the feed ends. But a name rarely
/// changes: only when an older image turns out to want the same one. So each image gets a provisional name as
/// it arrives — the name it will have unless an older one wants it — and may be downloaded at once, into its
/// partial file, renamed only when the names are final. An image whose name an earlier page already gave
/// away waits for the final names.
struct StreamedNames {
    private var images: [(id: String, name: String)] = []
    private var given: Set<String> = []

    var count: Int { images.count }

    /// Adds the next image (feed order) and returns its provisional name, or nil when it must wait for the
    /// final names.
    mutating func add(id: String, name: String) -> String? {
        images.append((id, name))
        let provisional = DownloadNames.safe(name, fallback: id)
        // Case-insensitively, as `unique` compares (a gallery may be copied to a case-insensitive drive).
        guard given.insert(provisional.lowercased()).inserted else { return nil }
        return provisional
    }

    /// Every image's final name, in the order they were added.
    func finalNames() -> [String] {
        Array(DownloadNames.unique(images.reversed().map { ($0.id, $0.name) }).reversed())
    }
}
