internal import CGLib
internal import CGtk
import GObjectBindings

/// "Open With…": GTK's application chooser for a local file (the applications that declare its type first),
/// then the chosen one launched on it with the window's launch context, as Eye of GNOME does. It owns itself
/// until answered.
@MainActor
public final class AppChooser {
    public enum Outcome: Equatable, Sendable {
        /// The application's name.
        case launched(String)
        case cancelled
        /// The launch failed: GIO's message.
        case failed(String)
    }

    private let dialog: UnsafeMutablePointer<GtkWidget>
    private let file: ObjectRef
    private let parent: ApplicationWindow
    private var completion: (@MainActor (Outcome) -> Void)?
    private var keepAlive: AppChooser?

    public init(file path: String, parent: ApplicationWindow) {
        file = ObjectRef(UnsafeMutableRawPointer(g_file_new_for_path(path)!), transfer: .full)
        self.parent = parent
        let flags = GtkDialogFlags(rawValue: GTK_DIALOG_MODAL.rawValue | GTK_DIALOG_DESTROY_WITH_PARENT.rawValue)
        dialog = gtk_app_chooser_dialog_new(parent.widget.raw.as(GtkWindow.self), flags, file.opaque)
        // The type's default application heads the list and is the one chosen unless the user picks another,
        // as in Files.
        let widget = gtk_app_chooser_dialog_get_widget(dialog.raw.as(GtkAppChooserDialog.self))
        gtk_app_chooser_widget_set_show_default(widget?.raw.as(GtkAppChooserWidget.self), 1)
    }

    /// Shows the chooser; `completion` runs once it was answered (and the application launched).
    public func run(_ completion: @escaping @MainActor (Outcome) -> Void) {
        self.completion = completion
        keepAlive = self
        ObjectRef(UnsafeMutableRawPointer(dialog), transfer: .none).connect("response") { [weak self] (response: UnsafeMutableRawPointer?) in
            // The response id arrives as a gint in the pointer-sized argument.
            self?.answered(Int32(truncatingIfNeeded: Int(bitPattern: response)))
        }
        gtk_widget_show(dialog)
    }

    private func answered(_ response: Int32) {
        var outcome = Outcome.cancelled
        if response == GTK_RESPONSE_OK.rawValue, let info = gtk_app_chooser_get_app_info(OpaquePointer(dialog)) {
            outcome = launch(info)
            g_object_unref(UnsafeMutableRawPointer(info))
        }
        gtk_widget_destroy(dialog)
        let completion = self.completion
        self.completion = nil
        keepAlive = nil
        completion?(outcome)
    }

    private func launch(_ info: OpaquePointer) -> Outcome {
        let display = gtk_widget_get_display(parent.widget)
        let context = gdk_display_get_app_launch_context(display)
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let files = g_list_append(nil, UnsafeMutableRawPointer(file.opaque))
        defer { g_list_free(files) }
        var error: UnsafeMutablePointer<GError>?
        let name = string(g_app_info_get_display_name(info)) ?? ""
        guard g_app_info_launch(info, files, UnsafeMutableRawPointer(context)?.assumingMemoryBound(to: GAppLaunchContext.self), &error) != 0 else {
            return .failed(error.map { GLibError(consuming: $0).message } ?? "")
        }
        return .launched(name)
    }
}
