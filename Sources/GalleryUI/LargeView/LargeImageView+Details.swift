import GObjectBindings
import GtkBindings
import GalleryCore

/// The details panel beside the picture, and the picture's accessible description: both follow the item shown
/// and what fetching and decoding it found, through `changed()`, which every change of the view goes through.
extension LargeImageView {
    func installDetails() {
        root.append(container, expand: true)
        root.append(details.revealer)
        root.show()
        details.onOpenLink = { [weak self] url in self?.onOpenInBrowser?(url) }
    }

    /// The details panel is open (or opening).
    public var isShowingDetails: Bool { details.revealer.isRevealed }

    /// Opens or closes the details panel (`win.show-details`: Alt+Return, the header bar's toggle).
    public func setDetailsShown(_ shown: Bool) {
        guard shown != details.revealer.isRevealed else { return }
        details.revealer.isRevealed = shown
        if shown { updateDetails() }
    }

    /// Something about the item shown changed: the panel and the accessible description follow, then the
    /// window (title, size line).
    func changed() {
        updateDetails()
        onChange?()
    }

    private func updateDetails() {
        guard let download else { return }
        // A hidden sensitive picture's alt text would describe what is hidden (as its title does not).
        let hidden = download.state == .sensitiveHidden
        let description = hidden ? "" : download.item.altText ?? ""
        // Set only when it changes: each set is an event to every screen reader listening.
        if canvas.area.accessibleDescription != description { canvas.area.accessibleDescription = description }
        // Closed, the panel need not follow: it is filled when it opens.
        guard details.revealer.isRevealed else { return }
        details.show(itemDetails(hidden: hidden))
    }

    /// What the panel shows for the item now.
    func itemDetails(hidden: Bool) -> ItemDetails {
        guard let item = download?.item else { return ItemDetails(title: "") }
        return ItemDetails(
            title: item.displayTitle, author: item.author, published: item.published.flatMap(DateText.display),
            imageSize: imageSizeText(item), file: fileText(item), fileName: item.fileName, pageURL: item.pageURL,
            description: hidden ? nil : item.altText)
    }

    /// The shown file is the item's own image, not a smaller copy the service made of it.
    private func showsOriginal(_ item: GalleryItem) -> Bool { requestedURL == nil || requestedURL == item.fullImageURL }

    /// The original's size: as decoded when the view shows the original, else as the service says.
    private func imageSizeText(_ item: GalleryItem) -> String? {
        if showsOriginal(item), let size = fullImageSize {
            return tr("{width} × {height} pixels", ["width": size.width, "height": size.height])
        }
        guard let width = item.width, let height = item.height, width > 0, height > 0 else { return nil }
        return tr("{width} × {height} pixels", ["width": width, "height": height])
    }

    /// "JPEG · 2.4 MB" ("GIF · 1.2 MB · 24 frames") once the file was read, "Loading…" until then, or why it
    /// could not be.
    private func fileText(_ item: GalleryItem) -> String? {
        if let file {
            // TRANSLATORS: a file's format and size, as "JPEG · 2.4 MB".
            var text = tr("{format} · {size}", ["format": file.format.displayName, "size": SizeText.format(file.byteCount)])
            // TRANSLATORS: added to an animation's format and size: "GIF · 1.2 MB · 24 frames".
            if file.frames > 1 { text += " · " + trn("{count} frame", "{count} frames", file.frames) }
            // TRANSLATORS: added to the file's format and size when the view shows a scaled copy the service
            // made of an image too large to show.
            return showsOriginal(item) ? text : text + " " + tr("(the service’s smaller copy)")
        }
        if let failure { return tr("Not loaded: {reason}", ["reason": failure]) }
        return requestedURL != nil ? tr("Loading…") : nil
    }
}
