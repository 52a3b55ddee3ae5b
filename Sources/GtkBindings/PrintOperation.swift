internal import CGLib
internal import CGtk
import GObjectBindings

/// One page printed through GtkPrintOperation: GTK's print dialog (printers, "Print to File", page setup,
/// and the preview where the desktop has a previewer), or straight into a PDF file. The page is drawn by
/// `drawPage` on the main loop, in points (1/72 inch) of the page's printable area; it should only paint what
/// was prepared beforehand (an `ImageSurface` made on a worker), since a print runs while the window waits.
///
/// The dialog runs without a nested main loop (`allow-async`): `print` returns at once and `completion` gets
/// the outcome. The caller keeps the operation until then, or until the next print: GTK emits no `done` for
/// a preview, so an operation that keeps itself alive would hold its image for the rest of the session. The
/// settings a print was made with (printer, paper, copies) are kept for the next one, as EOG and Loupe do,
/// for the rest of the session.
@MainActor
public final class PrintOperation {
    public enum Outcome: Equatable, Sendable {
        /// Sent to the printer (or written to the file).
        case printed
        case cancelled
        /// GTK's message, ready to show.
        case failed(String)
    }

    public enum Orientation: Sendable {
        case portrait
        case landscape
    }

    /// The print settings of the last print this session; tests set one up (a "Print to File" printer).
    public static var lastSettings: PrintSettings?

    private let ref: ObjectRef
    private var operation: UnsafeMutablePointer<GtkPrintOperation> { ref.typed() }
    private let drawPage: @MainActor (PrintPage) -> Void
    private var completion: (@MainActor (Outcome) -> Void)?

    /// `jobName` names the job in the printer's queue; `orientation` is the page's initial one.
    public init(jobName: String, orientation: Orientation, drawPage: @escaping @MainActor (PrintPage) -> Void) {
        ref = ObjectRef(UnsafeMutableRawPointer(gtk_print_operation_new()!), transfer: .full)
        self.drawPage = drawPage
        gtk_print_operation_set_job_name(operation, jobName)
        gtk_print_operation_set_n_pages(operation, 1)
        gtk_print_operation_set_unit(operation, GTK_UNIT_POINTS)
        gtk_print_operation_set_embed_page_setup(operation, 1)
        let setup = gtk_page_setup_new()!
        gtk_page_setup_set_orientation(setup, orientation == .landscape ? GTK_PAGE_ORIENTATION_LANDSCAPE : GTK_PAGE_ORIENTATION_PORTRAIT)
        gtk_print_operation_set_default_page_setup(operation, setup)
        g_object_unref(UnsafeMutableRawPointer(setup))
        if let settings = Self.lastSettings { gtk_print_operation_set_print_settings(operation, settings.pointer) }
        ref.connectPointerInt("draw-page") { [weak self] context, _ in
            guard let self, let context else { return }
            self.drawPage(PrintPage(context: OpaquePointer(context)))
        }
    }

    /// Shows the print dialog over `parent`; `completion` runs once the job was sent, cancelled or failed.
    public func print(parent: ApplicationWindow, completion: @escaping @MainActor (Outcome) -> Void) {
        gtk_print_operation_set_allow_async(operation, 1)
        self.completion = completion
        ref.connectInt("done") { [weak self] result in self?.finish(GtkPrintOperationResult(UInt32(bitPattern: result))) }
        // With allow-async GTK answers IN_PROGRESS here and tells the outcome through `done`.
        _ = gtk_print_operation_run(operation, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, parent.widget.raw.as(GtkWindow.self), nil)
    }

    /// Writes the page into a PDF file at `path`, without a dialog (tests). Blocking: GTK runs the print in a
    /// nested main loop. The session's print settings stay as they were.
    public func exportPDF(to path: String) -> Outcome {
        gtk_print_operation_set_export_filename(operation, path)
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(operation, GTK_PRINT_OPERATION_ACTION_EXPORT, nil, &error)
        return outcome(of: result, error: error, keepsSettings: false)
    }

    private func finish(_ result: GtkPrintOperationResult) {
        guard let completion else { return }
        self.completion = nil
        var error: UnsafeMutablePointer<GError>?
        if result == GTK_PRINT_OPERATION_RESULT_ERROR { gtk_print_operation_get_error(operation, &error) }
        completion(outcome(of: result, error: error, keepsSettings: true))
    }

    private func outcome(of result: GtkPrintOperationResult, error: UnsafeMutablePointer<GError>?,
                         keepsSettings: Bool) -> Outcome {
        switch result {
        case GTK_PRINT_OPERATION_RESULT_APPLY:
            if let error { g_error_free(error) }
            if keepsSettings, let settings = gtk_print_operation_get_print_settings(operation) {
                Self.lastSettings = PrintSettings(copying: settings)
            }
            return .printed
        case GTK_PRINT_OPERATION_RESULT_ERROR:
            let message = error.map { GLibError(consuming: $0).message } ?? ""
            return .failed(message.isEmpty ? tr("The print could not be made.") : message)
        default:
            if let error { g_error_free(error) }
            return .cancelled
        }
    }
}

/// GtkPrintSettings: the printer, paper and options of a print.
@MainActor
public final class PrintSettings {
    let ref: ObjectRef
    var pointer: OpaquePointer { ref.opaque }

    init(copying settings: OpaquePointer) {
        ref = ObjectRef(UnsafeMutableRawPointer(gtk_print_settings_copy(settings)!), transfer: .full)
    }

    /// The printer's name.
    public var printer: String? { string(gtk_print_settings_get_printer(pointer)) }

    /// GTK's "Print to File" printer writing a PDF to `path` (tests: the printer's name is GTK's untranslated one).
    public static func printToFile(_ path: String) -> PrintSettings {
        let settings = gtk_print_settings_new()!
        gtk_print_settings_set_printer(settings, "Print to File")
        gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf")
        gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_URI, takeString(g_filename_to_uri(path, nil, nil)))
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        return PrintSettings(copying: settings)
    }
}

/// The page being printed, valid during `drawPage` only: its printable area in points and what may be
/// painted on it.
@MainActor
public struct PrintPage {
    let context: OpaquePointer

    public var width: Double { gtk_print_context_get_width(context) }
    public var height: Double { gtk_print_context_get_height(context) }

    /// Paints `surface` turned `quarterTurns` times clockwise, the turned image's top-left corner at `x`, `y`
    /// (points), each pixel `scale` points wide.
    public func paint(_ surface: ImageSurface, x: Double, y: Double, scale: Double, quarterTurns: Int = 0) {
        surface.paint(on: gtk_print_context_get_cairo_context(context), x: x, y: y, scale: scale, filter: .good,
                      padEdges: false, quarterTurns: quarterTurns)
    }

    /// Lays out `text` centred in lines of `width` points (at most `maxLines`, the last one ellipsized) and
    /// returns its height; `draw(atTop:)` on the result paints it.
    public func caption(_ text: String, width: Double, maxLines: Int) -> PrintCaption {
        let layout = gtk_print_context_create_pango_layout(context)!
        let font = pango_font_description_from_string("Sans 10")
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_height(layout, -Int32(max(1, maxLines)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_text(layout, text, -1)
        return PrintCaption(layout: ObjectRef(UnsafeMutableRawPointer(layout), transfer: .full), context: context)
    }
}

/// A caption laid out for a page (see `PrintPage.caption`).
@MainActor
public struct PrintCaption {
    let layout: ObjectRef
    let context: OpaquePointer

    /// Its height in points.
    public var height: Double {
        var height: Int32 = 0
        pango_layout_get_size(layout.opaque, nil, &height)
        return Double(height) / Double(PANGO_SCALE)
    }

    /// Paints it in black with its top at `y` and its left edge at `x`.
    public func draw(x: Double, atTop y: Double) {
        let cairo = gtk_print_context_get_cairo_context(context)
        cairo_save(cairo)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        cairo_move_to(cairo, x, y)
        pango_cairo_show_layout(cairo, layout.opaque)
        cairo_restore(cairo)
    }
}
