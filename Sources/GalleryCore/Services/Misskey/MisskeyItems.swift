import GObjectBindings

/// Items from one page of users/notes: one per file of each note. Pure renotes (a `renoteId` without text or
/// files of their own) are someone else's; a quote's own files count, the quoted note's do not (they are in
/// `renote`, which is not read). A note with a content warning (`cw`) or a file marked `isSensitive` is
/// sensitive. Images open in the app; video, audio and other files open the note in the browser.
enum MisskeyItems {
    /// A hostile page cannot make more rows than a real one ever has (40 notes × 16 files).
    static let maxItemsPerPage = 1000
    /// Misskey's limit for a file's caption is 512 characters; the item keeps 1500.
    static let maxAltTextLength = 2000

    struct Context {
        /// "user@host", for messages.
        let username: String
        let user: String
        /// The server asked, whose note pages are https://SERVER/notes/ID.
        let server: String
        /// The page's own URL, to resolve relative links against.
        let baseURL: String?
    }

    struct Page {
        var content = SourcePage()
        /// The id of the last note on the page, read or not (`untilId` of the next page); nil at the end.
        var lastNoteID: String?
    }

    static func page(from body: Bytes, context: Context) throws(GalleryError) -> Page {
        let notes = try MisskeyJSON.decode(CappedList<Lenient<MisskeyJSON.Note>>.self, from: body, document: tr("List of posts"))
        var page = Page()
        var notesRead = 0
        var hidden = 0
        for (index, entry) in notes.enumerated() {
            switch entry.result {
            case .failure(let error):
                page.content.skip(JSONDecoding.explain(error, document: tr("Post {number}", ["number": index])))
            case .success(let note):
                notesRead += 1
                // Paging goes on from the last note that has a usable id.
                if MisskeySource.isID(note.id) { page.lastNoteID = note.id }
                if note.isHidden {
                    hidden += 1
                    page.content.skip("Note \(note.id): hidden from visitors")
                } else {
                    append(note, context: context, to: &page.content)
                }
            }
        }
        if notes.leftOut > 0 { page.content.skip("\(notes.leftOut) notes beyond the first \(notes.count) were not read") }
        if !notes.isEmpty && notesRead == 0 {
            throw .malformedResponse(service: MisskeySource.service,
                                     detail: tr("No post on the page could be read. {reason}", ["reason": page.content.skipped.first ?? ""]))
        }
        // Notes there, but every one blanked for visitors: what the user's settings hide needs a signed-in viewer.
        if hidden > 0 && hidden == notesRead && page.content.items.isEmpty {
            throw .onlyForSignedInViewers(service: MisskeySource.service, username: context.username)
        }
        return page
    }

    private static func append(_ note: MisskeyJSON.Note, context: Context, to page: inout SourcePage) {
        if note.renoteId != nil && note.text == nil && note.files.isEmpty {
            return page.skip("Note \(note.id): a renote")
        }
        var files: [MisskeyJSON.DriveFile] = []
        for (index, entry) in note.files.enumerated() {
            switch entry.result {
            case .success(let file): files.append(file)
            case .failure(let error): page.skip("Note \(note.id), file \(index): \(JSONDecoding.explain(error, document: "File"))")
            }
        }
        let post = NoteContext(note: note, context: context, count: files.count)
        for (index, file) in files.enumerated() {
            guard page.items.count < maxItemsPerPage else {
                return page.skip("Note \(note.id): more than \(maxItemsPerPage) items on the page")
            }
            switch item(for: file, number: index + 1, in: post) {
            case .success(let item): page.items.append(item)
            case .failure(let reason): page.skip("Note \(note.id), file \(file.id): \(reason.text)")
            }
        }
    }

    /// What every file of one note shares.
    struct NoteContext {
        let pageURL: String?
        let author: String
        let isSensitive: Bool
        /// The content warning when there is one (the author wants it shown instead), else the text's first line.
        let headline: String
        let date: String?
        /// The note's `createdAt`, in seconds.
        let published: Int?
        let count: Int
        let baseURL: String?

        init(note: MisskeyJSON.Note, context: Context, count: Int) {
            // A remote user's note names its page on its own server (`url`, else the ActivityPub `uri`).
            let remote = [note.url, note.uri].lazy.compactMap { URLText.webURL($0, relativeTo: context.baseURL) }.first
            let local = MisskeySource.isID(note.id) ? "https://\(context.server)/notes/\(note.id)" : nil
            pageURL = remote ?? local
            author = context.username
            let warning = note.cw.map { HTMLText.headline($0) }
            isSensitive = note.cw != nil
            headline = warning.flatMap { $0.isEmpty ? nil : $0 } ?? HTMLText.headline(note.text ?? "")
            let day = note.createdAt.map { String($0.prefix(10)) }
            date = day.flatMap { $0.count == 10 && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") } ? $0 : nil }
            published = DateText.published(iso8601: note.createdAt)
            self.count = count
            baseURL = context.baseURL
        }
    }

    struct SkipReason: Error { let text: String }

    private static func item(for file: MisskeyJSON.DriveFile, number: Int, in note: NoteContext) -> Result<GalleryItem, SkipReason> {
        let type = file.type.lowercased()
        let kind: GalleryItem.Kind = if type.hasPrefix("image/") { .image } else if type.hasPrefix("video/") { .video }
            else if type.hasPrefix("audio/") { .audio } else { .other }
        let url = URLText.webURL(file.url, relativeTo: note.baseURL)
        let thumbnail = URLText.webURL(file.thumbnailUrl, relativeTo: note.baseURL)
        let namedAny = [file.url, file.thumbnailUrl].contains { !($0?.trimmed.isEmpty ?? true) }
        var fullImageURL: String?
        if kind == .image {
            // A remote file the server did not keep has no url; its thumbnail is the same picture, smaller.
            fullImageURL = url ?? thumbnail
            guard fullImageURL != nil || namedAny else { return .failure(SkipReason(text: "image without any URL")) }
        } else if thumbnail == nil && note.pageURL == nil {
            return .failure(SkipReason(text: "\(DisplayText.clean(type, limit: 40)) without a preview or a note to open"))
        }
        let altText = file.comment.map { String($0.prefix(maxAltTextLength)).trimmed }.flatMap { $0.isEmpty ? nil : $0 }
        var item = GalleryItem(
            id: file.id, title: title(altText: altText, number: number, note: note), kind: kind,
            thumbnails: thumbnail.map { [GalleryItem.Thumbnail(url: $0)] } ?? [], fullImageURL: fullImageURL,
            pageURL: note.pageURL, author: note.author, altText: altText,
            isSensitive: note.isSensitive || file.isSensitive, width: file.width, height: file.height,
            published: note.published)
        item.suggestedFileName = fileName(file, type: type, url: url ?? fullImageURL)
        item.mediaURLRejected = kind == .image && fullImageURL == nil
        // A drive file is what its MIME type says: a video or a sound plays from its own url.
        if kind == .video || kind == .audio, let url { item.media = .init(url: url) }
        return .success(item)
    }

    /// The note's words first (its warning, else its text), numbered when it has several files; without
    /// them the file's caption (not for a sensitive file: it would describe what is hidden); then who and when.
    private static func title(altText: String?, number: Int, note: NoteContext) -> String {
        let numbering = note.count > 1 ? " (\(number)/\(note.count))" : ""
        if !note.headline.isEmpty { return note.headline + numbering }
        if let altText, !note.isSensitive { return HTMLText.headline(altText) }
        guard let date = note.date else { return tr("Post by @{author}", ["author": note.author]) + numbering }
        return tr("Post by @{author}, {date}", ["author": note.author, "date": date]) + numbering
    }

    /// The name the file was uploaded with when it has an extension ("harbour.jpg"), else the URL's own
    /// name, else the file's id with the usual extension of its type.
    static func fileName(_ file: MisskeyJSON.DriveFile, type: String, url: String?) -> String {
        if let name = file.name.map({ String($0.prefix(255)) }), FileExtension.exists(in: name), !name.contains("/") {
            return name
        }
        if let segment = url.flatMap(URLText.lastPathSegment), FileExtension.exists(in: segment) { return segment }
        let stem = MisskeySource.isID(file.id) ? file.id : "misskey-file"
        let ext: String? = switch type {
        case "image/jpeg": "jpg"
        case "image/png": "png"
        case "image/webp": "webp"
        case "image/gif": "gif"
        case "image/avif": "avif"
        case "video/mp4": "mp4"
        case "audio/mpeg": "mp3"
        default: nil
        }
        return ext.map { "\(stem).\($0)" } ?? stem
    }
}
