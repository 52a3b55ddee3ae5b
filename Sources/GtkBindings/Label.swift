internal import CGLib
internal import CGtk
import GObjectBindings

@MainActor
public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(gtk_label_new(text))
    }

    private var label: UnsafeMutablePointer<GtkLabel> { widget.raw.as(GtkLabel.self) }

    /// Set only when it changes: GTK measures a label again and redraws its container for any text set, the
    /// same included (a recycled row's labels are set at every change of its model).
    public var text: String {
        get { string(gtk_label_get_text(label)) ?? "" }
        set {
            guard newValue != text else { return }
            gtk_label_set_text(label, newValue)
        }
    }

    /// Where text that does not fit is shortened with "…", instead of widening the window.
    public enum EllipsizeMode: Sendable, CaseIterable {
        /// Not shortened: the label asks for all the width it needs.
        case none
        case start
        case middle
        case end

        var pango: PangoEllipsizeMode {
            switch self {
            case .none: PANGO_ELLIPSIZE_NONE
            case .start: PANGO_ELLIPSIZE_START
            case .middle: PANGO_ELLIPSIZE_MIDDLE
            case .end: PANGO_ELLIPSIZE_END
            }
        }
    }

    /// How the lines of a wrapped text line up with each other.
    public enum Justification: Sendable, CaseIterable {
        case left
        case right
        case center
        case fill

        var gtk: GtkJustification {
            switch self {
            case .left: GTK_JUSTIFY_LEFT
            case .right: GTK_JUSTIFY_RIGHT
            case .center: GTK_JUSTIFY_CENTER
            case .fill: GTK_JUSTIFY_FILL
            }
        }
    }

    public var ellipsize: EllipsizeMode {
        get { EllipsizeMode.allCases.first { $0.pango == gtk_label_get_ellipsize(label) } ?? .none }
        set { gtk_label_set_ellipsize(label, newValue.pango) }
    }

    public var xalign: Float {
        get { gtk_label_get_xalign(label) }
        set { gtk_label_set_xalign(label, newValue) }
    }

    public var wraps: Bool {
        get { gtk_label_get_line_wrap(label) != 0 }
        set { gtk_label_set_line_wrap(label, newValue.gboolean) }
    }

    public var justify: Justification {
        get { Justification.allCases.first { $0.gtk == gtk_label_get_justify(label) } ?? .left }
        set { gtk_label_set_justify(label, newValue.gtk) }
    }

    /// Where a wrapping label may break its lines.
    public enum WrapMode: Sendable, CaseIterable {
        /// Between words only: one long word makes the label as wide as the word.
        case word
        case character
        /// Between words, and inside a word too long for a line (a URL, a hash, a hostile run of letters).
        case wordOrCharacter

        var pango: PangoWrapMode {
            switch self {
            case .word: PANGO_WRAP_WORD
            case .character: PANGO_WRAP_CHAR
            case .wordOrCharacter: PANGO_WRAP_WORD_CHAR
            }
        }
    }

    public var wrapMode: WrapMode {
        get { WrapMode.allCases.first { $0.pango == gtk_label_get_line_wrap_mode(label) } ?? .word }
        set { gtk_label_set_line_wrap_mode(label, newValue.pango) }
    }

    public var isSelectable: Bool {
        get { gtk_label_get_selectable(label) != 0 }
        set { gtk_label_set_selectable(label, newValue.gboolean) }
    }

    public var maxWidthChars: Int {
        get { Int(gtk_label_get_max_width_chars(label)) }
        set { gtk_label_set_max_width_chars(label, Int32(newValue)) }
    }
}
