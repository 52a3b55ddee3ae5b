internal import CGLib
internal import CGtk
import GObjectBindings

/// A bubble of widgets pointing at the widget it belongs to (a MenuButton's, usually): the recent galleries.
/// Modal: while it is open it has the keyboard, and a click outside or Escape closes it.
@MainActor
public final class Popover: Bin {
    public init() {
        super.init(gtk_popover_new(nil))
    }

    private var popover: UnsafeMutablePointer<GtkPopover> { widget.raw.as(GtkPopover.self) }

    /// Shown, or still fading out after `popDown` (its "closed" signal has come by then).
    public var isOpen: Bool { isVisible }

    /// Opens it with its transition (when the desktop has animations on).
    public func popUp() { gtk_popover_popup(popover) }

    /// Closes it with its transition: `isOpen` turns false when that ends (330 ms), `onClosed` runs at once.
    public func popDown() { gtk_popover_popdown(popover) }

    /// Closed by the user (Escape, a click outside) or by `popDown`.
    public func onClosed(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("closed", handler)
    }
}
