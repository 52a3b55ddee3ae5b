import GObjectBindings
import GalleryCore

/// The originals being fetched into files (Save, Open With, Set as Background), by destination. Each goes
/// through the pipeline's `saveFile`, with the checks of `--download`, into a hidden partial file renamed once
/// complete; each finishes on its own, and the window closing cancels them all.
@MainActor
final class OriginalFetches {
    private let pipeline: ImagePipeline
    private var tasks: [String: FileTask] = [:]
    /// Destinations asked for and not finished, from the call on (the stale partial file's removal comes first).
    private var pending: Set<String> = []

    init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
    }

    /// Fetches in flight.
    var count: Int { pending.count }

    /// A fetch into `destination` is in flight: a second one would write the same partial file.
    func isFetching(into destination: FileDestination) -> Bool { pending.contains(destination.path) }

    /// Downloads the original at `url` into `destination`. A partial file left by an earlier attempt at this
    /// name would be in the way (the save creates a new one): this starts afresh.
    func fetch(_ url: String, into destination: FileDestination, isMedia: Bool,
               completion: @escaping @MainActor (Result<SavedFile, ImageLoadError>) -> Void) {
        let path = destination.path
        pending.insert(path)
        File(path: destination.directory + "/" + DownloadNames.partialName(of: destination.name)).delete { [weak self] _ in
            guard let self, self.pending.contains(path) else { return }
            var request = ImageRequest(url: url, size: .original, priority: .interactive)
            request.isMedia = isMedia
            self.tasks[path] = self.pipeline.saveFile(request, to: destination) { [weak self] result in
                self?.tasks[path] = nil
                self?.pending.remove(path)
                completion(result)
            }
        }
    }

    func cancelAll() {
        tasks.values.forEach { $0.cancel() }
        tasks = [:]
        pending = []
    }
}
