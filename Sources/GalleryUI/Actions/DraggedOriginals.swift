import GObjectBindings
import GalleryCore

/// The originals dragged out of the app, saved into the cache's `dragged` folder first, as Open With saves its
/// copy (same checks, named for what the bytes are). GTK wants a drop's data at once, when the drop happens, so
/// the fetch starts when the drag begins; a short drag of an image not yet fetched drops its link only. The large
/// view holds the original of the item it shows, so dragging from there writes the file without the network.
///
/// Only the last item dragged is kept track of: two items of the same name share a file in the folder, and the
/// earlier one's file was copied by its drop long before.
@MainActor
final class DraggedOriginals {
    static var folder: String { DiskCache.defaultDirectory + "/dragged" }

    private let fetches: OriginalFetches
    /// The original last asked for, and its file once it is complete.
    private var last: (url: String, path: String?)?

    init(pipeline: ImagePipeline) {
        fetches = OriginalFetches(pipeline: pipeline)
    }

    /// `item`'s saved original, once complete.
    func file(for item: GalleryItem) -> String? {
        guard let url = item.savedFile()?.url, let last, last.url == url else { return nil }
        return last.path
    }

    /// Starts saving `item`'s original, unless it is saved or on its way.
    func prepare(_ item: GalleryItem) {
        guard let original = item.savedFile(), last?.url != original.url else { return }
        let folder = Self.folder
        do throws(GLibError) {
            try File.makeDirectories(atPath: folder, mode: 0o700)
        } catch {
            return
        }
        let destination = FileDestination(directory: folder, name: DownloadNames.safe(item.fileName), correctsExtension: true)
        guard !fetches.isFetching(into: destination) else { return }
        last = (original.url, nil)
        fetches.fetch(original.url, into: destination, isMedia: original.isMedia) { [weak self] result in
            guard let self, self.last?.url == original.url else { return }
            guard case .success(let saved) = result else { return self.last = nil }
            guard let path = DesktopHandOver.path(of: saved, in: destination, isMedia: original.isMedia) else {
                File(path: destination.directory + "/" + (saved.name ?? destination.name)).delete { _ in }
                return
            }
            self.last = (original.url, path)
            // Files dropped elsewhere were copied there by their drop; a day later nothing reads them here.
            let kept = FileSystem.baseName(of: path)
            WorkerTask.run({ DirectoryScan.removeFiles(in: folder, olderThan: DesktopHandOver.openWithCopySeconds, keeping: [kept]) },
                           completion: { _ in })
        }
    }

    func cancelAll() {
        fetches.cancelAll()
        last = nil
    }
}
