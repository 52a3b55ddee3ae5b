internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkInfoBar: a bar across the top of the window's content for a state the user should know about
/// (offline, something done), with its own buttons. Showing and hiding slide it in and out.
@MainActor
public final class InfoBar: Widget {
    public init() {
        super.init(gtk_info_bar_new())
        // Visible for good; `isRevealed` slides it in and out (a hidden bar would not animate).
        gtk_widget_set_no_show_all(widget, 1)
        gtk_widget_show(widget)
        isRevealed = false
    }

    private var bar: UnsafeMutablePointer<GtkInfoBar> { widget.raw.as(GtkInfoBar.self) }

    /// The bar's colour: a warning's, an error's…
    public var messageType: MessageType {
        get { MessageType(gtk_info_bar_get_message_type(bar)) }
        set { gtk_info_bar_set_message_type(bar, newValue.gtk) }
    }

    public var isRevealed: Bool {
        get { gtk_info_bar_get_revealed(bar) != 0 }
        set { gtk_info_bar_set_revealed(bar, newValue.gboolean) }
    }

    /// Puts `child` in the bar's content area (left of the buttons).
    public func setContent(_ child: Widget) {
        let area = gtk_info_bar_get_content_area(bar)!.raw.as(GtkContainer.self)
        gtk_container_add(area, child.widget)
        child.showAll()
    }

    /// Adds `button` to the bar's action area (right, at the end); its own clicked handler does the work.
    public func addAction(_ button: Button) {
        gtk_info_bar_add_action_widget(bar, button.widget, GTK_RESPONSE_NONE.rawValue)
        button.show()
    }
}
