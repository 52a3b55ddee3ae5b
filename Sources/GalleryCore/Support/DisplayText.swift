/// Text a server sent, made fit to show in the window or print on a terminal: control characters (terminal
/// escape sequences, bells, tabs and line breaks that would break one-line-per-item output) become spaces,
/// bidirectional controls that reorder what is displayed ("gpj.exe" shown as "exe.jpg") are dropped, runs of
/// spaces collapse, and the text is cut at `limit` characters with "…".
public enum DisplayText {
    public static func clean(_ text: String, keepLineBreaks: Bool = false, limit: Int = 1000) -> String {
        isAlreadyClean(text, limit: limit) ? text : rebuilt(text, keepLineBreaks: keepLineBreaks, limit: limit)
    }

    /// Most titles and descriptions need no change, and looking is cheaper than building the copy scalar by
    /// scalar, and long galleries build thousands of them: no control, whitespace or bidi control but single spaces
    /// between other characters, no more than `limit` of them. Then `rebuilt` would return `text` as is.
    static func isAlreadyClean(_ text: String, limit: Int) -> Bool {
        var count = 0
        var afterSpace = true  // a space first is dropped
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= limit else { return false }
            if scalar == " " {
                guard !afterSpace else { return false }
                afterSpace = true
                continue
            }
            guard !scalar.isControlOrWhitespace, !isBidiControl(scalar) else { return false }
            afterSpace = false
        }
        return count == 0 || !afterSpace  // a space last is dropped
    }

    /// The cleaning itself, scalar by scalar.
    static func rebuilt(_ text: String, keepLineBreaks: Bool, limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        var cut = false
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) { continue }
            if keepLineBreaks && scalar == "\n" {
                scalars.append("\n")
                pendingSpace = false
                continue
            }
            if scalar.isControlOrWhitespace {
                pendingSpace = !scalars.isEmpty && scalars.last != "\n"
                continue
            }
            guard count + (pendingSpace ? 1 : 0) < limit else {
                cut = true
                break
            }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
                count += 1
            }
            scalars.append(scalar)
            count += 1
        }
        var result = String(scalars)
        while result.hasSuffix("\n") { result.removeLast() }
        return cut ? result + "…" : result
    }

    /// True when `text` needs no cleaning (no controls, no bidi controls).
    public static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value >= 0x80 ? isBidiControl($0) || $0.properties.generalCategory == .control
                                                           : $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Arabic letter mark, left-to-right and right-to-left marks, embeddings, overrides and isolates.
    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension Unicode.Scalar {
    /// Feeds are mostly ASCII, and a scalar's Unicode properties are a table lookup each: at a page of
    /// descriptions that was most of the parse (perf, `--list` of a 15-page gallery).
    var isWhitespaceScalar: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }

    /// Control characters (category Cc) and whitespace.
    var isControlOrWhitespace: Bool {
        value < 0x80 ? value <= 0x20 || value == 0x7F : properties.generalCategory == .control || properties.isWhitespace
    }
}
