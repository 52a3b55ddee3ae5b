internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class ComboBoxText: Widget {
    public init() {
        super.init(gtk_combo_box_text_new())
    }

    private var combo: UnsafeMutablePointer<GtkComboBoxText> { widget.raw.as(GtkComboBoxText.self) }

    public func append(id: String, text: String) { gtk_combo_box_text_append(combo, id, text) }

    /// The id of the selected entry.
    public var activeID: String? {
        get { string(gtk_combo_box_get_active_id(widget.raw.as(GtkComboBox.self))) }
        set { gtk_combo_box_set_active_id(widget.raw.as(GtkComboBox.self), newValue) }
    }

    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("changed", handler)
    }
}
