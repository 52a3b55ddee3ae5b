import GObjectBindings
import GtkBindings
import GalleryCore

/// The small icon beside an item's picture (a row's, a grid tile's) that says what the picture does not: a video,
/// audio, a web page, an animation. Its text is the icon's tooltip and accessible name.
struct ItemBadge: Equatable {
    let iconName: String
    let text: String
    /// A video's or a sound's length as the service states it ("1:28"), which a tile shows beside the icon (a
    /// row says it in its detail line).
    var length: String?

    /// The badge for `download`'s item, nil for a still image. Whether an image is animated is known from its
    /// own bytes once its thumbnail was decoded (no feed says so reliably: Mastodon's "gifv" is a video), so a
    /// row gains the badge when its thumbnail arrives.
    @MainActor static func of(_ download: ItemViewModel) -> ItemBadge? {
        switch download.kind {
        case .video:
            return ItemBadge(iconName: "media-playback-start-symbolic", text: withLength(tr("Video"), download),
                             length: DurationText.stated(download.item.media))
        case .audio:
            return ItemBadge(iconName: "audio-x-generic-symbolic", text: withLength(tr("Audio"), download),
                             length: DurationText.stated(download.item.media))
        case .other: return ItemBadge(iconName: "web-browser-symbolic", text: tr("Opens in the browser"))
        case .image:
            guard download.isAnimated else { return nil }
            return ItemBadge(iconName: "media-playlist-repeat-symbolic",
                             text: download.isAnimationTooLarge ? tr("Animated, too large to play") : tr("Animated"))
        }
    }

    /// "Video, 1:28" when the service states the length.
    @MainActor private static func withLength(_ kind: String, _ download: ItemViewModel) -> String {
        guard let length = DurationText.stated(download.item.media) else { return kind }
        // TRANSLATORS: a row's badge tooltip: {kind} is "Video" or "Audio", {length} like 1:28.
        return tr("{kind}, {length}", ["kind": kind, "length": length])
    }
}

/// Where a row or a tile shows its item's badge: in a row beside the spinner, in a tile in a corner of the
/// picture, on a dark pill with the length beside the icon (`showsLength`). Set only when it changes: the cell
/// is rebound on every move of the view, and a new tooltip makes GTK ask the X server where the pointer is.
@MainActor
final class ItemBadgeView {
    let image = Image()
    /// The icon and, in a tile, the length: what the cell places (in a row, the icon itself).
    let widget: Widget
    /// The stated length beside the icon; nil in a row.
    let lengthLabel: Label?
    /// The badge shown now; nil while hidden.
    private(set) var shown: ItemBadge?

    init(showsLength: Bool = false) {
        image.addStyleClass("item-badge")
        image.hide()
        guard showsLength else {
            lengthLabel = nil
            widget = image
            return
        }
        let label = Label()
        label.addStyleClass("item-badge-length")
        let box = Box(.horizontal, spacing: 4)
        box.addStyleClass("item-badges")
        box.append(image)
        box.append(label)
        box.hide()
        lengthLabel = label
        widget = box
    }

    func show(_ wanted: ItemBadge?) {
        guard wanted != shown else { return }
        shown = wanted
        guard let wanted else {
            image.hide()
            return widget.hide()
        }
        image.setIcon(wanted.iconName, pixelSize: 16)
        image.tooltip = wanted.text
        image.accessibleName = wanted.text
        image.show()
        if let lengthLabel {
            lengthLabel.text = wanted.length ?? ""
            // The icon says the length already (its accessible name); the label is for the eye only.
            if wanted.length == nil { lengthLabel.hide() } else { lengthLabel.show() }
        }
        widget.show()
    }
}
