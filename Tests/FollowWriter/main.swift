#if canImport(Glibc)
import Glibc
#endif
// `record` (a check's write) is the checker's, internal to GalleryCore: this helper is always a debug build,
// which SwiftPM makes testable (Tests/AddressSanitizer/run.sh builds it so too).
@testable import GalleryCore
import GObjectBindings

// gallery-test-follow-writer DIRECTORY FIRST [checks]: follows demo users writer-FIRST, writer-FIRST+1… in the
// store in DIRECTORY, and marks item-N of the first one seen, forever, printing "followed N" or "seen N" as each
// write's completion (after its COMMIT) runs. Two writes are always queued, so a kill lands in or between
// transactions. The kill -9 test (FollowStoreCrashTests) kills it after some acknowledgements and checks each
// is on disk.
//
// With "checks", each followed writer-N is then written a check that found `checkItems` new items (as the
// checker writes one: `FollowStore.record`), printing "checked N": the write after a "followed N" is that
// check's, so a kill that comes on a "followed" line lands in the middle of writing its items.

/// New items a check writes: a gallery's most, so the write is long enough to be killed in.
let checkItems = FollowLimits.maxNewItemsPerGallery

/// write(2), unbuffered: a line printed is a line the test can read even if the next instant is a SIGKILL.
func say(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
}

/// What check N of writer-N found: items check-N-0 (newest) … check-N-(checkItems-1).
func check(_ number: Int) -> FollowCheckRecord {
    let items = (0..<checkItems).map { index in
        GalleryItem(id: "check-\(number)-\(index)", title: "Item \(index) of check \(number)",
                    thumbnails: [.init(url: "https://demo.test/thumbs/\(number)-\(index).jpg", width: 150, height: 100)],
                    fullImageURL: "https://demo.test/images/\(number)-\(index).jpg", author: "writer-\(number)",
                    published: 1_700_000_000 + number * 10_000 - index)
    }
    return FollowCheckRecord(key: .init(source: .demo, username: "writer-\(number)"), time: Int64(number), problem: nil,
                             newestItem: FollowItemMark(id: items[0].id, time: nil), validators: nil, keepsValidators: false,
                             displayName: "Checked \(number)", avatarURL: nil, newItems: items,
                             resolution: SourceResolution(accountID: "account-\(number)"))
}

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let first = Int(arguments[2]), arguments.count == 3 || arguments[3] == "checks" else {
    say("usage: gallery-test-follow-writer DIRECTORY FIRST [checks]")
    exit(64)
}
let writesChecks = arguments.count == 4
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
                if !writesChecks { write() }
            }
            guard writesChecks else { return }
            // Queued behind the follow: its write starts as the follow's completion runs.
            store.record(check(number)) { result in
                guard case .success(let kept?) = result, kept.count == checkItems else { say("failed \(result)"); exit(1) }
                say("checked \(number)")
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
