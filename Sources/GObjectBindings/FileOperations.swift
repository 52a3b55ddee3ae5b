import CGLib

/// File-system operations through GIO's asynchronous API: the work runs on GIO's worker threads and the
/// result comes back on the main loop.
extension File {
    /// A directory entry as `listDirectory` reports it.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var size: Int
        public var isRegularFile: Bool
        /// The value a download stored with its partial file (`FileOutputStream.resumeTagAttribute`), if any.
        public var resumeTag: String?
    }

    /// Deletes the file. `G_IO_ERROR_NOT_FOUND` counts as success: the file is gone either way.
    @MainActor
    public func delete(completion: @escaping @MainActor (Result<Void, GLibError>) -> Void) {
        let callback = AsyncCallback { _, result in
            do throws(GLibError) {
                _ = try GLibError.check { error in g_file_delete_finish(self.ref.opaque, result, error) }
                completion(.success(()))
            } catch where error.matches(G_IO_ERROR_NOT_FOUND) {
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
        callback.pass { g_file_delete_async(ref.opaque, G_PRIORITY_DEFAULT, nil, $0, $1) }
    }

    /// Renames (moves) the file to `destination`, replacing a file there. Within one directory this is a
    /// rename(2): the destination appears complete or not at all.
    @MainActor
    public func move(to destination: File, completion: @escaping @MainActor (Result<Void, GLibError>) -> Void) {
        let callback = AsyncCallback { _, result in
            withExtendedLifetime(destination) {
                do throws(GLibError) {
                    _ = try GLibError.check { error in g_file_move_finish(self.ref.opaque, result, error) }
                    completion(.success(()))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        callback.pass { g_file_move_async(ref.opaque, destination.ref.opaque, G_FILE_COPY_OVERWRITE, G_PRIORITY_DEFAULT, nil,
                                          nil, nil, $0, $1) }
    }

    /// Renames each file at `from` to `to` (replacing a file there), one after another on one worker thread:
    /// renames in one folder take its lock in turn anyway, and a few hundred of them spread over GIO's threads
    /// spend a core spinning on it. `completion` hears each rename's error, nil when it was done, in order.
    @MainActor
    public static func move(_ moves: [(from: String, to: String)], completion: @escaping @MainActor ([GLibError?]) -> Void) {
        WorkerTask.run({
            moves.map { from, to -> GLibError? in
                do throws(GLibError) {
                    try moveNow(File(path: from).ref, to: File(path: to).ref)
                    return nil
                } catch {
                    return error
                }
            }
        }, completion: completion)
    }

    /// `move(to:)` done here and now, for a worker thread: GFiles are immutable and may be used from any thread.
    nonisolated static func moveNow(_ source: ObjectRef, to destination: ObjectRef) throws(GLibError) {
        _ = try GLibError.check { error in
            g_file_move(source.opaque, destination.opaque, G_FILE_COPY_OVERWRITE, nil, nil, nil, error)
        }
    }

    /// Lists this directory: name, size and type of each entry (symbolic links are not followed). Entries
    /// arrive from GIO in batches, so no single main-loop callback handles more than `batchSize` of them.
    @MainActor
    public func listDirectory(batchSize: Int32 = 128, cancellable: Cancellable? = nil,
                              completion: @escaping @MainActor (Result<[Entry], GLibError>) -> Void) {
        let callback = AsyncCallback { _, result in
            do throws(GLibError) {
                let enumerator = try GLibError.check { error in
                    g_file_enumerate_children_finish(self.ref.opaque, result, error)
                }
                DirectoryLister(enumerator: ObjectRef(enumerator!, transfer: .full), batchSize: batchSize,
                                cancellable: cancellable, completion: completion).next()
            } catch {
                completion(.failure(error))
            }
        }
        callback.pass { g_file_enumerate_children_async(ref.opaque, "standard::name,standard::size,standard::type,xattr::" + FileOutputStream.resumeTagAttribute,
                                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, G_PRIORITY_DEFAULT, cancellable?.pointer,
                                                        $0, $1) }
    }
}

/// Reads an enumerator batch by batch; each pending callback keeps it alive.
@MainActor
private final class DirectoryLister {
    let enumerator: ObjectRef
    let batchSize: Int32
    let cancellable: Cancellable?
    let completion: @MainActor (Result<[File.Entry], GLibError>) -> Void
    var entries: [File.Entry] = []

    init(enumerator: ObjectRef, batchSize: Int32, cancellable: Cancellable?,
         completion: @escaping @MainActor (Result<[File.Entry], GLibError>) -> Void) {
        self.enumerator = enumerator
        self.batchSize = batchSize
        self.cancellable = cancellable
        self.completion = completion
    }

    func next() {
        let callback = AsyncCallback { _, result in
            do throws(GLibError) {
                let list = try GLibError.check { error in
                    g_file_enumerator_next_files_finish(self.enumerator.typed(), result, error)
                }
                guard let list else {
                    g_file_enumerator_close_async(self.enumerator.typed(), G_PRIORITY_DEFAULT, nil, nil, nil)
                    return self.completion(.success(self.entries))
                }
                var node: UnsafeMutablePointer<GList>? = list
                while let current = node {
                    let info = OpaquePointer(current.pointee.data)
                    if let name = string(g_file_info_get_name(info)) {
                        self.entries.append(File.Entry(
                            name: name, size: Int(g_file_info_get_size(info)),
                            isRegularFile: g_file_info_get_file_type(info) == G_FILE_TYPE_REGULAR,
                            resumeTag: string(g_file_info_get_attribute_string(info, "xattr::" + FileOutputStream.resumeTagAttribute))))
                    }
                    g_object_unref(current.pointee.data)
                    node = current.pointee.next
                }
                g_list_free(list)
                self.next()
            } catch {
                self.completion(.failure(error))
            }
        }
        callback.pass { g_file_enumerator_next_files_async(enumerator.typed(), batchSize, G_PRIORITY_DEFAULT, cancellable?.pointer,
                                                           $0, $1) }
    }
}
