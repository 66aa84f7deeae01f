import LiveState

/// What share of a fleet a verdict touches: the devices whose app drops the update, the devices
/// whose app falls back to defaults, and whether a `max-drop` gate accepts the drop.
///
/// Without fleet data every drop fails a gate; with it, a drop that reaches no more of the fleet
/// than the threshold is accepted, and its errors are reported as warnings that say so.
public struct FleetImpact: Sendable, Hashable {
    /// Every device the fleet counts.
    public var total: Int
    /// The app versions that drop the update (or, for a schema gate, break on some payloads).
    public var droppingVersions: [Int]
    /// The devices on them.
    public var dropping: Int
    /// The app versions that take it but fall back to defaults for some values (for a schema
    /// gate, that have warnings: `degradedMeaning`).
    public var degradedVersions: [Int]
    /// The devices on them.
    public var degraded: Int
    /// The most of the fleet the gate lets drop an update.
    public var maxDrop: FleetThreshold
    /// How the messages name the threshold: as the command line's option (the default) or as
    /// the sidecar's query parameter.
    public var spelling: FleetThreshold.Spelling
    /// What the degraded devices do, for `sentence`: `would fall back to defaults` for a push;
    /// a schema gate's warnings are drops under a condition too (a server that elides defaults),
    /// so there they `are at risk`.
    public var degradedMeaning = "would fall back to defaults"

    /// Weighs versions by a fleet.
    /// - Parameters:
    ///   - fleet: The fleet.
    ///   - dropping: The versions that drop.
    ///   - degraded: The versions that fall back to defaults (those that also drop are left out).
    ///   - maxDrop: The gate's threshold.
    ///   - spelling: How the messages name the threshold.
    public init(fleet: Fleet, dropping: some Sequence<Int>, degraded: some Sequence<Int>, maxDrop: FleetThreshold,
                spelling: FleetThreshold.Spelling = .option) {
        func all(_ versions: some Sequence<Int>) -> [Int: Int] {
            Dictionary(Set(versions).map { ($0, fleet.devices[$0] ?? 0) }) { first, _ in first }
        }
        self.init(fleet: fleet, droppingDevices: all(dropping), degradedDevices: all(degraded), maxDrop: maxDrop, spelling: spelling)
    }

    /// Weighs versions by a fleet, with the devices that drop, and those that fall back, on each
    /// version given (some of a version's devices, when only those on an old iOS do). A version
    /// none of whose devices does is not listed: it holds none, or none on that iOS.
    /// - Parameters:
    ///   - fleet: The fleet.
    ///   - droppingDevices: The devices that drop, by version.
    ///   - degradedDevices: The devices that fall back to defaults, by version (those of a
    ///     version that also drops are left out).
    ///   - maxDrop: The gate's threshold.
    ///   - spelling: How the messages name the threshold.
    public init(fleet: Fleet, droppingDevices: [Int: Int], degradedDevices: [Int: Int], maxDrop: FleetThreshold,
                spelling: FleetThreshold.Spelling = .option) {
        total = fleet.total
        let droppingDevices = droppingDevices.filter { $0.value > 0 }
        droppingVersions = droppingDevices.keys.sorted()
        dropping = droppingDevices.values.reduce(0, +)
        let degradedDevices = degradedDevices.filter { $0.value > 0 && droppingDevices[$0.key] == nil }
        degradedVersions = degradedDevices.keys.sorted()
        self.degraded = degradedDevices.values.reduce(0, +)
        self.maxDrop = maxDrop
        self.spelling = spelling
    }

    /// The share of the fleet that drops, from 0 to 1.
    public var droppingShare: Double { total == 0 ? 0 : Double(dropping) / Double(total) }
    /// The share of the fleet that falls back to defaults, from 0 to 1.
    public var degradedShare: Double { total == 0 ? 0 : Double(degraded) / Double(total) }
    /// Whether the gate lets this drop pass: no more of the fleet than `maxDrop`, compared exactly.
    public var accepted: Bool { !maxDrop.isExceeded(by: dropping, of: total) }

    /// The share that drops, to as many decimals as show how it compares with `maxDrop`.
    private var droppingPercent: String { Fleet.percent(dropping, of: total, against: maxDrop) }

    /// The note on a finding the gate accepts.
    public var acceptedNote: String {
        " (accepted by \(maxDrop.spelled(spelling)): \(droppingPercent) of devices drop it)"
    }

    /// `3.1% of devices (310 of 10,000) would lose this update (app version 1); 21.5% (2,150) would fall back to defaults (app version 2)`.
    /// - Parameter what: What is lost: `this update`, `updates`.
    public func sentence(losing what: String) -> String {
        func versions(_ list: [Int]) -> String {
            list.isEmpty ? "" : " (app version\(list.count == 1 ? "" : "s") \(list.map(String.init).joined(separator: ", ")))"
        }
        let gate = accepted ? "within" : "over"
        return "\(droppingPercent) of devices (\(ValueText.grouped(dropping)) of \(ValueText.grouped(total))) would lose \(what)"
            + versions(droppingVersions)
            + "; \(Fleet.percent(degraded, of: total)) (\(ValueText.grouped(degraded))) \(degradedMeaning)" + versions(degradedVersions)
            + "; \(gate) \(maxDrop.spelled(spelling))"
    }

    /// `{total, dropping: {versions, devices, share, percent}, degraded: {…}, maxDrop, accepted}`.
    public var jsonValue: Value {
        func part(_ versions: [Int], _ devices: Int, _ share: Double, _ percent: String) -> Value {
            .object([
                .init("versions", .array(versions.map(Value.int))),
                .init("devices", .int(devices)),
                .init("share", .double(share)),
                .init("percent", .string(percent)),
            ])
        }
        return .object([
            .init("total", .int(total)),
            .init("dropping", part(droppingVersions, dropping, droppingShare, droppingPercent)),
            .init("degraded", part(degradedVersions, degraded, degradedShare, Fleet.percent(degraded, of: total))),
            .init("maxDrop", .double(maxDrop.share)),
            .init("accepted", .bool(accepted)),
        ])
    }

    /// `findings` with every error that `isVersionSpecific` marks made a warning that says the
    /// gate accepts it, when it does; otherwise as they are.
    func gate(_ findings: inout [Diagnostic], isVersionSpecific: (Diagnostic) -> Bool) {
        guard accepted else { return }
        for index in findings.indices where findings[index].severity == .error && isVersionSpecific(findings[index]) {
            findings[index].severity = .warning
            findings[index].message += acceptedNote
        }
    }
}

extension PayloadValidator {
    /// Weighs a body's verdict on every version by a fleet: which share of devices drops it and
    /// which falls back to defaults, and, when that drop is within `maxDrop`, every error that
    /// only some versions have made a warning saying the gate accepts it.
    /// - Parameters:
    ///   - validation: What `validateAllVersions` returned, given the same `fleet`.
    ///   - fleet: The fleet.
    ///   - maxDrop: The most of the fleet that may drop the update.
    ///   - spelling: How the notes name `maxDrop`: as the command line's option (the default) or
    ///     as the sidecar's query parameter.
    /// - Returns: The findings, gated, and the impact.
    public static func weigh(
        _ validation: (results: [(version: Int, result: ValidationResult)], diagnostics: [Diagnostic]),
        by fleet: Fleet, maxDrop: FleetThreshold, spelling: FleetThreshold.Spelling = .option
    ) -> (diagnostics: [Diagnostic], impact: FleetImpact) {
        // A fallback is a warning; a strict version's `invalid-defaulted` is an error saying
        // that the app applies the value sent, so its devices do not fall back.
        let fallbacks: Set<DiagnosticCode> = [.invalidDefaulted, .unknownEnumValue]
        var dropping: [Int: Int] = [:]
        var degraded: [Int: Int] = [:]
        var applyingErrors: Set<Diagnostic> = []
        for (version, result) in validation.results {
            if !result.appDecodes {
                dropping[version] = fleet.devicesDropping(on: version, findings: result.diagnostics).devices
                continue
            }
            let fallingBack = result.diagnostics.filter { fallbacks.contains($0.code) && $0.severity < .error }
            if !fallingBack.isEmpty { degraded[version] = fleet.devices(on: version, reachedBy: fallingBack).devices }
            for diagnostic in result.diagnostics where diagnostic.severity == .error && diagnostic.scope != .envelope {
                applyingErrors.insert(tagged(diagnostic, version: version))
            }
        }
        // A body APNs refuses reaches no device, those on a retired version too, which count in
        // the total and are checked for nothing else: `check --fleet` names them among the
        // versions a refused size drops, and so does this (it left them out, and the share of an
        // over-budget body was less than all).
        if validation.results.contains(where: { $0.result.diagnostics.contains { $0.code == DiagnosticCode.overBudget && $0.severity == .error } }) {
            for (version, devices) in fleet.devices where dropping[version] == nil && !validation.results.contains(where: { $0.version == version }) {
                dropping[version] = devices
            }
        }
        let impact = FleetImpact(fleet: fleet, droppingDevices: dropping, degradedDevices: degraded, maxDrop: maxDrop, spelling: spelling)
        var diagnostics = validation.diagnostics
        // The gate weighs drops: an error of a version that applies the update is not one.
        impact.gate(&diagnostics) {
            ($0.scope != .envelope || $0.code == DiagnosticCode.droppedByVersion) && !applyingErrors.contains($0)
        }
        // A version that drops the update on none of its devices (none runs it, or none runs
        // the iOS that drops it) loses nothing, whatever the gate says of the others.
        for (version, devices) in dropping where devices == 0 {
            let prefix = "app version \(version): "
            for index in diagnostics.indices where diagnostics[index].severity == .error
                && diagnostics[index].message.hasPrefix(prefix)
                && (diagnostics[index].scope != .envelope || diagnostics[index].code == DiagnosticCode.droppedByVersion) {
                diagnostics[index].severity = .warning
                diagnostics[index].message += " (no device of app version \(version) in the fleet drops it)"
            }
        }
        return (diagnostics, impact)
    }
}

extension CompatibilityReport {
    /// The report weighed by a fleet: each finding names the share of devices on its reader
    /// version (broken for an error: a strict client throws or a tolerant one drops; at risk
    /// for a warning: it drops under a condition, or shows a default), and when the versions with errors hold no
    /// more of the fleet than `maxDrop`, their errors become warnings that say the gate accepts
    /// them. A finding about a version's payloads against the byte budget is every device's:
    /// APNs refuses an oversized body whichever app would read it (refused for an error, at risk
    /// for a warning, which does not count as falling back to defaults).
    /// - Parameters:
    ///   - fleet: The fleet.
    ///   - maxDrop: The most of the fleet that may break.
    /// - Returns: The weighed report; `fleet` holds the impact.
    public func weighed(by fleet: Fleet, maxDrop: FleetThreshold) -> CompatibilityReport {
        var report = self
        let isBudget = { (finding: CompatibilityFinding) in PairComparison.budgetRules.contains(finding.rule) }
        let everyVersion = findings.contains { isBudget($0) && $0.severity == .error } ? Array(fleet.devices.keys) : []
        var impact = FleetImpact(
            fleet: fleet,
            dropping: findings.filter { $0.severity == .error && !isBudget($0) }.map(\.readerVersion) + everyVersion,
            degraded: findings.filter { $0.severity == .warning && !isBudget($0) }.map(\.readerVersion),
            maxDrop: maxDrop)
        // A warning here is a drop under a condition as often as a default shown.
        impact.degradedMeaning = "are at risk"
        for index in report.findings.indices where report.findings[index].severity >= .warning {
            let finding = report.findings[index]
            if isBudget(finding) {
                // A size warning is a bound, not a reading some devices get wrong: the summary's
                // "at risk" does not count it, and neither do these words (they said "at risk").
                report.findings[index].message += " (every app version: \(fleet.describe(fleet.total)), "
                    + (finding.severity == .error ? "refused)" : "should a payload reach that size)")
            } else {
                let devices = fleet.devices[finding.readerVersion] ?? 0
                // A version no device runs breaks nothing, whatever the gate says of the others,
                // as `lint --fleet` says it (this kept the error).
                if devices == 0 {
                    report.findings[index].severity = .warning
                    report.findings[index].message += " (no device of app v\(finding.readerVersion) in the fleet reads it)"
                    continue
                }
                report.findings[index].message += " (app v\(finding.readerVersion): \(fleet.describe(devices, against: maxDrop)), "
                    + (finding.severity == .error ? "broken)" : "at risk)")
            }
            if impact.accepted, finding.severity == .error {
                report.findings[index].severity = .warning
                report.findings[index].message += impact.acceptedNote
            }
        }
        report.fleet = impact
        return report
    }
}
