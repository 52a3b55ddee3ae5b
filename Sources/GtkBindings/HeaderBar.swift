internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkHeaderBar whose title and subtitle are labels of its own, in a box made as GTK makes its own (the
/// theme's `title` and `subtitle` classes, one line each, cut short at the end). GTK's own subtitle, set, lays
/// out and redraws the whole bar — every button, the search entry, the combo box — and the app's subtitle
/// changes with every page of a gallery ("1,224 images"), so while End was held the bar was drawn again in
/// every other frame. A label of ours that changes redraws itself.
@MainActor
public final class HeaderBar: Widget {
    private let titleLabel = Label()
    private let subtitleLabel = Label()

    public init() {
        super.init(gtk_header_bar_new())
        gtk_header_bar_set_show_close_button(bar, 1)
        let titles = Box(.vertical)
        titles.valign = .center
        for (label, styleClass) in [(titleLabel, "title"), (subtitleLabel, "subtitle")] {
            label.addStyleClass(styleClass)
            label.ellipsize = .end
            gtk_label_set_single_line_mode(label.widget.raw.as(GtkLabel.self), 1)
            titles.append(label)
        }
        titles.showAll()
        subtitleLabel.hide()
        gtk_header_bar_set_custom_title(bar, titles.widget)
    }

    private var bar: UnsafeMutablePointer<GtkHeaderBar> { widget.raw.as(GtkHeaderBar.self) }

    public var title: String? {
        didSet { show(title, in: titleLabel) }
    }

    public var subtitle: String? {
        didSet { show(subtitle, in: subtitleLabel) }
    }

    /// Hidden while empty, as GTK's own subtitle is.
    private func show(_ text: String?, in label: Label) {
        label.text = text ?? ""
        label.isVisible = !(text ?? "").isEmpty
    }

    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(bar, child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(bar, child.widget) }
}
