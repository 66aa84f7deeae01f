import LiveState

/// The compatibility gate `livestate check` runs over every schema it loads.
public enum CompatibilityGate {
    /// Checks each schema under a gate and returns the findings as diagnostics.
    /// - Parameters:
    ///   - schemas: The schemas.
    ///   - mode: The gate for every schema; `nil` uses each schema's own `compatibility:`.
    ///   - options: The checker's assumptions.
    ///   - minimumSeverity: The least severe findings to return; `.warning` leaves out the
    ///     informational ones.
    /// - Returns: The findings of every schema, schema by schema, as diagnostics with the rule id as code.
    public static func run(
        _ schemas: [Schema], mode: CompatibilityMode?,
        options: CompatibilityChecker.Options = .init(), minimumSeverity: Severity = .warning
    ) -> [Diagnostic] {
        let checker = CompatibilityChecker(options: options)
        return schemas.flatMap { schema in
            checker.check(schema, mode: mode).findings.filter { $0.severity >= minimumSeverity }.map(\.diagnostic)
        }
    }
}
