internal import CGLib
internal import CGtk
import GObjectBindings

/// A file chooser ("Save As", a folder to save into, a file to open) through GtkFileChooserNative: the desktop
/// portal's dialog when the app runs in a sandbox or under a portal-using desktop, GTK's own dialog otherwise.
/// It owns itself until answered.
@MainActor
public final class FileChooser {
    private let ref: ObjectRef
    private var chooser: OpaquePointer { ref.opaque }
    private var completion: (@MainActor (String?) -> Void)?
    /// Keeps the chooser alive while it is shown (GtkFileChooserNative is not a widget: nothing else holds it).
    private var keepAlive: FileChooser?

    /// `suggestedName`: the name proposed in the entry; `folder`: where the chooser starts; the labels are
    /// the buttons' (with mnemonics).
    public init(title: String, acceptLabel: String, cancelLabel: String, parent: ApplicationWindow,
                suggestedName: String, folder: String?) {
        let native = gtk_file_chooser_native_new(title, parent.widget.raw.as(GtkWindow.self),
                                                 GTK_FILE_CHOOSER_ACTION_SAVE, acceptLabel, cancelLabel)!
        ref = ObjectRef(UnsafeMutableRawPointer(native), transfer: .full)
        gtk_native_dialog_set_modal(native.raw.as(GtkNativeDialog.self), 1)
        gtk_file_chooser_set_do_overwrite_confirmation(chooser, 1)
        if let folder { gtk_file_chooser_set_current_folder(chooser, folder) }
        gtk_file_chooser_set_current_name(chooser, suggestedName)
    }

    /// A folder to save several files into, starting in `folder`; the accept button picks the folder shown
    /// or selected.
    public init(folderTitle title: String, acceptLabel: String, cancelLabel: String, parent: ApplicationWindow,
                folder: String?) {
        let native = gtk_file_chooser_native_new(title, parent.widget.raw.as(GtkWindow.self),
                                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, acceptLabel, cancelLabel)!
        ref = ObjectRef(UnsafeMutableRawPointer(native), transfer: .full)
        gtk_native_dialog_set_modal(native.raw.as(GtkNativeDialog.self), 1)
        gtk_file_chooser_set_create_folders(chooser, 1)
        if let folder { gtk_file_chooser_set_current_folder(chooser, folder) }
    }

    /// A file to open, starting in `folder`, showing the files `pattern` matches ("*.opml") and, in a second
    /// filter (`allFilesName`), every file.
    public init(openTitle title: String, acceptLabel: String, cancelLabel: String, parent: ApplicationWindow,
                folder: String?, filterName: String, pattern: String, allFilesName: String) {
        let native = gtk_file_chooser_native_new(title, parent.widget.raw.as(GtkWindow.self),
                                                 GTK_FILE_CHOOSER_ACTION_OPEN, acceptLabel, cancelLabel)!
        ref = ObjectRef(UnsafeMutableRawPointer(native), transfer: .full)
        gtk_native_dialog_set_modal(native.raw.as(GtkNativeDialog.self), 1)
        if let folder { gtk_file_chooser_set_current_folder(chooser, folder) }
        let matching = gtk_file_filter_new()!
        gtk_file_filter_set_name(matching, filterName)
        gtk_file_filter_add_pattern(matching, pattern)
        gtk_file_chooser_add_filter(chooser, matching)
        let every = gtk_file_filter_new()!
        gtk_file_filter_set_name(every, allFilesName)
        gtk_file_filter_add_pattern(every, "*")
        gtk_file_chooser_add_filter(chooser, every)
    }

    /// Shows the chooser; `completion` gets the chosen path, or nil when cancelled.
    public func run(_ completion: @escaping @MainActor (String?) -> Void) {
        self.completion = completion
        keepAlive = self
        ref.connectInt("response") { [weak self] response in self?.answered(response) }
        gtk_native_dialog_show(ref.typed())
    }

    private func answered(_ response: Int32) {
        let path = response == GTK_RESPONSE_ACCEPT.rawValue ? takeString(gtk_file_chooser_get_filename(chooser)) : nil
        let completion = self.completion
        self.completion = nil
        keepAlive = nil
        completion?(path)
    }

    /// The user's Pictures folder (XDG), if it exists.
    public static var picturesFolder: String? {
        string(g_get_user_special_dir(G_USER_DIRECTORY_PICTURES))
    }

    /// The user's Documents folder (XDG), if it exists.
    public static var documentsFolder: String? {
        string(g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS))
    }
}
