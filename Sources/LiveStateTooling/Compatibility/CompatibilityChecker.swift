import LiveState

/// Tells, before a release, which schema change breaks which app version still in the field.
///
/// Readers are app versions, writers are the server's payloads for a version. For a pair of
/// versions the checker walks both versions' content-state and attributes the way the reader
/// decodes (tolerantly, or with synthesized `Codable` for `clients.strict` versions) and reports
/// one `CompatibilityFinding` per problem, with a rule id from `CompatibilityRule.catalog`.
///
/// ```swift
/// let report = CompatibilityChecker().check(schema)          // the schema's own `compatibility:`
/// for finding in report.findings { print(finding) }
/// if !report.passes(failOn: .error) { exit(1) }
/// ```
public struct CompatibilityChecker: Sendable {
    /// What the checker assumes about servers and the device.
    public struct Options: Sendable, Hashable {
        /// Whether servers omit a value equal to the writer's default (`--elide-defaults`): a
        /// `default-changed` finding is then an error, and a required reader of a defaulted key
        /// misses it. Default `false`.
        public var assumeDefaultElision: Bool
        /// The content-state byte budget for `worst-case-size-over-budget`. Default 4096.
        public var byteBudget: Int

        /// Creates options.
        /// - Parameters:
        ///   - assumeDefaultElision: Whether servers elide defaults.
        ///   - byteBudget: The content-state budget in bytes.
        public init(assumeDefaultElision: Bool = false, byteBudget: Int = ByteBudget.contentStateLimit) {
            self.assumeDefaultElision = assumeDefaultElision
            self.byteBudget = byteBudget
        }
    }

    /// The checker's assumptions.
    public var options: Options

    /// Creates a checker.
    /// - Parameter options: What to assume about servers and the device.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// Every finding for one pair of versions, both ways: first the older app reading the
    /// newer version's payloads, then the newer app reading the older version's.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - from: One version number (usually the older).
    ///   - to: The other version number.
    /// - Returns: The findings; empty when either version does not exist or they are the same.
    public func findings(_ schema: Schema, from: Int, to: Int) -> [CompatibilityFinding] {
        let older = min(from, to)
        let newer = max(from, to)
        guard older != newer else { return [] }
        return findings(schema, reader: older, writer: newer) + findings(schema, reader: newer, writer: older)
    }

    /// Every finding for one app version reading payloads written for another.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - reader: The app version that decodes.
    ///   - writer: The version the payloads are written for.
    /// - Returns: The findings, content-state before attributes, in schema order; empty when
    ///   either version does not exist or they are the same.
    public func findings(_ schema: Schema, reader: Int, writer: Int) -> [CompatibilityFinding] {
        findings(schema, reader: reader, writer: writer, in: VersionIndex(schema))
    }

    private func findings(_ schema: Schema, reader: Int, writer: Int, in index: VersionIndex) -> [CompatibilityFinding] {
        guard reader != writer, let readerIndex = index[reader], let writerIndex = index[writer] else { return [] }
        var comparison = PairComparison(
            schema: schema, reader: schema.versions[readerIndex], writer: schema.versions[writerIndex],
            writerIndex: writerIndex, options: options)
        comparison.run()
        return comparison.findings
    }

    /// Runs a compatibility gate over a schema: every pair the mode covers, and every live
    /// version's payloads against the byte budget (`worst-case-size-over-budget`,
    /// `unbounded-size`), once per version whatever the pairs are (a schema of one version, or
    /// the newest under `backward`, is measured too), unless the mode is `none`.
    ///
    /// `tombstone-reuse`, about a writer version as a whole, is reported once per writer
    /// version, in the first pair that has it.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - mode: The gate; `nil` uses the schema's `compatibility:`.
    /// - Returns: The pairs checked and the findings.
    public func check(_ schema: Schema, mode: CompatibilityMode? = nil) -> CompatibilityReport {
        let mode = mode ?? schema.compatibility
        // A retired version is in no app in the field, and no server writes for it.
        let live = schema.liveVersions.map(\.version)
        return report(schema, mode: mode, pairs: mode.pairs(of: live), written: mode == .none ? [] : live)
    }

    /// The pair that `from` and `to` name when at least one is given: a missing `from` is the
    /// oldest live version, a missing `to` the newest (`diff --from 1`: what apps of version 1
    /// meet when servers write the newest). `nil` when neither is given: every pair the mode
    /// covers is checked. The same version twice is a pair with nothing to find.
    public static func pair(in schema: Schema, from: Int?, to: Int?) -> (from: Int, to: Int)? {
        guard from != nil || to != nil else { return nil }
        let versions = (schema.liveVersions.isEmpty ? schema.versions : schema.liveVersions).map(\.version)
        return (from ?? versions.first ?? 0, to ?? versions.last ?? 0)
    }

    /// Why `pair(in:from:to:)` names no pair to check: one end given and the other left to its
    /// default, which is the same version (`from` the newest live version alone, or `to` the
    /// oldest alone). Passing such a check would hide that nothing was compared. `nil` when the
    /// pair has two versions, or when both ends were given (the same version twice, asked for).
    /// - Parameters:
    ///   - pair: What `pair(in:from:to:)` returned.
    ///   - from: The `from` given.
    ///   - to: The `to` given.
    ///   - spelling: How the caller's words name an end and its value: `--from 3`, `from=3`.
    /// - Returns: The sentence that says so, and how to name a pair.
    public static func emptyPairProblem(
        _ pair: (from: Int, to: Int), from: Int?, to: Int?, spelling: (_ name: String, _ value: Int?) -> String
    ) -> String? {
        guard pair.from == pair.to, from == nil || to == nil else { return nil }
        return from != nil
            ? "\(spelling("from", pair.from)) is the newest live version, which a missing \(spelling("to", nil)) stands for: there is "
                + "no pair to check; name \(spelling("to", nil)), or leave out \(spelling("from", nil)) to check every pair"
            : "\(spelling("to", pair.to)) is the oldest live version, which a missing \(spelling("from", nil)) stands for: there is "
                + "no pair to check; name \(spelling("from", nil)), or leave out \(spelling("to", nil)) to check every pair"
    }

    /// Checks one pair of versions, the ways a mode reads them.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - from: One version number.
    ///   - to: The other version number.
    ///   - mode: Which ways to read the pair: `forward` (and `forward-transitive`) only the older
    ///     app reading the newer payloads, `backward` the other way, `full` both, `none` neither;
    ///     `nil` reads both ways.
    /// - Returns: The pairs checked and the findings.
    public func check(_ schema: Schema, from: Int, to: Int, mode: CompatibilityMode? = nil) -> CompatibilityReport {
        let older = min(from, to)
        let newer = max(from, to)
        var pairs: [CompatibilityPair] = []
        if older != newer {
            let directions = mode?.directions ?? CompatibilityDirection.allCases
            if directions.contains(.oldAppReadsNew) { pairs.append(CompatibilityPair(readerVersion: older, writerVersion: newer)) }
            if directions.contains(.newAppReadsOld) { pairs.append(CompatibilityPair(readerVersion: newer, writerVersion: older)) }
        }
        // The versions written are the pairs' writers: the newer one for `forward`, both for `full`.
        return report(schema, mode: mode ?? .full, pairs: pairs, written: Array(Set(pairs.map(\.writerVersion))).sorted())
    }

    /// The findings of `pairs`, then the budget's of each version in `written`.
    private func report(_ schema: Schema, mode: CompatibilityMode, pairs: [CompatibilityPair], written: [Int]) -> CompatibilityReport {
        var findings: [CompatibilityFinding] = []
        var reported = Set<WriterScopedKey>()
        let index = VersionIndex(schema)
        for pair in pairs {
            for finding in self.findings(schema, reader: pair.readerVersion, writer: pair.writerVersion, in: index)
            where !PairComparison.budgetRules.contains(finding.rule) {
                if PairComparison.writerScopedRules.contains(finding.rule) {
                    let key = WriterScopedKey(rule: finding.rule, writer: finding.writerVersion, scope: finding.scope, pointer: finding.pointer)
                    guard reported.insert(key).inserted else { continue }
                }
                findings.append(finding)
            }
        }
        for version in written {
            guard let writerIndex = index[version] else { continue }
            let writer = schema.versions[writerIndex]
            // No reader but the version's own: the finding is about its payloads alone.
            var comparison = PairComparison(schema: schema, reader: writer, writer: writer, writerIndex: writerIndex, options: options)
            comparison.checkSize()
            findings += comparison.findings
        }
        return CompatibilityReport(
            activity: schema.activity, file: schema.file, mode: mode,
            versions: schema.versions.map(\.version), strictClients: schema.strictClients,
            pairs: pairs, findings: findings)
    }

    /// Each version number's place in `schema.versions` (the first, as `Schema.version(_:)`
    /// finds it), looked up once per gate: a gate visits every pair, and a linear search per
    /// pair made a schema of a few hundred versions take minutes.
    private struct VersionIndex {
        private let positions: [Int: Int]

        init(_ schema: Schema) {
            positions = Dictionary(schema.versions.enumerated().map { ($1.version, $0) }, uniquingKeysWith: { first, _ in first })
        }

        subscript(number: Int) -> Int? { positions[number] }
    }

    private struct WriterScopedKey: Hashable {
        var rule: String
        var writer: Int
        var scope: DiagnosticScope
        var pointer: String
    }
}
