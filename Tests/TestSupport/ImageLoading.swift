import GObjectBindings
import GalleryCore

/// Loads `url` through `loader` and drives the main loop until it completes (nil when `timeout` passes first).
@MainActor
public func loadImage(_ url: String, with loader: ImageLoader, maxPixelSize: Int? = 96,
                      timeout: Double = 20) -> Result<DecodedPixbuf, ImageLoadError>? {
    var result: Result<DecodedPixbuf, ImageLoadError>?
    loader.load(url, maxPixelSize: maxPixelSize, priority: .visible) { result = $0 }
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
