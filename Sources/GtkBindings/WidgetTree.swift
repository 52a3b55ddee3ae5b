internal import CGLib
internal import CGtk
import GObjectBindings

/// Calls `body` for every widget below `widget`, depth first, internal children included (the parts GTK
/// builds inside its own composite widgets, such as a shortcuts window's pages and search button).
@MainActor
func forEachDescendant(of widget: UnsafeMutablePointer<GtkWidget>,
                       _ body: (UnsafeMutablePointer<GtkWidget>) -> Void) {
    guard isInstance(widget, of: gtk_container_get_type()) else { return }
    final class Children { var list: [UnsafeMutablePointer<GtkWidget>] = [] }
    let children = Children()
    gtk_container_forall(widget.raw.as(GtkContainer.self), { child, data in
        if let child { Unmanaged<Children>.fromOpaque(data!).takeUnretainedValue().list.append(child) }
    }, Unmanaged.passUnretained(children).toOpaque())
    withExtendedLifetime(children) {
        for child in children.list {
            body(child)
            forEachDescendant(of: child, body)
        }
    }
}

extension Widget {
    /// Calls `body` for every widget below this one, as `forEachDescendant(of:)`: for tests that look inside
    /// GTK's own composite widgets.
    @_spi(GtkInterop)
    public func forEachDescendant(_ body: (Widget) -> Void) {
        GtkBindings.forEachDescendant(of: widget) { body(Widget($0)) }
    }
}
