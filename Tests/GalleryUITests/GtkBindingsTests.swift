import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import TestSupport
import XCTest

/// The Swift types GtkBindings shows in place of GTK's: each value reaches GTK as a value of its own and
/// comes back as itself (a case mapped onto another's GTK constant would come back as that case).
final class GtkBindingsTests: GLibTestCase {
    func testEveryEnumValueRoundTripsThroughGtk() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let label = Label("text")
            for mode in Label.EllipsizeMode.allCases {
                label.ellipsize = mode
                XCTAssertEqual(label.ellipsize, mode)
            }
            for mode in Label.WrapMode.allCases {
                label.wrapMode = mode
                XCTAssertEqual(label.wrapMode, mode)
            }
            for justification in Label.Justification.allCases {
                label.justify = justification
                XCTAssertEqual(label.justify, justification)
            }
            for align in Widget.Align.allCases {
                label.valign = align
                XCTAssertEqual(label.valign, align)
                label.halign = align
                XCTAssertEqual(label.halign, align == .baseline ? .fill : align, "a baseline is vertical only")
            }
            let listBox = ListBox()
            for mode in ListBox.SelectionMode.allCases {
                listBox.selectionMode = mode
                XCTAssertEqual(listBox.selectionMode, mode)
            }
            let bar = InfoBar()
            for type in MessageType.allCases {
                bar.messageType = type
                XCTAssertEqual(bar.messageType, type)
            }
        }
    }

    func testAMessageDialogShowsBothTexts() throws {
        try MainActor.assumeIsolated {
            let ui = try UIHarness()
            defer { ui.close() }
            ui.window.window.showMessage("Could not save", secondary: "Disk full", type: .warning)
            let dialog = try XCTUnwrap(UIHarness.toplevel(ofType: gtk_message_dialog_get_type()))
            let object = ObjectRef(dialog, transfer: .none)
            XCTAssertEqual(object.string("text"), "Could not save")
            XCTAssertEqual(object.string("secondary-text"), "Disk full")
            XCTAssertEqual(object.int("message-type"), Int32(GTK_MESSAGE_WARNING.rawValue))
            gtk_widget_destroy(dialog)
        }
    }

    /// A realized image keeps its picture in a surface like its window's (an X pixmap, sent to the X server
    /// once) and still says which pixbuf it shows; before it has a window it shows the pixbuf itself. Either
    /// way what it draws is the pixbuf's pixels.
    func testAPixbufIsCopiedOnceIntoTheWindowsKindOfSurface() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let red = Pixbuf.filled(width: 16, height: 16, rgba: 0xFF0000FF)
            let blue = Pixbuf.filled(width: 16, height: 16, rgba: 0x0000FFFF)
            let image = Image()
            image.setPixbuf(red)
            XCTAssertEqual(image.content, .pixbuf, "no window yet")
            XCTAssertEqual(image.pixbuf?.pointer, red.pointer)

            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            defer { gtk_widget_destroy(window) }
            gtk_container_add(window.raw.as(GtkContainer.self), image.widget)
            gtk_widget_show_all(window)
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_mapped(image.widget) != 0 }, timeout: 60))
            image.setPixbuf(red)
            XCTAssertEqual(image.content, .surface, "the same pixbuf again, now that there is a window: copied")
            image.setPixbuf(blue)
            XCTAssertEqual(image.content, .surface, "realized: a surface like the window's")
            XCTAssertEqual(image.pixbuf?.pointer, blue.pointer, "and it still names the pixbuf shown")
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_allocated_width(image.widget) >= 16 }, timeout: 60))
            XCTAssertTrue(waitForFrames(of: window), "the window drew no frame")
            let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 16))
            defer { cairo_surface_destroy(surface) }
            let cairo = try XCTUnwrap(cairo_create(surface))
            gtk_widget_draw(image.widget, cairo)
            cairo_destroy(cairo)
            cairo_surface_flush(surface)
            let pixel = try XCTUnwrap(cairo_image_surface_get_data(surface)).withMemoryRebound(to: UInt32.self, capacity: 1) {
                $0[Int(cairo_image_surface_get_stride(surface) / 4) * 8 + 8]
            }
            XCTAssertEqual(pixel, 0xFF0000FF, "it draws the blue pixbuf's pixels (ARGB)")
            image.clear()
            XCTAssertNil(image.pixbuf)
        }
    }

    /// A text line asks for the same size whatever its text (so new text never makes its container lay out
    /// again), a line's height in its font, and paints the text it has now, cut short to its width.
    func testATextLineKeepsItsSizeAndPaintsItsText() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let line = TextLine(ellipsize: .middle)
            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            defer { gtk_widget_destroy(window) }
            gtk_widget_set_size_request(line.widget, 60, -1)
            gtk_container_add(window.raw.as(GtkContainer.self), line.widget)
            gtk_widget_show_all(window)
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_mapped(line.widget) != 0 }, timeout: 60))

            @MainActor func requested() -> (width: Int32, height: Int32) {
                var width: Int32 = 0, height: Int32 = 0
                gtk_widget_get_preferred_width(line.widget, nil, &width)
                gtk_widget_get_preferred_height(line.widget, nil, &height)
                return (width, height)
            }
            // Painted after the frames that follow a change: whatever the new text queued (a redraw) is done.
            @MainActor func inkedColumns() throws -> Set<Int> {
                XCTAssertTrue(waitForFrames(of: window), "the window drew no frame")
                let width = Int(gtk_widget_get_allocated_width(line.widget)), height = Int(gtk_widget_get_allocated_height(line.widget))
                let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
                defer { cairo_surface_destroy(surface) }
                let cairo = try XCTUnwrap(cairo_create(surface))
                gtk_widget_draw(line.widget, cairo)
                cairo_destroy(cairo)
                cairo_surface_flush(surface)
                let stride = Int(cairo_image_surface_get_stride(surface) / 4)
                return try XCTUnwrap(cairo_image_surface_get_data(surface), "no pixels at \(width) × \(height)").withMemoryRebound(to: UInt32.self, capacity: stride * height) { pixels in
                    var columns = Set<Int>()
                    for y in 0..<height { for x in 0..<width where pixels[y * stride + x] >> 24 != 0 { columns.insert(x) } }
                    return columns
                }
            }

            let empty = requested()
            XCTAssertEqual(empty.width, 60, "the width asked for stays once the line has its style")
            XCTAssertGreaterThan(empty.height, 8, "a line of text tall, with no text yet")
            XCTAssertTrue(try inkedColumns().isEmpty, "nothing painted without text")
            line.text = "a"
            XCTAssertEqual(requested().width, empty.width)
            XCTAssertEqual(requested().height, empty.height)
            let short = try inkedColumns()
            XCTAssertFalse(short.isEmpty, "the text is painted")
            XCTAssertFalse(line.isEllipsized, "a short text whole")
            line.text = String(repeating: "long title ", count: 40)
            XCTAssertEqual(requested().width, empty.width, "a long text asks for no more width")
            XCTAssertEqual(requested().height, empty.height, "nor another line")
            let long = try inkedColumns()
            XCTAssertGreaterThan(long.count, short.count, "the new text is painted")
            XCTAssertTrue(line.isEllipsized, "a text wider than the line cut short")
        }
    }

    /// A menu button's popover is made from its menu on first need, not with the button (GTK 3 makes a widget per
    /// item as soon as a model is set, before the window's first frame): when the main loop is idle at low
    /// priority, or at once when the button is pressed or opened. Meanwhile it stays sensitive, and it opens
    /// with the menu's items.
    func testAMenuButtonMakesItsMenuOnFirstNeed() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            @MainActor func menu() -> Menu {
                let menu = Menu()
                menu.append("_Reload", action: "win.reload")
                menu.append("_About", action: "app.about")
                return menu
            }
            let pressed = MenuButton(iconName: "open-menu-symbolic", tooltip: "Pressed", menu: menu())
            let opened = MenuButton(iconName: "open-menu-symbolic", tooltip: "Opened", menu: menu())
            let idle = MenuButton(iconName: "open-menu-symbolic", tooltip: "Idle", menu: menu())
            let clicked = MenuButton(iconName: "open-menu-symbolic", tooltip: "Clicked", menu: menu())
            let box = Box(.horizontal, spacing: 0)
            for button in [pressed, opened, idle, clicked] { box.append(button) }
            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            defer { gtk_widget_destroy(window) }
            gtk_container_add(window.raw.as(GtkContainer.self), box.widget)
            @MainActor func model(_ button: MenuButton) -> UnsafeMutablePointer<GMenuModel>? {
                gtk_menu_button_get_menu_model(button.widget.raw.as(GtkMenuButton.self))
            }
            for button in [pressed, opened, idle, clicked] {
                XCTAssertNil(model(button), "no popover made with the button")
                XCTAssertNotEqual(gtk_widget_get_sensitive(button.widget), 0, "sensitive before its menu is made")
            }

            // Shown (and realized) without running the main loop, whose idle time would make the menus.
            gtk_widget_show_all(window)
            XCTAssertNil(model(idle))
            // A press reaches the button's handlers before its own (which open the popover).
            let press = try XCTUnwrap(gdk_event_new(GDK_BUTTON_PRESS))
            defer { gdk_event_free(press) }
            let eventWindow = try XCTUnwrap(gtk_widget_get_window(pressed.widget))
            g_object_ref(UnsafeMutableRawPointer(eventWindow))
            press.pointee.button.window = eventWindow
            press.pointee.button.button = 1
            press.pointee.button.send_event = 1
            gtk_widget_event(pressed.widget, press)
            XCTAssertEqual(model(pressed), pressed.menuModel.map { $0.ref.typed() }, "a press makes the menu")
            XCTAssertNil(model(opened))
            opened.isActive = true
            XCTAssertEqual(model(opened), opened.menuModel.map { $0.ref.typed() }, "opening makes the menu")
            opened.isActive = false
            // Accessibility's click: GTK opens the (empty) popover first; the menu then opens in its place.
            XCTAssertNil(model(clicked))
            gtk_button_clicked(clicked.widget.raw.as(GtkButton.self))
            XCTAssertEqual(model(clicked), clicked.menuModel.map { $0.ref.typed() }, "a click makes the menu")

            XCTAssertTrue(iterateMainLoop(until: { model(idle) != nil }, timeout: 60), "made once the loop is idle")
            let popover = try XCTUnwrap(gtk_menu_button_get_popover(clicked.widget.raw.as(GtkMenuButton.self)))
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_mapped(popover.raw.as(GtkWidget.self)) != 0 }, timeout: 60),
                          "the clicked button shows its menu")
            XCTAssertEqual(Self.modelButtonLabels(in: popover.raw.as(GtkWidget.self)), ["Reload", "About"], "its items, mnemonics taken out")
            clicked.isActive = false
        }
    }

    /// A menu button destroyed with its window before the main loop was idle gets no menu made into it.
    func testAMenuButtonDestroyedBeforeTheLoopWasIdleGetsNoMenu() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let menu = Menu()
            menu.append("_Reload", action: "win.reload")
            let button = MenuButton(iconName: "open-menu-symbolic", tooltip: "Gone", menu: menu)
            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            gtk_container_add(window.raw.as(GtkContainer.self), button.widget)
            gtk_widget_destroy(window)
            // Queued after the button's own idle, at the same priority: it runs after it.
            var after = false
            MainLoopSource.idle(priority: G_PRIORITY_LOW) { after = true }
            XCTAssertTrue(iterateMainLoop(until: { after }, timeout: 60))
            XCTAssertNil(gtk_menu_button_get_menu_model(button.widget.raw.as(GtkMenuButton.self)))
        }
    }

    /// A TextLine at the start sits at its start edge as a label would: the left in a left-to-right window, the
    /// right in a right-to-left one, whatever its text's own direction. Assistive technologies see a label,
    /// named after its text when it is asked to be.
    func testATextLineAtTheStartSitsAtItsStartEdgeAndReadsAsALabel() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let width = 300
            for (direction, text) in [(GTK_TEXT_DIR_LTR, "abc"), (GTK_TEXT_DIR_LTR, "שלום"),
                                      (GTK_TEXT_DIR_RTL, "abc"), (GTK_TEXT_DIR_RTL, "שלום")] {
                let line = TextLine(ellipsize: .middle, alignment: .start)
                line.namesItselfAfterText = true
                line.text = text
                gtk_widget_set_direction(line.widget, direction)
                gtk_widget_set_size_request(line.widget, Int32(width), -1)
                let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
                defer { gtk_widget_destroy(window) }
                gtk_container_add(window.raw.as(GtkContainer.self), line.widget)
                gtk_widget_show_all(window)
                XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_allocated_width(line.widget) >= Int32(width) }, timeout: 60))
                let rendered = try RenderedWindow(window)
                let area = try XCTUnwrap(rendered.rectangle(of: line.widget))
                let background = rendered.pixel(x: area.x + area.width / 2, y: area.y)
                let inked = (area.x..<(area.x + area.width)).filter { x in
                    (area.y..<(area.y + area.height)).contains { rendered.pixel(x: x, y: $0) != background }
                }
                let first = try XCTUnwrap(inked.first, "\(text): no ink"), last = try XCTUnwrap(inked.last)
                let edge = area.x + (direction == GTK_TEXT_DIR_RTL ? area.width : 0)
                let what = "\(text) in a \(direction == GTK_TEXT_DIR_RTL ? "right-to-left" : "left-to-right") window: ink \(first)…\(last) of \(area.x)…\(area.x + area.width)"
                if direction == GTK_TEXT_DIR_RTL {
                    XCTAssertGreaterThan(first, area.x + area.width / 2, what)
                    XCTAssertGreaterThan(last, edge - 10, what)
                } else {
                    XCTAssertLessThan(last, area.x + area.width / 2, what)
                    XCTAssertLessThan(first, edge + 10, what)
                }
                let accessible = gtk_widget_get_accessible(line.widget)
                XCTAssertEqual(atk_object_get_role(accessible), ATK_ROLE_LABEL)
                XCTAssertEqual(line.accessibleName, text)
            }
        }
    }

    /// A stack told not to fade (a window's pages before its first frame: nothing on screen to fade from, and a
    /// launch's first screen faded in over 250 ms) changes page at once; told again, it cross-fades as before.
    func testAStackChangesPageWithoutAFadeWhenToldTo() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            // Animations on, as on a desktop (whatever an earlier test left).
            let settings = try XCTUnwrap(Settings.default)
            let animations = settings.enableAnimations
            settings.enableAnimations = true
            defer { settings.enableAnimations = animations }
            let stack = Stack(transition: .crossfade)
            stack.add(Label("first"), name: "first")
            stack.add(Label("second"), name: "second")
            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            defer { gtk_widget_destroy(window) }
            gtk_container_add(window.raw.as(GtkContainer.self), stack.widget)
            gtk_widget_show_all(window)
            XCTAssertTrue(waitForFrames(of: window))
            stack.fadesBetweenPages = false
            stack.visibleChildName = "second"
            XCTAssertEqual(stack.visibleChildName, "second")
            XCTAssertFalse(stack.isTransitionRunning, "shown at once")
            stack.fadesBetweenPages = true
            stack.visibleChildName = "first"
            XCTAssertTrue(stack.isTransitionRunning, "the pages cross-fade")
        }
    }

    /// The texts of the model buttons (a menu model's items) below `widget`, depth first.
    @MainActor
    private static func modelButtonLabels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        final class Found { var labels: [String] = [] }
        let found = Found()
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if g_type_check_instance_is_a(widget.raw.as(GTypeInstance.self), gtk_model_button_get_type()) != 0 {
                var value = GValue()
                g_value_init(&value, g_type_from_name("gchararray"))
                g_object_get_property(widget.raw.as(GObject.self), "text", &value)
                found.labels.append(g_value_get_string(&value).map { String(cString: $0) } ?? "")
                g_value_unset(&value)
            }
            guard g_type_check_instance_is_a(widget.raw.as(GTypeInstance.self), gtk_container_get_type()) != 0 else { return }
            var children: [UnsafeMutablePointer<GtkWidget>] = []
            withUnsafeMutablePointer(to: &children) { list in
                gtk_container_forall(widget.raw.as(GtkContainer.self), { child, data in
                    if let child { data!.assumingMemoryBound(to: [UnsafeMutablePointer<GtkWidget>].self).pointee.append(child) }
                }, list)
            }
            children.forEach(visit)
        }
        visit(widget)
        return found.labels
    }

    /// A header bar's new subtitle redraws its titles, not the whole bar: GTK's own subtitle lays out and
    /// redraws every child of the bar, and the app's subtitle changes with every page of a gallery.
    func testANewSubtitleRedrawsTheTitlesOnly() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let bar = HeaderBar()
            let button = Button(label: "Start")
            bar.packStart(button)
            let window = try XCTUnwrap(gtk_window_new(GTK_WINDOW_TOPLEVEL))
            defer { gtk_widget_destroy(window) }
            gtk_window_set_titlebar(window.raw.as(GtkWindow.self), bar.widget)
            bar.title = "Gallery Viewer"
            bar.subtitle = "24 images"
            gtk_widget_show_all(window)
            XCTAssertTrue(iterateMainLoop(until: { gtk_widget_get_mapped(button.widget) != 0 }, timeout: 60))
            XCTAssertTrue(waitForFrames(of: window), "the window drew no frame")
            let titles = try XCTUnwrap(gtk_header_bar_get_custom_title(bar.widget.raw.as(GtkHeaderBar.self)))

            final class Draws { var count = 0 }
            let buttonDraws = Draws(), titleDraws = Draws()
            let connections = [
                button.ref.connectEvent("draw") { _ in
                    buttonDraws.count += 1
                    return false
                },
                ObjectRef(UnsafeMutableRawPointer(titles), transfer: .none).connectEvent("draw") { _ in
                    titleDraws.count += 1
                    return false
                },
            ]
            defer { connections.forEach { $0.disconnect() } }
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(window))
            let before = gdk_frame_clock_get_frame_counter(clock)
            bar.subtitle = "48 images"
            // One main-loop dispatch runs a whole frame (layout and paint): once the counter moved, the frame
            // that shows the new subtitle is painted.
            XCTAssertTrue(iterateMainLoop(until: { gdk_frame_clock_get_frame_counter(clock) > before }, timeout: 60),
                          "no frame after the change")
            XCTAssertGreaterThan(titleDraws.count, 0, "the new subtitle is drawn")
            XCTAssertEqual(buttonDraws.count, 0, "the bar's other children are not drawn again")
            XCTAssertEqual(bar.subtitle, "48 images")
            XCTAssertEqual(bar.title, "Gallery Viewer")
            let label = try XCTUnwrap(gtk_container_get_children(titles.raw.as(GtkContainer.self)))
            defer { g_list_free(label) }
            XCTAssertEqual(g_list_length(label), 2, "a title and a subtitle")
            let subtitleLabel = try XCTUnwrap(g_list_nth_data(label, 1))
            XCTAssertEqual(String(cString: gtk_label_get_text(subtitleLabel.assumingMemoryBound(to: GtkLabel.self))), "48 images")
            XCTAssertNotEqual(gtk_widget_get_visible(subtitleLabel.assumingMemoryBound(to: GtkWidget.self)), 0)
            bar.subtitle = nil
            XCTAssertEqual(gtk_widget_get_visible(subtitleLabel.assumingMemoryBound(to: GtkWidget.self)), 0,
                           "no subtitle: hidden, as GTK's own")
        }
    }

    /// An icon of the theme is drawn in a widget's colours; one the theme lacks says so.
    func testASymbolicIconIsPreparedOnlyWhenTheThemeHasIt() throws {
        try MainActor.assumeIsolated {
            try Self.initGtk()
            let label = Label()
            XCTAssertTrue(IconTheme.prepareSymbolic("process-working-symbolic", pixelSize: 16, for: label))
            XCTAssertTrue(IconTheme.prepareSymbolic("image-x-generic-symbolic", pixelSize: 32, for: label))
            XCTAssertFalse(IconTheme.prepareSymbolic("gallery-viewer-no-such-icon-symbolic", pixelSize: 16, for: label))
        }
    }

    @MainActor
    private static func initGtk() throws {
        guard gtk_init_check(nil, nil) != 0 else {
            XCTFail("GTK could not open a display; run the UI tests through `make test`")
            throw XCTSkip("no display")
        }
    }
}
