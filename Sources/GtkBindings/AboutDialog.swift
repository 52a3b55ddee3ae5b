internal import CGLib
internal import CGtk
import GObjectBindings

/// The standard "About" window.
@MainActor
public enum AboutDialog {
    /// The licence the window names (with a link to its text).
    public enum License: Sendable {
        case mitX11
        case apache2
        /// GPL 3.0 or later.
        case gpl3
        /// LGPL 3.0 or later.
        case lgpl3

        var gtk: GtkLicense {
            switch self {
            case .mitX11: GTK_LICENSE_MIT_X11
            case .apache2: GTK_LICENSE_APACHE_2_0
            case .gpl3: GTK_LICENSE_GPL_3_0
            case .lgpl3: GTK_LICENSE_LGPL_3_0
            }
        }
    }

    public struct Info {
        public var programName: String
        public var version: String
        public var comments: String
        public var website: String
        public var iconName: String
        public var license: License
        public var authors: [String]
        /// The translators' names, one per line; nil for none (the app speaks English).
        public var translatorCredits: String?

        public init(programName: String, version: String, comments: String, website: String, iconName: String,
                    license: License, authors: [String], translatorCredits: String? = nil) {
            self.programName = programName
            self.version = version
            self.comments = comments
            self.website = website
            self.iconName = iconName
            self.license = license
            self.authors = authors
            self.translatorCredits = translatorCredits
        }
    }

    public static func present(_ info: Info, parent: ApplicationWindow) {
        let dialogWidget = gtk_about_dialog_new()!
        let dialog = dialogWidget.raw.as(GtkAboutDialog.self)
        gtk_about_dialog_set_program_name(dialog, info.programName)
        gtk_about_dialog_set_version(dialog, info.version)
        gtk_about_dialog_set_comments(dialog, info.comments)
        gtk_about_dialog_set_website(dialog, info.website)
        gtk_about_dialog_set_logo_icon_name(dialog, info.iconName)
        gtk_about_dialog_set_license_type(dialog, info.license.gtk)
        var authors = info.authors.map { UnsafePointer(strdup($0)) } + [nil]
        gtk_about_dialog_set_authors(dialog, &authors)
        authors.forEach { free(UnsafeMutableRawPointer(mutating: $0)) }
        if let credits = info.translatorCredits { gtk_about_dialog_set_translator_credits(dialog, credits) }
        let window = dialogWidget.raw.as(GtkWindow.self)
        gtk_window_set_transient_for(window, parent.widget.raw.as(GtkWindow.self))
        gtk_window_set_modal(window, 1)
        ObjectRef(dialogWidget, transfer: .none).connectInt("response") { _ in gtk_widget_destroy(dialogWidget) }
        gtk_window_present(window)
    }
}
