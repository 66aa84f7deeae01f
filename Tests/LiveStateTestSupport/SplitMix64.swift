/// A small deterministic generator (SplitMix64), so that random cases are the same on every
/// run and a failure reproduces from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `seed` with one change: a byte removed, a token inserted, a byte flipped, the rest cut
    /// off, or a digit swapped for another (a value changes but stays well formed).
    public mutating func mutate(_ seed: [UInt8], tokens: [[UInt8]]) -> [UInt8] {
        var bytes = seed
        guard !bytes.isEmpty else { return bytes }
        let position = Int(next() % UInt64(bytes.count))
        switch next() % 5 {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(contentsOf: tokens[Int(next() % UInt64(tokens.count))], at: position)
        case 2: bytes[position] = UInt8(truncatingIfNeeded: next())
        case 3: bytes.removeSubrange(position...)
        default:
            if let digit = bytes[position...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                bytes[digit] = 0x30 + UInt8(next() % 10)
            }
        }
        return bytes
    }
}
