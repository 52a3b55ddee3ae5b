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
    private var completion: (@MainActor (Outcome) -> Void)?
    /// Kept alive while the dialog is shown: until it is answered, or destroyed with the window unanswered.
    private var keepAlive: AppChooser?

    public init(file path: String, parent: ApplicationWindow) {
        file = ObjectRef(UnsafeMutableRawPointer(g_file_new_for_path(path)!), transfer: .full)
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
        let object = ObjectRef(UnsafeMutableRawPointer(dialog), transfer: .none)
        object.connectInt("response") { [weak self] response in self?.answered(response) }
        // Destroyed with its window before an answer (DESTROY_WITH_PARENT): no response comes.
        object.connect("destroy") { [weak self] in self?.finish(.cancelled) }
        gtk_widget_show(dialog)
    }

    private func answered(_ response: Int32) {
        var outcome = Outcome.cancelled
        if response == GTK_RESPONSE_OK.rawValue, let info = gtk_app_chooser_get_app_info(OpaquePointer(dialog)) {
            outcome = launch(info)
            g_object_unref(UnsafeMutableRawPointer(info))
        }
        finish(outcome)
        gtk_widget_destroy(dialog)
    }

    private func finish(_ outcome: Outcome) {
        guard let completion else { return }
        self.completion = nil
        keepAlive = nil
        completion(outcome)
    }

    private func launch(_ info: OpaquePointer) -> Outcome {
        let context = gdk_display_get_app_launch_context(gtk_widget_get_display(dialog))
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        // The click's time, so that the desktop lets the application it starts come to the front.
        gdk_app_launch_context_set_timestamp(context, gtk_get_current_event_time())
        let files = g_list_append(nil, UnsafeMutableRawPointer(file.opaque))
        defer { g_list_free(files) }
        var error: UnsafeMutablePointer<GError>?
        let name = string(g_app_info_get_display_name(info)) ?? ""
        guard g_app_info_launch(info, files, UnsafeMutableRawPointer(context)?.assumingMemoryBound(to: GAppLaunchContext.self), &error) != 0 else {
            let message = error.map { GLibError(consuming: $0).message } ?? ""
            return .failed(message.isEmpty ? tr("The application could not be started.") : message)
        }
        return .launched(name)
    }
}
