import CGLib
import Dispatch
import GObjectBindings
import Glibc
import Synchronization

/// Writes every image of the catalog (full size, 150 px and 300 px thumbnails, avatars) below an images
/// directory, skipping files that are already there for the same catalog and renderer. A build step
/// (gallery-demo-images, and the tests' fixture): it blocks and uses all cores, so never call it from the
/// app's main loop.
///
/// Layout: `full/<file>`, `150/<file>`, `300/<file>`, `avatars/<user>.png`, and `catalog.stamp` written last
/// with the catalog fingerprint and renderer version. While a run is in progress the stamp is
/// `catalog.stamp.partial`; files are written atomically, so an interrupted run resumes where it stopped.
public enum DemoImageGeneration {
    public struct Report: Sendable {
        public var rendered = 0
        public var skipped = 0
        public var removed = 0
        public var totalBytes = 0
        public var seconds = 0.0
    }

    public static func stampContents(for catalog: DemoCatalog) -> String {
        "catalog \(catalog.fingerprint)\nrenderer \(DemoImageRenderer.version)\n"
    }

    /// Whether `directory` holds a finished generation for `catalog`.
    public static func isUpToDate(_ directory: String, for catalog: DemoCatalog) -> Bool {
        File.smallText(atPath: directory + "/catalog.stamp") == stampContents(for: catalog)
    }

    public static func run(catalog: DemoCatalog, outputDirectory: String, jobs: Int = defaultJobs,
                           log: (@Sendable (String) -> Void)? = nil) throws(GLibError) -> Report {
        let started = g_get_monotonic_time()
        let stamp = stampContents(for: catalog)
        let stampPath = outputDirectory + "/catalog.stamp"
        let partialPath = stampPath + ".partial"
        // Files already there were made for this catalog only if a stamp (finished or in progress) says so.
        let reuse = File.smallText(atPath: stampPath) == stamp || File.smallText(atPath: partialPath) == stamp
        for folder in ["full", "150", "300", "avatars"] {
            g_mkdir_with_parents(outputDirectory + "/" + folder, 0o755)
        }
        unlink(stampPath)
        try write(Bytes(stamp), to: partialPath)

        let tasks = makeTasks(catalog)
        var report = Report()
        report.removed = removeStrayFiles(in: outputDirectory, keeping: Set(tasks.map(\.relativePath)))
        let next = Atomic<Int>(0)
        let results = Mutex<(rendered: Int, skipped: Int, failure: GLibError?)>((0, 0, nil))
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < tasks.count else { return }
                let task = tasks[index]
                let path = outputDirectory + "/" + task.relativePath
                if reuse && g_file_test(path, G_FILE_TEST_IS_REGULAR) != 0 {
                    results.withLock { $0.skipped += 1 }
                    continue
                }
                do throws(GLibError) {
                    try write(try task.render(), to: path)
                    results.withLock { $0.rendered += 1 }
                    log?("rendered \(task.relativePath)")
                } catch {
                    results.withLock { $0.failure = $0.failure ?? error }
                }
            }
        }
        let outcome = results.withLock { $0 }
        if let failure = outcome.failure { throw failure }
        report.rendered = outcome.rendered
        report.skipped = outcome.skipped
        report.totalBytes = tasks.reduce(0) { $0 + fileSize(outputDirectory + "/" + $1.relativePath) }
        rename(partialPath, stampPath)
        report.seconds = Double(g_get_monotonic_time() - started) / 1_000_000
        return report
    }

    public static var defaultJobs: Int { Int(g_get_num_processors()) }

    private struct Task: Sendable {
        let relativePath: String
        /// Pixels, for ordering: the biggest first keeps all cores busy until the end.
        let area: Int
        let render: @Sendable () throws(GLibError) -> Bytes
    }

    private static func makeTasks(_ catalog: DemoCatalog) -> [Task] {
        var tasks: [Task] = []
        for item in catalog.allItems {
            tasks.append(Task(relativePath: "full/\(item.fileName)", area: item.width * item.height) {
                () throws(GLibError) in try DemoImageRenderer.encodedImage(of: item, width: item.width, height: item.height)
            })
            for side in DemoItem.thumbnailLongSides {
                let size = item.thumbnailSize(longSide: side)
                tasks.append(Task(relativePath: "\(side)/\(item.fileName)", area: size.width * size.height) {
                    () throws(GLibError) in try DemoImageRenderer.encodedImage(of: item, width: size.width, height: size.height)
                })
            }
        }
        for user in catalog.users {
            tasks.append(Task(relativePath: "avatars/\(user.avatarFileName)", area: 64 * 64) {
                () throws(GLibError) in try DemoImageRenderer.encodedAvatar(of: user)
            })
        }
        return tasks.sorted { $0.area > $1.area }
    }

    /// Deletes image files the catalog no longer names (e.g. after a title changed), nothing else.
    private static func removeStrayFiles(in directory: String, keeping expected: Set<String>) -> Int {
        var removed = 0
        for folder in ["full", "150", "300", "avatars"] {
            guard let dir = g_dir_open(directory + "/" + folder, 0, nil) else { continue }
            defer { g_dir_close(dir) }
            while let entry = g_dir_read_name(dir) {
                let name = String(cString: entry)
                let relative = folder + "/" + name
                let isImage = DemoImageFormat.allCases.contains { name.hasSuffix("." + $0.fileExtension) }
                guard isImage, !expected.contains(relative) else { continue }
                if unlink(directory + "/" + relative) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Atomic (a temporary file renamed over `path`) but not durable: no fsync per file, which would make the
    /// generation wait on the disk; a build artifact lost in a crash is simply rendered again.
    private static func write(_ bytes: Bytes, to path: String) throws(GLibError) {
        _ = try GLibError.check { error in
            bytes.withUnsafeBytes { buffer in
                g_file_set_contents_full(path, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                                         gssize(buffer.count), G_FILE_SET_CONTENTS_CONSISTENT, 0o644, error)
            }
        }
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
