import CGLib
import GObjectBindings
import TestSupport
import XCTest

/// tr/trn: placeholders filled in safely whatever a translation does with them, and real gettext lookups in
/// a compiled catalogue (the test language "xx" of data/fixtures/translation/xx.po: three plural forms).
final class TranslationTests: GLibTestCase {
    // MARK: Placeholders

    func testPlaceholdersAreFilledInWhereverTheyStand() {
        XCTAssertEqual(Translation.substitute("Saved {name}", ["name": "sunset.jpg"]), "Saved sunset.jpg")
        XCTAssertEqual(Translation.substitute("{b} before {a}", ["a": 1, "b": 2]), "2 before 1")
        XCTAssertEqual(Translation.substitute("{a}{b}", ["a": "x", "b": "y"]), "xy")
        XCTAssertEqual(Translation.substitute("no placeholders", ["a": "x"]), "no placeholders")
        XCTAssertEqual(Translation.substitute("{a}", [:]), "{a}")
    }

    func testARepeatedPlaceholderIsFilledInEachTime() {
        XCTAssertEqual(Translation.substitute("{n}, {n} and {n}", ["n": 3]), "3, 3 and 3")
    }

    func testADroppedPlaceholderLeavesTheRestIntact() {
        XCTAssertEqual(Translation.substitute("Saved", ["name": "sunset.jpg"]), "Saved")
        XCTAssertEqual(Translation.substitute("{count} of them", ["count": 2, "total": 9]), "2 of them")
    }

    func testUnknownAndBrokenBracesStayAsWritten() {
        XCTAssertEqual(Translation.substitute("{nmae} saved", ["name": "a"]), "{nmae} saved")
        XCTAssertEqual(Translation.substitute("{} {name", ["name": "a"]), "{} {name")
        XCTAssertEqual(Translation.substitute("}{name}{", ["name": "a"]), "}a{")
        XCTAssertEqual(Translation.substitute("{{name}}", ["name": "a"]), "{a}")
        XCTAssertEqual(Translation.substitute("{ name }", ["name": "a"]), "{ name }")
        XCTAssertEqual(Translation.substitute("{", ["name": "a"]), "{")
    }

    func testAValueIsNeverSearchedForPlaceholders() {
        // A username (or a hostile feed's title) that looks like a placeholder stays as it is.
        XCTAssertEqual(Translation.substitute("{name} has {count}", ["name": "{count}", "count": 5]), "{count} has 5")
        XCTAssertEqual(Translation.substitute("{a}", ["a": "{a}{a}"]), "{a}{a}")
        // Whatever order the values were tried in, replacing one by one would change the other's.
        XCTAssertEqual(Translation.substitute("{a} {b}", ["a": "{b}", "b": "{a}"]), "{b} {a}")
    }

    func testNonASCIITextAndValues() {
        XCTAssertEqual(Translation.substitute("„{name}“ – {count} Bilder", ["name": "Zoë 🌊", "count": 3]),
                       "„Zoë 🌊“ – 3 Bilder")
        XCTAssertEqual(Translation.substitute("{名前}さん", ["名前": "アリス"]), "アリスさん")
        // A combining accent typed right after a brace makes one Character of "}" and the accent; the
        // placeholder is still found, and the accent kept.
        XCTAssertEqual(Translation.substitute("{name}\u{301} x", ["name": "a"]), "a\u{301} x")
        XCTAssertEqual(Translation.substitute("\u{301}{name}", ["name": "a"]), "\u{301}a")
    }

    func testWithoutACatalogueTheTextsAreTheEnglishOnes() {
        XCTAssertEqual(tr("Main Menu"), "Main Menu")
        XCTAssertEqual(tr("{name} has no images yet", ["name": "bob"]), "bob has no images yet")
        XCTAssertEqual(trn("{count} image", "{count} images", 1), "1 image")
        XCTAssertEqual(trn("{count} image", "{count} images", 0), "0 images")
        XCTAssertEqual(trn("{count} image", "{count} images", 24), "24 images")
        XCTAssertEqual(trn("{count} of {total}", "{count} of {total}", 2, ["total": 9]), "2 of 9")
        // A value named count wins over trn's own.
        XCTAssertEqual(trn("{count} image", "{count} images", 2, ["count": "two"]), "two images")
    }

    // MARK: A real catalogue

    func testTextsComeFromTheUsersLanguage() throws {
        try withTestLanguage {
            XCTAssertEqual(tr("Main Menu"), "Hauptmenü (xx)")
            XCTAssertEqual(tr("{name} has no images yet", ["name": "Zoë"]), "Noch keine Bilder von Zoë (xx)")
            XCTAssertEqual(tr("{title}. {explanation}", ["title": "A", "explanation": "B"]), "A – B")
            // Not in the catalogue: English.
            XCTAssertEqual(tr("Image copied"), "Image copied")
            // The careless translation repeats one placeholder and misspells another: shown, never a crash.
            XCTAssertEqual(tr("Retry: {reason}", ["reason": "HTTP 404"]), "HTTP 404 / HTTP 404 / {reasn} (xx)")
        }
        XCTAssertEqual(tr("Main Menu"), "Main Menu", "back in English once the catalogue is unbound")
    }

    func testPluralFormsFollowTheLanguagesRule() throws {
        try withTestLanguage {
            // xx has Polish's three forms: one; 2–4 (but not 12–14), also 22–24…; all the others.
            let expected = [1: "1 Bild (xx)", 2: "2 Bilder (xx)", 4: "4 Bilder (xx)", 5: "5 Bildern (xx)",
                            12: "12 Bildern (xx)", 22: "22 Bilder (xx)", 25: "25 Bildern (xx)", 0: "0 Bildern (xx)",
                            112: "112 Bildern (xx)", 1_000_002: "1000002 Bilder (xx)"]
            for (count, text) in expected {
                XCTAssertEqual(trn("{count} image", "{count} images", count), text, "\(count)")
            }
            XCTAssertEqual(trn("{count} still loading", "{count} still loading", 3), "3 laden noch (xx)")
        }
    }

    /// Runs `body` with the test language's catalogue bound and LANGUAGE=xx, then puts everything back.
    private func withTestLanguage(_ body: () throws -> Void) throws {
        let folder = TemporaryFolder(prefix: "gallery-locale")
        let catalogue = folder.path + "/xx/LC_MESSAGES"
        XCTAssertEqual(g_mkdir_with_parents(catalogue, 0o700), 0)
        try compile(Fixtures.path("translation/xx.po"), into: catalogue + "/" + Translation.domain + ".mo")

        let previousDirectory = String(cString: bindtextdomain(Translation.domain, nil))
        let previousMessages = String(cString: setlocale(LC_MESSAGES, nil))
        let previousLanguage = string(g_getenv("LANGUAGE"))
        defer {
            if let previousLanguage { g_setenv("LANGUAGE", previousLanguage, 1) } else { g_unsetenv("LANGUAGE") }
            setlocale(LC_MESSAGES, previousMessages)
            Translation.bind(localeDirectory: previousDirectory)  // also makes gettext forget what it looked up
        }
        // gettext ignores LANGUAGE in the "C" locale; C.UTF-8 is built into glibc.
        XCTAssertNotNil(setlocale(LC_MESSAGES, "C.UTF-8"))
        g_setenv("LANGUAGE", "xx", 1)
        Translation.bind(localeDirectory: folder.path)
        try body()
    }

    private func compile(_ po: String, into mo: String) throws {
        var output: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        var error: UnsafeMutablePointer<GError>?
        let command = "msgfmt --check -o '\(mo)' '\(po)'"
        guard g_spawn_command_line_sync(command, nil, &output, &status, &error) != 0 else {
            throw GLibError(consuming: error!)  // no msgfmt: `make deps` installs gettext
        }
        defer { g_free(output) }
        XCTAssertEqual(status, 0, "msgfmt: \(string(output) ?? "")")
    }
}
