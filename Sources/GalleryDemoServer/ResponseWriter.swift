import CGLib
import GObjectBindings

/// Carries out an `ServerResponse` on a server message: waits out the latency, paces a throttled body and breaks
/// the body on purpose (truncate, stall), all with main-loop timers and libsoup's pause/unpause, never by
/// sleeping. No timer outlives the message: every one is cancelled when the message finishes, including when
/// the client goes away.
@MainActor
public final class ResponseWriter {
    /// Interval between chunks of a throttled body.
    static let tickMilliseconds: UInt32 = 50

    private let response: ServerResponse
    private let message: Soup.ServerMessage
    private var timer: MainLoopSource?
    private var sentBytes = 0
    private var appendedChunks = 0
    private var writtenChunks = 0
    private var allAppended = false
    private var nextChunk: (@MainActor () -> Bytes?)?

    /// Sends `response`. The message may be paused (e.g. while its body was loaded); it is resumed here.
    public static func send(_ response: ServerResponse, to message: Soup.ServerMessage) {
        ResponseWriter(response, message).begin()
    }

    private init(_ response: ServerResponse, _ message: Soup.ServerMessage) {
        self.response = response
        self.message = message
    }

    private var bytesToSend: Int {
        switch response.ending {
        case .complete: response.body.count
        // At least one byte, so there is a written chunk to close the connection after.
        case .truncated(let count): min(max(1, count), response.body.count)
        case .stalled(let count): min(max(0, count), response.body.count)
        case .reset: 0
        }
    }

    private func begin() {
        // Keeps this writer alive until the message finished, then stops whatever is scheduled.
        message.onFinished { [self] in
            timer?.cancel()
            timer = nil
        }
        guard response.latencyMilliseconds > 0 else {
            message.unpause()
            return writeResponse()
        }
        message.pause()
        // libsoup does not read from a paused connection, so it would not notice a client that gave up.
        message.abortWhenClientDisconnects()
        timer = MainLoopSource.after(milliseconds: UInt32(clamping: response.latencyMilliseconds)) { [self] in
            timer = nil
            message.unpause()
            writeResponse()
        }
    }

    private func writeResponse() {
        if response.ending == .reset {
            // Not from inside the request handler, where libsoup still uses the connection.
            message.pause()
            MainLoopSource.idle { [message] in message.abortConnection() }
            return
        }
        message.setStatus(response.status)
        for header in response.headers { message.setResponseHeader(header.name, header.value) }
        if let stream = response.stream { return writeStream(stream) }
        if response.ending == .complete && response.bytesPerSecond == nil {
            return message.setBody(response.body, contentType: response.contentType)
        }
        message.beginStreamingBody(contentType: response.contentType, contentLength: response.body.count)
        switch response.ending {
        case .complete: break
        case .truncated: message.onWroteChunk { [self] in
                writtenChunks += 1
                closeWhenTruncatedPartWritten()
            }
        case .stalled: message.abortWhenClientDisconnects()
        case .reset: break
        }
        if let rate = response.bytesPerSecond {
            let started = g_get_monotonic_time()
            timer = MainLoopSource.every(milliseconds: Self.tickMilliseconds) { [self] in
                let elapsed = Double(g_get_monotonic_time() - started) / 1_000_000
                let allowed = min(bytesToSend, Int(Double(rate) * elapsed))
                if allowed > sentBytes { append(upTo: allowed) }
                guard sentBytes >= bytesToSend else { return true }
                timer = nil
                bodyAppended()
                return false
            }
        } else {
            append(upTo: bytesToSend)
            bodyAppended()
        }
    }

    /// One generated chunk in flight at a time: the next is made when libsoup has written the last, so a
    /// client that reads slowly (or stops) holds the server to one chunk of memory. It is made from an idle
    /// callback, not inside libsoup's write callback: a server in the same process as its client (the tests)
    /// would otherwise write chunk after chunk without ever letting the client read.
    private func writeStream(_ stream: ServerResponse.Stream) {
        nextChunk = stream.makeChunks()
        message.beginStreamingBody(contentType: response.contentType, contentLength: stream.contentLength)
        message.onWroteChunk { [self] in
            timer = MainLoopSource.idle { [self] in
                timer = nil
                appendNextChunk(declaredLength: stream.contentLength)
            }
        }
        appendNextChunk(declaredLength: stream.contentLength)
    }

    private func appendNextChunk(declaredLength: Int?) {
        if let declaredLength, sentBytes >= declaredLength { return }
        guard let chunk = nextChunk?(), chunk.count > 0 else {
            nextChunk = nil
            guard let declaredLength else { return message.completeBody() }
            // The generator ended short of the declared length: end the connection as a truncation does.
            if sentBytes < declaredLength { MainLoopSource.idle { [message] in message.abortConnection() } }
            return
        }
        let count = min(chunk.count, (declaredLength ?? Int.max) - sentBytes)
        sentBytes += count
        message.appendBody(chunk, range: 0..<count)
    }

    private func append(upTo end: Int) {
        guard end > sentBytes else { return }
        message.appendBody(response.body, range: sentBytes..<end)
        sentBytes = end
        appendedChunks += 1
    }

    /// With a Content-Length, libsoup ends a complete body by itself; a stalled one waits for the client.
    private func bodyAppended() {
        allAppended = true
        closeWhenTruncatedPartWritten()
    }

    private func closeWhenTruncatedPartWritten() {
        guard case .truncated = response.ending, allAppended, writtenChunks >= appendedChunks else { return }
        // Not from inside libsoup's write callback: stealing the connection there would free its I/O state
        // under it.
        MainLoopSource.idle { [message] in message.abortConnection() }
    }
}
