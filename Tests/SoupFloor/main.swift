import CSoup
import Glibc

// The least any libsoup 2.4 client does before its first answer: start, make a session, GET one URL, exit.
// `make bench`'s download scenario times it beside curl doing the same, so the note on `--download` at no
// latency rests on a number `make bench` prints, not on a profile read once. Never shipped.
//
// The synchronous send is on purpose: there is no main loop or window to keep responsive, and it is what a
// client could do at the very least.
func fail(_ text: String) -> Never {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

guard CommandLine.arguments.count == 2 else { fail("usage: gallery-soup-floor URL") }
guard let message = soup_message_new("GET", CommandLine.arguments[1]) else {
    fail("gallery-soup-floor: not a URL: \(CommandLine.arguments[1])")
}
let session = soup_session_new()
let status = soup_session_send_message(session, message)
g_object_unref(message)
g_object_unref(session)
exit(status == 200 ? 0 : 1)
