import CGLib
import CGtk
import CSoup
import GObjectBindings
@_spi(Baselines) import GalleryCore
import Glibc

/// The two ways of loading thumbnails that the lazy-list lesson warns against, as drop-in replacements for
/// the app's ImagePipeline (see `ItemViewModel.Context`), so the baselines scroll the very same list:
/// (a) download and decode on the main loop, synchronously; (b) a thread per image, each blocking on its
/// own download and decode, handing the result back to the main loop.
///
/// Both keep their thumbnails in an `ImageCache` as the pipeline does, of the same capacity, so the race
/// compares loaders: without one they would hold no decoded thumbnails at all (less memory, and rows
/// scrolled back to would download again).
@MainActor
enum BaselineLoaders {
    /// (a) Every request blocks the main loop for a round trip and a decode.
    static func synchronous(thumbnailPixelSize: Int, cache: ImageCache) -> ItemViewModel.Context {
        let session = SyncSession()
        return ItemViewModel.Context(thumbnailPixelSize: thumbnailPixelSize, load: { url, size, _, completion in
            let result = session.fetchAndDecode(url, maxPixelSize: size)
            if case .success(let image) = result { cache.insert(image, for: ImageCache.Key(url: url, maxPixelSize: size)) }
            completion(result)
            return FinishedRequest()
        }, cached: { url, size in cache.image(for: ImageCache.Key(url: url, maxPixelSize: size)) })
    }

    /// (b) Every request starts a thread; the result comes back through an idle callback.
    static func threadPerImage(thumbnailPixelSize: Int, cache: ImageCache) -> ItemViewModel.Context {
        ItemViewModel.Context(thumbnailPixelSize: thumbnailPixelSize, load: { url, size, _, completion in
            let request = ThreadRequest { result in
                if case .success(let image) = result { cache.insert(image, for: ImageCache.Key(url: url, maxPixelSize: size)) }
                completion(result)
            }
            let job = ThreadJob(url: url, maxPixelSize: size, request: request)
            g_thread_unref(g_thread_new("thumbnail", threadMain, Unmanaged.passRetained(job).toOpaque()))
            return request
        }, cached: { url, size in cache.image(for: ImageCache.Key(url: url, maxPixelSize: size)) })
    }
}

// Outside the main actor: this runs on the image's own thread.
private let threadMain: GThreadFunc = { data in
    let job = Unmanaged<ThreadJob>.fromOpaque(data!).takeRetainedValue()
    // A session per thread: that is what a thread per image does.
    job.result = SyncSession().fetchAndDecode(job.url, maxPixelSize: job.maxPixelSize)
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, deliverOnMainLoop, Unmanaged.passRetained(job).toOpaque(), nil)
    return nil
}

private let deliverOnMainLoop: GSourceFunc = { data in
    let job = Unmanaged<ThreadJob>.fromOpaque(data!).takeRetainedValue()
    MainActor.assumeIsolated { job.deliver() }
    return 0
}

/// A libsoup session used synchronously (`soup_session_send_message` blocks until the body is in).
final class SyncSession: @unchecked Sendable {
    private let session = soup_session_new()!

    deinit { g_object_unref(UnsafeMutableRawPointer(session)) }

    func fetchAndDecode(_ url: String, maxPixelSize: Int) -> Result<DecodedPixbuf, ImageLoadError> {
        guard let message = soup_message_new("GET", url) else { return .failure(.decode("bad URL")) }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let status = soup_session_send_message(session, message)
        guard (200..<300).contains(status), let body = message.pointee.response_body,
              let buffer = soup_message_body_flatten(body) else { return .failure(.decode("HTTP \(status)")) }
        let bytes = Bytes(owning: soup_buffer_get_as_bytes(buffer))
        soup_buffer_free(buffer)
        return PixbufDecoding.decode(bytes, maxPixelSize: maxPixelSize, cancellable: nil)
            .mapError { .decode("\($0)") }
    }
}

/// The request of (a): finished before it is returned.
@MainActor
private final class FinishedRequest: ThumbnailRequest {
    var priority: LoadPriority = .visible
    var isWaitingForConnection: Bool { false }
    func cancel() {}
}

/// The request of (b): a thread cannot be stopped, so cancelling only drops the result.
@MainActor
private final class ThreadRequest: ThumbnailRequest {
    var priority: LoadPriority = .visible
    var completion: ItemViewModel.Context.Completion?
    init(completion: @escaping ItemViewModel.Context.Completion) { self.completion = completion }
    var isWaitingForConnection: Bool { false }
    func cancel() { completion = nil }
}

private final class ThreadJob: @unchecked Sendable {
    let url: String
    let maxPixelSize: Int
    let request: ThreadRequest
    var result: Result<DecodedPixbuf, ImageLoadError> = .failure(.decode("not run"))

    init(url: String, maxPixelSize: Int, request: ThreadRequest) {
        self.url = url
        self.maxPixelSize = maxPixelSize
        self.request = request
    }

    @MainActor func deliver() {
        guard let completion = request.completion else { return }
        request.completion = nil
        completion(result)
    }
}
