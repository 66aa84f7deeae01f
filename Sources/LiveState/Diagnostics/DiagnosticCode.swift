/// A diagnostic's stable kebab-case code: `json-syntax`, `unknown-key`, `missing-aps-key`.
///
/// One type names the codes of every part of LiveState, as static members: the decoder's
/// (``unknownKey``), the envelope checks' (``missingAPSKey``), the encoder's (``elidedDefault``),
/// and those the tooling, sending and schema-loading targets add in their own extensions. A
/// code is an open struct, not an enum: a code a later version adds is kept as it came and breaks
/// no user's `switch`, and codes never change meaning.
///
/// A code does not carry its severity: the part that reports it decides (a retired version is
/// an error to the encoder, which writes nothing for it, and a warning to the validator), and the
/// ``Diagnostic`` carries it.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The code, as it appears in diagnostics and documents.
    public let rawValue: String

    /// A code by its text; codes this version does not name are kept as they are.
    /// - Parameter rawValue: The kebab-case code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A code by its text, written as a literal: `diagnostic.code == "unknown-key"`.
    /// - Parameter value: The kebab-case code.
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}
