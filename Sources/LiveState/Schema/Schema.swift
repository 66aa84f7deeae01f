/// A Live Activity's content-state and attributes, version by version, oldest first.
///
/// Build one in code or load it from YAML with `LiveStateYAML`'s `SchemaLoader`.
public struct Schema: Sendable, Hashable {
    /// The schema's id; a schema file's stem.
    public var activity: String
    /// The Swift `ActivityAttributes` type name (push-to-start `attributes-type`, codegen).
    public var attributesType: String?
    /// The compatibility gate `livestate diff` and `livestate check` enforce.
    public var compatibility: CompatibilityMode
    /// App versions whose `ContentState` uses synthesized `Codable`: they drop an update on
    /// any missing key or wrong type.
    public var strictClients: [Int]
    /// Every version, oldest first.
    public var versions: [SchemaVersion]
    /// The app's deployment target: the oldest iOS its devices run (`min-ios`, default 16.1,
    /// the first with Live Activities). A version may set its own.
    public var minIOS: IOSVersion
    /// The file the schema was loaded from, when it was.
    public var file: String?

    /// Creates a schema.
    /// - Parameters:
    ///   - activity: The id.
    ///   - attributesType: The `ActivityAttributes` type name.
    ///   - compatibility: The gate.
    ///   - strictClients: App versions that decode with synthesized `Codable`.
    ///   - versions: Every version, oldest first.
    ///   - minIOS: The app's deployment target.
    ///   - file: The source file.
    public init(
        activity: String,
        attributesType: String? = nil,
        compatibility: CompatibilityMode = .forwardTransitive,
        strictClients: [Int] = [],
        versions: [SchemaVersion],
        minIOS: IOSVersion = .liveActivities,
        file: String? = nil
    ) {
        self.activity = activity
        self.attributesType = attributesType
        self.compatibility = compatibility
        self.strictClients = strictClients
        self.versions = versions
        self.minIOS = minIOS
        self.file = file
    }

    /// How app version `number`'s devices read `url` values: by its `minIOS(of:)`.
    /// - Parameter number: The version number.
    package func urlRule(_ number: Int) -> URLRule {
        URLRule(minIOS: minIOS(of: number))
    }

    /// The oldest iOS app version `number` runs on: its own `min-ios`, or the schema's.
    /// - Parameter number: The version number.
    package func minIOS(of number: Int) -> IOSVersion {
        version(number)?.minIOS ?? minIOS
    }

    /// The version numbered `number`, if the schema has it.
    /// - Parameter number: The version number.
    /// - Returns: The version, or `nil`.
    public func version(_ number: Int) -> SchemaVersion? {
        versions.first(where: { $0.version == number })
    }

    /// The newest version.
    public var latest: SchemaVersion? { versions.last }

    /// The versions still in the field: every one but the retired.
    public var liveVersions: [SchemaVersion] { versions.filter { !$0.isRetired } }

    /// Whether app version `number` decodes with synthesized `Codable`.
    /// - Parameter number: The version number.
    public func isStrict(_ number: Int) -> Bool { strictClients.contains(number) }
}

/// One version of a schema: the whole content-state and attributes an app version expects.
public struct SchemaVersion: Sendable, Hashable {
    /// The version number: a positive integer, increasing through the file.
    public var version: Int
    /// The content-state's fields, in order.
    public var contentState: [Field]
    /// The static attributes' fields, in order.
    public var attributes: [Field]
    /// Names removed in this version: they may never return with another type.
    public var removed: [String]
    /// The version's own deployment target, when it raised the schema's `min-ios`.
    public var minIOS: IOSVersion?
    /// Set when no app of this version is left in the field: it no longer gates compatibility,
    /// the encoder writes nothing for it, and lint skips it. Its fields stay, as tombstones do.
    package var retired: Retirement?
    /// Where the version's entry starts in the schema file.
    public var position: SourcePosition?

    /// Creates a version.
    /// - Parameters:
    ///   - version: The number.
    ///   - contentState: The content-state fields.
    ///   - attributes: The attributes fields.
    ///   - removed: Tombstoned names.
    ///   - minIOS: The version's own deployment target, if it has one.
    ///   - position: Where it is declared.
    public init(
        version: Int,
        contentState: [Field],
        attributes: [Field] = [],
        removed: [String] = [],
        minIOS: IOSVersion? = nil,
        position: SourcePosition? = nil
    ) {
        self.init(version: version, contentState: contentState, attributes: attributes, removed: removed, minIOS: minIOS,
                  retired: nil, position: position)
    }

    /// Creates a version, retired when `retired` is set: the schema loader's initializer.
    package init(
        version: Int,
        contentState: [Field],
        attributes: [Field] = [],
        removed: [String] = [],
        minIOS: IOSVersion? = nil,
        retired: Retirement?,
        position: SourcePosition?
    ) {
        self.version = version
        self.contentState = contentState
        self.attributes = attributes
        self.removed = removed
        self.minIOS = minIOS
        self.retired = retired
        self.position = position
    }

    /// Whether the version is retired.
    public var isRetired: Bool { retired != nil }

    /// The content-state field named `name`.
    /// - Parameter name: The key.
    /// - Returns: The field, or `nil`.
    public func field(_ name: String) -> Field? {
        contentState.first(where: { $0.name == name })
    }
}

/// The compatibility gate between schema versions.
public enum CompatibilityMode: String, Sendable, Hashable, CaseIterable {
    /// A new app reads payloads written for the previous version.
    case backward
    /// An old app reads payloads written for the next version.
    case forward
    /// Both `backward` and `forward`.
    case full
    /// `backward` against every earlier version.
    case backwardTransitive = "backward-transitive"
    /// `forward` against every later version.
    case forwardTransitive = "forward-transitive"
    /// `full` against every version.
    case fullTransitive = "full-transitive"
    /// No gate.
    case none
}

/// Why and since when a schema version is retired (`retired: true`, `retired-on`, `retired-reason`).
package struct Retirement: Sendable, Hashable {
    /// The day it was retired, as the schema writes it (`2026-11-25`).
    package var date: String?
    /// Why: `0.2% of devices on 2026-11-25`.
    package var reason: String?

    /// Creates a retirement.
    /// - Parameters:
    ///   - date: The day.
    ///   - reason: Why.
    package init(date: String? = nil, reason: String? = nil) {
        self.date = date
        self.reason = reason
    }

    /// `retired on 2026-11-25: 0.2% of devices`, or `retired`.
    package var description: String {
        "retired" + (date.map { " on \($0)" } ?? "") + (reason.map { ": \($0)" } ?? "")
    }
}
