import GObjectBindings
import GtkBindings
import GalleryCore

/// The large view's details, beside the picture (Alt+Return, or the header bar's Image Details button), as
/// GNOME's image viewers show image properties: a list of caption and value rows. Every value is text a
/// server sent, so it is set as plain text (never markup), can be selected and copied, wraps anywhere rather
/// than widening the window, and is bounded before it gets here (`GalleryItem`); the page is a link button
/// that opens only absolute http(s) URLs, and only through the window (`onOpenLink`).
@MainActor
final class DetailsPanel {
    enum Field: CaseIterable {
        case title, author, published, imageSize, duration, file, fileName, page, description

        var caption: String {
            switch self {
            case .title: tr("Title")
            case .author: tr("Author")
            // TRANSLATORS: when the image was posted or uploaded to the service.
            case .published: tr("Published")
            case .imageSize: tr("Image Size")
            // TRANSLATORS: a video's or sound's length, as "1:28".
            case .duration: tr("Duration")
            // TRANSLATORS: the details panel's row with the file's format and size ("JPEG · 2.4 MB").
            case .file: tr("File")
            case .fileName: tr("File Name")
            // TRANSLATORS: the item's page on the service (a link).
            case .page: tr("Page")
            // TRANSLATORS: the image's alt text or description, as its author wrote it.
            case .description: tr("Description")
            }
        }
    }

    /// Wide enough for a short sentence per line; the picture keeps the rest of the window. Values wrap
    /// anywhere and ask for no more than `lineCharacters`, and the link is shortened in the middle, so that
    /// no value (a long link, a 100,000-letter word) widens the panel.
    static let width = 300
    static let lineCharacters = 30
    /// Links longer than this are not shown at all (a real page URL is a few hundred characters at most; a
    /// tooltip of megabytes would stall every hover).
    static let maxLinkLength = 4096

    let revealer = Revealer(transition: .slideLeft)
    let list = ListBox()
    private(set) var rows: [Field: DetailRow] = [:]
    let pageLink = LinkButton()
    /// The page link was activated: the window opens it (and checks it once more).
    var onOpenLink: (@MainActor (String) -> Void)?
    /// The details of the item the large view shows now (nil: none); asked when the panel opens or follows.
    var current: (@MainActor () -> ItemDetails?)?
    private(set) var shown: ItemDetails?

    init() {
        let scroller = ScrolledWindow()
        scroller.setSizeRequest(width: Self.width, height: -1)
        scroller.addStyleClass("details-panel")
        scroller.accessibleName = tr("Image Details")
        list.selectionMode = .none
        list.addStyleClass("details-list")
        list.accessibleName = tr("Image Details")
        pageLink.onActivateLink { [weak self] uri in self?.onOpenLink?(uri) }
        pageLink.maxWidthChars = Self.lineCharacters
        for field in Field.allCases {
            let row = DetailRow(caption: field.caption, value: field == .page ? pageLink : nil)
            rows[field] = row
            list.insert(row.row, at: Field.allCases.count)
        }
        scroller.setChild(list)
        revealer.setChild(scroller)
        revealer.showAll()
        revealer.isRevealed = false
    }

    /// The panel is open (or opening).
    var isOpen: Bool { revealer.isRevealed }

    /// Opens or closes the panel; it opens filled with the item shown.
    func setOpen(_ open: Bool) {
        guard open != isOpen else { return }
        revealer.isRevealed = open
        if open { follow() }
    }

    /// Something about the item shown changed: an open panel shows it; a closed one need not follow, as it is
    /// filled when it opens.
    func follow() {
        guard isOpen, let details = current?() else { return }
        show(details)
    }

    /// Fills the rows; unchanged details change nothing (the view tells the panel about every change).
    func show(_ details: ItemDetails) {
        guard details != shown else { return }
        shown = details
        rows[.title]?.set(details.title)
        rows[.author]?.set(details.author)
        rows[.published]?.set(details.published)
        rows[.imageSize]?.set(details.imageSize)
        rows[.duration]?.set(details.duration)
        rows[.file]?.set(details.file)
        rows[.fileName]?.set(details.fileName)
        rows[.description]?.set(details.description)
        let link = details.pageURL.flatMap { URLText.isWebAddress($0) && $0.utf8.count <= Self.maxLinkLength ? $0 : nil }
        pageLink.uri = link ?? ""
        pageLink.label = link.map { DisplayText.clean($0, limit: 300) } ?? ""
        rows[.page]?.set(link.map { _ in pageLink.label }, showsValueLabel: false)
    }
}

/// One row of the panel: a dim caption over its value. Screen readers hear the caption as the row's name and
/// the value as its description.
@MainActor
final class DetailRow {
    let row = ListBoxRow()
    let captionLabel: Label
    let valueLabel = Label()

    /// `value`: a widget shown instead of the value label (the page's link button).
    init(caption: String, value: Widget?) {
        row.isActivatable = false
        row.isSelectable = false
        row.accessibleName = caption
        row.addStyleClass("detail-row")
        let box = Box(.vertical, spacing: 2)
        box.setMargins(top: 8, bottom: 8, start: 12, end: 12)
        captionLabel = Label(caption)
        captionLabel.xalign = 0
        captionLabel.addStyleClass("dim-label")
        captionLabel.addStyleClass("detail-caption")
        box.append(captionLabel)
        valueLabel.xalign = 0
        valueLabel.wraps = true
        valueLabel.wrapMode = .wordOrCharacter
        valueLabel.isSelectable = true
        valueLabel.maxWidthChars = DetailsPanel.lineCharacters
        box.append(valueLabel)
        if let value {
            value.halign = .start
            box.append(value)
        }
        row.setChild(box)
    }

    /// Shows `text` (plain text); nil hides the row. `showsValueLabel` false: the row shows its own widget.
    func set(_ text: String?, showsValueLabel: Bool = true) {
        row.isVisible = text != nil
        valueLabel.isVisible = showsValueLabel
        let value = text ?? ""
        let shown = showsValueLabel ? value : ""
        if valueLabel.text != shown { valueLabel.text = shown }
        row.accessibleDescription = value
    }
}
