/// Why an image could not be shown. `message` is the reason an error row shows.
public enum ImageLoadError: Error, Equatable, Sendable {
    case http(HTTPError)
    case decode(String)

    public var message: String {
        switch self {
        case .http(let error): error.message
        case .decode(let detail): "Not a readable image (\(detail))"
        }
    }

    public var isCancelled: Bool { self == .http(.cancelled) }
}
