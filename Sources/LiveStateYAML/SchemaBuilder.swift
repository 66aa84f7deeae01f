import LiveState
import LiveStateTooling

/// Maps a YAML node tree onto the schema model, reporting every problem it finds.
///
/// The builder checks what only the YAML shows: unknown and missing keys, the shape of each
/// value, type names, duplicate mapping keys, tags, defaults that do not convert to their
/// field's type, and the activity against the file name. What the model can express is left
/// to `SchemaValidator` (constraint sanity, defaults against constraints, version order,
/// tombstones), which the loader runs on the result.
///
/// A part with an error is left out of the model (a field whose type is unknown, a default
/// that does not convert) so that the validator does not report it a second time.
struct SchemaBuilder {
    /// The file name diagnostics carry.
    let file: String
    /// Every problem found, in the order found.
    private(set) var diagnostics: [Diagnostic] = []
    /// For each version of the built schema, the index of its entry in the file's `versions`
    /// sequence (entries with errors are left out, so the two can differ).
    private(set) var versionIndices: [Int] = []
    /// Whether a field, a fields mapping or a version was left out of the model for an error,
    /// so checks across versions would see an incomplete schema.
    var droppedParts = false
    /// The most diagnostics kept; once reached, the builder stops looking.
    let maxDiagnostics: Int
    /// The most versions a schema may list.
    let maxVersions: Int
    /// Whether `maxDiagnostics` was reached, so some problems went unreported.
    var isSaturated: Bool { diagnostics.count >= maxDiagnostics }

    /// Creates a builder.
    /// - Parameters:
    ///   - file: The file name for diagnostics and `Schema.file`.
    ///   - maxDiagnostics: The most diagnostics to collect before giving up.
    ///   - maxVersions: The most versions a schema may list.
    init(file: String, maxDiagnostics: Int, maxVersions: Int) {
        self.file = file
        self.maxDiagnostics = maxDiagnostics
        self.maxVersions = max(maxVersions, 1)
    }

    /// Builds the schema a document describes.
    /// - Parameter root: The document's root node.
    /// - Returns: The schema, or `nil` when the document lacks `versions` or is not a mapping.
    mutating func build(_ root: YAMLNode) -> Schema? {
        checkKeysAndTags(root, pointer: "")
        if root.scalarValue == .null {
            report(.schemaEmpty, "the file holds no schema", at: root.position, pointer: "")
            return nil
        }
        guard let top = mapping(root, pointer: "", allowed: SchemaKeys.top, what: "a schema file", allowsExtensions: true) else {
            return nil
        }
        let activity = top["activity"].flatMap { string($0, key: "activity", pointer: "/activity") }
        if top["activity"] == nil {
            report(.schemaMissingKey, "the schema has no 'activity' (its id, the file's stem)", at: root.position, pointer: "/activity")
        }
        if let activity, let pair = top["activity"], let stem = Self.stem(of: file), activity != stem {
            report(
                .schemaActivityMismatch, "activity '\(activity)' differs from the file's stem '\(stem)'",
                at: pair.value.position, pointer: "/activity")
        }
        let attributesType = top["attributes-type"].flatMap { string($0, key: "attributes-type", pointer: "/attributes-type") }
        var compatibility = CompatibilityMode.forwardTransitive
        if let pair = top["compatibility"], let name = string(pair, key: "compatibility", pointer: "/compatibility") {
            if let mode = CompatibilityMode(rawValue: name) {
                compatibility = mode
            } else {
                report(
                    .schemaWrongType,
                    "compatibility '\(name)' is not one of \(CompatibilityMode.allCases.map(\.rawValue).joined(separator: ", "))",
                    at: pair.value.position, pointer: "/compatibility")
            }
        }
        let strictClients = top["clients"].map { buildClients($0) } ?? []
        let minIOS = top["min-ios"].flatMap { iosVersion($0, pointer: "/min-ios") }
        if let pair = top["description"] {
            _ = string(pair, key: "description", pointer: "/description")
        }
        guard let versionsPair = top["versions"] else {
            report(.schemaMissingKey, "the schema has no 'versions'", at: root.position, pointer: "/versions")
            return nil
        }
        guard case .sequence(let entries) = versionsPair.value.content else {
            report(
                .schemaWrongType, "'versions' must be a sequence of versions (- version: 1 ...), found \(versionsPair.value.described)",
                at: versionsPair.value.position, pointer: "/versions")
            return nil
        }
        if entries.isEmpty {
            report(.schemaEmpty, "the schema declares no versions", at: versionsPair.value.position, pointer: "/versions")
            return nil
        }
        if entries.count > maxVersions {
            report(
                .yamlLimit,
                "the schema lists \(entries.count) versions, over the limit of \(maxVersions) (a compatibility gate compares every pair of versions)",
                at: entries[maxVersions].position, pointer: "/versions/\(maxVersions)")
            return nil
        }
        var versions: [SchemaVersion] = []
        for (index, entry) in entries.enumerated() where !isSaturated {
            if let version = buildVersion(entry, pointer: "/versions/\(index)") {
                versions.append(version)
                versionIndices.append(index)
            } else {
                droppedParts = true
            }
        }
        return Schema(
            activity: activity ?? "", attributesType: attributesType, compatibility: compatibility,
            strictClients: strictClients, versions: versions, minIOS: minIOS ?? .liveActivities, file: file)
    }

    private mutating func buildClients(_ pair: YAMLPair) -> [Int] {
        guard let clients = mapping(pair.value, pointer: "/clients", allowed: SchemaKeys.clients, what: "'clients'") else {
            return []
        }
        guard let strict = clients["strict"], let elements = sequence(strict, key: "strict", pointer: "/clients/strict") else {
            return []
        }
        return elements.enumerated().compactMap { index, element in
            integer(element, key: "clients.strict", pointer: "/clients/strict/\(index)")
        }
    }

    private mutating func buildVersion(_ node: YAMLNode, pointer: String) -> SchemaVersion? {
        guard let members = mapping(node, pointer: pointer, allowed: SchemaKeys.version, what: "a version") else {
            return nil
        }
        var number: Int?
        if let pair = members["version"] {
            number = integer(pair.value, key: "version", pointer: pointer + "/version")
        } else {
            report(.schemaMissingKey, "this version has no 'version' number", at: node.position, pointer: pointer + "/version")
        }
        var contentState: [Field]?
        if let pair = members["content-state"] {
            contentState = buildFields(pair.value, pointer: pointer + "/content-state", what: "'content-state'")
        } else {
            report(
                .schemaMissingKey, "this version has no 'content-state' (write content-state: {} for none)",
                at: node.position, pointer: pointer + "/content-state")
        }
        let attributes = members["attributes"].flatMap {
            buildFields($0.value, pointer: pointer + "/attributes", what: "'attributes'")
        }
        var removed: [String] = []
        if let pair = members["removed"], let elements = sequence(pair, key: "removed", pointer: pointer + "/removed") {
            for (index, element) in elements.enumerated() {
                if let name = string(element, key: "removed", pointer: pointer + "/removed/\(index)") {
                    removed.append(name)
                }
            }
        }
        if let pair = members["description"] {
            _ = string(pair, key: "description", pointer: pointer + "/description")
        }
        let minIOS = members["min-ios"].flatMap { iosVersion($0, pointer: pointer + "/min-ios") }
        let retired = retirement(members, pointer: pointer)
        guard let number, let contentState else { return nil }
        return SchemaVersion(
            version: number, contentState: contentState, attributes: attributes ?? [],
            removed: removed, minIOS: minIOS, retired: retired, position: node.position)
    }

    /// Reads `retired: true` with its optional `retired-on` and `retired-reason`.
    private mutating func retirement(_ members: Members, pointer: String) -> Retirement? {
        let isRetired = members["retired"].flatMap { bool($0, key: "retired", pointer: pointer + "/retired") } ?? false
        let date = members["retired-on"].flatMap { string($0, key: "retired-on", pointer: pointer + "/retired-on") }
        let reason = members["retired-reason"].flatMap { string($0, key: "retired-reason", pointer: pointer + "/retired-reason") }
        if !isRetired {
            for key in ["retired-on", "retired-reason"] {
                if let pair = members[key] {
                    report(.schemaInvalidConstraint, "'\(key)' describes a retirement; add retired: true, or leave it out",
                           at: pair.key.position, pointer: pointer + "/" + key)
                }
            }
            return nil
        }
        return Retirement(date: date, reason: reason)
    }

    /// Reads a deployment target: `"16.1"`, `17`, `17.2` (whether it is one that Live
    /// Activities run on is `SchemaValidator`'s check).
    private mutating func iosVersion(_ pair: YAMLPair, pointer: String) -> IOSVersion? {
        if let scalar = pair.value.scalar, let version = IOSVersion(scalar.text) { return version }
        report(.schemaWrongType, "'min-ios' must be an iOS version such as \"16.1\", found \(pair.value.described)",
               at: pair.value.position, pointer: pointer)
        return nil
    }

    /// `delivery` for `schemas/delivery.yaml` (and for `delivery.txt`: the name without its
    /// extension); `nil` for stdin and other names that are not files.
    static func stem(of file: String) -> String? {
        if file.isEmpty || file == "-" || file.hasPrefix("<") { return nil }
        var name = Substring(file)
        if let slash = name.lastIndex(of: "/") {
            name = name[name.index(after: slash)...]
        }
        // Without its extension, whichever it is (`pizza.txt` is `pizza`); a name that starts
        // with its only dot (`.yaml`) has none.
        if let dot = name.lastIndex(of: "."), dot > name.startIndex {
            return String(name[..<dot])
        }
        return String(name)
    }

    // MARK: Reporting

    mutating func report(_ code: DiagnosticCode, _ message: String, at position: SourcePosition, pointer: String) {
        guard !isSaturated else { return }
        diagnostics.append(Diagnostic(
            code: code, severity: .error, message: message,
            file: file, position: position, scope: .schema, pointer: pointer))
    }

    // MARK: Shapes

    /// A mapping's pairs by key, first occurrence only (duplicates are reported by `checkKeysAndTags`).
    struct Members {
        let pairs: [String: YAMLPair]

        subscript(key: String) -> YAMLPair? { pairs[key] }
    }

    /// Reads a mapping, reporting keys outside `allowed`.
    /// - Parameter allowsExtensions: Whether keys that start with `x-` are passed over, not read
    ///   as schema: a schema file's place for anchors that versions merge (`x-common: &common`),
    ///   as in a Docker Compose file. (`checkKeysAndTags` still checks their YAML.)
    /// - Returns: Its members, or `nil` (reported) when the node is not a mapping.
    mutating func mapping(
        _ node: YAMLNode, pointer: String, allowed: [String], what: String, allowsExtensions: Bool = false,
        hint: (String) -> String? = { _ in nil }
    ) -> Members? {
        guard case .mapping(let pairs) = node.content else {
            var message = "\(what) must be a mapping, found \(node.described)"
            if case .scalar(let scalar) = node.content, FieldType.names.contains(scalar.text) {
                message += "; write { type: \(scalar.text) }"
            }
            report(.schemaWrongType, message, at: node.position, pointer: pointer)
            return nil
        }
        var members: [String: YAMLPair] = [:]
        for pair in pairs {
            guard let key = pair.key.scalar?.text, members[key] == nil else { continue }
            if allowsExtensions, key.hasPrefix(SchemaKeys.extensionPrefix) { continue }
            guard allowed.contains(key) else {
                var message = "unknown key '\(key)' in \(what)"
                if let extra = hint(key) {
                    message += " (\(extra))"
                }
                message += "; allowed keys: " + allowed.joined(separator: ", ")
                if allowsExtensions { message += ", and any key starting with '\(SchemaKeys.extensionPrefix)'" }
                report(.schemaUnknownKey, message, at: pair.key.position, pointer: JSONPointer.appending(key, to: pointer))
                continue
            }
            members[key] = pair
        }
        return Members(pairs: members)
    }

    mutating func sequence(_ pair: YAMLPair, key: String, pointer: String) -> [YAMLNode]? {
        guard case .sequence(let elements) = pair.value.content else {
            report(.schemaWrongType, "'\(key)' must be a sequence, found \(pair.value.described)", at: pair.value.position, pointer: pointer)
            return nil
        }
        return elements
    }

    mutating func string(_ pair: YAMLPair, key: String, pointer: String) -> String? {
        string(pair.value, key: key, pointer: pointer)
    }

    mutating func string(_ node: YAMLNode, key: String, pointer: String) -> String? {
        if case .string(let text) = node.scalarValue { return text }
        var message = "'\(key)' must be a string, found \(node.described)"
        if node.scalar != nil, node.scalarValue != .null {
            message += " (quote it to make it a string)"
        }
        report(.schemaWrongType, message, at: node.position, pointer: pointer)
        return nil
    }

    mutating func integer(_ pair: YAMLPair, key: String, pointer: String) -> Int? {
        integer(pair.value, key: key, pointer: pointer)
    }

    mutating func integer(_ node: YAMLNode, key: String, pointer: String) -> Int? {
        switch node.scalarValue {
        case .int(let int):
            return int
        case .largeInteger(let text):
            report(.schemaWrongType, "'\(key)' is \(text), which does not fit a 64-bit integer", at: node.position, pointer: pointer)
        default:
            report(.schemaWrongType, "'\(key)' must be an integer, found \(node.described)\(node.digitSeparatorHint)",
                   at: node.position, pointer: pointer)
        }
        return nil
    }

    mutating func number(_ pair: YAMLPair, key: String, pointer: String) -> Double? {
        switch pair.value.scalarValue {
        case .int(let int):
            let double = Double(int)
            return holds(int, as: double, pair, key: key, pointer: pointer) ? double : nil
        case .float(let double) where double.isFinite:
            return double
        case .largeInteger(let text):
            let double = YAMLScalarValue.doubleValue(ofLargeInteger: text)
            // Past `Int64`, within `UInt64` (a `format: uint64` bound): held exactly, or refused.
            if let exact = YAMLScalarValue.unsignedValue(ofLargeInteger: text), !holds(exact, as: double, pair, key: key, pointer: pointer) {
                return nil
            }
            return double
        default:
            report(.schemaWrongType, "'\(key)' must be a finite number, found \(pair.value.described)\(pair.value.digitSeparatorHint)", at: pair.value.position, pointer: pointer)
            return nil
        }
    }

    /// Whether `double`, the bound held for the whole number `exact` written at `pair`, is
    /// that number; reported when not. A bound is held as a `Double`: one it rounds would be
    /// another bound, which let a value past the written one through (`minimum:
    /// 9007199254740993` took 9007199254740992; `minimum: 9223372036854775809`, a `format:
    /// uint64` bound, took 9223372036854775808) or refused one within it (`minimum:
    /// 9223372036854775807`, read as 2^63, refused a default of 9223372036854775807).
    private mutating func holds<Exact: FixedWidthInteger>(_ exact: Exact, as double: Double, _ pair: YAMLPair, key: String, pointer: String) -> Bool {
        guard Exact(exactly: double) != exact else { return true }
        // Rounded up or down (2^63, which no `Int64` holds, is above every one; 2^64 likewise).
        let roundedUp = Exact(exactly: double).map { $0 > exact } ?? true
        let (below, above) = roundedUp ? (double.nextDown, double) : (double, double.nextUp)
        func text(_ bound: Double) -> String {
            Int64(exactly: bound).map(String.init) ?? UInt64(exactly: bound).map(String.init) ?? String(format: "%.0f", bound)
        }
        report(.schemaInvalidConstraint,
               "'\(key)' is \(exact), which a bound cannot hold: bounds are 64-bit floating-point numbers, which hold every whole number only up to 2^53 in "
               + "magnitude, so it would be \(text(double)); write \(text(below)) or \(text(above))",
               at: pair.value.position, pointer: pointer)
        return false
    }

    mutating func bool(_ pair: YAMLPair, key: String, pointer: String) -> Bool? {
        if case .bool(let bool) = pair.value.scalarValue { return bool }
        report(.schemaWrongType, "'\(key)' must be true or false, found \(pair.value.described)", at: pair.value.position, pointer: pointer)
        return nil
    }

    // MARK: Keys and tags

    /// Reports duplicate mapping keys, keys that are not scalars, and tags outside the core schema,
    /// anywhere in the document.
    mutating func checkKeysAndTags(_ node: YAMLNode, pointer: String) {
        checkTag(node, pointer: pointer)
        switch node.content {
        case .scalar:
            break
        case .sequence(let elements):
            for (index, element) in elements.enumerated() where !isSaturated {
                checkKeysAndTags(element, pointer: JSONPointer.appending(index, to: pointer))
            }
        case .mapping(let pairs):
            var seen: [String: (position: SourcePosition, spelling: String)] = [:]
            for pair in pairs where !isSaturated {
                guard let key = pair.key.scalar?.text else {
                    report(.schemaWrongType, "a mapping key must be a scalar, found \(pair.key.described)", at: pair.key.position, pointer: pointer)
                    continue
                }
                let keyPointer = JSONPointer.appending(key, to: pointer)
                checkTag(pair.key, pointer: keyPointer)
                if let first = seen[key] {
                    var message = "'\(key)' appears twice in this mapping (first at \(first.position))"
                    if !first.spelling.utf8.elementsEqual(key.utf8) {
                        // `café` as é, and as e and a combining accent: one `String` to Swift.
                        message += "; the two are spelled with other code points, but Swift's strings, and so the app's "
                            + "decoder, compare them by Unicode canonical equivalence and read them as one key: use one spelling"
                    }
                    report(.schemaDuplicateName, message, at: pair.key.position, pointer: keyPointer)
                    continue
                }
                seen[key] = (pair.key.position, key)
                checkKeysAndTags(pair.value, pointer: keyPointer)
            }
        }
    }

    private mutating func checkTag(_ node: YAMLNode, pointer: String) {
        guard let tag = node.tag, tag != "!" else { return }
        let core = "tag:yaml.org,2002:"
        let fits: Bool
        switch (tag, node.content) {
        case (core + "seq", .sequence), (core + "map", .mapping), (core + "str", .scalar):
            fits = true
        case (core + "int", .scalar):
            fits = switch node.scalarValue {
            case .int, .largeInteger: true
            default: false
            }
        case (core + "float", .scalar):
            // `!!float 1` resolves to the number 1.0 (`YAMLScalarValue`).
            if case .float = node.scalarValue { fits = true } else { fits = false }
        case (core + "bool", .scalar):
            if case .bool = node.scalarValue { fits = true } else { fits = false }
        case (core + "null", .scalar):
            fits = node.scalarValue == .null
        default:
            report(.schemaWrongType, YAMLNode.unsupportedTag(tag), at: node.position, pointer: pointer)
            return
        }
        if !fits {
            let shown = "!!" + tag.dropFirst(core.count)
            report(.schemaWrongType, "tag \(shown) does not fit \(node.described)", at: node.position, pointer: pointer)
        }
    }
}

/// The keys a schema file allows at each place, in the order messages list them.
enum SchemaKeys {
    static let top = ["activity", "attributes-type", "compatibility", "min-ios", "clients", "versions", "description"]
    /// How a top-level key that the loader passes over starts (`x-common`).
    static let extensionPrefix = "x-"
    static let clients = ["strict"]
    static let version = ["version", "content-state", "attributes", "removed", "min-ios", "retired", "retired-on", "retired-reason", "description"]
    static let field = ["type", "default", "optional", "on-invalid", "on-null"] + Field.Constraint.allCases.map(\.rawValue) + [
        "format", "values", "fallback", "aliases", "deprecated", "description", "truncate", "drop-priority",
        "items", "fields", "keys",
    ]
    /// An array's `items`: no name, so nothing that concerns a key being present or absent.
    static let items = field.filter { !notForItems.contains($0) }
    static let notForItems: Set<String> = ["default", "optional", "on-null", "aliases", "deprecated", "drop-priority"]
}
