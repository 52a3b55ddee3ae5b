/// File and folder names for `--download`, made from what a (possibly hostile) service calls its items.
///
/// A safe name is one path component that every common file system accepts and no file manager or terminal
/// misreads: no "/", NUL, control or bidirectional-override characters, none of `<>:"\|?*` (FAT and NTFS
/// drives refuse them), no leading dot (a hidden file, or "." and ".."), at most `maxNameBytes` of UTF-8.
public enum DownloadNames {
    /// Leaves room under the usual 255-byte limit for the partial file's "." prefix and ".part" suffix and
    /// for a uniqueness suffix.
    public static let maxNameBytes = 200

    /// The name of the hidden file a download is written to until it is complete.
    public static func partialName(of name: String) -> String { "." + name + ".part" }

    /// `name` made safe; `fallback` (made safe too) when nothing usable is left.
    public static func safe(_ name: String, fallback: String = "item") -> String {
        let result = tidy(withoutForbiddenCharacters(name))
        if result.isEmpty { return fallback == name ? "item" : safe(fallback, fallback: "item") }
        // Cutting happens between characters, and one character can be longer than the limit (a letter under
        // hundreds of combining marks): the stem may be gone, or end in a dot or space again. The cut name is
        // checked once more; with nothing left of the stem, the fallback takes its place.
        let raw = truncated(result, toBytes: maxNameBytes)
        let cut = tidy(raw)
        // `result` starts with no dot: a cut that does kept only the extension.
        guard raw.hasPrefix(".") || cut.isEmpty else { return cut }
        let stand = fallback == name || fallback == "item" ? "item" : fallback
        return safe(stand + (raw.hasPrefix(".") ? raw : ""), fallback: "item")
    }

    /// `name` without control, format and unassigned characters, and with `forbidden` ones as "_".
    private static func withoutForbiddenCharacters(_ name: String) -> String {
        // Most names are printable ASCII without a forbidden character: nothing to take out or replace.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !forbiddenBytes.contains($0) }) { return name }
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                continue
            default:
                break
            }
            scalars.append(forbidden.contains(scalar) ? "_" : scalar)
        }
        return String(scalars)
    }

    /// Without what vanishes (trailing dots and spaces, on Windows file systems) or hides the file (a leading
    /// dot); surrounding white space trimmed.
    private static func tidy(_ name: String) -> String {
        var result = name.trimmed
        while result.hasSuffix(".") || result.hasSuffix(" ") { result.removeLast() }
        while result.hasPrefix(".") { result = "_" + result.dropFirst() }
        return result
    }

    /// Names for `items` (each `(id, preferred name)`), safe and unique within one folder, case-insensitively
    /// (a gallery may be copied to a case-insensitive drive). A clash is resolved with the item's id, not a
    /// counter, so a name does not change when the gallery gains items: "Sunset.jpg", "Sunset (4711).jpg".
    /// Names are given in the order of `items`; pass the oldest first, so existing files keep their names.
    public static func unique(_ items: [(id: String, name: String)]) -> [String] {
        var taken = Set<String>()
        var result: [String] = []
        result.reserveCapacity(items.count)
        for item in items {
            let base = safe(item.name, fallback: item.id)
            var candidate = base
            var attempt = 1
            while taken.contains(candidate.lowercased()) {
                let tag = safe(item.id, fallback: "item")
                candidate = insert(attempt == 1 ? " (\(tag))" : " (\(tag)-\(attempt))", into: base)
                attempt += 1
            }
            taken.insert(candidate.lowercased())
            result.append(candidate)
        }
        return result
    }

    private static let forbidden: Set<Unicode.Scalar> = ["/", "\\", "<", ">", ":", "\"", "|", "?", "*"]
    private static let forbiddenBytes = Set(forbidden.map { UInt8($0.value) })

    /// `suffix` before the extension ("a.jpg" → "a (x).jpg"), shortening the stem to stay within the limit.
    private static func insert(_ suffix: String, into name: String) -> String {
        let (stem, ext) = split(name)
        let budget = max(1, maxNameBytes - suffix.utf8.count - ext.utf8.count)
        return truncated(stem, toBytes: budget) + String(suffix.prefix(maxNameBytes / 2)) + ext
    }

    /// ("photo", ".jpg"); ("v1.2 final", "") for a name without a `FileExtension`.
    private static func split(_ name: String) -> (stem: String, ext: String) {
        FileExtension.split(name).map { (String($0.stem), String($0.ext)) } ?? (name, "")
    }

    /// At most `limit` bytes of UTF-8, cut between characters, keeping the extension when there is one.
    private static func truncated(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        let (stem, ext) = split(name)
        let keepExtension = ext.utf8.count < limit / 2
        let cut = keepExtension ? stem.prefix(utf8Bytes: limit - ext.utf8.count) : name.prefix(utf8Bytes: limit)
        return cut.trimmed + (keepExtension ? ext : "")
    }
}
