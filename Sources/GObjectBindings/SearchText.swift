import CGLib

/// Text made searchable as GNOME searches it: GLib's `g_str_tokenize_and_fold` splits it into words,
/// case-folds and normalizes them, and adds ASCII spellings of accented ones, so "Café" is found by "cafe",
/// "CAFÉ" and "café". Pure functions of their input: safe on a worker thread.
public enum SearchText {
    /// The words of `text` and their ASCII spellings, folded, each after a space. Empty for text without
    /// words. A query's words are found anywhere in it ("alt" in "salt"), as a filter of what is shown
    /// should, not only at a word's start as GNOME's search of applications does.
    public static func folded(_ text: String) -> String {
        var alternates: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        guard let tokens = g_str_tokenize_and_fold(text, nil, &alternates) else { return "" }
        defer {
            g_strfreev(tokens)
            g_strfreev(alternates)
        }
        var result = ""
        for list in [tokens, alternates] {
            var index = 0
            while let word = list?[index] {
                result += " " + String(cString: word)
                index += 1
            }
        }
        return result
    }

    /// The folded words of what was typed, each to be found in a `folded` text.
    public static func queryWords(_ query: String) -> [String] {
        guard let tokens = g_str_tokenize_and_fold(query, nil, nil) else { return [] }
        defer { g_strfreev(tokens) }
        var words: [String] = []
        var index = 0
        while let word = tokens[index] {
            words.append(String(cString: word))
            index += 1
        }
        return words
    }
}
