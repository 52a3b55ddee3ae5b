extension DemoItem {
    /// What the picture shows, as its author would describe it for someone who cannot see it: the motif and
    /// the sky `gallery-demo-images` drew for it, and the words in its bottom band. The social formats send it
    /// as the image's alt text (Bluesky's `alt`, Misskey's `comment`), the RSS feed as the description. An
    /// untitled item has none, as many real uploads have none.
    public var altText: String? {
        guard !title.isEmpty else { return nil }
        let composition = DemoImageRenderer.Composition(seed: artSeed)
        let motif = switch composition.motif {
        case .ridges: "Four layers of mountain ridges under a pale moon"
        case .orbits: "Rings of small planets around a glowing centre"
        case .bokeh: "Soft, out-of-focus circles of light"
        case .shards: "Translucent triangular shards scattered"
        }
        let top = Self.colourName(composition.hue)
        let bottom = Self.colourName(composition.hue + composition.shift)
        let number = "#" + DemoCatalog.zeroPadded(index, digits: 3)
        // The light `DemoImageRenderer` circles over an animation's picture.
        let motion = frames > 1 ? " A glowing light circles over it." : ""
        return "\(motif), against a sky fading from light \(top) to dark \(bottom).\(motion) A band at the bottom reads "
            + "“\(number)” and “\(title) — \(user)”."
    }

    /// The everyday name of a hue in degrees.
    private static func colourName(_ hue: Double) -> String {
        let degrees = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let names: [(upTo: Double, name: String)] = [
            (15, "red"), (45, "orange"), (70, "yellow"), (160, "green"), (200, "teal"), (255, "blue"),
            (290, "violet"), (335, "pink"), (360, "red"),
        ]
        return names.first { degrees < $0.upTo }?.name ?? "red"
    }
}
