/// The diagnostic codes the tolerant decoder reports.
///
/// Codes are stable: new ones may be added, existing ones never change meaning.
public enum DecodeCode: String, Sendable, Hashable, CaseIterable {
    /// A key was missing; the field took its default (info).
    case defaulted
    /// A key the version does not declare; it was ignored (warning).
    case unknownKey = "unknown-key"
    /// A value of the wrong type or out of range; the field took its default (warning).
    case invalidDefaulted = "invalid-defaulted"
    /// An enum raw value the version does not declare; the field took its `fallback` (warning).
    case unknownEnumValue = "unknown-enum-value"
    /// The same key twice in one object; the first value was kept, as the device does (warning).
    case duplicateKey = "duplicate-key"
    /// A required key was missing: the app drops the update (error).
    case missingRequiredKey = "missing-required-key"
    /// A value of the wrong JSON type, or a number the field's type cannot hold, in a field with
    /// `on-invalid: reject` or without a default: the app drops the update (error).
    case wrongType = "wrong-type"
    /// A value outside the field's constraints (minimum, maximum, max-length, max-items, enum
    /// values, date-range order) in a field with `on-invalid: reject` or without a default (error).
    case outOfRange = "out-of-range"
    /// An app version under `clients.strict` decodes with synthesized `Codable` and drops this
    /// update (error).
    case strictDecodeFailure = "strict-decode-failure"
    /// The content-state is not a JSON object (error).
    case notAnObject = "not-an-object"
    /// A full APNs body without `aps` or without `aps.content-state` (error).
    case missingContentState = "missing-content-state"
    /// A `date` value that looks like UNIX seconds: as seconds since 2001-01-01 it lies decades
    /// ahead (warning; reported when validating payloads).
    case unixDateInDateField = "unix-date-in-date-field"
    /// The input is not valid JSON (error).
    case jsonSyntax = "json-syntax"
    /// The input breaks a scanner limit: size or nesting (error).
    case jsonLimit = "json-limit"

    /// The severity the decoder gives this code.
    public var severity: Severity {
        switch self {
        case .defaulted: .info
        case .unknownKey, .invalidDefaulted, .unknownEnumValue, .duplicateKey, .unixDateInDateField: .warning
        case .missingRequiredKey, .wrongType, .outOfRange, .strictDecodeFailure, .notAnObject, .missingContentState,
            .jsonSyntax, .jsonLimit:
            .error
        }
    }
}
