import GObjectBindings

/// Where the installed app's files are: `make install` puts the binary in `<prefix>/bin` and its data under
/// `<prefix>/share`, so they are found from the binary's own location, whatever the prefix.
enum Installation {
    /// Overrides the translations' directory (tests, trying a translation before installing it).
    static let localeDirectoryVariable = "GALLERY_VIEWER_LOCALEDIR"

    /// `<prefix>/share` of the running binary; nil when /proc is not there to tell.
    static var shareDirectory: String? {
        guard let binDirectory = Program.executableDirectory else { return nil }
        return binDirectory + "/../share"
    }

    /// The compiled translations: `$GALLERY_VIEWER_LOCALEDIR`, else `<prefix>/share/locale` (a development
    /// build's has none, so it speaks English unless the variable points at some).
    static var localeDirectory: String {
        if let directory = Program.environment(localeDirectoryVariable), !directory.isEmpty { return directory }
        return (shareDirectory ?? "/usr/share") + "/locale"
    }
}
