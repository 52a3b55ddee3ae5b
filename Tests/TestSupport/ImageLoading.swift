import GObjectBindings
import GalleryCore

/// Loads `url` through `pipeline` and drives the main loop until it completes (nil when `timeout` passes first).
@MainActor
public func loadImage(_ url: String, with pipeline: ImagePipeline, maxPixelSize: Int? = 96,
                      timeout: Double = 60) -> Result<DecodedPixbuf, ImageLoadError>? {
    var result: Result<DecodedPixbuf, ImageLoadError>?
    pipeline.loadImage(ImageRequest(url: url, size: maxPixelSize.map { .fitting($0) } ?? .original)) { result = $0.map(\.image) }
    iterateMainLoop(until: { result != nil }, timeout: timeout)
    return result
}

extension Result {
    /// The error of a failure, nil for a success.
    public var failureValue: Failure? { if case .failure(let error) = self { error } else { nil } }
}

extension Optional {
    /// The error of a failed result, nil for a success or no result at all.
    public func failureValue<Success, Failure>() -> Failure? where Wrapped == Result<Success, Failure> {
        self?.failureValue
    }
}

/// Fetches `url` into memory through `client` (its cache, limits and checks) and drives the main loop until
/// it completes (nil when `timeout` passes first).
@MainActor
public func fetch(_ url: String, with client: HTTPClient, headers: [String: String] = [:], method: String = "GET",
                  body: String? = nil, timeout: Double = 60) -> Result<HTTPResponse, HTTPError>? {
    var result: Result<HTTPResponse, HTTPError>?
    let request = HTTPRequest(url: url, headers: headers, maxBodyBytes: 50 * 1_048_576, method: method, body: body)
    client.fetch(request, cancellable: Cancellable()) {
        result = $0
    }
    iterateMainLoop(until: { result != nil }, timeout: timeout)
    return result
}
