internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class HeaderBar: Widget {
    public init() {
        super.init(gtk_header_bar_new())
        gtk_header_bar_set_show_close_button(bar, 1)
    }

    private var bar: UnsafeMutablePointer<GtkHeaderBar> { widget.raw.as(GtkHeaderBar.self) }

    public var title: String? {
        get { string(gtk_header_bar_get_title(bar)) }
        set { gtk_header_bar_set_title(bar, newValue) }
    }

    public var subtitle: String? {
        get { string(gtk_header_bar_get_subtitle(bar)) }
        set { gtk_header_bar_set_subtitle(bar, newValue) }
    }

    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(bar, child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(bar, child.widget) }
}
