internal import CGLib
internal import CGtk
import GObjectBindings

/// The modifier keys held with a key press that shortcuts care about. Lock keys (Caps Lock, Num Lock) and
/// the mouse buttons are left out, so that Shift+F10 is Shift+F10 whatever else is on.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let control = KeyModifiers(rawValue: 1 << 1)
    public static let alt = KeyModifiers(rawValue: 1 << 2)

    /// The relevant part of a GDK event's `state`.
    init(state: UInt32) {
        var modifiers: KeyModifiers = []
        if state & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
        if state & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
        if state & GDK_MOD1_MASK.rawValue != 0 { modifiers.insert(.alt) }
        self = modifiers
    }
}
