internal import CGLib
internal import CGtk
import GObjectBindings

/// A link shown as a button (GtkLinkButton): its text, the link as its tooltip and in its menu ("Copy URL").
/// What activating it does is the caller's (`onActivateLink`): GTK's own handler, which would open any URI
/// with whatever handler the desktop has for its scheme, never runs.
@MainActor
public final class LinkButton: Bin {
    public init(uri: String = "", label: String = "") {
        super.init(gtk_link_button_new_with_label(uri, label))
        // A long link is shortened in the middle (its host and its end both stay readable).
        if let label = childLabel {
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_xalign(label, 0)
        }
    }

    private var linkButton: UnsafeMutablePointer<GtkLinkButton> { widget.raw.as(GtkLinkButton.self) }

    public var uri: String {
        get { string(gtk_link_button_get_uri(linkButton)) ?? "" }
        set { gtk_link_button_set_uri(linkButton, newValue) }
    }

    /// The text shown (plain text, never markup). Set on the button's own label: gtk_button_set_label would
    /// replace it with a new one, without the ellipsizing and width set here.
    public var label: String {
        get { childLabel.flatMap { string(gtk_label_get_text($0)) } ?? "" }
        set { childLabel.map { gtk_label_set_text($0, newValue) } }
    }

    /// At most this wide (in characters) before the text is shortened; -1: as wide as the text.
    public var maxWidthChars: Int {
        get { childLabel.map { Int(gtk_label_get_max_width_chars($0)) } ?? -1 }
        set { childLabel.map { gtk_label_set_max_width_chars($0, Int32(newValue)) } }
    }

    private var childLabel: UnsafeMutablePointer<GtkLabel>? {
        guard let child = gtk_bin_get_child(widget.raw.as(GtkBin.self)),
              g_type_check_instance_is_a(child.raw.as(GTypeInstance.self), gtk_label_get_type()) != 0 else { return nil }
        return child.raw.as(GtkLabel.self)
    }

    /// The link was activated (click, Enter, space); the handler decides what happens, and GTK opens nothing.
    public func onActivateLink(_ handler: @escaping @MainActor (String) -> Void) {
        ref.connectBoolean("activate-link") { [weak self] in
            if let uri = self?.uri { handler(uri) }
            return true
        }
    }

    /// Emits `clicked`, as a user's click would.
    public func click() { gtk_button_clicked(widget.raw.as(GtkButton.self)) }
}
