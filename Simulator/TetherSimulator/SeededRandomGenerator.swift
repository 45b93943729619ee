/// A small, fast, seedable random number generator (SplitMix64, Steele–Lea–Flood 2014),
/// so that simulated noise is the same on every run with the same seed.
///
/// Not for cryptography. Equal seeds give equal sequences on every platform.
package struct SeededRandomGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed` (any value, 0 included).
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
