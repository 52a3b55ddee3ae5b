import CSoup
import Glibc

// The least a libsoup 2.4 client does, timed by `make bench`'s download scenario beside the app and curl, so the
// goal for `--download` at no latency rests on what any libsoup 2.4 client costs on the same URLs. Never shipped.
//
//   gallery-soup-floor URL                    start, make a session, GET one URL, exit
//   gallery-soup-floor --gallery LIST FOLDER  fetch a gallery as `--download` must: LIST holds `page URL` lines,
//                                             each followed by its `image URL` lines; the pages are read one after
//                                             another (each names the next, so no client can read them faster),
//                                             on a connection of their own as in the app, and a page's images are
//                                             queued once it has arrived, over 6 connections; each image is
//                                             written to FOLDER/<its number>. The page bodies are not parsed:
//                                             the list says what each one holds.
//
// Both take libsoup's cheapest paths: the synchronous send for one page (no main loop to keep responsive), and
// for the gallery `soup_session_queue_message`, where libsoup reads each whole body in its own I/O loop and
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

/// One page of the gallery and the images it names.
struct Page {
    var url: String
    var images: [String] = []
}

/// What the queue callbacks need; one per run, reached through the callbacks' user data.
final class GalleryRun {
    let folder: String
    /// Six connections for the images, and one of its own for the pages, as the app keeps: a page never waits
    /// for an image to finish.
    let imageSession = session(connections: 6)
    let pageSession = session(connections: 1)
    let pages: [Page]
    var nextPage = 0
    var imagesQueued = 0
    var left: Int
    var failed = 0
    let loop = g_main_loop_new(nil, 0)

    init(folder: String, pages: [Page]) {
        self.folder = folder
        self.pages = pages
        left = pages.count + pages.reduce(0) { $0 + $1.images.count }
    }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Reads the next page; its images are queued when it has arrived, and the page after it is read then.
    func readNextPage() {
        guard nextPage < pages.count else { return }
        let message = newMessage(pages[nextPage].url)
        soup_session_queue_message(pageSession, message, { _, message, context in
            guard let message, let context else { return }
            Unmanaged<GalleryRun>.fromOpaque(context).takeUnretainedValue().pageArrived(message)
        }, context)
    }

    func pageArrived(_ message: UnsafeMutablePointer<SoupMessage>) {
        if message.pointee.status_code != 200 { failed += 1 }
        let page = pages[nextPage]
        nextPage += 1
        readNextPage()
        for url in page.images {
            let message = newMessage(url)
            imagesQueued += 1
            // The image's number rides in the message's data, the run in the callback's user data.
            g_object_set_data(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "index",
                              UnsafeMutableRawPointer(bitPattern: imagesQueued))
            soup_session_queue_message(imageSession, message, { _, message, context in
                guard let message, let context else { return }
                let index = Int(bitPattern: g_object_get_data(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "index")) - 1
                Unmanaged<GalleryRun>.fromOpaque(context).takeUnretainedValue().imageArrived(message, index: index)
            }, context)
        }
        finishedOne()
    }

    func imageArrived(_ message: UnsafeMutablePointer<SoupMessage>, index: Int) {
        if message.pointee.status_code == 200, let body = message.pointee.response_body {
            let file = open(folder + "/\(index)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if file < 0 || write(file, body.pointee.data, Int(body.pointee.length)) != Int(body.pointee.length) {
                failed += 1
            }
            if file >= 0 { close(file) }
        } else {
            failed += 1
        }
        finishedOne()
    }

    private func finishedOne() {
        left -= 1
        if left == 0 { g_main_loop_quit(loop) }
    }
}

/// A session of libsoup's defaults with `connections` per host.
func session(connections: Int32) -> UnsafeMutablePointer<SoupSession> {
    let session = soup_session_new()!
    var value = GValue()
    g_value_init(&value, g_type_from_name("gint"))
    g_value_set_int(&value, connections)
    g_object_set_property(UnsafeMutableRawPointer(session).assumingMemoryBound(to: GObject.self), "max-conns-per-host", &value)
    return session
}

/// A new GET; `soup_session_queue_message` takes its reference.
func newMessage(_ url: String) -> UnsafeMutablePointer<SoupMessage> {
    guard let message = soup_message_new("GET", url) else { fail("gallery-soup-floor: not a URL: \(url)") }
    return message
}

func fetchGallery(list: String, folder: String) -> Never {
    var contents: UnsafeMutablePointer<gchar>?
    guard g_file_get_contents(list, &contents, nil, nil) != 0, let contents else { fail("gallery-soup-floor: cannot read \(list)") }
    let lines = String(cString: contents).split(separator: "\n")
    g_free(contents)
    var pages: [Page] = []
    for line in lines {
        let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard fields.count == 2 else { fail("gallery-soup-floor: not `page URL` or `image URL`: \(line)") }
        switch fields[0] {
        case "page": pages.append(Page(url: fields[1]))
        case "image" where !pages.isEmpty: pages[pages.count - 1].images.append(fields[1])
        default: fail("gallery-soup-floor: not `page URL` or `image URL` after a page: \(line)")
        }
    }
    guard !pages.isEmpty else { exit(0) }

    let run = GalleryRun(folder: folder, pages: pages)
    run.readNextPage()
    g_main_loop_run(run.loop)
    exit(run.failed == 0 ? 0 : 1)
}

let arguments = CommandLine.arguments
if arguments.count == 2 {
    fetchOne(arguments[1])
} else if arguments.count == 4, arguments[1] == "--gallery" {
    fetchGallery(list: arguments[2], folder: arguments[3])
}
fail("usage: gallery-soup-floor URL | gallery-soup-floor --gallery LIST FOLDER")
