/// The diagnostic codes the tolerant decoder reports.
///
/// Codes are stable: new ones may be added, existing ones never change meaning.
public struct DecodeCode: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The code, as it appears in diagnostics and documents.
    public let rawValue: String

    /// A code by its text; codes this version does not name are kept as they are.
    /// - Parameter rawValue: The kebab-case code.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// A key was missing, or null where `on-null: default`; the field took its default (info).
    public static let defaulted = DecodeCode(rawValue: "defaulted")
    /// A key the version does not declare; it was ignored (warning).
    public static let unknownKey = DecodeCode(rawValue: "unknown-key")
    /// A value of the wrong type or out of range; the field took its default (warning).
    public static let invalidDefaulted = DecodeCode(rawValue: "invalid-defaulted")
    /// An enum raw value the version does not declare; the field took its `fallback` (warning).
    public static let unknownEnumValue = DecodeCode(rawValue: "unknown-enum-value")
    /// The same key twice in one object; the first value was kept, as the device does (warning).
    public static let duplicateKey = DecodeCode(rawValue: "duplicate-key")
    /// A required key was missing: the app drops the update (error).
    public static let missingRequiredKey = DecodeCode(rawValue: "missing-required-key")
    /// A value of the wrong JSON type, or a number the field's type cannot hold, in a field with
    /// `on-invalid: reject` or without a default: the app drops the update (error).
    public static let wrongType = DecodeCode(rawValue: "wrong-type")
    /// A value outside the field's constraints (minimum, maximum, max-length, max-items, enum
    /// values, date-range order) in a field with `on-invalid: reject` or without a default (error).
    public static let outOfRange = DecodeCode(rawValue: "out-of-range")
    /// An app version under `clients.strict` decodes with synthesized `Codable` and drops this
    /// update (error).
    public static let strictDecodeFailure = DecodeCode(rawValue: "strict-decode-failure")
    /// The content-state is not a JSON object (error).
    public static let notAnObject = DecodeCode(rawValue: "not-an-object")
    /// A full APNs body without `aps` or without `aps.content-state` (error).
    public static let missingContentState = DecodeCode(rawValue: "missing-content-state")
    /// A `date` value that looks like UNIX seconds: as seconds since 2001-01-01 it lies decades
    /// ahead (warning; reported when validating payloads).
    public static let unixDateInDateField = DecodeCode(rawValue: "unix-date-in-date-field")
    /// The input is not valid JSON (error).
    public static let jsonSyntax = DecodeCode(rawValue: "json-syntax")
    /// The input breaks a scanner limit: size or nesting (error).
    public static let jsonLimit = DecodeCode(rawValue: "json-limit")

    /// The severity the decoder gives this code.
    public var severity: Severity {
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
    public static let allCases: [DecodeCode] = [
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
