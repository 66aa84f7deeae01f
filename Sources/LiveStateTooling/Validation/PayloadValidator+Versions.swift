import Foundation
import LiveState

extension PayloadValidator {
    /// Validates a body against every version of a schema: which app versions in the field
    /// would drop it.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    ///   - options: What to check.
    ///   - fleet: Devices per version, when known: each `dropped-by-version` says what share of them it is.
    ///   - maxDrop: The threshold the drops are weighed against (`weigh(_:by:maxDrop:spelling:)`), if
    ///     any: each share is written precisely enough to compare with it (`4.99%`, not `5.0%`).
    /// - Returns: The result per version, oldest first, and the combined findings: everything
    ///   the newest version reports, each older version's errors, and one `dropped-by-version`
    ///   error per version that drops the update.
    public static func validateAllVersions(
        _ schema: Schema, _ bytes: some ContiguousBytes, file: String? = nil, options: Options = .init(), fleet: Fleet? = nil,
        maxDrop: FleetThreshold? = nil
    ) -> (results: [(version: Int, result: ValidationResult)], diagnostics: [Diagnostic]) {
        // A retired version has no app in the field to drop anything.
        let validators = schema.liveVersions.compactMap { try? PayloadValidator(schema: schema, version: $0.version, options: options) }
        return validateAllVersions(validators, bytes, file: file, fleet: fleet, maxDrop: maxDrop)
    }

    /// Validates a body with validators built beforehand, one per version of a schema: what
    /// `validateAllVersions(_:_:file:options:)` does, without building a validator per call
    /// (a server builds them once per loaded schema).
    /// - Parameters:
    ///   - validators: One validator per version, oldest first.
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    ///   - fleet: Devices per version, when known.
    ///   - maxDrop: The threshold the drops are weighed against, if any: each share is written
    ///     precisely enough to compare with it.
    /// - Returns: The result per version, oldest first, and the combined findings, as
    ///   `validateAllVersions(_:_:file:options:fleet:maxDrop:)` returns them.
    public static func validateAllVersions(
        _ validators: [PayloadValidator], _ bytes: some ContiguousBytes, file: String? = nil, fleet: Fleet? = nil, maxDrop: FleetThreshold? = nil
    ) -> (results: [(version: Int, result: ValidationResult)], diagnostics: [Diagnostic]) {
        let results: [(version: Int, result: ValidationResult)] = validators.map { validator in
            (validator.decoder.version.version, validator.validate(bytes, file: file))
        }
        guard let newest = results.last else { return (results, []) }
        // The envelope is read alike by every version: its findings once, as they are. What
        // depends on the version (the content-state's and attributes' findings) is told for
        // each version that has it, every message starting "app version N: ": all of the
        // newest version's, the errors of older ones.
        var diagnostics: [Diagnostic] = []
        for (version, result) in results.reversed() {
            for diagnostic in result.diagnostics where diagnostic.scope != .envelope || version == newest.version {
                if diagnostic.scope == .envelope {
                    diagnostics.append(diagnostic)
                } else if version == newest.version || diagnostic.severity == .error {
                    diagnostics.append(tagged(diagnostic, version: version))
                }
            }
        }
        for ((version, result), validator) in zip(results, validators) where !result.appDecodes {
            // A body over APNs's limit never reaches a device: APNs, not the app, refuses it,
            // whatever else the version would find.
            // The first error that drops it: not one whose push still applies (a date in
            // milliseconds), which named the cause of a drop it does not make.
            let firstError = result.diagnostics.first(where: \.dropsPush)
            let reason = result.diagnostics.first { $0.dropsPush && $0.code == DiagnosticCode.overBudget } ?? firstError
            let consequence = Self.consequence(of: reason, event: result.event, broadcast: validator.options.broadcast)
            let cause = reason.map { $0.causeNote(isFirst: $0 == firstError) }
            diagnostics.append(Diagnostic(
                code: DiagnosticCode.droppedByVersion, severity: .error,
                message: "app version \(version): \(consequence)" + (fleet.map { share(of: $0, version: version, result: result, against: maxDrop) } ?? "") + (cause ?? ""),
                file: file, position: reason?.position, scope: reason?.scope ?? .envelope, pointer: reason?.pointer))
        }
        return (results, diagnostics)
    }

    /// What becomes of a push that a version does not apply because of `reason`, as its
    /// `dropped-by-version` says it. APNs refuses a body over its limit and one that is not JSON
    /// (SPEC §4), whatever else the version would find, so the app never sees it. What the
    /// device does with an `aps` value of the wrong kind (a string `relevance-score`, a
    /// fraction of a second in `timestamp`) is not documented: LiveState counts the push as
    /// dropped so that the check fails on it, and says so rather than that the app drops it. An
    /// `invalid-aps-value` whose message states a consequence (a start's `attributes` that is
    /// not an object) has the push's own.
    static func consequence(of reason: Diagnostic?, event: ActivityEvent?, broadcast: Bool) -> String {
        switch reason?.code {
        case DiagnosticCode.overBudget?:
            "APNs refuses this body (413), so it never reaches the app"
        case DiagnosticCode.jsonSyntax?:
            "APNs refuses a body that is not JSON, so it never reaches the app"
        case DiagnosticCode.invalidAPSValue? where !DeviceConsequence.allCases.contains(where: { reason?.message.hasSuffix($0.rawValue) == true }):
            "counted as dropped: what the device does with such an aps value is not documented"
        default:
            DeviceConsequence(event: event, broadcast: broadcast).rawValue
        }
    }

    /// A version's finding as the combined findings tell it: `app version 1: …`.
    static func tagged(_ diagnostic: Diagnostic, version: Int) -> Diagnostic {
        var tagged = diagnostic
        tagged.message = "app version \(version): " + diagnostic.message
        return tagged
    }

    /// ` for 3.1% of devices (310 of 10,000)`, with `, those on iOS 16` when only they drop it;
    /// as precise as it takes to compare with `threshold`.
    private static func share(of fleet: Fleet, version: Int, result: ValidationResult, against threshold: FleetThreshold?) -> String {
        let (devices, onlyOn) = fleet.devicesDropping(on: version, findings: result.diagnostics)
        return " for \(fleet.describe(devices, against: threshold))" + (onlyOn.map { ", those on \($0)" } ?? "")
    }
}
