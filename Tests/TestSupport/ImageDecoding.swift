import CGLib
import GObjectBindings

/// Decodes image bytes with a GdkPixbufLoader (format sniffed from the data), as the app does.
/// Returns the size, or the loader's error for data that is not a complete image.
public func decodeImage(_ bytes: [UInt8]) -> Result<(width: Int, height: Int), GLibError> {
    guard let made = gdk_pixbuf_loader_new() else {
        return .failure(GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_FAILED.rawValue),
                                  message: "No GdkPixbufLoader could be made"))
    }
    let loader = ObjectRef(made, transfer: .full)
    return withExtendedLifetime(loader) { decode(bytes, with: loader.typed()) }
}

private func decode(_ bytes: [UInt8], with loader: UnsafeMutablePointer<GdkPixbufLoader>)
    -> Result<(width: Int, height: Int), GLibError> {
    do throws(GLibError) {
        _ = try GLibError.check { error in
            bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), error) }
        }
        _ = try GLibError.check { error in gdk_pixbuf_loader_close(loader, error) }
    } catch {
        // A failed write closes the loader itself; closing it again would be a critical.
        return .failure(error)
    }
    guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
        return .failure(GLibError(domain: gv_io_error_quark(), code: Int32(G_IO_ERROR_FAILED.rawValue),
                                  message: "The loader produced no image"))
    }
    return .success((Int(gdk_pixbuf_get_width(pixbuf)), Int(gdk_pixbuf_get_height(pixbuf))))
}
