import GObjectBindings
import GtkBindings
import GalleryCore

/// A centred icon, title and explanation, for the empty window, a missing user, an empty gallery or a
/// feed that could not be read — the GNOME "status page" pattern.
@MainActor
public final class StatusPage {
    public let container = Box(.vertical, spacing: 12)
    let icon = Image()
    let spinner = Spinner()
    static let spinnerSize = 48
    public let titleLabel = Label()
    public let descriptionLabel = Label()
    /// "Try Again", for failures that may pass (network, server trouble).
    public let retryButton = Button(label: tr("_Try Again"))

    public init() {
        container.halign = .center
        container.valign = .center
        container.setMargins(top: 36, bottom: 36, start: 36, end: 36)
        container.addStyleClass("status-page")
        icon.addStyleClass("dim-label")
        spinner.setSizeRequest(width: Self.spinnerSize, height: Self.spinnerSize)
        titleLabel.addStyleClass("status-title")
        titleLabel.wraps = true
        titleLabel.justify = .center
        descriptionLabel.wraps = true
        descriptionLabel.justify = .center
        descriptionLabel.maxWidthChars = 50
        descriptionLabel.isSelectable = true
        descriptionLabel.canFocus = false
        retryButton.halign = .center
        retryButton.addStyleClass("suggested-action")
        for widget: Widget in [icon, spinner, titleLabel, descriptionLabel, retryButton] { container.append(widget) }
        container.showAll()
        spinner.isSpinning = false
        retryButton.hide()
    }

    /// `iconName` nil shows a spinner instead of an icon.
    public func set(iconName: String?, title: String, description: String, canRetry: Bool = false) {
        retryButton.isVisible = canRetry
        if let iconName {
            icon.setIcon(iconName, pixelSize: 96)
            icon.show()
            spinner.isSpinning = false
        } else {
            icon.hide()
            spinner.isSpinning = true
        }
        titleLabel.text = title
        descriptionLabel.text = description
        descriptionLabel.isVisible = !description.isEmpty
        container.accessibleName = title
    }

    // MARK: What the window shows here

    /// The empty window: what to do first.
    func showWelcome() {
        // TRANSLATORS: "Demo" is the source of that name and aurora a username of it: keep "aurora" as it is.
        let hint = tr("Pick a source, type a username in the header bar and press Enter, or paste a profile link there. No network? Pick Demo and type aurora.")
        set(iconName: "image-x-generic-symbolic", title: tr("Type a username"), description: hint)
    }

    /// A failure, with Try Again when it may pass.
    func show(_ error: GalleryError) {
        set(iconName: Self.icon(for: error), title: error.title, description: error.explanation,
            canRetry: Self.mayPass(error))
    }

    /// Why the feed waits before it asks again.
    func showWaiting(_ reason: GalleryError) {
        set(iconName: Self.icon(for: reason), title: reason.title, description: reason.explanation)
    }

    /// The first page is on its way.
    func showLoading(_ source: any GallerySource) {
        set(iconName: nil, title: tr("Loading {name}’s gallery…", ["name": source.username]),
            description: source.kind.displayName)
    }

    /// The New view without new images.
    func showNothingNew() {
        // TRANSLATORS: the New view when no followed gallery has new images.
        set(iconName: "emblem-favorite-symbolic", title: tr("Nothing new"),
            description: tr("New images of the galleries you follow appear here. Follow a gallery with the star button in the header bar (Ctrl+D)."))
    }

    /// A `/@NAME` link's server is asked what it runs.
    func showAskingServer(_ server: String) {
        // TRANSLATORS: {server} is a server's name such as mastodon.social.
        set(iconName: nil, title: tr("Asking {server} what it runs…", ["server": server]),
            description: tr("Mastodon or Misskey"))
    }

    /// Failures worth a "Try Again" button: the same request may work in a moment.
    private static func mayPass(_ error: GalleryError) -> Bool {
        switch error {
        case .network, .serverError, .rateLimited, .refusingForNow, .offline, .unidentifiedServer: true
        default: false
        }
    }

    private static func icon(for error: GalleryError) -> String {
        switch error {
        case .noSuchUser, .invalidUsername: "avatar-default-symbolic"
        case .emptyGallery: "folder-pictures-symbolic"
        case .network, .certificate, .offline: "network-offline-symbolic"
        case .rateLimited, .refusingForNow: "preferences-system-time-symbolic"
        default: "dialog-warning-symbolic"
        }
    }
}
