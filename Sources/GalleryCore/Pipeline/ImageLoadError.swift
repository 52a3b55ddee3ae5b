import GObjectBindings

/// Why an image could not be shown or saved. `message` is the reason an error row (or a save's failure) shows.
public enum ImageLoadError: Error, Equatable, Sendable {
    case http(HTTPError)
    /// Its header declares more pixels (or frames) than the app decodes; refused before decoding.
    case tooLarge(width: Int, height: Int, frames: Int)
    /// A format the app does not decode ("TIFF"), or one without an installed loader ("WebP").
    case unsupportedFormat(String)
    case decode(String)
    /// Its decoder helper was stopped by a limit, crashed, timed out or broke the protocol; `reason` says
    /// which, for a person.
    case unsafe(reason: String)
    /// A file could not be saved: it could not be written, or what the server sent cannot become the file
    /// (`message` says which).
    case file(String)

    public var message: String {
        switch self {
        case .http(let error): error.message
        case .tooLarge(let width, let height, let frames) where frames > 1:
            // TRANSLATORS: an animation's size in pixels and its number of frames.
            trn("Image too large ({width} × {height}, {count} frame)", "Image too large ({width} × {height}, {count} frames)",
                frames, ["width": width, "height": height])
        // TRANSLATORS: the image's size in pixels.
        case .tooLarge(let width, let height, _): tr("Image too large ({width} × {height})", ["width": width, "height": height])
        // TRANSLATORS: {format} is a file format's name, such as TIFF or WebP.
        case .unsupportedFormat(let name): tr("Unsupported image format ({format})", ["format": name])
        // TRANSLATORS: {reason} says what is wrong with the file, such as "JPEG cut off".
        case .decode(let detail): tr("Not a readable image ({reason})", ["reason": detail])
        // TRANSLATORS: {reason} is why the image's decoder was stopped, such as "it needs more memory than allowed".
        case .unsafe(let reason): tr("Could not decode this image safely: {reason}", ["reason": reason])
        case .file(let sentence): sentence
        }
    }

    public var isCancelled: Bool { self == .http(.cancelled) }
}
