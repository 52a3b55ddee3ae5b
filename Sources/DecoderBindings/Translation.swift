import CGLib

// gettext for the app's own texts, on GLib's g_dgettext/g_dngettext with the text domain "gallery-viewer".
//
//     tr("Main Menu")
//     tr("Saved {name}", ["name": fileName])
//     trn("{count} image", "{count} images", count)            // {count} is filled in by trn
//
// The arguments must be string literals (StaticString: an interpolated "\(x)" does not compile), because
// `make pot` finds the texts with xgettext, which reads literals only. Values go in through named
// placeholders instead, so a translation can move them around (resources/po/README.md tells translators).
// A comment starting with "TRANSLATORS:" right above the call goes into the template, for texts whose
// meaning is not plain from the words alone.
//
// A translation that drops, repeats or misspells a placeholder never breaks anything: placeholders are
// filled in one pass, a name without a value stays as written, and a value is never searched again (a
// username "{count}" stays "{count}").

/// The translation of `message`, with its `{name}` placeholders filled in from `values`.
public func tr(_ message: StaticString, _ values: [String: any CustomStringConvertible] = [:]) -> String {
    let translated = message.description.withCString { msgid in
        String(cString: g_dgettext(Translation.domain, msgid))
    }
    return Translation.substitute(translated, values)
}

/// The translation of `singular`/`plural` for `count` (languages have one to six plural forms; gettext
/// picks the one `count` needs), with `{count}` and the other placeholders filled in.
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int,
                _ values: [String: any CustomStringConvertible] = [:]) -> String {
    let translated = singular.description.withCString { one in
        plural.description.withCString { many in
            String(cString: g_dngettext(Translation.domain, one, many, gulong(max(0, count))))
        }
    }
    return Translation.substitute(translated, values.merging(["count": count]) { given, _ in given })
}

public enum Translation {
    /// The text domain: `<locale dir>/LANG/LC_MESSAGES/gallery-viewer.mo`.
    public static let domain = "gallery-viewer"

    /// Once, first thing in `main`, before any translated text is made: takes the user's locale from the
    /// environment (LANG, LC_*, LANGUAGE; GTK would do it only later, in gtk_init, and the command-line
    /// modes never call that) and binds the domain to `localeDirectory`. It is also the default domain,
    /// which lets GLib keep the whole window in English (GTK's own texts too) for a language the app has no
    /// translation for, instead of mixing two languages.
    public static func setUp(localeDirectory: String) {
        setlocale(LC_ALL, "")
        bind(localeDirectory: localeDirectory)
        textdomain(domain)
    }

    /// Where the domain's catalogues are, read as UTF-8 whatever the locale's encoding. Safe to call again
    /// (tests switch to a catalogue of their own): gettext drops what it cached.
    public static func bind(localeDirectory: String) {
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
    }

    /// `template` with each `{name}` that has a value replaced by it, in one pass; anything else, braces
    /// included, stays as it is. Works on UTF-8 bytes, where a brace is one byte that no other character's
    /// bytes contain, so a combining mark after a brace (a translation typed that way) cannot hide it inside
    /// one character; and bytes are cheap: every cell bound fills in its "Item 12 of N".
    public static func substitute(_ template: String, _ values: [String: any CustomStringConvertible]) -> String {
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        guard !values.isEmpty, template.utf8.contains(open) else { return template }
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        var rest = 0
        while let brace = bytes[rest...].firstIndex(of: open) {
            result.append(contentsOf: bytes[rest..<brace])
            let nameStart = brace + 1
            if let end = bytes[nameStart...].firstIndex(where: { $0 == close || $0 == open }), bytes[end] == close,
               let value = values[String(decoding: bytes[nameStart..<end], as: UTF8.self)] {
                result.append(contentsOf: String(describing: value).utf8)
                rest = end + 1
            } else {
                result.append(open)
                rest = nameStart
            }
        }
        result.append(contentsOf: bytes[rest...])
        return String(decoding: result, as: UTF8.self)
    }
}
