/// Why an image could not be shown. `message` is the reason an error row shows.
public enum ImageLoadError: Error, Equatable, Sendable {
    case http(HTTPError)
    /// Its header declares more pixels (or frames) than the app decodes; refused before decoding.
    case tooLarge(width: Int, height: Int, frames: Int)
    /// A format the app does not decode ("TIFF"), or one without an installed loader ("WebP").
    case unsupportedFormat(String)
    case decode(String)

    public var message: String {
        switch self {
        case .http(let error): error.message
        case .tooLarge(let width, let height, let frames) where frames > 1:
            "Image too large (\(width) × \(height), \(frames) frames)"
        case .tooLarge(let width, let height, _): "Image too large (\(width) × \(height))"
        case .unsupportedFormat(let name): "Unsupported image format (\(name))"
        case .decode(let detail): "Not a readable image (\(detail))"
        }
    }

    public var isCancelled: Bool { self == .http(.cancelled) }
}
