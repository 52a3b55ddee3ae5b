internal import CGLib
internal import CGtk
import GObjectBindings

/// Mouse-wheel and touchpad scrolling over a widget (GTK 3.24's GtkEventControllerScroll). Wheel clicks
/// arrive as deltas of ±1; touchpads as fractions of that, then — with `.kinetic` — the finger's velocity
/// when it lifts, for the caller to decelerate from.
@MainActor
public final class EventControllerScroll {
    private let ref: ObjectRef

    /// Which scrolls the controller reports, and how.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let vertical = Flags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue)
        public static let horizontal = Flags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL.rawValue)
        /// Whole wheel clicks only: touchpad fractions are added up into them.
        public static let discrete = Flags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_DISCRETE.rawValue)
        /// `onDecelerate` reports the fingers' velocity when a touchpad scroll ends.
        public static let kinetic = Flags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_KINETIC.rawValue)
    }

    /// In GTK 3 the widget does not own its controllers: this object keeps it alive.
    public init(on widget: Widget, flags: Flags) {
        widget.addEvents(GdkEventMask(rawValue: GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue))
        ref = ObjectRef(gtk_event_controller_scroll_new(widget.widget, GtkEventControllerScrollFlags(rawValue: flags.rawValue)).raw,
                        transfer: .full)
    }

    /// A scroll by (dx, dy) in wheel clicks.
    public func onScroll(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void) {
        ref.connect("scroll") { (dx: Double, dy: Double) in handler(dx, dy) }
    }

    /// A touchpad scroll began (fingers down): any deceleration under way should stop.
    public func onScrollBegin(_ handler: @escaping @MainActor () -> Void) {
        ref.connect("scroll-begin", handler)
    }

    /// Fingers lifted with this velocity, in wheel clicks per second.
    public func onDecelerate(_ handler: @escaping @MainActor (_ velocityX: Double, _ velocityY: Double) -> Void) {
        ref.connect("decelerate") { (vx: Double, vy: Double) in handler(vx, vy) }
    }
}
