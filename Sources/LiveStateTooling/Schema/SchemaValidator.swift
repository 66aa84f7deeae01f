import LiveState

/// The semantic checks of a schema that need no YAML, so a schema built in Swift is checked
/// the same way as one loaded from a file.
///
/// Every diagnostic has severity `.error`, scope `.schema`, the schema's `file`, and a JSON
/// Pointer into the schema document as a schema file would spell it:
/// `/versions/0/content-state/courier/fields/name/default`. Positions come from
/// `Field.position` and `SchemaVersion.position` when the model has them.
public enum SchemaValidator {
    /// Checks a schema's versions, fields, defaults, tombstones and strict clients.
    ///
    /// The checks: version numbers positive and strictly increasing; no field name twice in
    /// one object and none equal to another field's alias; constraints that fit the field's
    /// type and each other; defaults and enum fallbacks that pass `Field.violation(of:)`;
    /// `removed` naming only fields of the previous version that this version dropped; a
    /// removed name never returning with another type in any later version; `strictClients`
    /// naming existing versions.
    /// - Parameter schema: The schema to check.
    /// - Returns: The problems found, in schema order; empty when the schema is valid.
    public static func validate(_ schema: Schema) -> [Diagnostic] {
        var run = ValidationRun(file: schema.file)
        run.checkVersionOrder(schema.versions)
        run.checkDeploymentTarget(schema.minIOS, at: nil, pointer: "/min-ios")
        if let type = schema.attributesType, !SwiftIdentifier.isTypeName(type) {
            run.report(.schemaInvalidName, "attributes-type '\(type)' is not a Swift type name: the app declares its ActivityAttributes type by it, "
                       + "and a start's aps.attributes-type must name it", at: nil, pointer: "/attributes-type")
        }
        if let newest = schema.versions.indices.last, schema.versions[newest].isRetired {
            run.report(.schemaInvalidConstraint, "the newest version, \(schema.versions[newest].version), cannot be retired: the server writes for it",
                       at: schema.versions[newest].position, pointer: "/versions/\(newest)/retired")
        }
        for (index, version) in schema.versions.enumerated() {
            let pointer = "/versions/\(index)"
            if let minIOS = version.minIOS {
                run.checkDeploymentTarget(minIOS, at: version.position, pointer: pointer + "/min-ios")
            }
            run.urls = schema.urlRule(version.version)
            run.checkFields(version.contentState, pointer: pointer + "/content-state", fallbackPosition: version.position, fits: true)
            run.checkFields(version.attributes, pointer: pointer + "/attributes", fallbackPosition: version.position)
        }
        run.checkTombstones(schema.versions)
        let numbers = Set(schema.versions.map(\.version))
        var listed: Set<Int> = []
        for (index, client) in schema.strictClients.enumerated() {
            if !numbers.contains(client) {
                run.report(
                    .schemaInvalidConstraint,
                    "clients.strict names version \(client), which the schema does not declare",
                    at: nil, pointer: "/clients/strict/\(index)")
            } else if !listed.insert(client).inserted {
                run.report(.schemaDuplicateName, "clients.strict lists version \(client) twice", at: nil, pointer: "/clients/strict/\(index)")
            }
        }
        return run.diagnostics
    }
}

/// The state of one `SchemaValidator.validate` call.
private struct ValidationRun {
    let file: String?
    var diagnostics: [Diagnostic] = []
    /// How the version being checked reads `url` values, for its defaults.
    var urls = URLRule()

    init(file: String?) {
        self.file = file
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?, pointer: String) {
        diagnostics.append(Diagnostic(
            code: code, severity: .error, message: message,
            file: file, position: position, scope: .schema, pointer: pointer))
    }

    // MARK: Versions

    mutating func checkDeploymentTarget(_ minIOS: IOSVersion, at position: SourcePosition?, pointer: String) {
        if minIOS < .liveActivities {
            report(.schemaInvalidConstraint, "min-ios \(minIOS) is before iOS \(IOSVersion.liveActivities), the first with Live Activities",
                   at: position, pointer: pointer)
        }
    }

    mutating func checkVersionOrder(_ versions: [SchemaVersion]) {
        var seen: [Int: Int] = [:]
        for (index, version) in versions.enumerated() {
            let pointer = "/versions/\(index)/version"
            if version.version <= 0 {
                report(.schemaVersionOrder, "version \(version.version) is not a positive integer", at: version.position, pointer: pointer)
            } else if seen[version.version] != nil {
                report(.schemaVersionOrder, "version \(version.version) is declared twice", at: version.position, pointer: pointer)
            } else if index > 0, versions[index - 1].version >= version.version {
                report(
                    .schemaVersionOrder,
                    "version \(version.version) follows version \(versions[index - 1].version); versions are listed oldest first, strictly increasing",
                    at: version.position, pointer: pointer)
            }
            if seen[version.version] == nil {
                seen[version.version] = index
            }
        }
    }

    // MARK: Fields

    /// Checks an object's fields; `fits`: a version's top-level content-state, whose fields
    /// `encode --fit` drops (`drop-priority`) and shortens (`truncate`).
    mutating func checkFields(_ fields: [Field], pointer: String, fallbackPosition: SourcePosition?, fits: Bool = false) {
        var names: [String: Int] = [:]
        for (index, field) in fields.enumerated() where names[field.name] == nil {
            names[field.name] = index
        }
        // Each alias and the field that lists it first: looked up, not searched for, so that a
        // long list loads in linear time.
        var aliasOwners: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            let fieldPointer = JSONPointer.appending(field.name, to: pointer)
            let position = field.position ?? fallbackPosition
            if let first = names[field.name], first != index {
                report(.schemaDuplicateName, "field '\(field.name)' is declared twice", at: position, pointer: fieldPointer)
            }
            for (aliasIndex, alias) in field.aliases.enumerated() {
                let aliasPointer = fieldPointer + "/aliases/\(aliasIndex)"
                let owner = aliasOwners[alias]
                if owner == nil { aliasOwners[alias] = index }
                if alias == field.name {
                    report(.schemaDuplicateName, "alias '\(alias)' is the field's own name", at: position, pointer: aliasPointer)
                } else if names[alias] != nil {
                    report(.schemaDuplicateName, "alias '\(alias)' of '\(field.name)' is the name of another field", at: position, pointer: aliasPointer)
                } else if owner == index {
                    report(.schemaDuplicateName, "alias '\(alias)' is listed twice", at: position, pointer: aliasPointer)
                } else if let owner {
                    report(.schemaDuplicateName, "alias '\(alias)' of '\(field.name)' is also an alias of '\(fields[owner].name)'", at: position, pointer: aliasPointer)
                }
            }
            checkField(field, pointer: fieldPointer, position: position, isItems: false, fits: fits)
        }
    }

    mutating func checkField(_ field: Field, pointer: String, position: SourcePosition?, isItems: Bool, fits: Bool = false) {
        let described = isItems ? "items" : "field '\(field.name)'"
        let before = diagnostics.count
        checkConstraints(field, described: described, pointer: pointer, position: position)
        // A default is not held to constraints that are themselves wrong (`max-length: -5`).
        let constraintsHold = diagnostics.count == before
        // `--fit` drops and shortens a version's top-level content-state fields only: elsewhere
        // the keys would promise a size the encoder never reaches.
        for (key, given) in [("truncate", field.truncate), ("drop-priority", field.dropPriority != nil)] where given && !fits {
            report(
                .schemaInvalidConstraint,
                "\(key) applies to a version's top-level content-state fields, which encode --fit \(key == "truncate" ? "shortens" : "drops"); "
                    + "\(described) \(isItems ? "are elements" : pointer.contains("/attributes/") ? "is an attribute" : "is nested")",
                at: position, pointer: pointer + "/" + key)
        }
        if isItems {
            if field.defaultValue != nil {
                report(.schemaInvalidConstraint, "items may not have a default", at: position, pointer: pointer + "/default")
            }
            if field.isOptional {
                report(.schemaInvalidConstraint, "items may not be optional", at: position, pointer: pointer + "/optional")
            }
            if field.nullTakesDefault {
                report(.schemaInvalidConstraint, "items may not have on-null: an array's elements have no default", at: position, pointer: pointer + "/on-null")
            }
        } else if field.nullTakesDefault, field.nullReplacement == nil {
            report(
                .schemaInvalidConstraint, "\(described) has on-null: default but no default for null to take",
                at: position, pointer: pointer + "/on-null")
        } else if field.nullTakesDefault, field.isOptional {
            report(
                .schemaInvalidConstraint,
                "\(described) has on-null: default and optional: true; null takes the default, so the field is never null: leave out optional",
                at: position, pointer: pointer + "/optional")
        } else if field.dropPriority != nil, field.isRequired {
            report(
                .schemaInvalidConstraint,
                "\(described) has a drop-priority but neither a default nor optional: true, so an app cannot decode a payload that omits it",
                at: position, pointer: pointer + "/drop-priority")
        }
        if !isItems, constraintsHold, let defaultValue = field.defaultValue, let problem = field.violation(of: defaultValue, urls: urls) {
            report(
                .schemaInvalidDefault, "default of \(described) is invalid: \(problem)",
                at: position, pointer: pointer + "/default" + Self.nestedPointer(of: problem))
        }
        switch field.type {
        case .enumeration(let values):
            if let fallback = field.fallback, !values.contains(fallback) {
                report(
                    .schemaInvalidDefault,
                    "fallback of \(described) is invalid: \(Field.describe(fallback)) is not one of its values",
                    at: position, pointer: pointer + "/fallback")
            }
        case .array(let items), .map(let items):
            checkField(items, pointer: pointer + "/items", position: items.position ?? position, isItems: true)
        case .object(let fields):
            checkFields(fields, pointer: pointer + "/fields", fallbackPosition: position)
        default:
            break
        }
    }

    mutating func checkConstraints(_ field: Field, described: String, pointer: String, position: SourcePosition?) {
        let type = field.type
        let bounds = field.constraints.bounds
        for (constraint, bound) in bounds {
            let key = constraint.rawValue
            if !constraint.applies(to: type) {
                report(.schemaInvalidConstraint, "\(key) applies to \(constraint.appliesTo), not \(type.name)", at: position, pointer: pointer + "/" + key)
            } else if !bound.isFinite {
                report(.schemaInvalidConstraint, "\(key) of \(described) is not a finite number", at: position, pointer: pointer + "/" + key)
            } else if constraint.measure != .number, bound < 0 {
                report(.schemaInvalidConstraint, "\(key) of \(described) is negative (\(Field.format(bound)))", at: position, pointer: pointer + "/" + key)
            } else if bound.rounded() != bound, constraint.measure != .number || type == .int {
                let why = constraint.measure == .number ? "an int field holds whole numbers" : "it counts \(constraint.measure == .length ? "bytes" : "items")"
                report(.schemaInvalidConstraint, "\(key) of \(described) is \(Field.format(bound)), not a whole number: \(why)",
                       at: position, pointer: pointer + "/" + key)
            }
        }
        // A lower bound above the upper one of the same measure: no value passes.
        for (lower, low) in bounds where lower.isLowerBound {
            for (upper, high) in bounds where !upper.isLowerBound && upper.measure == lower.measure && low > high {
                report(
                    .schemaInvalidConstraint,
                    "\(lower.rawValue) \(Field.format(low)) of \(described) is greater than its \(upper.rawValue) \(Field.format(high))",
                    at: position, pointer: pointer + "/" + lower.rawValue)
            }
        }
        if let format = field.numberFormat, format.isInteger ? type != .int : type != .double {
            report(
                .schemaInvalidConstraint,
                "format \(format.rawValue) applies to \(format.isInteger ? "int" : "double") fields, not \(type.name)",
                at: position, pointer: pointer + "/format")
        }
        if let format = field.stringFormat, type != .string {
            report(
                .schemaInvalidConstraint, "format \(format.rawValue) applies to string fields, not \(type.name)",
                at: position, pointer: pointer + "/format")
        } else if let format = field.stringFormat, !format.admitsSomeLength(field.constraints) {
            let given = field.constraints.bounds.filter { $0.constraint.measure == .length }
                .map { "\($0.constraint.rawValue) \(Field.format($0.bound))" }
            report(
                .schemaInvalidConstraint,
                "\(given.joined(separator: " and ")) of \(described) \(given.count == 1 ? "leaves" : "leave") no \(format.noun): \(format.lengths)",
                at: position, pointer: pointer + "/" + (field.constraints.maxLength != nil ? "max-length" : "min-length"))
        }
        if field.truncate, type != .string {
            report(.schemaInvalidConstraint, "truncate applies to string fields, not \(type.name)", at: position, pointer: pointer + "/truncate")
        } else if field.truncate, let format = field.stringFormat {
            report(
                .schemaInvalidConstraint,
                "truncate applies to plain strings, not format \(format.rawValue): a shortened \(format.swiftName) is no \(format.swiftName)",
                at: position, pointer: pointer + "/truncate")
        }
        if case .enumeration(let values) = type {
            let raw = values.values
            if raw.isEmpty {
                report(.schemaInvalidConstraint, "enum \(described) has no values", at: position, pointer: pointer + "/values")
            }
            var listed = Set<Value>()
            for (index, value) in raw.enumerated() where !listed.insert(value).inserted {
                report(.schemaInvalidConstraint, "enum \(described) lists \(Field.describe(value)) twice", at: position, pointer: pointer + "/values/\(index)")
            }
        } else if field.fallback != nil {
            report(.schemaInvalidConstraint, "fallback applies to enum fields, not \(type.name)", at: position, pointer: pointer + "/fallback")
        }
    }

    /// The pointer a nested `violation(of:)` message starts with (`/courier/name: ...`), or `""`.
    static func nestedPointer(of problem: String) -> String {
        guard problem.hasPrefix("/"), let colon = problem.firstRange(of: ": ") else { return "" }
        return String(problem[..<colon.lowerBound])
    }

    // MARK: Tombstones

    private struct Tombstone {
        var type: FieldType
        var removedIn: Int
    }

    private enum Scope: String, CaseIterable {
        case contentState = "content-state"
        case attributes

        func fields(of version: SchemaVersion) -> [Field] {
            switch self {
            case .contentState: version.contentState
            case .attributes: version.attributes
            }
        }

        /// The fields `version` declares, by name, with their scope: the first of a name,
        /// content-state before attributes.
        static func declared(in version: SchemaVersion) -> [String: (scope: Scope, field: Field)] {
            var fields: [String: (scope: Scope, field: Field)] = [:]
            for scope in allCases {
                for field in scope.fields(of: version) where fields[field.name] == nil { fields[field.name] = (scope, field) }
            }
            return fields
        }
    }

    mutating func checkTombstones(_ versions: [SchemaVersion]) {
        var tombstones: [Scope: [String: Tombstone]] = [:]
        // Looked up, not searched for: a version that removes many names of a previous one that
        // declares many fields is checked in linear time.
        let declared = versions.map(Scope.declared(in:))
        for (index, version) in versions.enumerated() {
            let pointer = "/versions/\(index)"
            for scope in Scope.allCases {
                for field in scope.fields(of: version) {
                    guard let tombstone = tombstones[scope]?[field.name], !tombstone.type.hasSameShape(as: field.type) else {
                        continue
                    }
                    let (old, new) = (TypePromotion.describe(tombstone.type), TypePromotion.describe(field.type))
                    // Two objects (or enums) of other shapes read alike in words: say it is the shape.
                    let returning = old == new ? "as \(new) of another shape (its fields, items or values differ)" : "as \(new)"
                    report(
                        .schemaTombstoneReuse,
                        "'\(field.name)' was removed in version \(tombstone.removedIn) as \(old) and may not return \(returning)",
                        at: field.position ?? version.position,
                        pointer: JSONPointer.appending(field.name, to: pointer + "/" + scope.rawValue))
                }
            }
            var removed = Set<String>()
            for (removedIndex, name) in version.removed.enumerated() {
                let removedPointer = pointer + "/removed/\(removedIndex)"
                if !removed.insert(name).inserted {
                    report(.schemaDuplicateName, "'\(name)' is listed twice in removed", at: version.position, pointer: removedPointer)
                    continue
                }
                if declared[index][name] != nil {
                    report(
                        .schemaRemovedUnknown,
                        "version \(version.version) removes '\(name)' but still declares it",
                        at: version.position, pointer: removedPointer)
                    continue
                }
                guard index > 0 else {
                    report(
                        .schemaRemovedUnknown,
                        "version \(version.version) removes '\(name)', but it is the first version",
                        at: version.position, pointer: removedPointer)
                    continue
                }
                let previous = versions[index - 1]
                guard let (scope, field) = declared[index - 1][name] else {
                    // A tombstone belongs to the version that dropped the field: say which one,
                    // where an earlier version declares it.
                    let lastDeclaring = declared[..<(index - 1)].lastIndex { $0[name] != nil }
                    let hint = lastDeclaring.map { earlier in
                        "; version \(versions[earlier].version) is the last to declare it, so list it in version \(versions[earlier + 1].version)'s removed"
                    } ?? ""
                    report(
                        .schemaRemovedUnknown,
                        "version \(version.version) removes '\(name)', which version \(previous.version) does not declare" + hint,
                        at: version.position, pointer: removedPointer)
                    continue
                }
                tombstones[scope, default: [:]][name] = Tombstone(type: field.type, removedIn: version.version)
            }
        }
    }
}
