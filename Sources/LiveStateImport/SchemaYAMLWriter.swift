import LiveState
import LiveStateTooling

/// Writes imported versions as schema YAML, in the bundled schemas' style: one flow mapping per
/// field, objects in block style.
public enum SchemaYAMLWriter {
    /// A whole schema file holding one version: a strict client when the app decodes it with
    /// synthesized `Codable` (`SwiftImporter.Activity.isSynthesized`).
    /// - Parameters:
    ///   - id: The schema id.
    ///   - imported: The imported activity.
    ///   - source: Where it was imported from, for the description.
    public static func schema(activity id: String, _ imported: SwiftImporter.Activity, source: String) -> String {
        """
        # Imported by `livestate import swift` from \(source): what the shipped app's
        # \(imported.isSynthesized ? "synthesized Codable" : "Codable (\(decoding(imported)))") accepts. Review every field marked needs-review before you trust a verdict.
        activity: \(key(id))
        attributes-type: \(key(imported.attributesType))
        compatibility: forward-transitive
        min-ios: "\(imported.minIOS ?? .liveActivities)"
        \(imported.isSynthesized ? "clients:\n  strict: [1]\n" : "")versions:
        \(version(1, imported, source: source, statesMinIOS: false))
        """
    }

    /// One version entry of the `versions:` sequence, indented as a schema file has it, with its
    /// own `min-ios` where the activity's types say one (`statesMinIOS`: not for a new file, whose
    /// top level says it).
    public static func version(_ number: Int, _ activity: SwiftImporter.Activity, source: String, statesMinIOS: Bool = true) -> String {
        var lines = ["  - version: \(number)", "    description: \(yamlScalar("Imported from \(source); decoded with \(decoding(activity))."))"]
        if statesMinIOS, let minIOS = activity.minIOS { lines.append("    min-ios: \"\(minIOS)\"") }
        lines += object("content-state", activity.contentState, indent: 4)
        if !activity.attributes.isEmpty { lines += object("attributes", activity.attributes, indent: 4) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How the app decodes the imported types, as the header and the description say it.
    static func decoding(_ activity: SwiftImporter.Activity) -> String {
        if activity.hasUnreadInitializer {
            return "an init(from:) of its own that the import could not read; its fields are the declaration's, as synthesized Codable reads them"
        }
        return activity.isSynthesized ? "synthesized Codable" : "an init(from:) of its own where it has one, synthesized Codable elsewhere"
    }

    static func object(_ name: String, _ fields: [Field], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        guard !fields.isEmpty else { return ["\(pad)\(key(name)): {}"] }
        var lines = ["\(pad)\(key(name)):"]
        for field in fields { lines += self.field(field, indent: indent + 2) }
        return lines
    }

    static func field(_ field: Field, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let name = key(field.name)
        // YAML reads a key of more than 1,024 characters only as an explicit key: `? key`, then
        // `: value` on the next line.
        let isLong = name.utf8.count > implicitKeyLimit
        if case .object(let fields) = field.type {
            var lines = isLong ? ["\(pad)? \(name)", "\(pad):", "\(pad)  type: object"] : ["\(pad)\(name):", "\(pad)  type: object"]
            if field.isOptional { lines.append("\(pad)  optional: true") }
            if let value = field.defaultValue { lines.append("\(pad)  default: \(yaml(value))") }
            if field.rejectsInvalid { lines.append("\(pad)  on-invalid: reject") }
            if field.nullTakesDefault { lines.append("\(pad)  on-null: default") }
            if let documentation = field.documentation { lines.append("\(pad)  description: \(yamlScalar(documentation))") }
            lines += object("fields", fields, indent: indent + 2)
            return lines
        }
        return isLong ? ["\(pad)? \(name)", "\(pad): \(flow(field))"] : ["\(pad)\(name): \(flow(field))"]
    }

    /// The longest key YAML reads as an implicit key (`key: value`): 1,024 characters, counted
    /// here in bytes, so that a key of combining marks or emoji is never past the reader's count.
    static let implicitKeyLimit = 1024

    /// A member of a flow mapping: `key: value`, or `? key : value` for a key past
    /// `implicitKeyLimit`.
    static func flowMember(_ field: Field) -> String {
        let name = key(field.name)
        return name.utf8.count > implicitKeyLimit ? "? \(name) : \(flow(field))" : "\(name): \(flow(field))"
    }

    /// `{ type: string, optional: true }`.
    static func flow(_ field: Field) -> String {
        var parts: [String] = []
        switch field.type {
        case .enumeration(.strings(let values)):
            parts += ["type: enum", "values: [\(values.map(yamlScalar).joined(separator: ", "))]"]
        case .enumeration(.integers(let values)):
            parts += ["type: enum", "values: [\(values.map(String.init).joined(separator: ", "))]"]
        case .array(let items), .map(let items):
            parts += ["type: \(field.type.name)"] + (field.hasIntegerKeys ? ["keys: int"] : []) + ["items: \(flow(items))"]
        case .object(let fields):
            // Objects inside arrays: a flow mapping of flow mappings.
            parts += ["type: object", "fields: {\(fields.map(flowMember).joined(separator: ", "))}"]
        default:
            parts.append("type: \(field.type.name)")
        }
        if field.isOptional { parts.append("optional: true") }
        if let value = field.defaultValue { parts.append("default: \(yaml(value))") }
        if field.rejectsInvalid { parts.append("on-invalid: reject") }
        if field.nullTakesDefault { parts.append("on-null: default") }
        if let fallback = field.fallback { parts.append("fallback: \(yaml(fallback))") }
        // A format states its range; minimum and maximum only where they are narrower.
        let range = field.numberFormat?.range
        if let format = field.formatName { parts.append("format: \(format)") }
        for (constraint, bound) in field.constraints.bounds {
            // A bound at the format's own edge is the format's, and goes unwritten.
            if constraint.measure == .number, bound == (constraint.isLowerBound ? range?.lowerBound : range?.upperBound) { continue }
            parts.append("\(constraint.rawValue): \(number(bound))")
        }
        if let documentation = field.documentation { parts.append("description: \(yamlScalar(documentation))") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// A value as a YAML flow node: strings quoted, numbers as `number` writes them.
    static func yaml(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .uint(let uint): String(uint)
        case .double(let double), .date(let double): number(double)
        case .dateRange(let lower, let upper): "[\(number(lower)), \(number(upper))]"
        case .string(let string): yamlScalar(string)
        case .array(let elements): "[" + elements.map(yaml).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\(key($0.name)): \(yaml($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// `64`, not `64.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A key as YAML writes it: plain when it is a plain identifier, quoted otherwise.
    static func key(_ name: String) -> String {
        let plain = !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        } && !(0x30...0x39).contains(name.utf8.first!) && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"].contains(name.lowercased())
        return plain ? name : yamlScalar(name)
    }
}
