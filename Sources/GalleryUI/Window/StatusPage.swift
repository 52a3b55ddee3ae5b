import GObjectBindings
import GtkBindings

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
}
