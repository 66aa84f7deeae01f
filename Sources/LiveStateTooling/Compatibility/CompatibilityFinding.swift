import LiveState

/// One compatibility finding: what happens when one app version decodes payloads written for
/// another, for one field.
///
/// `rule` is a stable kebab-case id from `CompatibilityRule.catalog`; the position is the field's
/// key in the schema file, in the newer version, or in the older one when the newer version
/// no longer has the field.
public struct CompatibilityFinding: Sendable, Hashable, CustomStringConvertible {
    /// Which way a pair is read.
    public typealias Direction = CompatibilityDirection

    /// The rule's stable id, such as `field-removed-required`.
    public var rule: String
    /// How serious the finding is for this pair; may differ from the rule's default severity.
    public var severity: Severity
    /// Whether the older app reads the newer payload or the other way round.
    public var direction: Direction
    /// The app version that decodes.
    public var readerVersion: Int
    /// The version the payload was written for.
    public var writerVersion: Int
    /// What happens, naming both versions.
    public var message: String
    /// The schema file, when the schema was loaded from one.
    public var file: String?
    /// The field's key in the schema file (or the version's entry for whole-version findings).
    public var position: SourcePosition?
    /// Whether the field is in the content-state or the attributes.
    public var scope: DiagnosticScope
    /// The field's JSON Pointer relative to `scope`, such as `/courier/name`; `""` for the whole object.
    public var pointer: String

    /// Creates a finding.
    /// - Parameters:
    ///   - rule: The rule id.
    ///   - severity: The severity for this pair.
    ///   - direction: The direction.
    ///   - readerVersion: The app version that decodes.
    ///   - writerVersion: The payload's version.
    ///   - message: What happens.
    ///   - file: The schema file.
    ///   - position: The field's position in the schema file.
    ///   - scope: `content-state` or `attributes`.
    ///   - pointer: The field's JSON Pointer.
    public init(
        rule: String,
        severity: Severity,
        direction: Direction,
        readerVersion: Int,
        writerVersion: Int,
        message: String,
        file: String? = nil,
        position: SourcePosition? = nil,
        scope: DiagnosticScope = .contentState,
        pointer: String
    ) {
        self.rule = rule
        self.severity = severity
        self.direction = direction
        self.readerVersion = readerVersion
        self.writerVersion = writerVersion
        self.message = message
        self.file = file
        self.position = position
        self.scope = scope
        self.pointer = pointer
    }

    /// The pair the finding is about.
    public var pair: CompatibilityPair {
        CompatibilityPair(readerVersion: readerVersion, writerVersion: writerVersion)
    }

    /// The finding as a diagnostic: `code` is the rule id.
    public var diagnostic: Diagnostic {
        Diagnostic(
            code: DiagnosticCode(rawValue: rule), severity: severity, message: message, file: file,
            position: position, scope: scope, pointer: pointer)
    }

    /// The compiler-style line: `file:line:column: severity: message (at pointer) [rule]`.
    public var description: String { diagnostic.description }
}
