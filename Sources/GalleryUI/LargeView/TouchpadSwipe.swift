import GtkBindings

/// A two-finger swipe on a touchpad, told from the smooth scrolling GTK 3 delivers for it (libinput makes two
/// fingers' motion a scroll; only three or more make a swipe gesture). As libhandy's swipe tracker: only a
/// touchpad's scrolls count, the horizontal travel is added up over one gesture, and the gesture ends with
/// the scroll-stop event of the fingers lifting.
///
/// The image changes as soon as the travel passes `threshold`, not at the lift, and once per gesture: a swipe
/// never runs through several images, and it works where the fingers' lift never arrives as a stop event
/// (then a pause of `gapMilliseconds` between two scrolls starts a new gesture).
struct TouchpadSwipe {
    /// In GDK's touchpad scroll units, about ten pixels of the fingers' travel each (libhandy's multiplier):
    /// 20 is half of libhandy's 400-pixel swipe distance, the point where its swipe commits.
    static let threshold = 20.0
    static let gapMilliseconds: UInt32 = 250

    private var dx = 0.0
    private var dy = 0.0
    /// This gesture changed the image already.
    private var isSpent = false
    private var lastTime: UInt32?

    /// Adds one touchpad scroll; +1 (the next image: the fingers went left, the content follows them) or -1
    /// when it completes a swipe, else nil.
    mutating func add(_ input: ScrollInput) -> Int? {
        if input.isStop {
            self = TouchpadSwipe()
            return nil
        }
        if let lastTime, input.time &- lastTime > Self.gapMilliseconds { self = TouchpadSwipe() }
        lastTime = input.time
        guard !isSpent else { return nil }
        dx += input.dx
        dy += input.dy
        // Mostly sideways: a vertical scroll that drifts is no swipe.
        guard abs(dx) >= Self.threshold, abs(dx) > 2 * abs(dy) else { return nil }
        isSpent = true
        return dx > 0 ? 1 : -1
    }
}
