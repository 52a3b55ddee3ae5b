import CCairo
import CGLib
import GObjectBindings
import Glibc

/// Draws the picture of a demo item with cairo: a gradient sky, a motif chosen by the item's seed, and the
/// item's number and title as text. Vector drawing, so the thumbnails are the same picture drawn smaller.
/// The same item always gives the same pixels. Thread-safe: each call uses its own surface.
public enum DemoImageRenderer {
    /// Bumped whenever the drawing changes, so gallery-demo-images knows its old files are stale.
    public static let version = 2

    /// The encoded image (JPEG, PNG, WebP, AVIF or GIF as the item says) at `width` × `height`: an animation
    /// when the item has frames.
    public static func encodedImage(of item: DemoItem, width: Int, height: Int) throws(GLibError) -> Bytes {
        if item.frames > 1 || item.format == .gif { return try encodedAnimation(of: item, width: width, height: height) }
        let pixbuf = render(width: width, height: height) { cairo in
            draw(item, cairo: cairo, width: Double(width), height: Double(height))
            // Photos carry sensor noise, and their JPEGs are correspondingly big; flat art compresses to a
            // tenth of real sizes. PNGs stand for digital art and stay flat.
            if item.format != .png { addGrain(cairo, seed: item.artSeed) }
        }
        switch item.format {
        case .jpeg: return try pixbuf.encoded(as: "jpeg", options: [("quality", "88")])
        case .png: return try pixbuf.encoded(as: "png")
        // Qualities that give files of about the JPEG's size, as services that re-encode uploads do.
        case .webp: return try pixbuf.encoded(as: "webp", options: [("quality", "85")])
        case .avif: return try pixbuf.encoded(as: "avif", options: [("quality", "60")])
        case .gif: return DemoAnimationEncoder.gif([pixbuf])
        }
    }

    /// The item's picture with a light circling over it, one turn in `item.frames` frames, as a looping GIF
    /// or animated WebP.
    private static func encodedAnimation(of item: DemoItem, width: Int, height: Int) throws(GLibError) -> Bytes {
        let frames = (0..<max(1, item.frames)).map { frame in
            render(width: width, height: height) { cairo in
                draw(item, cairo: cairo, width: Double(width), height: Double(height))
                drawCirclingLight(cairo, turn: Double(frame) / Double(max(1, item.frames)), width: Double(width),
                                  height: Double(height), seed: item.artSeed)
            }
        }
        return item.format == .gif ? DemoAnimationEncoder.gif(frames) : try DemoAnimationEncoder.webp(frames, quality: 80)
    }

    /// A glowing disc `turn` (0…1) of the way round a circle in the sky, with a fading trail behind it.
    private static func drawCirclingLight(_ cairo: OpaquePointer, turn: Double, width: Double, height: Double,
                                          seed: UInt64) {
        let unit = min(width, height)
        let hue = Double(seed % 360)
        for step in 0..<6 {
            let angle = 2 * Double.pi * (turn - Double(step) * 0.025) - Double.pi / 2
            let x = width / 2 + unit * 0.28 * cos(angle)
            let y = height * 0.38 + unit * 0.2 * sin(angle)
            setColor(cairo, hue: hue + 180, saturation: 0.25, value: 1, alpha: step == 0 ? 0.95 : 0.5 / Double(step + 1))
            cairo_arc(cairo, x, y, unit * (step == 0 ? 0.07 : 0.06 - 0.006 * Double(step)), 0, 2 * Double.pi)
            cairo_fill(cairo)
        }
    }

    /// A round avatar with the user's initial, as PNG.
    public static func encodedAvatar(of user: DemoUser, side: Int = 64) throws(GLibError) -> Bytes {
        let pixbuf = render(width: side, height: side) { cairo in
            let size = Double(side)
            let hue = Double(user.name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 360 })
            setColor(cairo, hue: hue, saturation: 0.15, value: 0.95)
            cairo_paint(cairo)
            setColor(cairo, hue: hue, saturation: 0.65, value: 0.75)
            cairo_arc(cairo, size / 2, size / 2, size * 0.45, 0, 2 * Double.pi)
            cairo_fill(cairo)
            cairo_set_source_rgb(cairo, 1, 1, 1)
            drawCenteredText(cairo, String(user.name.prefix(1)).uppercased(), x: size / 2, y: size / 2,
                             fontSize: size * 0.5, bold: true)
        }
        return try pixbuf.encoded(as: "png")
    }

    // MARK: Drawing

    private static func render(width: Int, height: Int, _ body: (OpaquePointer) -> Void) -> Pixbuf {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        body(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        return pixbuf(fromRGB24: surface, width: width, height: height)
    }

    /// Copies an opaque cairo surface into a pixbuf (GDK's gdk_pixbuf_get_from_surface would do it, but the
    /// demo server stays below the widget toolkit). RGB24 keeps each pixel in a native-endian 32-bit word,
    /// 0x00RRGGBB.
    private static func pixbuf(fromRGB24 surface: OpaquePointer, width: Int, height: Int) -> Pixbuf {
        var canvas = PixbufCanvas(width: width, height: height, hasAlpha: false)
        let source = cairo_image_surface_get_data(surface)!
        let sourceStride = Int(cairo_image_surface_get_stride(surface))
        canvas.withMutablePixels { pixels, stride in
            for y in 0..<height {
                let from = UnsafeRawPointer(source + y * sourceStride).assumingMemoryBound(to: UInt32.self)
                let to = pixels + y * stride
                for x in 0..<width {
                    let word = from[x]
                    to[3 * x] = UInt8(truncatingIfNeeded: word >> 16)
                    to[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    to[3 * x + 2] = UInt8(truncatingIfNeeded: word)
                }
            }
        }
        return canvas.finish()
    }

    /// A picture's first choices, made from its seed: the sky's hues and slant, and the motif. Drawing goes on
    /// with the same generator, and the alt text (`DemoItem.altText`) reads the same choices, so the two agree.
    struct Composition {
        enum Motif { case ridges, orbits, bokeh, shards }

        /// The generator, past the choices: what drawing the motif goes on with.
        var random: SeededRandom
        /// The sky's light top; its dark bottom is `hue + shift`.
        let hue: Double
        let shift: Double
        /// How far the gradient's end leans to the right, as a share of the width.
        let slant: Double
        let motif: Motif

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
            hue = random.double(in: 0...360)
            shift = random.double(in: 40...160)
            slant = random.double(in: 0...0.4)
            motif = [Motif.ridges, .orbits, .bokeh, .shards][random.int(in: 0...3)]
        }
    }

    private static func draw(_ item: DemoItem, cairo: OpaquePointer, width: Double, height: Double) {
        let composition = Composition(seed: item.artSeed)
        var random = composition.random
        let hue = composition.hue
        let shift = composition.shift
        let sky = cairo_pattern_create_linear(0, 0, width * composition.slant, height)!
        addStop(sky, 0, hue: hue, saturation: 0.55, value: 0.95)
        addStop(sky, 1, hue: hue + shift, saturation: 0.75, value: 0.35)
        cairo_set_source(cairo, sky)
        cairo_paint(cairo)
        cairo_pattern_destroy(sky)

        let unit = min(width, height)
        switch composition.motif {
        case .ridges: drawRidges(cairo, &random, width: width, height: height, hue: hue + shift)
        case .orbits: drawOrbits(cairo, &random, width: width, height: height, unit: unit, hue: hue)
        case .bokeh: drawBokeh(cairo, &random, width: width, height: height, unit: unit, hue: hue)
        case .shards: drawShards(cairo, &random, width: width, height: height, unit: unit, hue: hue + shift)
        }

        // A darker band with the item number and title, so every picture says which item it is.
        cairo_set_source_rgba(cairo, 0, 0, 0, 0.45)
        cairo_rectangle(cairo, 0, height * 0.72, width, height * 0.28)
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 1, 1, 1)
        let number = "#" + DemoCatalog.zeroPadded(item.index, digits: 3)
        drawCenteredText(cairo, number, x: width / 2, y: height * 0.8, fontSize: unit * 0.1, bold: true)
        let title = item.title.isEmpty ? "(untitled)" : item.title
        drawCenteredText(cairo, "\(title) — \(item.user)", x: width / 2, y: height * 0.91,
                         fontSize: min(unit * 0.05, width * 1.6 / Double(max(12, title.count + item.user.count + 3))),
                         bold: false)
    }

    private static func drawRidges(_ cairo: OpaquePointer, _ random: inout SeededRandom, width: Double, height: Double,
                                   hue: Double) {
        setColor(cairo, hue: hue + 180, saturation: 0.3, value: 1, alpha: 0.85)
        cairo_arc(cairo, width * random.double(in: 0.2...0.8), height * random.double(in: 0.15...0.35),
                  min(width, height) * random.double(in: 0.06...0.14), 0, 2 * Double.pi)
        cairo_fill(cairo)
        for layer in 0..<4 {
            let base = height * (0.45 + 0.1 * Double(layer))
            cairo_move_to(cairo, 0, height)
            cairo_line_to(cairo, 0, base)
            let steps = random.int(in: 5...11)
            for step in 1...steps {
                let x = width * Double(step) / Double(steps)
                cairo_line_to(cairo, x, base - height * random.double(in: 0...0.18))
            }
            cairo_line_to(cairo, width, height)
            cairo_close_path(cairo)
            setColor(cairo, hue: hue + Double(layer) * 12, saturation: 0.5, value: 0.55 - 0.1 * Double(layer))
            cairo_fill(cairo)
        }
    }

    private static func drawOrbits(_ cairo: OpaquePointer, _ random: inout SeededRandom, width: Double, height: Double,
                                   unit: Double, hue: Double) {
        let cx = width * random.double(in: 0.3...0.7)
        let cy = height * random.double(in: 0.3...0.6)
        cairo_set_line_width(cairo, unit * 0.006)
        for ring in 1...random.int(in: 3...7) {
            let radius = unit * 0.07 * Double(ring)
            setColor(cairo, hue: hue + 25 * Double(ring), saturation: 0.4, value: 1, alpha: 0.6)
            cairo_arc(cairo, cx, cy, radius, 0, 2 * Double.pi)
            cairo_stroke(cairo)
            let angle = random.double(in: 0...(2 * Double.pi))
            cairo_arc(cairo, cx + radius * cos(angle), cy + radius * sin(angle), unit * random.double(in: 0.01...0.03),
                      0, 2 * Double.pi)
            cairo_fill(cairo)
        }
        setColor(cairo, hue: hue + 40, saturation: 0.8, value: 1)
        cairo_arc(cairo, cx, cy, unit * 0.05, 0, 2 * Double.pi)
        cairo_fill(cairo)
    }

    private static func drawBokeh(_ cairo: OpaquePointer, _ random: inout SeededRandom, width: Double, height: Double,
                                  unit: Double, hue: Double) {
        for _ in 0..<random.int(in: 18...40) {
            setColor(cairo, hue: hue + random.double(in: -60...60), saturation: 0.5, value: 1,
                     alpha: random.double(in: 0.15...0.45))
            cairo_arc(cairo, width * random.unit(), height * random.double(in: 0...0.8),
                      unit * random.double(in: 0.02...0.12), 0, 2 * Double.pi)
            cairo_fill(cairo)
        }
    }

    private static func drawShards(_ cairo: OpaquePointer, _ random: inout SeededRandom, width: Double, height: Double,
                                   unit: Double, hue: Double) {
        for _ in 0..<random.int(in: 6...14) {
            let x = width * random.unit()
            let y = height * random.double(in: 0...0.75)
            let size = unit * random.double(in: 0.08...0.3)
            cairo_move_to(cairo, x, y)
            cairo_line_to(cairo, x + size * random.double(in: -1...1), y + size * random.double(in: 0.3...1))
            cairo_line_to(cairo, x + size * random.double(in: -1...1), y + size * random.double(in: -1...0.2))
            cairo_close_path(cairo)
            setColor(cairo, hue: hue + random.double(in: -90...90), saturation: 0.6, value: 0.9,
                     alpha: random.double(in: 0.35...0.8))
            cairo_fill(cairo)
        }
    }

    /// A repeating tile of faint white noise over the whole picture.
    private static func addGrain(_ cairo: OpaquePointer, seed: UInt64) {
        let side: Int32 = 128
        let tile = cairo_image_surface_create(CAIRO_FORMAT_A8, side, side)!
        defer { cairo_surface_destroy(tile) }
        cairo_surface_flush(tile)
        let stride = Int(cairo_image_surface_get_stride(tile))
        let data = cairo_image_surface_get_data(tile)!
        var random = SeededRandom(seed: seed, stream: 0x6772_6169_6E)
        for row in 0..<Int(side) {
            for column in 0..<Int(side) {
                data[row * stride + column] = UInt8(random.next() % 40)
            }
        }
        cairo_surface_mark_dirty(tile)
        let pattern = cairo_pattern_create_for_surface(tile)!
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_mask(cairo, pattern)
    }

    private static func drawCenteredText(_ cairo: OpaquePointer, _ text: String, x: Double, y: Double,
                                         fontSize: Double, bold: Bool) {
        cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, max(4, fontSize))
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        cairo_move_to(cairo, x - extents.width / 2 - extents.x_bearing, y - extents.height / 2 - extents.y_bearing)
        cairo_show_text(cairo, text)
    }

    private static func setColor(_ cairo: OpaquePointer, hue: Double, saturation: Double, value: Double,
                                 alpha: Double = 1) {
        let (red, green, blue) = rgb(hue: hue, saturation: saturation, value: value)
        cairo_set_source_rgba(cairo, red, green, blue, alpha)
    }

    private static func addStop(_ pattern: OpaquePointer, _ offset: Double, hue: Double, saturation: Double,
                                value: Double) {
        let (red, green, blue) = rgb(hue: hue, saturation: saturation, value: value)
        cairo_pattern_add_color_stop_rgb(pattern, offset, red, green, blue)
    }

    private static func rgb(hue: Double, saturation: Double, value: Double) -> (Double, Double, Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let chroma = value * saturation
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = value - chroma
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        return (r + m, g + m, b + m)
    }
}
