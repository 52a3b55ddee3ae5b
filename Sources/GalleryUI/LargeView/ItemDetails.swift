import GObjectBindings
import GalleryCore

/// What the details panel shows of one item: what the service said, and what fetching and decoding the image
/// found. Plain values (made from the large view's state below, tested without widgets); nil hides a row.
struct ItemDetails: Equatable {
    var title: String
    var author: String?
    var published: String?
    var imageSize: String?
    /// A video's or sound's length: as played, else as the service states it.
    var duration: String?
    var file: String?
    var fileName: String?
    var pageURL: String?
    var description: String?
}

extension ItemDetails {
    /// What the panel shows for `item`, from what the service said and what the large view fetched and decoded
    /// of it: the URL it asked for (the original, or the service's smaller copy; nil: none), the decoded
    /// original's size, the file read, why it could not be loaded. `hidden`: a sensitive item still hidden,
    /// whose alt text would describe what is hidden.
    init(item: GalleryItem, hidden: Bool, requestedURL: String?, decodedSize: (width: Int, height: Int)?,
         file: ImageFileInfo?, failure: String?) {
        // The shown file is the item's own image, not a smaller copy the service made of it.
        let showsOriginal = requestedURL == nil || requestedURL == item.fullImageURL
        self.init(
            title: item.displayTitle, author: item.author, published: item.published.flatMap(DateText.display),
            imageSize: Self.imageSizeText(item, decodedSize: showsOriginal ? decodedSize : nil),
            duration: DurationText.stated(item.media),
            file: Self.fileText(file, showsOriginal: showsOriginal, failure: failure, isLoading: requestedURL != nil),
            fileName: item.fileName, pageURL: item.pageURL, description: hidden ? nil : item.altText)
    }

    /// What the panel shows for a video or sound being played: its length and codecs as GStreamer found them,
    /// the file's size as the server sent it.
    @MainActor init(item: GalleryItem, hidden: Bool, playing media: MediaPlayer) {
        self.init(item: item, hidden: hidden, requestedURL: nil, decodedSize: nil, file: nil, failure: nil)
        if let seconds = media.duration { duration = DurationText.clock(seconds) }
        let codecs = [media.codecs.video, media.codecs.audio].compactMap { $0 }
        var parts = codecs.isEmpty ? [] : [codecs.joined(separator: ", ")]
        if let size = media.fileSize { parts.append(SizeText.format(size)) }
        if case .failed(let reason) = media.status {
            file = tr("Not loaded: {reason}", ["reason": reason])
        } else {
            file = parts.isEmpty ? (media.status == .loading ? tr("Loading…") : nil) : parts.joined(separator: " · ")
        }
    }

    /// The original's size: as decoded when the view shows the original, else as the service says.
    private static func imageSizeText(_ item: GalleryItem, decodedSize: (width: Int, height: Int)?) -> String? {
        if let size = decodedSize {
            return tr("{width} × {height} pixels", ["width": size.width, "height": size.height])
        }
        guard let width = item.width, let height = item.height, width > 0, height > 0 else { return nil }
        return tr("{width} × {height} pixels", ["width": width, "height": height])
    }

    /// "JPEG · 2.4 MB" ("GIF · 1.2 MB · 24 frames") once the file was read, "Loading…" until then, or why it
    /// could not be.
    private static func fileText(_ file: ImageFileInfo?, showsOriginal: Bool, failure: String?,
                                 isLoading: Bool) -> String? {
        if let file {
            // TRANSLATORS: a file's format and size, as "JPEG · 2.4 MB".
            var text = tr("{format} · {size}", ["format": file.format.displayName, "size": SizeText.format(file.byteCount)])
            // TRANSLATORS: added to an animation's format and size: "GIF · 1.2 MB · 24 frames".
            if file.frames > 1 { text += " · " + trn("{count} frame", "{count} frames", file.frames) }
            // TRANSLATORS: added to the file's format and size when the view shows a scaled copy the service
            // made of an image too large to show.
            return showsOriginal ? text : text + " " + tr("(the service’s smaller copy)")
        }
        if let failure { return tr("Not loaded: {reason}", ["reason": failure]) }
        return isLoading ? tr("Loading…") : nil
    }
}
