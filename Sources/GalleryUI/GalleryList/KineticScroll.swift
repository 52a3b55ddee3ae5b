import Glibc
import GObjectBindings
import GtkBindings

/// Wheel steps and the glide after a touchpad flick, the way GTK 3's own scrolled windows do them: a wheel
/// click scrolls pageSize^(2/3) pixels, and a flick's velocity decays exponentially (friction 4 per second)
/// frame by frame until it is too slow to see. Any other scrolling stops the glide.
@MainActor
final class KineticScroll {
    static let friction = 4.0
    /// Below this speed (pixels per second) the glide ends.
    static let stopVelocity = 20.0

    private let adjustment: Adjustment
    private var glide: (startTime: Int, startValue: Double, velocity: Double)?
    private let ticker: FrameTicker

    init(widget: Widget, adjustment: Adjustment) {
        self.adjustment = adjustment
        ticker = FrameTicker(widget: widget)
    }

    /// Pixels per wheel click (or per unit of touchpad delta) for a page of `pageSize`.
    static func wheelStep(pageSize: Double) -> Double { pow(max(1, pageSize), 2.0 / 3.0) }

    /// A wheel click or a touchpad move of `delta` units.
    func scroll(by delta: Double) {
        stop()
        adjustment.value += delta * Self.wheelStep(pageSize: adjustment.pageSize)
    }

    /// Fingers lifted moving at `velocity` units per second: glide on.
    func decelerate(velocity: Double) {
        stop()
        let pixelsPerSecond = velocity * Self.wheelStep(pageSize: adjustment.pageSize)
        guard abs(pixelsPerSecond) > Self.stopVelocity, let now = ticker.frameTime else { return }
        glide = (now, adjustment.value, pixelsPerSecond)
        ticker.start { [weak self] time in self?.frame(time) ?? false }
    }

    var isGliding: Bool { glide != nil }

    func stop() {
        guard glide != nil else { return }
        glide = nil
        ticker.stop()
    }

    /// One frame of the glide; false when it ends.
    private func frame(_ time: Int) -> Bool {
        guard let glide else { return false }
        let seconds = Double(time - glide.startTime) / 1_000_000
        let decay = exp(-Self.friction * seconds)
        let target = glide.startValue + glide.velocity / Self.friction * (1 - decay)
        adjustment.value = target
        let clamped = adjustment.value != target
        if clamped || abs(glide.velocity * decay) < Self.stopVelocity {
            self.glide = nil
            return false
        }
        return true
    }
}
