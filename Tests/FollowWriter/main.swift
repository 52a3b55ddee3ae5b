#if canImport(Glibc)
import Glibc
#endif
import GalleryCore
import GObjectBindings

// gallery-test-follow-writer DIRECTORY FIRST: follows demo users writer-FIRST, writer-FIRST+1… in the store in
// DIRECTORY, and marks item-N of the first one seen, forever, printing "followed N" or "seen N" as each write's
// completion (after its COMMIT) runs. Two writes are always queued, so a kill lands in or between transactions.
// The kill -9 test (FollowStoreCrashTests) kills it after some acknowledgements and checks each is on disk.

/// write(2), unbuffered: a line printed is a line the test can read even if the next instant is a SIGKILL.
func say(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let first = Int(arguments[2]) else {
    say("usage: gallery-test-follow-writer DIRECTORY FIRST")
    exit(64)
}
MainActor.assumeIsolated {
    let store = FollowStore(directory: arguments[1])
    let anchor = FollowedGallery.Key(source: .demo, username: "writer-anchor")
    var next = first
    @MainActor func write() {
        let number = next
        next += 1
        if number % 2 == 0 {
            store.follow(.init(source: .demo, username: "writer-\(number)"), displayName: "W \(number)") { result in
                guard case .success = result else { say("failed \(result)"); exit(1) }
                say("followed \(number)")
                write()
            }
        } else {
            store.markSeen(["item-\(number)"], in: anchor) { result in
                guard case .success = result else { say("failed \(result)"); exit(1) }
                say("seen \(number)")
                write()
            }
        }
    }
    store.follow(anchor, displayName: "anchor") { result in
        guard case .success = result else { say("failed \(result)"); exit(1) }
        say("ready")
        write()
        write()
    }
    MainLoop().run()
}
