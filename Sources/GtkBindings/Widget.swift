internal import CGLib
internal import CGtk
import GObjectBindings

/// Base of the widget wrappers: owns one reference to a GtkWidget (ref_sink, so a new floating widget is
/// owned and a toplevel gets an extra reference) and exposes what every widget can do.
///
/// A wrapper going away only drops its reference; the widget lives on while its parent holds it. Signal
/// handlers belong to the widget (see ObjectRef.connect), so they capture their Swift owners weakly.
///
/// No GTK type shows outside the bindings. Tests that poke GTK directly reach the object through `ref`,
/// which only a file importing `@_spi(GtkInterop) GtkBindings` sees.
@MainActor
public class Widget {
    @_spi(GtkInterop) public let ref: ObjectRef

    /// Wraps a widget the caller just created (floating) or got from a getter (transfer none).
    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        ref = ObjectRef(widget, transfer: .floating)
    }

    var widget: UnsafeMutablePointer<GtkWidget> { ref.typed() }

    public func show() { gtk_widget_show(widget) }
    public func showAll() { gtk_widget_show_all(widget) }
    public func hide() { gtk_widget_hide(widget) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue.gboolean) }
    }

    /// Mapped: the widget and all its ancestors are shown and realized on screen.
    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue.gboolean) }
    }

    /// Setting a tooltip makes GTK ask the X server where the pointer is (synchronously) on its next idle, so
    /// an unchanged one is not set again (a row redrawn as its thumbnail arrives keeps its tooltip).
    public var tooltip: String? {
        get { takeString(gtk_widget_get_tooltip_text(widget)) }
        set {
            guard newValue != tooltip else { return }
            gtk_widget_set_tooltip_text(widget, newValue)
        }
    }

    /// A tooltip made only when the pointer rests on the widget (nil: none then), instead of set ahead: for
    /// widgets whose text changes often (recycled cells), since setting a tooltip makes GTK ask the X server
    /// where the pointer is, synchronously, on its next idle.
    public func setTooltipProvider(_ text: @escaping @MainActor () -> String?) {
        gtk_widget_set_has_tooltip(widget, 1)
        ref.connectTooltipQuery { tooltip in
            guard let tooltip, let text = text() else { return false }
            gtk_tooltip_set_text(tooltip.opaque, text)
            return true
        }
    }

    public func setSizeRequest(width: Int, height: Int) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    public var hexpand: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue.gboolean) }
    }

    public var vexpand: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue.gboolean) }
    }

    /// Where the widget sits in the space its parent gives it, when it is given more than it needs.
    public enum Align: Sendable, CaseIterable {
        /// Stretched over all of it (GTK's default).
        case fill
        case start
        case end
        case center
        /// On the text baseline of its row: vertically only (`halign` reads it back as `.fill`, as GTK does).
        case baseline

        var gtk: GtkAlign {
            switch self {
            case .fill: GTK_ALIGN_FILL
            case .start: GTK_ALIGN_START
            case .end: GTK_ALIGN_END
            case .center: GTK_ALIGN_CENTER
            case .baseline: GTK_ALIGN_BASELINE
            }
        }

        init(_ align: GtkAlign) {
            self = Self.allCases.first { $0.gtk == align } ?? .fill
        }
    }

    public var halign: Align {
        get { Align(gtk_widget_get_halign(widget)) }
        set { gtk_widget_set_halign(widget, newValue.gtk) }
    }

    public var valign: Align {
        // gtk_widget_get_valign reads baseline as fill.
        get { Align(gtk_widget_get_valign_with_baseline(widget)) }
        set { gtk_widget_set_valign(widget, newValue.gtk) }
    }

    public func setMargins(top: Int = 0, bottom: Int = 0, start: Int = 0, end: Int = 0) {
        gtk_widget_set_margin_top(widget, Int32(top))
        gtk_widget_set_margin_bottom(widget, Int32(bottom))
        gtk_widget_set_margin_start(widget, Int32(start))
        gtk_widget_set_margin_end(widget, Int32(end))
    }

    public func addStyleClass(_ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), name)
    }

    public func removeStyleClass(_ name: String) {
        gtk_style_context_remove_class(gtk_widget_get_style_context(widget), name)
    }

    public func hasStyleClass(_ name: String) -> Bool {
        gtk_style_context_has_class(gtk_widget_get_style_context(widget), name) != 0
    }

    /// Adds or removes `name`, touching the style only when that changes it: a class removed and added
    /// again in one frame still has GTK compute the widget's style, and its children's, anew.
    public func setStyleClass(_ name: String, _ present: Bool) {
        guard hasStyleClass(name) != present else { return }
        if present { addStyleClass(name) } else { removeStyleClass(name) }
    }

    public func grabFocus() { gtk_widget_grab_focus(widget) }
    /// The focus widget of its window, whether or not the window is active (gtk_widget_has_focus needs both,
    /// and can stay set on a widget removed while it had the focus).
    public var isFocus: Bool { gtk_widget_is_focus(widget) != 0 }

    /// Makes the widget's windows now (with its ancestors'), instead of at the next layout: a widget that has
    /// just been given the focus must be realized before the key's release reaches it, or GTK complains.
    public func realize() {
        guard gtk_widget_get_visible(widget) != 0 else { return }
        gtk_widget_realize(widget)
    }
    public var canFocus: Bool {
        get { gtk_widget_get_can_focus(widget) != 0 }
        set { gtk_widget_set_can_focus(widget, newValue.gboolean) }
    }

    public func queueDraw() { gtk_widget_queue_draw(widget) }

    public var allocatedWidth: Int { Int(gtk_widget_get_allocated_width(widget)) }
    public var allocatedHeight: Int { Int(gtk_widget_get_allocated_height(widget)) }
    /// Device pixels per logical pixel (2 on HiDPI screens).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    /// The name assistive technologies read, and what UI tests and xdotool-driven tests can look for.
    public var accessibleName: String? {
        get { string(atk_object_get_name(gtk_widget_get_accessible(widget))) }
        set { atk_object_set_name(gtk_widget_get_accessible(widget), newValue ?? "") }
    }

    /// The text assistive technologies read after the name ("Item 12 of 60").
    public var accessibleDescription: String? {
        get { string(atk_object_get_description(gtk_widget_get_accessible(widget))) }
        set { atk_object_set_description(gtk_widget_get_accessible(widget), newValue ?? "") }
    }

    /// Laid out right to left (Arabic, Hebrew…): "next" is to the left.
    public var isRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }

    /// Widget name, usable from CSS as #name.
    public var name: String {
        get { string(gtk_widget_get_name(widget)) ?? "" }
        set { gtk_widget_set_name(widget, newValue) }
    }

    /// Destroys the widget: it leaves its parent and its signal handlers are disconnected (and released).
    public func destroy() { gtk_widget_destroy(widget) }

    /// Coordinates of `point` (in this widget) translated into `other`'s coordinates, if they share a toplevel.
    public func translate(x: Int, y: Int, to other: Widget) -> (x: Int, y: Int)? {
        var destX: Int32 = 0
        var destY: Int32 = 0
        guard gtk_widget_translate_coordinates(widget, other.widget, Int32(x), Int32(y), &destX, &destY) != 0 else {
            return nil
        }
        return (Int(destX), Int(destY))
    }

    /// Calls `handler` with the widget's new size each time it is laid out.
    public func onSizeAllocate(_ handler: @escaping @MainActor (_ width: Int, _ height: Int) -> Void) {
        ref.connect("size-allocate") { allocation in
            guard let rectangle = allocation?.as(GdkRectangle.self).pointee else { return }
            handler(Int(rectangle.width), Int(rectangle.height))
        }
    }

    /// Calls `handler` when the widget is mapped (shown on screen with all its ancestors).
    public func onMap(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("map", handler)
    }

    /// Calls `handler` when the widget is unmapped (hidden, or an ancestor is: another stack page shows).
    public func onUnmap(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("unmap", handler)
    }

    /// Asks for more kinds of events (GDK_SCROLL_MASK…) on the widget's window; call before it is realized.
    func addEvents(_ mask: GdkEventMask) {
        gtk_widget_add_events(widget, Int32(bitPattern: mask.rawValue))
    }

    /// The least height the widget needs at `width` (what a GtkListBox gives each of its rows).
    public func minimumHeight(forWidth width: Int) -> Int {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_get_preferred_height_for_width(widget, Int32(width), &minimum, &natural)
        return Int(minimum)
    }

    /// The least width the widget needs (theme padding and borders included).
    public var minimumWidth: Int {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_get_preferred_width(widget, &minimum, &natural)
        return Int(minimum)
    }

    /// Asks GTK to lay the widget's children out again at the next frame, its own size unchanged.
    public func queueAllocate() { gtk_widget_queue_allocate(widget) }

    /// Gives the widget its place inside its parent; only from the parent's size-allocate handler.
    public func allocate(x: Int, y: Int, width: Int, height: Int) {
        var allocation = GtkAllocation(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height))
        gtk_widget_size_allocate(widget, &allocation)
    }

    /// True when the keyboard focus is on this widget or inside it.
    public var containsFocus: Bool {
        guard let toplevel = gtk_widget_get_toplevel(widget), gtk_widget_is_toplevel(toplevel) != 0,
              let focus = gtk_window_get_focus(toplevel.raw.as(GtkWindow.self)) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }

    /// Calls `handler` when the widget is destroyed (before it is finalized).
    public func onDestroy(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("destroy", handler)
    }

    /// Calls `handler` on each key press with the key and the modifiers held; return true when the key was
    /// handled.
    public func onKeyPress(_ handler: @escaping @MainActor (_ key: Key, _ modifiers: KeyModifiers) -> Bool) {
        ref.connectEvent("key-press-event") { event in
            guard let key = event?.as(GdkEventKey.self).pointee else { return false }
            return handler(Key(keyval: key.keyval), KeyModifiers(state: key.state))
        }
    }
}

/// Widgets that hold one child.
@MainActor
public class Bin: Widget {
    public func setChild(_ child: Widget) {
        if let old = gtk_bin_get_child(widget.raw.as(GtkBin.self)) {
            gtk_container_remove(widget.raw.as(GtkContainer.self), old)
        }
        gtk_container_add(widget.raw.as(GtkContainer.self), child.widget)
    }
}
