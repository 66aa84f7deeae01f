import LiveState

/// The outcome of a compatibility gate over one schema: the pairs checked and what was found.
public struct CompatibilityReport: Sendable, Hashable {
    /// The schema's id.
    public var activity: String
    /// The schema file, when it was loaded from one.
    public var file: String?
    /// The gate that chose the pairs.
    public var mode: CompatibilityMode
    /// Every version of the schema, oldest first.
    public var versions: [Int]
    /// The versions that decode with synthesized `Codable`.
    public var strictClients: [Int]
    /// The reader–writer pairs checked, in order.
    public var pairs: [CompatibilityPair]
    /// Every finding, pair by pair.
    public var findings: [CompatibilityFinding]
    /// The share of devices the findings touch, when the report was weighed by a fleet
    /// (`weighed(by:maxDrop:)`).
    public var fleet: FleetImpact?

    /// Creates a report.
    /// - Parameters:
    ///   - activity: The schema's id.
    ///   - file: The schema file.
    ///   - mode: The gate.
    ///   - versions: Every version.
    ///   - strictClients: The strict versions.
    ///   - pairs: The pairs checked.
    ///   - findings: The findings.
    public init(
        activity: String, file: String? = nil, mode: CompatibilityMode, versions: [Int] = [],
        strictClients: [Int] = [], pairs: [CompatibilityPair], findings: [CompatibilityFinding]
    ) {
        self.activity = activity
        self.file = file
        self.mode = mode
        self.versions = versions
        self.strictClients = strictClients
        self.pairs = pairs
        self.findings = findings
    }

    /// Whether the gate holds: no finding at or above `failOn`.
    /// - Parameter failOn: The lowest severity that fails the gate.
    /// - Returns: `true` when every finding is below `failOn`.
    public func passes(failOn: Severity = .error) -> Bool {
        !findings.contains { $0.severity >= failOn }
    }

    /// The findings for one pair.
    /// - Parameter pair: A pair of the report.
    /// - Returns: Its findings, in order.
    public func findings(for pair: CompatibilityPair) -> [CompatibilityFinding] {
        findings.filter { $0.readerVersion == pair.readerVersion && $0.writerVersion == pair.writerVersion }
    }

    /// How many findings have the severity.
    /// - Parameter severity: A severity.
    /// - Returns: The count.
    public func count(_ severity: Severity) -> Int {
        findings.count(where: { $0.severity == severity })
    }

    /// Every finding as a diagnostic, in order.
    public var diagnostics: [Diagnostic] { findings.map(\.diagnostic) }
}
