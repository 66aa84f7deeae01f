// The diagnostic codes the tolerant decoder reports.
//
// Codes are stable: new ones may be added, existing ones never change meaning.
extension DiagnosticCode {
    /// A key was missing, or null where `on-null: default`; the field took its default (info).
    public static let defaulted = DiagnosticCode(rawValue: "defaulted")
    /// A key the version does not declare; it was ignored (warning).
    public static let unknownKey = DiagnosticCode(rawValue: "unknown-key")
    /// A value of the wrong type or out of range; the field took its default (warning).
    public static let invalidDefaulted = DiagnosticCode(rawValue: "invalid-defaulted")
    /// An enum raw value the version does not declare; the field took its `fallback` (warning).
    public static let unknownEnumValue = DiagnosticCode(rawValue: "unknown-enum-value")
    /// The same key twice in one object; the first value was kept, as the device does (warning).
    public static let duplicateKey = DiagnosticCode(rawValue: "duplicate-key")
    /// A required key was missing: the app drops the update (error).
    public static let missingRequiredKey = DiagnosticCode(rawValue: "missing-required-key")
    /// A value of the wrong JSON type, or a number the field's type cannot hold, in a field with
    /// `on-invalid: reject` or without a default: the app drops the update (error).
    public static let wrongType = DiagnosticCode(rawValue: "wrong-type")
    /// A value outside the field's constraints (minimum, maximum, max-length, max-items, enum
    /// values, date-range order) in a field with `on-invalid: reject` or without a default (error).
    public static let outOfRange = DiagnosticCode(rawValue: "out-of-range")
    /// An app version under `clients.strict` decodes with synthesized `Codable` and drops this
    /// update (error).
    public static let strictDecodeFailure = DiagnosticCode(rawValue: "strict-decode-failure")
    /// The content-state is not a JSON object (error).
    public static let notAnObject = DiagnosticCode(rawValue: "not-an-object")
    /// A full APNs body without `aps` or without `aps.content-state` (error).
    public static let missingContentState = DiagnosticCode(rawValue: "missing-content-state")
    /// A `date` value that looks like UNIX seconds: as seconds since 2001-01-01 it lies decades
    /// ahead (warning; reported when validating payloads).
    public static let unixDateInDateField = DiagnosticCode(rawValue: "unix-date-in-date-field")
    /// The input is not valid JSON (error).
    public static let jsonSyntax = DiagnosticCode(rawValue: "json-syntax")
    /// The input breaks a scanner limit: size or nesting (error).
    public static let jsonLimit = DiagnosticCode(rawValue: "json-limit")

    /// A decoder, an encoder or a validator was asked for a version the schema does not have
    /// (error). Thrown by their initializers, not reported by a decode.
    public static let unknownVersion = DiagnosticCode(rawValue: "unknown-version")

    /// The severity the decoder gives a code it reports.
    package var decoderSeverity: Severity {
        switch self {
        case .defaulted: .info
        case .unknownKey, .invalidDefaulted, .unknownEnumValue, .duplicateKey, .unixDateInDateField: .warning
        case .missingRequiredKey, .wrongType, .outOfRange, .strictDecodeFailure, .notAnObject, .missingContentState,
            .jsonSyntax, .jsonLimit:
            .error
        default: .error  // a code a later version adds
        }
    }

    /// Every code this version names.
    package static let decoderCodes: [DiagnosticCode] = [
        .defaulted,
        .unknownKey,
        .invalidDefaulted,
        .unknownEnumValue,
        .duplicateKey,
        .missingRequiredKey,
        .wrongType,
        .outOfRange,
        .strictDecodeFailure,
        .notAnObject,
        .missingContentState,
        .unixDateInDateField,
        .jsonSyntax,
        .jsonLimit,
    ]
}
