import GtkBindings
import GalleryCore

// MARK: Details

extension LargeImageView {
    /// The details panel is open (or opening).
    public var isShowingDetails: Bool { details.revealer.isRevealed }

    /// Opens or closes the details panel (`win.show-details`: Alt+Return, the header bar's toggle).
    public func setDetailsShown(_ shown: Bool) {
        guard shown != details.revealer.isRevealed else { return }
        details.revealer.isRevealed = shown
        if shown { updateDetails() }
    }

    func updateDetails() {
        guard let download else { return }
        // A hidden sensitive picture's alt text would describe what is hidden (as its title does not).
        let hidden = download.state == .sensitiveHidden
        let description = hidden ? "" : download.item.altText ?? ""
        // Set only when it changes: each set is an event to every screen reader listening.
        if canvas.area.accessibleDescription != description { canvas.area.accessibleDescription = description }
        // Closed, the panel need not follow: it is filled when it opens.
        guard details.revealer.isRevealed else { return }
        if media.isActive {
            return details.show(ItemDetails(item: download.item, hidden: hidden, playing: media.player))
        }
        details.show(ItemDetails(item: download.item, hidden: hidden, requestedURL: requestedURL,
                                 decodedSize: fullImageSize, file: file, failure: failure))
    }
}
