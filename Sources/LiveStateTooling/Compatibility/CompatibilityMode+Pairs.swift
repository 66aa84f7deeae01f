import LiveState

extension CompatibilityMode {
    /// The reader–writer pairs this gate checks, with Confluent Schema Registry's meaning and
    /// app versions as readers.
    ///
    /// For versions 1, 2, 3: `forward` is app v1 reads v2 and app v2 reads v3 (the previous app
    /// reads the new payloads); `backward` is app v2 reads v1 and app v3 reads v2; `full` is
    /// both; the `-transitive` modes pair every version with every earlier one; `none` checks
    /// nothing. Pairs come ordered by older version, then newer version, `old-app-reads-new` first.
    /// - Parameter versions: The version numbers, in any order; duplicates are ignored.
    /// - Returns: The pairs, each one way.
    public func pairs(of versions: [Int]) -> [CompatibilityPair] {
        let sorted = Array(Set(versions)).sorted()
        guard sorted.count > 1 else { return [] }
        var pairs: [CompatibilityPair] = []
        for (olderIndex, older) in sorted.enumerated() {
            for newer in sorted[(olderIndex + 1)...] {
                let adjacent = sorted[olderIndex + 1] == newer
                guard isTransitive || adjacent else { continue }
                if checksOldAppReadsNew { pairs.append(CompatibilityPair(readerVersion: older, writerVersion: newer)) }
                if checksNewAppReadsOld { pairs.append(CompatibilityPair(readerVersion: newer, writerVersion: older)) }
            }
        }
        return pairs
    }

    /// The directions this gate checks for one pair of versions.
    public var directions: [CompatibilityDirection] {
        var directions: [CompatibilityDirection] = []
        if checksOldAppReadsNew { directions.append(.oldAppReadsNew) }
        if checksNewAppReadsOld { directions.append(.newAppReadsOld) }
        return directions
    }

    /// Whether older apps must read newer payloads (`forward`, `full` and their transitive forms).
    public var checksOldAppReadsNew: Bool {
        switch self {
        case .forward, .full, .forwardTransitive, .fullTransitive: true
        case .backward, .backwardTransitive, .none: false
        }
    }

    /// Whether newer apps must read older payloads (`backward`, `full` and their transitive forms).
    public var checksNewAppReadsOld: Bool {
        switch self {
        case .backward, .full, .backwardTransitive, .fullTransitive: true
        case .forward, .forwardTransitive, .none: false
        }
    }

    /// Whether every version is checked against every other, not only its neighbours.
    public var isTransitive: Bool {
        switch self {
        case .backwardTransitive, .forwardTransitive, .fullTransitive: true
        case .backward, .forward, .full, .none: false
        }
    }
}
