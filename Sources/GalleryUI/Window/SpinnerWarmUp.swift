import GObjectBindings
import GtkBindings

/// Once the window is on screen, at the lowest priority (after its first frames): the spinners' icon is
/// drawn once, so that the first search's first frames do not also open gdk-pixbuf's SVG loader, start
/// librsvg and parse the icon (Adwaita has it as SVG only; the rows' other first icons come as PNG at their
/// sizes). A spinner draws it at its own size in its own colours, and GTK keeps each drawing, so each kind of
/// spinner gets its own (the status page's, a row's in the list's colours, a tile's, the large view's), one
/// an idle iteration (each a few milliseconds).
@MainActor
final class SpinnerWarmUp {
    private var source: MainLoopSource?
    private var cancelled = false

    /// Draws the icon for each widget at its size; once (a second call does nothing).
    func start(_ spinners: [(Widget, Int)]) {
        guard source == nil, !cancelled, !spinners.isEmpty else { return }
        var pending = spinners
        source = MainLoopSource.whileIdle(priority: MainLoopSource.Priority.low) { [weak self] in
            guard let self, !self.cancelled, let (widget, size) = pending.popLast() else { return false }
            IconTheme.prepareSymbolic("process-working-symbolic", pixelSize: size, for: widget)
            return !pending.isEmpty
        }
    }

    /// The window went away: its widgets are disposed, nothing more is drawn.
    func cancel() {
        cancelled = true
        source?.cancel()
    }
}
