import CSoup
import Glibc

// The least a libsoup 2.4 client does, timed by `make bench`'s download scenario beside curl, so the note on
// `--download` at no latency rests on numbers `make bench` prints, not on a profile read once. Never shipped.
//
//   gallery-soup-floor URL                   start, make a session, GET one URL, exit
//   gallery-soup-floor --images LIST FOLDER  GET every URL in LIST (one a line) over 6 connections, each body
//                                            written to FOLDER/<line number>; no feed, no checks, no GTK
//
// Both take libsoup's cheapest paths: the synchronous send for one page (no main loop to keep responsive), and
// for the images `soup_session_queue_message`, where libsoup reads each whole body in its own I/O loop and
// calls back once, with files written synchronously from that callback. The app cannot do either (it streams
// every body through bounded async reads, checks it, and never blocks its main loop), so this is a floor for
// any libsoup 2.4 client, not a design to copy.
func fail(_ text: String) -> Never {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

func fetchOne(_ url: String) -> Never {
    guard let message = soup_message_new("GET", url) else { fail("gallery-soup-floor: not a URL: \(url)") }
    let session = soup_session_new()
    let status = soup_session_send_message(session, message)
    g_object_unref(message)
    g_object_unref(session)
    exit(status == 200 ? 0 : 1)
}

/// What the queue callback needs; one per run, reached through the callback's user data.
final class ImageRun {
    let folder: String
    var left: Int
    var failed = 0
    let loop = g_main_loop_new(nil, 0)

    init(folder: String, count: Int) {
        self.folder = folder
        left = count
    }

    func finished(_ message: UnsafeMutablePointer<SoupMessage>, index: Int) {
        if message.pointee.status_code == 200, let body = message.pointee.response_body {
            let file = open(folder + "/\(index)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if file < 0 || write(file, body.pointee.data, Int(body.pointee.length)) != Int(body.pointee.length) {
                failed += 1
            }
            if file >= 0 { close(file) }
        } else {
            failed += 1
        }
        left -= 1
        if left == 0 { g_main_loop_quit(loop) }
    }
}

func fetchImages(list: String, folder: String) -> Never {
    var contents: UnsafeMutablePointer<gchar>?
    guard g_file_get_contents(list, &contents, nil, nil) != 0, let contents else { fail("gallery-soup-floor: cannot read \(list)") }
    let urls = String(cString: contents).split(separator: "\n").map(String.init)
    g_free(contents)
    guard !urls.isEmpty else { exit(0) }

    let session = soup_session_new()!
    var connections = GValue()
    g_value_init(&connections, g_type_from_name("gint"))
    g_value_set_int(&connections, 6)
    g_object_set_property(UnsafeMutableRawPointer(session).assumingMemoryBound(to: GObject.self), "max-conns-per-host", &connections)

    let run = ImageRun(folder: folder, count: urls.count)
    let context = Unmanaged.passRetained(run).toOpaque()
    for (index, url) in urls.enumerated() {
        guard let message = soup_message_new("GET", url) else { fail("gallery-soup-floor: not a URL: \(url)") }
        // The index rides in the message's data, the run in the callback's user data.
        g_object_set_data(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "index",
                          UnsafeMutableRawPointer(bitPattern: index + 1))
        // Takes the message's reference.
        soup_session_queue_message(session, message, { _, message, context in
            guard let message, let context else { return }
            let index = Int(bitPattern: g_object_get_data(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "index")) - 1
            Unmanaged<ImageRun>.fromOpaque(context).takeUnretainedValue().finished(message, index: index)
        }, context)
    }
    g_main_loop_run(run.loop)
    g_object_unref(session)
    exit(run.failed == 0 ? 0 : 1)
}

let arguments = CommandLine.arguments
if arguments.count == 2 {
    fetchOne(arguments[1])
} else if arguments.count == 4, arguments[1] == "--images" {
    fetchImages(list: arguments[2], folder: arguments[3])
}
fail("usage: gallery-soup-floor URL | gallery-soup-floor --images LIST FOLDER")
