import CGLib
import GObjectBindings
@testable import GalleryCore
import TestSupport
import XCTest

/// The recent galleries: the list's rules (order, duplicates as each service compares names, ten at most,
/// removal), what completion matches, which searches are remembered, and the state file they live in —
/// written beside the file's other groups, read back cleaned from a file edited or damaged by hand.
private func search(_ source: SourceKind, _ name: String) -> RecentSearch { RecentSearch(source: source, username: name) }

final class RecentGalleriesTests: GLibTestCase {
    func testNewestFirstAndARepeatMovesUpUnderItsLatestSpelling() {
        var list = RecentGalleries()
        list.remember(search(.demo, "aurora"))
        list.remember(search(.mastodon, "alice@mastodon.social"))
        list.remember(search(.demo, "atlas"))
        XCTAssertEqual(list.entries, [search(.demo, "atlas"), search(.mastodon, "alice@mastodon.social"), search(.demo, "aurora")])
        list.remember(search(.demo, "Aurora"))
        XCTAssertEqual(list.entries, [search(.demo, "Aurora"), search(.demo, "atlas"), search(.mastodon, "alice@mastodon.social")],
                       "the same demo user whatever the case: moved up, not listed twice")
        list.remember(search(.deviantArt, "aurora"))
        XCTAssertEqual(list.entries.count, 4, "the same name on another source is another gallery")
    }

    func testDuplicatesAreFoundAsEachServiceComparesNames() {
        var list = RecentGalleries()
        list.remember(search(.mastodon, "alice@mastodon.social"))
        list.remember(search(.mastodon, "Alice@Mastodon.Social"))
        XCTAssertEqual(list.entries, [search(.mastodon, "Alice@mastodon.social")],
                       "one entry, as the latest search wrote it: Mastodon ignores case (the source lower-cases the server)")
        list.remember(search(.misskey, "Bob@misskey.io"))
        list.remember(search(.misskey, "bob@MISSKEY.io"))
        XCTAssertEqual(list.entries.filter { $0.source == .misskey }.count, 1)
        list.remember(search(.bluesky, "Carol.bsky.social"))
        list.remember(search(.bluesky, "carol.bsky.social"))
        XCTAssertEqual(list.entries.filter { $0.source == .bluesky }.count, 1, "Bluesky handles ignore case")
        list.remember(search(.commons, "user:müller_x "))
        XCTAssertEqual(list.entries.first, search(.commons, "Müller x"), "kept in MediaWiki's form")
        list.remember(search(.commons, "Müller_x"))
        XCTAssertEqual(list.entries.filter { $0.source == .commons }.count, 1, "the first letter and _ are MediaWiki's to normalize")
        list.remember(search(.commons, "MÜLLER x"))
        XCTAssertEqual(list.entries.filter { $0.source == .commons }.count, 2, "the rest of a Commons name is case-sensitive")
    }

    func testTenAtMostTheOldestGoes() {
        var list = RecentGalleries()
        for number in 1...12 { list.remember(search(.demo, "user\(number)")) }
        XCTAssertEqual(list.entries.count, RecentGalleries.capacity)
        XCTAssertEqual(list.entries.first?.username, "user12")
        XCTAssertEqual(list.entries.last?.username, "user3")
    }

    func testRemovalAndClearing() {
        var list = RecentGalleries([search(.demo, "aurora"), search(.demo, "atlas"), search(.commons, "Example")])
        list.remove(search(.demo, "ATLAS"))
        XCTAssertEqual(list.entries, [search(.demo, "aurora"), search(.commons, "Example")], "removed as compared by its service")
        list.remove(search(.demo, "nobody"))
        XCTAssertEqual(list.entries.count, 2)
        list.removeAll()
        XCTAssertTrue(list.isEmpty)
    }

    func testNamesNoSourceWouldSearchAreNotKept() {
        var list = RecentGalleries()
        for name in ["", "   ", "john smith", "bad\u{1B}[31mname", "https://www.deviantart.com/aurora",
                     String(repeating: "a", count: 400)] {
            list.remember(search(.deviantArt, name))
        }
        list.remember(search(.mastodon, "alice"))  // no server
        XCTAssertTrue(list.isEmpty, "\(list.entries)")
        list.remember(search(.demo, "  aurora \t"))
        XCTAssertEqual(list.entries, [search(.demo, "aurora")], "trimmed")
    }

    func testCompletionMatchesTheUserAndTheSource() {
        let list = RecentGalleries([search(.mastodon, "alice@mastodon.social"), search(.demo, "aurora"),
                                    search(.commons, "Alpine Flora"), search(.bluesky, "carol.bsky.social")])
        XCTAssertEqual(list.matches("a").map(\.username), ["alice@mastodon.social", "aurora", "Alpine Flora"])
        XCTAssertEqual(list.matches("AU").map(\.username), ["aurora"], "case does not matter")
        XCTAssertEqual(list.matches("mast").map(\.username), ["alice@mastodon.social"], "the source's name, and the server")
        XCTAssertEqual(list.matches("ali mastodon").map(\.username), ["alice@mastodon.social"], "every word must match")
        XCTAssertEqual(list.matches("flora").map(\.username), ["Alpine Flora"], "a later word of the name")
        XCTAssertEqual(list.matches("commons").map(\.username), ["Alpine Flora"])
        XCTAssertEqual(list.matches("wikimedia").map(\.username), ["Alpine Flora"], "any word of the source's name")
        XCTAssertEqual(list.matches("bsky").map(\.username), ["carol.bsky.social"])
        XCTAssertEqual(list.matches("demo au").map(\.username), ["aurora"])
        XCTAssertEqual(list.matches("").count, 0)
        XCTAssertEqual(list.matches("zzz").count, 0)
    }

    func testOnlySearchesTheServiceAnsweredForAreRemembered() {
        let service = "Demo"
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .loading(page: 1)), .undecided)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .waiting(page: 1, seconds: 5)), .undecided)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: true, state: .loading(page: 1)), .remember)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .failed(.noSuchUser(service: service, username: "x"))),
                       .leaveOut)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .failed(.invalidUsername(reason: "r"))), .leaveOut)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .failed(.emptyGallery(username: "x"))), .remember)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .failed(.network(service: service, detail: "d"))),
                       .remember, "the name may be right: the user will want to try again")
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .failed(.offline(service: service))), .remember)
        XCTAssertEqual(RecentGalleries.verdict(hasItems: false, state: .finished), .remember)
    }

    // MARK: The state file

    func testTheListIsSavedBesideTheFilesOtherGroupsAndReadBack() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            // Another part of the app's group and the user's comment, written before.
            folder.write(Array("# mine\n[view]\nmode=grid\n\n[cache]\nmax-size-mb=64\n".utf8), to: "state.ini")
            let store = RecentSearchStore(path: folder.path + "/state.ini")
            var saves = 0
            store.onSaved = { error in
                XCTAssertNil(error)
                saves += 1
            }
            XCTAssertTrue(store.recentGalleries.isEmpty)
            store.remember(search(.demo, "aurora"))
            store.save(search(.demo, "aurora"))
            store.remember(search(.mastodon, "alice@mastodon.social"))
            store.save(search(.mastodon, "alice@mastodon.social"))
            store.remember(search(.commons, "Semi; colon = \"x\", y"))
            store.forget(search(.mastodon, "ALICE@mastodon.social"))
            XCTAssertTrue(iterateMainLoop(until: { saves >= 1 && !store.isSaving }, timeout: 60))

            let text = String(decoding: folder.contents("state.ini") ?? [], as: UTF8.self)
            for kept in ["# mine", "[view]", "mode=grid", "max-size-mb=64", "[recent-galleries]", "[last-search]"] {
                XCTAssertTrue(text.contains(kept), "\(kept) in\n\(text)")
            }
            let reread = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertEqual(reread.recentGalleries.entries, [search(.commons, "Semi; colon = \"x\", y"), search(.demo, "aurora")],
                           "key-file separators and special characters survive")
            XCTAssertEqual(reread.lastSearch, search(.mastodon, "alice@mastodon.social"), "every save keeps the others' changes")
            XCTAssertEqual(reread.cacheSettings, CacheSettings(megabytes: 64))
        }
    }

    func testClearHistoryForgetsTheListAndTheSearchTheNextLaunchWouldOpen() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            folder.write(Array("[last-search]\nsource=demo\nusername=aurora\n\n[recent-galleries]\ngalleries=demo:aurora;demo:atlas;\n\n[view]\nmode=grid\n".utf8),
                         to: "state.ini")
            let store = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertEqual(store.recentGalleries.entries.count, 2)
            var saved = false
            store.onSaved = { _ in saved = true }
            store.forgetAll()
            XCTAssertTrue(store.recentGalleries.isEmpty)
            XCTAssertTrue(iterateMainLoop(until: { saved }, timeout: 60))
            let reread = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertTrue(reread.recentGalleries.isEmpty)
            XCTAssertNil(reread.lastSearch)
            XCTAssertTrue(String(decoding: folder.contents("state.ini") ?? [], as: UTF8.self).contains("mode=grid"),
                          "other groups stay")
        }
    }

    func testADamagedListIsReadCleaned() {
        let long = String(repeating: "x", count: 1000)
        let items = ["demo:aurora", "myspace:tom", "nocolon", ":aurora", "demo:", "demo:  atlas  ", "DEMO:AURORA",
                     "demo:john smith", "demo:bad\\tname", "mastodon:alice", "deviantart:\(long)",
                     "mastodon:alice@mastodon.social:443", "commons:Ex\\;ample"]
        var text = "[recent-galleries]\ngalleries=" + items.joined(separator: ";") + ";"
        for number in 0..<200 { text += "demo:user\(number);" }
        text += "\n"
        let list = RecentGalleries.parse(text)
        XCTAssertEqual(Array(list.entries.prefix(4)),
                       [search(.demo, "aurora"), search(.demo, "atlas"), search(.mastodon, "alice@mastodon.social"),
                        search(.commons, "Ex;ample")],
                       "unknown sources, names no source accepts and duplicates are dropped; names as the source reads them")
        XCTAssertEqual(list.entries.count, RecentGalleries.capacity, "ten, however long the list")
        XCTAssertFalse(list.entries.contains { $0.username.count > RecentGalleries.maxUsernameLength })

        for damaged in ["[recent-galleries]\ngalleries=demo:aur", "\u{FF}\u{FE}\0garbage", "[recent-galleries\ngalleries=demo:x;",
                        "[recent-galleries]\ngalleries=\n", ""] {
            XCTAssertLessThanOrEqual(RecentGalleries.parse(damaged).entries.count, 1, damaged)
        }
        XCTAssertEqual(RecentGalleries.parse("[recent-galleries]\ngalleries=demo:aur").entries, [search(.demo, "aur")],
                       "a list cut short keeps what is whole")
    }

    func testAStateFileTooLargeToBeTheAppsIsIgnored() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            var text = "[recent-galleries]\ngalleries=demo:aurora;\n# "
            text += String(repeating: "x", count: RecentSearchStore.maxFileBytes)
            folder.write(Array(text.utf8), to: "state.ini")
            let store = RecentSearchStore(path: folder.path + "/state.ini")
            XCTAssertTrue(store.recentGalleries.isEmpty)
            XCTAssertEqual(store.cacheSettings, CacheSettings())
        }
    }
}
