import CGLib

/// Watches every GdkPixbufLoader in the process, not only the one the helper made: librsvg decodes an SVG's
/// embedded images (`data:` URLs) through gdk-pixbuf loaders of its own, which would otherwise pass every check
/// (a 30000 × 30000 PNG inside a 400 × 300 SVG, or an ICO, TGA, XPM… loader the app never calls). A signal
/// emission hook on `size-prepared` sees each of them before it allocates: one in a format the app does not
/// decode, or whose pixels, added to those already decoded for this image, pass the limit, is told to stop
/// (size 0 × 0), and the whole image is refused. Loaders of other formats are turned off altogether, since
/// several (ICO, XPM, TGA…) allocate without ever reporting a size.
enum EmbeddedImages {
    /// What stopped the current image's decode, if anything did.
    enum Refusal: Equatable {
        case tooLarge(width: Int, height: Int)
        case format(String)
    }

    // The helper decodes one image at a time on its main thread, which is where every loader runs.
    nonisolated(unsafe) private static var formats: Set<String> = []
    nonisolated(unsafe) private static var outerFormat = ""
    nonisolated(unsafe) private static var outerSeen = false
    nonisolated(unsafe) private static var pixelBudget = 0
    nonisolated(unsafe) private static var loaders = 0
    nonisolated(unsafe) private(set) static var refusal: Refusal?

    /// At most this many embedded images in one image (nested SVGs each count).
    static let maxLoaders = 256

    static func install(formats allowed: [String]) {
        formats = Set(allowed)
        var list = gdk_pixbuf_get_formats()
        let head = list
        while let node = list {
            if let format = node.pointee.data.map(OpaquePointer.init) {
                let name = gdk_pixbuf_format_get_name(format)
                if !formats.contains(name.map { String(cString: $0) } ?? "") { gdk_pixbuf_format_set_disabled(format, 1) }
                g_free(name)
            }
            list = node.pointee.next
        }
        g_slist_free(head)
        let type = gdk_pixbuf_loader_get_type()
        let klass = g_type_class_ref(type)
        let signal = g_signal_lookup("size-prepared", type)
        g_signal_add_emission_hook(signal, 0, sizePreparedHook, nil, nil)
        g_type_class_unref(klass)
    }

    /// Starts a new image of `format` whose decode may use `maxPixels` in all.
    static func begin(format: String, maxPixels: Int) {
        outerFormat = format
        outerSeen = false
        pixelBudget = maxPixels
        loaders = 0
        refusal = nil
    }

    fileprivate static func check(_ loader: UnsafeMutablePointer<GdkPixbufLoader>, width: Int, height: Int) -> Bool {
        let format = gdk_pixbuf_loader_get_format(loader).flatMap { gdk_pixbuf_format_get_name($0) }
        defer { g_free(format) }
        let name = format.map { String(cString: $0) } ?? "?"
        if !outerSeen && name == outerFormat {
            // The image itself: the helper's own loader, which checks its size against the request.
            outerSeen = true
            return true
        }
        loaders += 1
        guard formats.contains(name), loaders <= maxLoaders else {
            refusal = refusal ?? .format(name)
            return false
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= pixelBudget else {
            refusal = refusal ?? .tooLarge(width: width, height: height)
            return false
        }
        pixelBudget -= area
        return true
    }
}

private let sizePreparedHook: GSignalEmissionHook = { _, count, values, _ in
    guard count >= 3, let values, let instance = g_value_get_object(values) else { return 1 }
    let loader = instance.assumingMemoryBound(to: GdkPixbufLoader.self)
    let width = Int(g_value_get_int(values + 1)), height = Int(g_value_get_int(values + 2))
    if !EmbeddedImages.check(loader, width: width, height: height) { gdk_pixbuf_loader_set_size(loader, 0, 0) }
    return 1  // stay installed
}
