import GtkBindings
import GalleryCore

/// A profile link dropped onto the window (from a browser's address bar, a chat, a file manager's uri-list)
/// opens that gallery, as typing it into the entry does (`MainWindow.search(link:)`, which also says what is
/// wrong with a link it cannot read). Drags from the window itself (an image dragged out of the large view
/// and let go over it) are ignored.
@MainActor
final class LinkDrop {
    /// A link is short; a drop of a long text is read only this far.
    static let maxBytes = 16 * 1024

    private let target: DropTarget

    init(window: Widget, open: @escaping @MainActor (String) -> Void) {
        target = DropTarget(on: window, maxBytes: Self.maxBytes)
        target.onDrop { drop in
            guard !drop.isFromSameWindow, let link = DroppedLink.first(in: drop) else { return }
            open(link)
        }
    }

    /// The window's drop target (tests deliver drops through it as GTK does).
    var dropTarget: DropTarget { target }
}

/// The first http(s) address in what was dropped, read as its kind is written.
enum DroppedLink {
    static func first(in drop: DropTarget.Drop) -> String? {
        let text: String
        switch drop.kind {
        case .mozURL: text = utf16(drop.bytes)
        case .uriList, .netscapeURL, .text: text = String(decoding: drop.bytes, as: UTF8.self)
        }
        // A uri-list's lines starting with # are comments; "URL\ntitle" has the address on its first line; text
        // may have words around it. Every kind splits the same way.
        return text.split(whereSeparator: { $0.isWhitespace || $0 == "\0" })
            .lazy.map(String.init)
            .first { !$0.hasPrefix("#") && URLText.isWebAddress($0) }
    }

    /// text/x-moz-url is UTF-16 in the sender's byte order, with or without a byte-order mark.
    private static func utf16(_ bytes: [UInt8]) -> String {
        var bigEndian = false
        var start = 0
        if bytes.count >= 2 {
            if bytes[0] == 0xFE, bytes[1] == 0xFF { (bigEndian, start) = (true, 2) }
            if bytes[0] == 0xFF, bytes[1] == 0xFE { start = 2 }
        }
        let units = stride(from: start, to: bytes.count - 1, by: 2).map { index -> UInt16 in
            let pair = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return bigEndian ? pair.0 << 8 | pair.1 : pair.1 << 8 | pair.0
        }
        return String(decoding: units, as: UTF16.self)
    }
}
