import CGLib
import GObjectBindings
import Glibc

/// A plain file server in a child process (Python's http.server, with byte ranges): what a video host is to
/// the player, without the demo server's catalog. Out of the measured process, as every server here is.
@MainActor
final class FileServerProcess {
    let baseURL: String
    private let process: OpaquePointer

    private static let script = """
    import http.server, os, re, sys
    directory = sys.argv[1]
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs): super().__init__(*args, directory=directory, **kwargs)
        def log_message(self, *args): pass
        def send_head(self):
            match = re.fullmatch(r"bytes=(\\d+)-(\\d*)", self.headers.get("Range", ""))
            path = self.translate_path(self.path)
            if not match or not os.path.isfile(path): return super().send_head()
            size = os.path.getsize(path)
            first = int(match[1]); last = min(int(match[2]) if match[2] else size - 1, size - 1)
            if first >= size: self.send_error(416); return None
            handle = open(path, "rb"); handle.seek(first)
            self.send_response(206)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
            self.send_header("Content-Length", str(last - first + 1))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            self.remaining = last - first + 1
            return handle
        def copyfile(self, source, output):
            remaining = getattr(self, "remaining", None)
            if remaining is None: return super().copyfile(source, output)
            while remaining > 0:
                chunk = source.read(min(65536, remaining))
                if not chunk: break
                output.write(chunk); remaining -= len(chunk)
    class Server(http.server.ThreadingHTTPServer):
        # The player closes its connection whenever appsrc's queue is full: not an error worth a traceback.
        def handle_error(self, request, address):
            if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)): super().handle_error(request, address)
    server = Server(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
    """

    init(directory: String) throws(BenchmarkError) {
        process = try ChildProcess.spawn(["python3", "-c", Self.script, directory],
                                         flags: G_SUBPROCESS_FLAGS_STDOUT_PIPE)
        let output = g_data_input_stream_new(g_subprocess_get_stdout_pipe(process))!
        defer { g_object_unref(UnsafeMutableRawPointer(output)) }
        var length: gsize = 0
        guard let line = takeString(g_data_input_stream_read_line(output, &length, nil, nil)), line.hasPrefix("http://") else {
            g_subprocess_force_exit(process)
            throw BenchmarkError(description: "the file server printed no address")
        }
        baseURL = line
    }

    isolated deinit {
        g_subprocess_force_exit(process)
        g_subprocess_wait(process, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(process))
    }
}
