/// The file formats of demo images.
/// WebP and AVIF are written through the same gdk-pixbuf loaders the app decodes them with (both can save);
/// GIF (gdk-pixbuf cannot write it) and animated WebP are put together by `DemoAnimationEncoder`.
public enum DemoImageFormat: String, Codable, Sendable, CaseIterable {
    case jpeg
    case png
    case webp
    case avif
    case gif

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    public var mediaType: String { "image/" + rawValue }
}

/// DeviantArt's `media:rating` values.
public enum DemoRating: String, Codable, Sendable {
    case nonadult
    case adult
}

/// A deliberate failure of an image URL (`?fault=...`), so the app's failure paths can be seen and tested.
public enum DemoFault: String, Codable, Sendable, CaseIterable {
    /// 404 with an HTML body.
    case notFound = "404"
    /// 500 with an HTML body.
    case serverError = "500"
    /// 200 with an HTML page instead of the image.
    case html
    /// The full Content-Length, about half the bytes, then the connection is closed.
    case truncate
    /// The full length with the image data scrambled after the first bytes, so decoding fails.
    case corrupt
    /// 302 with an HTML body to the same URL without the fault (works).
    case redirect
    /// The full Content-Length, a few KB, then nothing until the client gives up.
    case stall
}

/// The outline of a picture.
public enum DemoShape: String, Codable, Sendable, CaseIterable {
    case landscape
    case portrait
    case square
    case panorama
}

/// One deviation of a demo user. Everything is derived deterministically from the user's spec.
public struct DemoItem: Sendable, Hashable {
    public let user: String
    /// 1-based position in the gallery, newest first.
    public let index: Int
    /// The deviation id, unique across demo users; part of the page URL.
    public let id: Int
    public let title: String
    /// URL-safe title ("quiet-harbour").
    public let slug: String
    /// "aurora-017-quiet-harbour.jpg": the same name under images/full, images/150 and images/300.
    public let fileName: String
    public let width: Int
    public let height: Int
    public let format: DemoImageFormat
    /// Frames of an animation (GIF or WebP); 1 for a still image.
    public var frames = 1
    public let fault: DemoFault?
    public let rating: DemoRating
    public let categoryLabel: String
    public let categoryPath: String
    /// Publication time, seconds since 1970 (UTC).
    public let published: Int
    /// Seeds the picture drawn by gallery-demo-images.
    public let artSeed: UInt64

    /// The thumbnail long sides the server offers (`/thumbs/150/…`, `/thumbs/300/…`).
    public static let thumbnailLongSides = [150, 300]

    /// The size of the thumbnail with long side `longSide`; images already smaller keep their size.
    public func thumbnailSize(longSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > longSide else { return (width, height) }
        let scale = Double(longSide) / Double(long)
        let scaled = { (side: Int) in max(1, Int((Double(side) * scale).rounded())) }
        return width >= height ? (longSide, scaled(height)) : (scaled(width), longSide)
    }

    /// The page path the feed links to ("/art/quiet-harbour-113610017").
    public var pagePath: String { "/art/\(slug)-\(id)" }

    /// "/images/<file>" or "/thumbs/<side>/<file>", with `?fault=` when the item fails on purpose.
    public func imagePath(thumbnailLongSide: Int? = nil) -> String {
        let path = thumbnailLongSide.map { "/thumbs/\($0)/\(fileName)" } ?? "/images/\(fileName)"
        return fault.map { "\(path)?fault=\($0.rawValue)" } ?? path
    }
}

/// A demo user and their gallery.
public struct DemoUser: Sendable {
    public let name: String
    public let items: [DemoItem]
    /// The feed is served cut off in the middle (malformed XML).
    public let feedIsBroken: Bool
    /// The first items that `DemoGrowth` added: each its own post.
    public var grownCount = 0

    public var avatarPath: String { "/avatars/\(name).png" }
    public var avatarFileName: String { "\(name).png" }
}
