import GObjectBindings

/// How urgently an image is wanted. Rows on screen go before rows that scrolled away; the image the user
/// opened in the large view (and what the user asked to save or copy) goes before everything.
public enum LoadPriority: Int, Comparable, Sendable {
    case offscreen = 0
    case visible = 1
    case interactive = 2

    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What one caller asks of the pipeline: which image, at what size, through which caches, how urgently.
/// Every image the app shows, copies or saves is asked for with one of these (see `ImagePipeline`).
public struct ImageRequest: Sendable {
    public enum Size: Hashable, Sendable {
        /// Decoded so that the longer side is at most this many pixels (downsampled while decoding).
        case fitting(Int)
        /// At the size the file declares.
        case original

        var maxPixelSize: Int? {
            if case .fitting(let side) = self { side } else { nil }
        }
    }

    /// Where the pipeline may look for the image and keep it.
    public struct CachePolicy: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A decoded image already in the memory cache answers at once.
        public static let readMemory = CachePolicy(rawValue: 1 << 0)
        /// The decoded image is put in the memory cache (by pixel bytes: a full-resolution decode would push
        /// out hundreds of thumbnails, so those leave this out).
        public static let writeMemory = CachePolicy(rawValue: 1 << 1)
        /// The download may be answered and stored by the HTTP client's disk cache (when it has one).
        public static let disk = CachePolicy(rawValue: 1 << 2)

        public static let all: CachePolicy = [.readMemory, .writeMemory, .disk]
        public static let none: CachePolicy = []
    }

    public var url: String
    public var size: Size
    public var cachePolicy: CachePolicy
    /// The downloaded bytes come with the response (`ImageResponse.original`), so that the same picture can be
    /// decoded again at another size, copied or saved without a second download: while the caller holds them,
    /// every request for the same URL is served from them.
    public var keepsOriginal: Bool
    /// An animation comes back with its frames (`ImageResponse.animation`), for the large view to play. Such
    /// a request is decoded apart from still ones of the same size (its decode keeps the loader's frames), and
    /// the memory cache, which holds first frames only, answers it only with an image that has nothing more.
    public var playsAnimation: Bool
    public var priority: LoadPriority
    /// A video or sound saved as it is (`saveFile` only): its own size limit, and a video or audio media type
    /// is what the server should say.
    public var isMedia = false

    public init(url: String, size: Size, cachePolicy: CachePolicy = .all, keepsOriginal: Bool = false,
                playsAnimation: Bool = false, priority: LoadPriority = .visible) {
        self.url = url
        self.size = size
        self.cachePolicy = cachePolicy
        self.keepsOriginal = keepsOriginal
        self.playsAnimation = playsAnimation
        self.priority = priority
    }

    var cacheKey: ImageCache.Key { ImageCache.Key(url: url, maxPixelSize: size.maxPixelSize) }
}

/// A decoded image, and the bytes it was decoded from when the request kept them.
public struct ImageResponse: Sendable {
    public var image: DecodedPixbuf
    /// Only for a request that `keepsOriginal`, and only when the image was downloaded or decoded for it (an
    /// image from the memory cache comes without).
    public var original: ImageOriginal?
    /// Only for a request that `playsAnimation`, when the image is an animation within the decode limits.
    public var animation: ImageAnimation?
    /// The file's format and size: from this decode, or remembered with the decoded image in the memory cache.
    public var file: ImageFileInfo?

    public init(image: DecodedPixbuf, original: ImageOriginal? = nil, animation: ImageAnimation? = nil,
                file: ImageFileInfo? = nil) {
        self.image = image
        self.original = original
        self.animation = animation
        self.file = file
    }
}

/// An image file's bytes as downloaded, held by whoever asked to keep them (the large view, for its item).
/// The pipeline remembers it only weakly: while someone holds it, a request for the same URL — a decode at
/// another size, Copy Image, Save Image As — is served from it; when the last holder lets go, it is freed.
public final class ImageOriginal: Sendable {
    public let url: String
    let bytes: Bytes

    init(url: String, bytes: Bytes) {
        self.url = url
        self.bytes = bytes
    }

    public var byteCount: Int { bytes.count }
}

/// How much of a download has arrived.
public struct LoadProgress: Equatable, Sendable {
    public var receivedBytes: Int
    /// The response's declared length, when it declared one.
    public var expectedBytes: Int?

    public init(receivedBytes: Int, expectedBytes: Int?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// 0…1 when the total is known.
    public var fraction: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}

/// Where `ImagePipeline.saveFile` writes: NAME in `directory`, through the hidden partial file ".NAME.part".
public struct FileDestination: Hashable, Sendable {
    public var directory: String
    public var name: String
    /// The size of a partial file an earlier attempt left, to be resumed; nil when there is none.
    public var partialFileBytes: Int?
    /// The validator (ETag or Last-Modified) stored with that partial file, sent as `If-Range` by its resume.
    public var partialFileTag: String?
    /// False: the save ends with the complete partial file, which the caller renames once it knows the name
    /// for good (`--download` while the gallery's pages are still being read).
    public var renamesWhenComplete: Bool
    /// The saved name's extension is the one of the format the bytes are (`SavedExtension`); false: `name`
    /// whatever they are.
    public var correctsExtension: Bool

    public init(directory: String, name: String, partialFileBytes: Int? = nil, partialFileTag: String? = nil,
                renamesWhenComplete: Bool = true, correctsExtension: Bool = false) {
        self.correctsExtension = correctsExtension
        self.directory = directory
        self.name = name
        self.partialFileBytes = partialFileBytes
        self.partialFileTag = partialFileTag
        self.renamesWhenComplete = renamesWhenComplete
    }

    public var path: String { directory + "/" + name }
}

/// A file saved by `ImagePipeline.saveFile`.
public struct SavedFile: Equatable, Sendable {
    /// The download went on from a partial file an earlier attempt left.
    public var resumed: Bool
    /// Written from bytes a caller held (`ImageOriginal`), without a request.
    public var fromHeldOriginal: Bool
    /// The name the file has (or, when the caller renames it, is to have): the destination's, or with the
    /// extension of the format its bytes are when the destination `correctsExtension`.
    public var name: String? = nil
    /// The image format its first bytes show, when the destination `correctsExtension`.
    public var format: ImageFormat? = nil
}
