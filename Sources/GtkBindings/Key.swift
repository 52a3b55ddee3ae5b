internal import CGLib
internal import CGtk
import GObjectBindings

/// A key as GDK names it (its keyval): what the key means, whatever the keyboard's layout. A key handler
/// compares it with these constants, e.g. `case .down, .keypadDown:`.
public struct Key: Hashable, Sendable {
    /// GDK's keyval.
    public let value: UInt32

    init(_ keyval: Int32) { value = UInt32(bitPattern: keyval) }
    init(keyval: UInt32) { value = keyval }

    public static let up = Key(GDK_KEY_Up)
    public static let down = Key(GDK_KEY_Down)
    public static let left = Key(GDK_KEY_Left)
    public static let right = Key(GDK_KEY_Right)
    public static let pageUp = Key(GDK_KEY_Page_Up)
    public static let pageDown = Key(GDK_KEY_Page_Down)
    public static let home = Key(GDK_KEY_Home)
    public static let end = Key(GDK_KEY_End)
    /// Enter on the main keyboard (GDK's Return).
    public static let enter = Key(GDK_KEY_Return)
    /// Enter on ISO keyboards' layouts that name it so.
    public static let isoEnter = Key(GDK_KEY_ISO_Enter)
    public static let space = Key(GDK_KEY_space)
    public static let escape = Key(GDK_KEY_Escape)
    public static let tab = Key(GDK_KEY_Tab)
    /// The context-menu key.
    public static let menu = Key(GDK_KEY_Menu)
    public static let f10 = Key(GDK_KEY_F10)
    public static let f5 = Key(GDK_KEY_F5)
    /// A (Ctrl+A selects all); Caps Lock makes it the capital.
    public static let letterA = Key(GDK_KEY_a)
    public static let capitalA = Key(GDK_KEY_A)

    // The numeric keypad's own keys, with Num Lock off.
    public static let keypadUp = Key(GDK_KEY_KP_Up)
    public static let keypadDown = Key(GDK_KEY_KP_Down)
    public static let keypadLeft = Key(GDK_KEY_KP_Left)
    public static let keypadRight = Key(GDK_KEY_KP_Right)
    public static let keypadPageUp = Key(GDK_KEY_KP_Page_Up)
    public static let keypadPageDown = Key(GDK_KEY_KP_Page_Down)
    public static let keypadHome = Key(GDK_KEY_KP_Home)
    public static let keypadEnd = Key(GDK_KEY_KP_End)
    public static let keypadEnter = Key(GDK_KEY_KP_Enter)
    public static let keypadSpace = Key(GDK_KEY_KP_Space)
}
