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
//   gallery-soup-floor --gallery-streaming LIST FOLDER
//                                             the same, each image read as a stream (`soup_session_send_async`,
//                                             then non-blocking reads as the bytes arrive): the API a client
//                                             must use to bound and check a body while it arrives, as the app does.
//
// The first two take libsoup's cheapest paths: the synchronous send for one page (no main loop to keep
// responsive), and for the gallery `soup_session_queue_message`, where libsoup reads each whole body in its own
// I/O loop and calls back once, with files written synchronously from that callback. The app cannot do either
// (it streams every body through bounded async reads, checks it, and never blocks its main loop), so this is a
// floor for any libsoup 2.4 client, not a design to copy. The streaming mode shows what the streaming API
// itself adds to that floor (the bench reports it beside the goal, not in it).
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

    /// Images are read as streams (`--gallery-streaming`) rather than whole by libsoup.
    let streams: Bool
    /// Where a stream's read lands before it is appended to its image: one for the run (reads never overlap).
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(folder: String, pages: [Page], streams: Bool) {
        self.folder = folder
        self.pages = pages
        self.streams = streams
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
            if streams {
                StreamedImage(run: self, message: message, index: imagesQueued - 1).start()
                continue
            }
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
            save(UnsafeRawBufferPointer(start: body.pointee.data, count: Int(body.pointee.length)), index: index)
        } else {
            failed += 1
        }
        finishedOne()
    }

    /// Writes an image to FOLDER/`index`, synchronously.
    func save(_ bytes: UnsafeRawBufferPointer, index: Int) {
        let file = open(folder + "/\(index)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if file < 0 || write(file, bytes.baseAddress, bytes.count) != bytes.count { failed += 1 }
        if file >= 0 { close(file) }
    }

    func finishedOne() {
        left -= 1
        if left == 0 { g_main_loop_quit(loop) }
    }
}

/// One image read as a stream: sent with `soup_session_send_async`, then read without blocking as far as the
/// bytes have arrived, and again when the stream is readable; written whole once it ends. It keeps itself alive
/// (a retained pointer in each callback's user data) until then.
final class StreamedImage {
    let run: GalleryRun
    let message: UnsafeMutablePointer<SoupMessage>
    let index: Int
    var stream: UnsafeMutablePointer<GInputStream>?
    var bytes: [UInt8] = []

    init(run: GalleryRun, message: UnsafeMutablePointer<SoupMessage>, index: Int) {
        self.run = run
        self.message = message
        self.index = index
    }

    func start() {
        soup_session_send_async(run.imageSession, message, nil, { _, result, context in
            let image = Unmanaged<StreamedImage>.fromOpaque(context!).takeRetainedValue()
            image.stream = soup_session_send_finish(image.run.imageSession, result, nil)
            guard image.stream != nil, image.message.pointee.status_code == 200 else { return image.end(failed: true) }
            image.readAvailable()
        }, Unmanaged.passRetained(self).toOpaque())
    }

    /// Reads what has arrived; asks the main loop to call back when more has.
    func readAvailable() {
        let pollable = OpaquePointer(stream!)
        while true {
            var error: UnsafeMutablePointer<GError>?
            let count = run.readBuffer.withUnsafeMutableBytes {
                g_pollable_input_stream_read_nonblocking(pollable, $0.baseAddress, gsize($0.count), nil, &error)
            }
            if count > 0 {
                bytes += run.readBuffer[0..<count]
                continue
            }
            if count == 0 { return end(failed: false) }
            let wouldBlock = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_WOULD_BLOCK.rawValue)) != 0 } ?? false
            g_clear_error(&error)
            guard wouldBlock else { return end(failed: true) }
            let source = g_pollable_input_stream_create_source(pollable, nil)
            let readable: GPollableSourceFunc = { _, context in
                Unmanaged<StreamedImage>.fromOpaque(context!).takeRetainedValue().readAvailable()
                return 0
            }
            g_source_set_callback(source, unsafeBitCast(readable, to: GSourceFunc.self), Unmanaged.passRetained(self).toOpaque(), nil)
            g_source_attach(source, nil)
            g_source_unref(source)
            return
        }
    }

    func end(failed: Bool) {
        if let stream {
            g_input_stream_close(stream, nil, nil)
            g_object_unref(stream)
        }
        g_object_unref(message)
        if failed { run.failed += 1 } else { bytes.withUnsafeBytes { run.save($0, index: index) } }
        run.finishedOne()
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

func fetchGallery(list: String, folder: String, streams: Bool) -> Never {
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

    let run = GalleryRun(folder: folder, pages: pages, streams: streams)
    run.readNextPage()
    g_main_loop_run(run.loop)
    exit(run.failed == 0 ? 0 : 1)
}

let arguments = CommandLine.arguments
if arguments.count == 2 {
    fetchOne(arguments[1])
} else if arguments.count == 4, arguments[1] == "--gallery" || arguments[1] == "--gallery-streaming" {
    fetchGallery(list: arguments[2], folder: arguments[3], streams: arguments[1] == "--gallery-streaming")
}
fail("usage: gallery-soup-floor URL | gallery-soup-floor --gallery[-streaming] LIST FOLDER")
