import GObjectBindings
import GtkBindings
import GalleryCore

/// Print… for an image, as Eye of GNOME prints one: a single page in the image's orientation (turned as the
/// large view shows it), the image centred and fitted to the printable area (never larger than one pixel per
/// point, so a small image is not blown up into blur), its title as a caption below.
///
/// The pixels are prepared on a GTask worker before GTK's dialog opens: an image with transparency is laid
/// on white (paper has no alpha), encoded as JPEG and converted to a cairo surface carrying that JPEG, so
/// the page drawn on the main loop embeds the JPEG as it is instead of compressing megabytes of pixels there.
@MainActor
enum ImagePrint {
    /// An image ready for `operation(for:title:quarterTurns:)`.
    struct Printable: Sendable {
        let surface: ImageSurface
        var width: Int { surface.pixelWidth }
        var height: Int { surface.pixelHeight }
    }

    /// Points between the image and its caption.
    nonisolated static let captionGap = 12.0
    /// The caption's lines at most (a long title is ellipsized).
    nonisolated static let captionLines = 2

    /// Prepares `pixbuf` on a worker; `completion` runs on the main loop unless `cancellable` was cancelled.
    static func prepare(_ pixbuf: Pixbuf, cancellable: Cancellable,
                        completion: @escaping @MainActor (Result<Printable, GLibError>) -> Void) {
        WorkerTask.run(cancellable: cancellable, { () -> Result<Printable, GLibError> in
            Result { () throws(GLibError) in
                let opaque = pixbuf.flattened(onto: 0xFFFFFF)
                let jpeg = try opaque.encoded(as: "jpeg", options: [("quality", "92")])
                let surface = ImageSurface(opaque)
                guard surface.isValid else { throw GLibError(domain: 0, code: 0, message: tr("The image is too large to print.")) }
                surface.attachJPEG(jpeg)
                return Printable(surface: surface)
            }
        }, completion: { result in
            if !cancellable.isCancelled { completion(result) }
        })
    }

    /// The print of `printable` turned `quarterTurns` times clockwise (as the large view shows it), with
    /// `title` under it (and as the job's name).
    static func operation(for printable: Printable, title: String, quarterTurns: Int = 0) -> PrintOperation {
        let sideways = quarterTurns % 2 != 0
        let (width, height) = sideways ? (printable.height, printable.width) : (printable.width, printable.height)
        let orientation: PrintOperation.Orientation = width > height ? .landscape : .portrait
        return PrintOperation(jobName: title, orientation: orientation) { page in
            let caption = title.isEmpty ? nil : page.caption(title, width: page.width, maxLines: captionLines)
            let placement = Placement(imageWidth: Double(width), imageHeight: Double(height),
                                      pageWidth: page.width, pageHeight: page.height, captionHeight: caption?.height)
            page.paint(printable.surface, x: placement.x, y: placement.y, scale: placement.scale, quarterTurns: quarterTurns)
            caption?.draw(x: 0, atTop: placement.captionTop)
        }
    }

    /// Where the image and its caption go on a page (points): the two centred together as one block.
    struct Placement: Equatable {
        let x: Double
        let y: Double
        /// Points per image pixel.
        let scale: Double
        let captionTop: Double

        init(imageWidth: Double, imageHeight: Double, pageWidth: Double, pageHeight: Double, captionHeight: Double?) {
            let captionBand = captionHeight.map { $0 + ImagePrint.captionGap } ?? 0
            let room = max(1, pageHeight - captionBand)
            scale = min(1, pageWidth / max(1, imageWidth), room / max(1, imageHeight))
            let shownHeight = imageHeight * scale
            x = (pageWidth - imageWidth * scale) / 2
            y = max(0, (pageHeight - shownHeight - captionBand) / 2)
            captionTop = y + shownHeight + ImagePrint.captionGap
        }
    }
}
