import CGLib
import CGtk
import GObjectBindings

/// Calls `body` for every widget below `widget`, depth first, internal children included (the parts GTK
/// builds inside its own composite widgets, such as a shortcuts window's pages and search button).
@MainActor
public func forEachDescendant(of widget: UnsafeMutablePointer<GtkWidget>,
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
