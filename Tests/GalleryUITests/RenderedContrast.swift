import CGLib
import CGtk
import Foundation
@_spi(GtkInterop) import GtkBindings
import XCTest

/// A toplevel window drawn by GTK into an image surface (`gtk_widget_draw`), as it appears on screen: what the
/// readability tests read text colours from.
@MainActor
struct RenderedWindow {
    let width: Int
    let height: Int
    /// Opaque RGB per pixel, row by row.
    private let pixels: [UInt32]
    private let window: UnsafeMutablePointer<GtkWidget>

    /// A window cairo cannot draw (no size yet) fails the test that asked, not the whole test process.
    init(_ window: UnsafeMutablePointer<GtkWidget>) throws {
        self.window = window
        width = Int(gtk_widget_get_allocated_width(window))
        height = Int(gtk_widget_get_allocated_height(window))
        let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)))
        defer { cairo_surface_destroy(surface) }
        let cairo = try XCTUnwrap(cairo_create(surface))
        gtk_widget_draw(window, cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let bytes = try XCTUnwrap(cairo_image_surface_get_data(surface), "no pixels for a \(width) × \(height) window")
        let data = bytes.withMemoryRebound(to: UInt32.self, capacity: stride * height) { $0 }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { pixels.append(data[y * stride + x] & 0xFF_FFFF) }
        }
        self.pixels = pixels
    }

    /// The opaque RGB (0xRRGGBB) at `x`, `y`.
    func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// The widget's rectangle in the window, clipped to it; nil when it is not laid out in this window.
    func rectangle(of widget: UnsafeMutablePointer<GtkWidget>) -> (x: Int, y: Int, width: Int, height: Int)? {
        var x: Int32 = 0
        var y: Int32 = 0
        guard gtk_widget_get_mapped(widget) != 0,
              gtk_widget_translate_coordinates(widget, window, 0, 0, &x, &y) != 0 else { return nil }
        let left = max(0, Int(x)), top = max(0, Int(y))
        let right = min(width, Int(x) + Int(gtk_widget_get_allocated_width(widget)))
        let bottom = min(height, Int(y) + Int(gtk_widget_get_allocated_height(widget)))
        guard right > left, bottom > top else { return nil }
        return (left, top, right - left, bottom - top)
    }

    /// The contrast of what is drawn on `widget` (its text, or its icon) against the background it is drawn
    /// on: the background is the commonest colour of the widget's rectangle, the ink the colour of the
    /// strokes' cores — the third most contrasting pixel, so one stray pixel cannot decide.
    func contrast(of widget: UnsafeMutablePointer<GtkWidget>) -> Contrast? {
        guard let area = rectangle(of: widget) else { return nil }
        var counts: [UInt32: Int] = [:]
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) { counts[pixels[y * width + x], default: 0] += 1 }
        }
        guard let background = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) })?.key
        else { return nil }
        let backgroundLuminance = Contrast.luminance(background)
        let inks = counts.keys.filter { $0 != background }
            .map { (colour: $0, ratio: Contrast.ratio(Contrast.luminance($0), backgroundLuminance)) }
            .sorted { $0.ratio > $1.ratio }
        // The ink must cover more than a pixel or two: weigh each colour by how often it occurs.
        var seen = 0
        for ink in inks {
            seen += counts[ink.colour] ?? 0
            if seen >= 3 { return Contrast(text: ink.colour, background: background) }
        }
        return nil
    }
}

/// WCAG 2 contrast between two sRGB colours.
struct Contrast: CustomStringConvertible {
    let text: UInt32
    let background: UInt32

    var ratio: Double { Self.ratio(Self.luminance(text), Self.luminance(background)) }

    /// WCAG's relative luminance of an opaque 0xRRGGBB colour.
    static func luminance(_ rgb: UInt32) -> Double {
        func linear(_ channel: UInt32) -> Double {
            let value = Double(channel & 0xFF) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(rgb >> 16) + 0.7152 * linear(rgb >> 8) + 0.0722 * linear(rgb)
    }

    static func ratio(_ first: Double, _ second: Double) -> Double {
        (max(first, second) + 0.05) / (min(first, second) + 0.05)
    }

    var description: String {
        String(format: "%.2f:1 (#%06X on #%06X)", ratio, text, background)
    }
}
