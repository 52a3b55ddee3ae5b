import GObjectBindings

/// Many items at once (a selection can be a whole gallery of 100,000): their packed bytes are taken on the
/// main loop, unpacked and worked on on a GTask worker, and the result comes back on the main loop.
public enum UnpackedItems {
    /// `work` on the items of `downloads`, in their order, off the main loop; `completion` gets its output.
    @MainActor
    public static func process<Output: Sendable>(_ downloads: [ItemViewModel],
                                                 _ work: @escaping @Sendable ([GalleryItem]) -> Output,
                                                 completion: @escaping @MainActor (Output) -> Void) {
        let packed = downloads.map(\.packedItem)
        WorkerTask.run({ work(packed.map(\.item)) }, completion: completion)
    }
}
