/// A `GalleryItem` packed into one byte buffer: what a gallery keeps per item, so that 100,000 of them cost
/// one small allocation each instead of a dozen strings and arrays (about half the memory of a
/// `GalleryItem`; `make bench`'s long-gallery peak-memory goals hold it), and free as quickly. Unpacked
/// on demand: for the few rows on screen, the large view, a download starting.
///
/// Format: every field in declaration order; strings as a varint length and UTF-8, optionals behind a
/// presence byte, integers as zigzag varints. The page URL is often the id itself (DeviantArt's guid is its
/// link): then its presence byte says so, and it is not stored twice. When GalleryItem gains a field, `PackedGalleryItemTests`
/// fails until it is packed here too.
struct PackedGalleryItem: Sendable {
    private let bytes: [UInt8]

    init(_ item: GalleryItem) {
        var writer = Writer()
        writer.string(item.id)
        writer.string(item.title)
        writer.string(item.kind.rawValue)
        writer.int(item.thumbnails.count)
        for thumbnail in item.thumbnails {
            writer.string(thumbnail.url)
            writer.int(thumbnail.width)
            writer.int(thumbnail.height)
        }
        writer.string(item.fullImageURL)
        writer.string(item.pageURL, sameAs: item.id)
        writer.string(item.author)
        writer.string(item.altText)
        writer.int(item.isSensitive ? 1 : 0)
        writer.int(item.width)
        writer.int(item.height)
        writer.string(item.suggestedFileName)
        writer.int(item.mediaURLRejected ? 1 : 0)
        writer.int(item.published)
        writer.string(item.media?.url)
        if let media = item.media {
            writer.int(media.durationMilliseconds)
            writer.int(media.loops ? 1 : 0)
        }
        // A copy of exactly the bytes written: the writer's buffer grew by doubling.
        bytes = writer.bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Bytes another `PackedGalleryItem` wrote (the follow store keeps new items so). The reader stops at the
    /// end of short or damaged bytes with empty fields: a damaged row unpacks to some item, never a crash.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The packed bytes, for storage.
    var packedBytes: [UInt8] { bytes }

    var item: GalleryItem {
        var reader = Reader(bytes: bytes)
        let id = reader.string()
        let title = reader.string()
        let kind = GalleryItem.Kind(rawValue: reader.string()) ?? .other
        let thumbnails = (0..<reader.int()).map { _ in
            GalleryItem.Thumbnail(url: reader.string(), width: reader.optionalInt(),
                                  height: reader.optionalInt())
        }
        let fullImageURL = reader.optionalString()
        let pageURL = reader.optionalString(sameAs: id)
        let author = reader.optionalString()
        let altText = reader.optionalString()
        let isSensitive = reader.int() != 0
        let width = reader.optionalInt()
        let height = reader.optionalInt()
        return GalleryItem(cleanID: id, title: title, kind: kind, thumbnails: thumbnails, fullImageURL: fullImageURL,
                           pageURL: pageURL, author: author, altText: altText, isSensitive: isSensitive,
                           width: width, height: height, suggestedFileName: reader.optionalString(),
                           mediaURLRejected: reader.int() != 0, published: reader.optionalInt(),
                           media: reader.optionalString().map { url in
                               GalleryItem.Media(url: url, durationMilliseconds: reader.optionalInt(), loops: reader.int() != 0)
                           })
    }

    /// The item's kind without unpacking the rest: a cell asks on every change of its download.
    var kind: GalleryItem.Kind {
        var reader = Reader(bytes: bytes)
        reader.skipString()
        reader.skipString()
        return GalleryItem.Kind(rawValue: reader.string()) ?? .other
    }

    /// Whether the item's id is `id`, compared in place: a view of 10,000 items replaced in place looks for the
    /// one at its top and the selected one, which unpacking every item before them made a long turn.
    func hasID(_ id: String) -> Bool {
        var reader = Reader(bytes: bytes)
        let count = reader.int()
        let start = reader.offset
        guard count == id.utf8.count, start + count <= bytes.count else { return false }
        return id.utf8.elementsEqual(bytes[start..<start + count])
    }

    /// Bytes held (for tests and benchmarks).
    var byteCount: Int { bytes.count }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func int(_ value: Int) {
            var zigzag = UInt64(bitPattern: Int64(value << 1) ^ Int64(value >> 63))
            while zigzag >= 0x80 {
                bytes.append(UInt8(zigzag & 0x7F) | 0x80)
                zigzag >>= 7
            }
            bytes.append(UInt8(zigzag))
        }

        mutating func string(_ value: String) {
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func int(_ value: Int?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { int(value) }
        }

        mutating func string(_ value: String?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { string(value) }
        }

        /// An optional string that may repeat `other`: presence byte 2 then, and nothing more.
        mutating func string(_ value: String?, sameAs other: String) {
            if let value, value == other { bytes.append(2) } else { string(value) }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func int() -> Int {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
        }

        mutating func string() -> String {
            let count = int()
            let end = min(bytes.count, offset + count)
            defer { offset = end }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        }

        mutating func skipString() {
            let count = max(0, int())
            offset = min(bytes.count, offset + count)
        }

        mutating func optionalInt() -> Int? { present() ? int() : nil }
        mutating func optionalString() -> String? { present() ? string() : nil }

        mutating func optionalString(sameAs other: String) -> String? {
            switch presence() {
            case 0: nil
            case 2: other
            default: string()
            }
        }

        private mutating func present() -> Bool { presence() != 0 }

        private mutating func presence() -> UInt8 {
            guard offset < bytes.count else { return 0 }
            offset += 1
            return bytes[offset - 1]
        }
    }
}

extension GalleryItem {
    /// The fields as they were packed: those `init(id:title:…)` cleans were cleaned then (nothing outside
    /// GalleryCore can set them otherwise), and cleaning them again on every unpack was most of what binding
    /// a row cost (a 1,500-character alt text walked scalar by scalar for each cell a frame rebinds).
    fileprivate init(cleanID id: String, title: String, kind: Kind, thumbnails: [Thumbnail], fullImageURL: String?,
                     pageURL: String?, author: String?, altText: String?, isSensitive: Bool, width: Int?, height: Int?,
                     suggestedFileName: String?, mediaURLRejected: Bool, published: Int?, media: Media?) {
        self.id = id
        self.title = title
        self.kind = kind
        self.thumbnails = thumbnails
        self.fullImageURL = fullImageURL
        self.pageURL = pageURL
        self.author = author
        self.altText = altText
        self.isSensitive = isSensitive
        self.width = width
        self.height = height
        self.suggestedFileName = suggestedFileName
        self.mediaURLRejected = mediaURLRejected
        self.published = published
        self.media = media
    }
}
