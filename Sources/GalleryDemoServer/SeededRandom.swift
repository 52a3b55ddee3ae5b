/// A small deterministic pseudo-random generator (SplitMix64): the same seed gives the same sequence on every
/// machine and run, which is what keeps the demo catalog and its pictures reproducible. Not for security.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one member of a family (an item of a user), independent of its neighbours.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededRandom(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range`; unlike `Int.random(in:using:)` the algorithm is fixed here, so results never change
    /// with the standard library.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[int(in: 0...(choices.count - 1))] }
}
