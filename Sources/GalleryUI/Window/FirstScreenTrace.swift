import GObjectBindings
import GtkBindings
import GalleryCore

/// Says in the debug log (`DebugLog`) how long a launch took to show something: its first frame, and the
/// first frame whose visible rows all show their pictures (or their final message). `make bench`'s `launch`
/// scenario reads these lines from the real binary; anyone with a slow start can too. Nothing is watched when
/// the debug log is off.
@MainActor
public final class FirstScreenTrace {
    private let watcher = PaintWatcher()
    private var paints = 0

    /// `started`: `MonotonicClock.microseconds` as the process began (its `main`).
    public init?(window: MainWindow, started: Int) {
        guard DebugLog.isEnabled else { return nil }
        let list = window.listView
        let begun = watcher.start(on: window.window) { [weak self, weak window] in
            guard let self, let window else { return false }
            paints += 1
            let now = MonotonicClock.microseconds
            let since = "\((now - started) / 1000) ms after main began (monotonic \(now) µs)"
            if paints == 1 { DebugLog.write("launch: first frame painted \(since)") }
            let range = list.visibleRange
            // The gallery's page shown (not fading in), every visible row made (not only its item's state known)
            // and showing its picture.
            guard window.gallery != nil, window.stack.visibleChildName == "gallery", !window.stack.isTransitionRunning,
                  !range.isEmpty, !list.isAddingCells,
                  range.allSatisfy({ list.download(at: $0)?.state.isSettled ?? false }) else { return true }
            DebugLog.write("launch: first screen painted with its pictures \(since), \(range.count) items")
            return false
        }
        guard begun else { return nil }
    }
}
