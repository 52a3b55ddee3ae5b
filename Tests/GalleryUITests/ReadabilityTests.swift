import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
@testable import GalleryCore
import GalleryDemoServer
import TestSupport
import XCTest
@testable import GalleryUI

/// Text the window shows for what went wrong or needs attention is readable in every style GNOME offers:
/// a failed row's reason and icon (also selected), the offline notice, the in-app notification, the status page,
/// the rows' badges and the recent galleries' second lines, rendered in a real window with the app's stylesheet (resources/style.css) in Adwaita,
/// Adwaita dark and HighContrast, must reach WCAG AA's 4.5:1 against what they are actually drawn on.
final class ReadabilityTests: GLibTestCase {
    enum Style: String, CaseIterable {
        case adwaita = "Adwaita"
        case adwaitaDark = "Adwaita dark"
        case highContrast = "HighContrast"

        var themeName: String { self == .highContrast ? "HighContrast" : "Adwaita" }
        var prefersDark: Bool { self == .adwaitaDark }
    }

    static let minimumRatio = 4.5

    func testFailedRowsNoticesAndBadgesAreReadableInEveryStyle() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            defer { withExtendedLifetime(folder) {} }
            folder.write(Array("[recent-galleries]\ngalleries=demo:aurora;\n".utf8), to: "state.ini")
            let ui = try UIHarness(endpoints: [.bluesky: UIHarness.demoServerEndpoint], stateFile: folder.path + "/state.ini")
            defer { ui.close() }
            Self.installAppStylesheet()
            // Colours are read once they are final: no 200 ms transitions between states. The window has the
            // keyboard focus, as the window a user reads does (an inactive one is drawn in its backdrop colours).
            Self.setAnimations(false)
            defer {
                Self.apply(.adwaita)
                Self.setAnimations(true)
            }
            ui.takeKeyboardFocus()
            var report: [String] = []
            var failures: [String] = []
            @MainActor func check(_ what: String, _ widget: Widget, in style: Style, rendered: RenderedWindow,
                                  minimum: Double = ReadabilityTests.minimumRatio) {
                guard let contrast = rendered.contrast(of: widget.widget) else {
                    return failures.append("\(style.rawValue): \(what) is not on screen")
                }
                report.append("\(style.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(what): \(contrast)"
                              + String(format: ", needs %.2f", minimum))
                if contrast.ratio < minimum - 0.005 { failures.append("\(style.rawValue): \(what) \(contrast)") }
            }
            /// In a selected row the theme itself sets the text's colour on its selection colour, and Adwaita's
            /// own (white on #3584E4) reads at 3.77:1: there the row's own title is the bar, up to 4.5:1.
            @MainActor func selectedMinimum(_ row: GalleryRow, rendered: RenderedWindow) -> Double {
                min(Self.minimumRatio, rendered.contrast(of: row.titleLabel.widget)?.ratio ?? Self.minimumRatio)
            }

            // aurora's rows 5 and 7 fail (404, 500); a badge is on the Bluesky demo's video rows.
            ui.search("aurora")
            XCTAssertTrue(ui.waitForRows(24))
            ui.scroll(toRow: 4)
            XCTAssertTrue(ui.waitUntilSettled(5))
            XCTAssertEqual(try ui.download(5).state, .failed(reason: "HTTP 404 Not Found"))
            for style in Style.allCases {
                Self.apply(style, to: ui)
                for (selected, state) in [(6, ""), (5, ", selected")] {
                    ui.list.select(selected, focus: true)
                    ui.settleFrames()
                    XCTAssertTrue(ui.list.visibleRange.contains(5))
                    let row = try ui.row(5)
                    let rendered = try RenderedWindow(ui.window.window.widget)
                    let minimum = selected == 5 ? selectedMinimum(row, rendered: rendered) : Self.minimumRatio
                    check("failed row's reason" + state, row.detailLabel, in: style, rendered: rendered, minimum: minimum)
                    // An icon, not text: WCAG's 3:1 for graphics (1.4.11).
                    check("failed row's icon" + state, row.retryButton, in: style, rendered: rendered, minimum: min(3, minimum))
                }
            }

            ui.window.notices.show(.offline(service: "Demo", savedAgo: "3 hours ago"))
            ui.window.showNote("Cache cleared: 12.3 MB of saved thumbnails, images and pages deleted.")
            XCTAssertTrue(iterateMainLoop(until: { ui.window.notification.revealer.isMapped && ui.window.notices.label.isMapped },
                                          timeout: 60))
            for style in Style.allCases {
                Self.apply(style, to: ui)
                ui.settleFrames()
                let rendered = try RenderedWindow(ui.window.window.widget)
                check("offline notice", ui.window.notices.label, in: style, rendered: rendered)
                check("in-app notification", ui.window.notification.label, in: style, rendered: rendered)
            }
            ui.window.notices.show(nil)
            ui.window.notification.dismiss()

            ui.search("bob")
            XCTAssertTrue(iterateMainLoop(until: {
                ui.window.statusPage.titleLabel.text == "No such user: bob" && ui.window.statusPage.titleLabel.isMapped
            }, timeout: 60))
            for style in Style.allCases {
                Self.apply(style, to: ui)
                ui.settleFrames()
                let rendered = try RenderedWindow(ui.window.window.widget)
                check("status page title", ui.window.statusPage.titleLabel, in: style, rendered: rendered)
                check("status page text", ui.window.statusPage.descriptionLabel, in: style, rendered: rendered)
            }

            ui.search("aurora.demo.test", source: .bluesky)
            XCTAssertTrue(ui.waitForRows(24))
            let video = try XCTUnwrap((0..<24).first { try ui.download($0).item.kind == .video }, "a video row")
            ui.scroll(toRow: video)
            XCTAssertTrue(try ui.row(video).badge.isVisible)
            for style in Style.allCases {
                Self.apply(style, to: ui)
                for (selected, state) in [(video + 1, ""), (video, ", selected")] {
                    ui.list.select(selected, focus: true)
                    ui.settleFrames()
                    let row = try ui.row(video)
                    let rendered = try RenderedWindow(ui.window.window.widget)
                    let minimum = selected == video ? selectedMinimum(row, rendered: rendered) : Self.minimumRatio
                    check("badge" + state, row.badge, in: style, rendered: rendered, minimum: minimum)
                }
            }

            // The recent galleries' popover: each gallery's source, the quieter line.
            let menu = ui.window.header.recentGalleries
            menu.toggle()
            XCTAssertTrue(iterateMainLoop(until: { menu.sourceLabels.first?.isMapped == true }, timeout: 60))
            for style in Style.allCases {
                Self.apply(style, to: ui)
                ui.settleFrames()
                check("recent gallery's source", menu.sourceLabels[0], in: style, rendered: try RenderedWindow(ui.window.window.widget))
            }
            menu.popover.popDown()

            print("Contrast (WCAG AA needs \(Self.minimumRatio):1):\n" + report.joined(separator: "\n"))
            XCTAssertEqual(failures, [], "below \(Self.minimumRatio):1")
        }
    }

    /// The app's stylesheet, as `Style.install` loads it at start-up (once per process: it stays for the
    /// tests that follow, as in the app).
    @MainActor
    private static var stylesheetInstalled = false

    @MainActor
    static func installAppStylesheet() {
        guard !stylesheetInstalled else { return }
        stylesheetInstalled = true
        let file = #filePath
        guard let root = file.range(of: "/Tests/GalleryUITests/").map({ String(file[..<$0.lowerBound]) }),
              let css = File.smallText(atPath: root + "/resources/style.css") else { return XCTFail("no resources/style.css") }
        XCTAssertNoThrow(try CssProvider.install(css))
    }

    /// The theme a desktop's settings would pick (gtk-theme-name, gtk-application-prefer-dark-theme).
    @MainActor
    static func apply(_ style: Style, to ui: UIHarness? = nil) {
        let settings = gtk_settings_get_default()!.raw
        var name = GValue()
        g_value_init(&name, gv_type_string())
        g_value_set_string(&name, style.themeName)
        g_object_set_property(settings.as(GObject.self), "gtk-theme-name", &name)
        g_value_unset(&name)
        var dark = GValue()
        g_value_init(&dark, gv_type_boolean())
        g_value_set_boolean(&dark, style.prefersDark ? 1 : 0)
        g_object_set_property(settings.as(GObject.self), "gtk-application-prefer-dark-theme", &dark)
        g_value_unset(&dark)
    }

    @MainActor
    static func setAnimations(_ enabled: Bool) {
        var value = GValue()
        g_value_init(&value, gv_type_boolean())
        g_value_set_boolean(&value, enabled ? 1 : 0)
        g_object_set_property(gtk_settings_get_default()!.raw.as(GObject.self), "gtk-enable-animations", &value)
        g_value_unset(&value)
    }
}
