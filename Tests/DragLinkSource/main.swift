// `gallery-test-drag-source LINK`: a window whose one button, dragged with the mouse, offers LINK as
// `text/uri-list` and as text, as a browser's address bar does. The end-to-end tests drag it onto the app's
// window with xdotool: a real X drag and drop between two processes (Tests/EndToEnd/habits.sh). Test-only:
// no `make` rule builds it in release mode and `make install` never installs it.
//
// It says on stdout (flushed at once, for the test to wait on) what the drag went through:
//   ready                    the window is on screen
//   drag-begin               GTK started the drag (the pointer went past the drag threshold)
//   drag-accepted            the window under the pointer accepts the drop (its XdndStatus came back)
//   drag-data-get TARGET     the drop asked for the link as TARGET (e.g. text/uri-list)
//   drag-end dropped|failed  the drag ended, with a drop that succeeded or without one
import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import Glibc

let uriInfo: UInt32 = 1
let textInfo: UInt32 = 2

@MainActor func say(_ line: String) {
    print(line)
    fflush(nil)  // every output stream: stdout is a file here, fully buffered
}

@MainActor final class LinkSource {
    let link: String
    let window: ApplicationWindow
    let button: Button
    /// Watches the drag under way for the target's answer.
    var watch: MainLoopSource?

    init(application: Application, link: String) {
        self.link = link
        window = ApplicationWindow(application: application)
        window.title = "Drag source test"
        window.setDefaultSize(width: 320, height: 120)
        button = Button(label: "Drag me: \(link)")
        window.setChild(button)
        // A button has an input window of its own, so GTK can start a drag from it (GtkLabel has none).
        let widget = button.ref.typed(GtkWidget.self)
        let targets = gtk_target_list_new(nil, 0)
        gtk_target_list_add_uri_targets(targets, uriInfo)
        gtk_target_list_add_text_targets(targets, textInfo)
        gtk_drag_source_set(widget, GDK_BUTTON1_MASK, nil, 0, GDK_ACTION_COPY)
        gtk_drag_source_set_target_list(widget, targets)
        gtk_target_list_unref(targets)
        button.ref.connect("drag-begin") { [weak self] (context: UnsafeMutableRawPointer?) in
            self?.began(OpaquePointer(context))
        }
        button.ref.connectDragDataGet { [weak self] _, selection, info in
            guard let self, let selection else { return }
            self.fill(OpaquePointer(selection), info: info)
        }
        button.ref.connect("drag-end") { [weak self] (context: UnsafeMutableRawPointer?) in
            self?.watch?.cancel()
            self?.watch = nil
            let dropped = context.map { gdk_drag_drop_succeeded(OpaquePointer($0)) != 0 } ?? false
            say("drag-end \(dropped ? "dropped" : "failed")")
        }
        window.onMap { say("ready") }
        window.showAll()
    }

    /// Until the target has answered, GTK's source takes a button release as a drop on nothing. The context's
    /// selected action is the answer (0 until a target accepts); the test lets go once it was said.
    private func began(_ context: OpaquePointer?) {
        say("drag-begin")
        guard let context else { return }
        let ref = ObjectRef(context, transfer: .none)
        var accepted = false
        watch = MainLoopSource.every(milliseconds: 50) {
            let nowAccepted = gdk_drag_context_get_selected_action(ref.opaque).rawValue != 0
            if nowAccepted != accepted {
                accepted = nowAccepted
                say(accepted ? "drag-accepted" : "drag-refused")
            }
            return true
        }
    }

    private func fill(_ selection: OpaquePointer, info: UInt32) {
        let target = takeString(gdk_atom_name(gtk_selection_data_get_target(selection))) ?? "?"
        say("drag-data-get \(target)")
        switch info {
        case uriInfo:
            link.withCString { uri in
                var uris: [UnsafeMutablePointer<gchar>?] = [UnsafeMutablePointer(mutating: uri), nil]
                _ = gtk_selection_data_set_uris(selection, &uris)
            }
        case textInfo:
            _ = gtk_selection_data_set_text(selection, link, -1)
        default:
            break
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    let usage = "usage: gallery-test-drag-source LINK\n"
    _ = write(2, usage, usage.utf8.count)
    exit(2)
}
MainActor.assumeIsolated {
    let application = Application(id: "io.github.galleryviewer.TestDragSource")
    var source: LinkSource?
    application.onActivate { source = source ?? LinkSource(application: application, link: arguments[1]) }
    exit(application.run(arguments: [arguments[0]]))
}
