internal import CGLib
internal import CGtk
import GObjectBindings

/// What kind of message a bar or a dialog carries: its colour and, for a dialog, its icon.
public enum MessageType: Sendable, CaseIterable {
    case info
    case warning
    case question
    case error
    case other

    var gtk: GtkMessageType {
        switch self {
        case .info: GTK_MESSAGE_INFO
        case .warning: GTK_MESSAGE_WARNING
        case .question: GTK_MESSAGE_QUESTION
        case .error: GTK_MESSAGE_ERROR
        case .other: GTK_MESSAGE_OTHER
        }
    }

    init(_ type: GtkMessageType) {
        self = Self.allCases.first { $0.gtk == type } ?? .other
    }
}
