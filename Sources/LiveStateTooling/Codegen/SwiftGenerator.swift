import Foundation
import LiveState

/// Writes the Swift source of an app's `ActivityAttributes` type for one schema version: the
/// static attributes, and a nested `ContentState` whose `init(from:)` decodes the way
/// LiveState's `ContentStateDecoder` does, with a stock `JSONDecoder`.
///
/// The output is one file that imports Foundation and `LiveState`, whose `TolerantContainer` and
/// `TolerantValue` apply each field's rules (as generated protobuf code calls SwiftProtobuf), so
/// the checks and their messages are the decoder's own and no copy travels with the file. The
/// `ActivityAttributes` conformance sits in `#if canImport(ActivityKit)`, so the same file builds
/// on Linux as plain `Codable` structs. The same schema and options always give the same bytes.
///
/// ```swift
/// let source = try SwiftGenerator().generate(schema, version: 2)
/// ```
public struct SwiftGenerator: Sendable {
    /// How the generated code is named and exposed.
    public struct Options: Sendable, Hashable {
        /// When set, every generated type is declared inside `enum <namespace> { … }`, so that
        /// files for several versions of one schema can live in one module.
        public var namespace: String?
        /// Whether the types and their members are `public` (for a framework shared by the app
        /// and its widget extension) or internal.
        public var isPublic: Bool
        /// The schema file's name as the header comment shows it; no directories, so the output
        /// does not depend on where the file is.
        public var sourceName: String?

        /// Creates options.
        /// - Parameters:
        ///   - namespace: The enclosing enum's name, if any.
        ///   - isPublic: Whether to declare everything `public`.
        ///   - sourceName: The schema file's name for the header comment.
        public init(namespace: String? = nil, isPublic: Bool = false, sourceName: String? = nil) {
            self.namespace = namespace
            self.isPublic = isPublic
            self.sourceName = sourceName
        }
    }

    /// How the code is named and exposed.
    public var options: Options

    /// Creates a generator.
    /// - Parameter options: Naming and access.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// Generates the Swift file for one version of a schema.
    /// - Parameters:
    ///   - schema: A schema that passes `SchemaValidator`.
    ///   - version: The app version; `nil` is the newest.
    /// - Returns: The source text, ending with a newline.
    /// - Throws: `CodegenError` for an unknown version, an invalid schema, a type name that is
    ///   not a Swift identifier, or a `url` default Foundation cannot parse.
    public func generate(_ schema: Schema, version: Int? = nil) throws(CodegenError) -> String {
        let number = version ?? schema.latest?.version ?? 0
        guard let found = schema.version(number) else { throw CodegenError.unknownVersion(number, in: schema) }
        let problems = SchemaValidator.validate(schema).filter { $0.severity == .error }
        if !problems.isEmpty {
            throw CodegenError(
                code: .invalidSchema, message: "the schema has \(problems.count) error(s); fix them before generating code",
                diagnostics: problems)
        }
        let typeName = schema.attributesType ?? SwiftIdentifier.type(schema.activity) + "Attributes"
        guard SwiftIdentifier.isTypeName(typeName), !SwiftTypePlan.reservedTypeNames.contains(typeName) else {
            throw CodegenError(
                code: .invalidTypeName, message: "attributes-type '\(typeName)' is not a Swift type name this generator can use",
                pointer: "/attributes-type")
        }
        if let namespace = options.namespace {
            guard SwiftIdentifier.isTypeName(namespace), namespace != typeName,
                  !SwiftTypePlan.reservedTypeNames.contains(namespace)
            else {
                throw CodegenError(code: .invalidTypeName, message: "namespace '\(namespace)' is not a Swift type name this generator can use")
            }
        }
        var outer: Set<String> = [typeName]
        if let namespace = options.namespace { outer.insert(namespace) }
        var attributes = SwiftTypePlan.structure(
            named: typeName, fields: found.attributes,
            documentation: [
                "The static attributes of the `\(schema.activity)` Live Activity, as app version \(found.version) declares them.",
            ],
            outerNames: outer.subtracting([typeName]))
        let contentState = SwiftTypePlan.structure(
            named: "ContentState", fields: found.contentState,
            documentation: contentStateDocumentation(version: found.version, strict: schema.isStrict(found.version)),
            outerNames: outer)
        attributes.nested.insert(.structure(contentState), at: 0)

        var writer = SwiftSourceWriter()
        writeHeader(&writer, schema: schema, version: found.version)
        if let namespace = options.namespace {
            writer.doc(["The types generated for app version \(found.version) of `\(schema.activity)`."])
            try writer.block("\(access)enum \(namespace)") { writer throws(CodegenError) in
                try writeStructure(attributes, into: &writer)
            }
        } else {
            try writeStructure(attributes, into: &writer)
        }
        let qualified = options.namespace.map { "\($0).\(typeName)" } ?? typeName
        writer.line()
        writer.line("#if canImport(ActivityKit)")
        writer.line("import ActivityKit")
        writer.line()
        writer.line("extension \(qualified): ActivityAttributes {}")
        writer.line("#endif")
        return writer.text
    }

    private var access: String { options.isPublic ? "public " : "" }

    private func writeHeader(_ writer: inout SwiftSourceWriter, schema: Schema, version: Int) {
        let source = options.sourceName ?? "the \(schema.activity) schema"
        writer.comment([
            "Generated by `livestate codegen swift` from \(source), version \(version). Do not edit;",
            "regenerate it when the schema changes.",
            "",
            "The ActivityAttributes conformance is compiled only where ActivityKit exists, so this file",
            "also builds on Linux as plain Codable structs.",
        ])
        writer.line()
        writer.line("import Foundation")
        writer.line("import LiveState")
        writer.line()
    }

    private func contentStateDocumentation(version: Int, strict: Bool) -> [String] {
        var lines = [
            "The content-state of app version \(version).",
            "",
            "`init(from:)` decodes tolerantly, as LiveState's `ContentStateDecoder` does for version \(version):",
            "a missing key takes the field's default (`nil` for an optional field), unknown keys are",
            "ignored, an unknown enum value takes the enum's fallback, and a wrong type or a value out",
            "of range takes the default, unless the field has `on-invalid: reject` or no default: then",
            "the decode fails, and for a nested object the field that holds it decides.",
        ]
        if strict {
            lines += [
                "",
                "The schema lists version \(version) under `clients.strict`: the app that shipped it decoded",
                "with synthesized `Codable`. This type is the tolerant replacement.",
            ]
        }
        return lines
    }

    // MARK: - Structs

    private func writeStructure(_ plan: SwiftTypePlan.Structure, into writer: inout SwiftSourceWriter) throws(CodegenError) {
        writer.doc(plan.documentation)
        try writer.block("\(access)struct \(plan.name): Codable, Hashable, Sendable") { writer throws(CodegenError) in
            for property in plan.properties {
                writer.doc(SwiftTypePlan.documentation(of: property.field) + [""] + [summary(of: property.field)])
                writer.line("\(access)var \(SwiftIdentifier.escaped(property.name)): \(propertyType(property))")
            }
            if !plan.properties.isEmpty { writer.line() }
            try writeMemberwiseInit(plan, into: &writer)
            for nested in plan.nested {
                writer.line()
                switch nested {
                case .structure(let structure): try writeStructure(structure, into: &writer)
                case .enumeration(let enumeration): writeEnumeration(enumeration, into: &writer)
                }
            }
            writer.line()
            writeCodingKeys(plan, into: &writer)
            writer.line()
            try writeDecoding(plan, into: &writer)
            writer.line()
            writeEncoding(plan, into: &writer)
        }
    }

    private func propertyType(_ property: SwiftTypePlan.Property) -> String {
        property.type.source + (property.field.isOptional ? "?" : "")
    }

    private func writeMemberwiseInit(_ plan: SwiftTypePlan.Structure, into writer: inout SwiftSourceWriter) throws(CodegenError) {
        if plan.properties.isEmpty {
            writer.line("/// Creates a value.")
            writer.line("\(access)init() {}")
            return
        }
        var parameters: [String] = []
        for property in plan.properties {
            var parameter = "\(SwiftIdentifier.escaped(property.name)): \(propertyType(property))"
            if let missing = property.field.missingValue {
                parameter += " = " + (try literal(missing, of: property.type, field: property.field))
            }
            parameters.append(parameter)
        }
        let hasDefaults = plan.properties.contains { $0.field.missingValue != nil }
        writer.line(hasDefaults ? "/// Creates a value; an argument left out takes the schema's default." : "/// Creates a value.")
        writer.line("\(access)init(")
        writer.indent += 1
        for (index, parameter) in parameters.enumerated() {
            writer.line(parameter + (index < parameters.count - 1 ? "," : ""))
        }
        writer.indent -= 1
        writer.block(")") { writer in
            for property in plan.properties {
                let name = SwiftIdentifier.escaped(property.name)
                writer.line("self.\(name) = \(name)")
            }
        }
    }

    private func writeCodingKeys(_ plan: SwiftTypePlan.Structure, into writer: inout SwiftSourceWriter) {
        if plan.properties.isEmpty {
            writer.line("enum CodingKeys: CodingKey {}")
            return
        }
        writer.block("enum CodingKeys: String, CodingKey") { writer in
            for property in plan.properties {
                writer.line(caseDeclaration(property.name, key: property.field.name))
            }
            for alias in plan.aliasCases {
                writer.line("/// An older name of `\(alias.of)`, read when `\(alias.of)`'s own key is missing.")
                writer.line(caseDeclaration(alias.name, key: alias.key))
            }
        }
    }

    private func caseDeclaration(_ name: String, key: String) -> String {
        let escaped = SwiftIdentifier.escaped(name)
        return name == key ? "case \(escaped)" : "case \(escaped) = \(SwiftLiteral.string(key))"
    }

    private func writeDecoding(_ plan: SwiftTypePlan.Structure, into writer: inout SwiftSourceWriter) throws(CodegenError) {
        writer.line("/// Decodes tolerantly: a missing key takes its default, and an invalid value its default")
        writer.line("/// unless the field rejects invalid values or has none.")
        try writer.block("\(access)init(from decoder: any Decoder) throws") { writer throws(CodegenError) in
            if plan.properties.isEmpty {
                writer.line("_ = try decoder.container(keyedBy: CodingKeys.self)")
                return
            }
            writer.line("let container = try TolerantContainer(decoder, keyedBy: CodingKeys.self)")
            for property in plan.properties {
                writer.line("self.\(SwiftIdentifier.escaped(property.name)) = \(try decodeExpression(property))")
            }
        }
    }

    private func writeEncoding(_ plan: SwiftTypePlan.Structure, into writer: inout SwiftSourceWriter) {
        let writesNull = plan.properties.contains { $0.field.isOptional && !($0.field.defaultValue?.isNull ?? true) }
        if writesNull {
            writer.line("/// Encodes every property under its key, in schema order, as synthesized `Codable` does,")
            writer.line("/// except that an optional field with a default writes `nil` as `null`.")
        } else {
            writer.line("/// Encodes every property under its key, in schema order, as synthesized `Codable` does.")
        }
        writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
            if plan.properties.isEmpty {
                writer.line("_ = encoder.container(keyedBy: CodingKeys.self)")
                return
            }
            writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            for property in plan.properties {
                let name = SwiftIdentifier.escaped(property.name)
                // An optional field with a default writes nil as null: left out, it would read back
                // as the default.
                let omitsNil = property.field.isOptional && (property.field.defaultValue?.isNull ?? true)
                let method = omitsNil ? "encodeIfPresent" : "encode"
                writer.line("try container.\(method)(self.\(name), forKey: .\(name))")
            }
        }
    }

    /// `try container.defaulted(.logo, default: "") { try $0.string(maxLength: 32) }`.
    private func decodeExpression(_ property: SwiftTypePlan.Property) throws(CodegenError) -> String {
        let field = property.field
        var arguments = [".\(SwiftIdentifier.escaped(property.name))"]
        if !property.aliasCases.isEmpty {
            arguments.append("aliases: [" + property.aliasCases.map { ".\(SwiftIdentifier.escaped($0))" }.joined(separator: ", ") + "]")
        }
        let method: String
        if field.isOptional {
            method = "optional"
            if let defaultValue = field.defaultValue, !defaultValue.isNull {
                arguments.append("default: " + (try literal(defaultValue, of: property.type, field: field)))
            }
            if field.rejectsInvalid { arguments.append("rejectsInvalid: true") }
        } else if let defaultValue = field.defaultValue {
            method = "defaulted"
            arguments.append("default: " + (try literal(defaultValue, of: property.type, field: field)))
            if field.rejectsInvalid { arguments.append("rejectsInvalid: true") }
            if field.nullReplacement != nil { arguments.append("nullTakesDefault: true") }
        } else {
            method = "required"
        }
        let read = readExpression(property.type, field: field)
        return "try container.\(method)(\(arguments.joined(separator: ", "))) { try \(read) }"
    }

    /// How one value of a field's type is read from `$0`, a `TolerantValue`: the field's
    /// constraints go to the runtime as its arguments, `minimum: 0, maximum: 99`.
    private func readExpression(_ type: SwiftTypePlan.TypeReference, field: Field) -> String {
        let bounds = Self.bounds(of: field).map { constraint, bound in
            // Lengths and counts are `Int` arguments; a bound past `Int.max` is held as `Int.max`.
            let literal = constraint.measure == .number ? SwiftLiteral.number(bound) : SwiftLiteral.integer(Int(exactly: bound) ?? .max)
            return "\(constraint.swiftName): \(literal)"
        }
        let constraints = bounds.joined(separator: ", ")
        switch type {
        case .string: return "$0.string(\(constraints))"
        case .url: return "$0.url(\(constraints))"
        case .formatted(.uuid): return "$0.uuid(\(constraints))"
        case .formatted(.base64): return "$0.data(\(constraints))"
        case .int(nil): return "$0.int(\(constraints))"
        case .int(let format?): return "$0.integer(\(format.swiftName).self\(constraints.isEmpty ? "" : ", " + constraints))"
        case .double(.float?): return "$0.float(\(constraints))"
        case .double(.decimal?): return "$0.decimal(\(constraints))"
        case .double: return "$0.double(\(constraints))"
        case .date: return "$0.date(\(constraints))"
        case .dateRange: return "$0.dateRange(\(constraints))"
        case .bool: return "$0.bool()"
        case .enumeration(let plan): return "$0.decode(\(plan.name).self)"
        case .structure(let plan): return "$0.decode(\(plan.name).self)"
        case .array(let element, let items):
            let head = bounds.isEmpty ? "$0.array" : "$0.array(\(constraints))"
            return "\(head) { try \(readExpression(element, field: items)) }"
        case .map(let element, let items, let integerKeys):
            let name = integerKeys ? "$0.integerKeyedMap" : "$0.map"
            let head = bounds.isEmpty ? name : "\(name)(\(constraints))"
            return "\(head) { try \(readExpression(element, field: items)) }"
        }
    }

    /// `max-length 32 (UTF-8 bytes)`, `minimum 0`: each constraint as the schema file names it.
    private func describe(_ field: Field, prefix: String = "") -> [String] {
        Self.bounds(of: field).map { constraint, bound in
            prefix + "\(constraint.rawValue) \(SwiftLiteral.number(bound))" + (constraint.measure == .length ? " (UTF-8 bytes)" : "")
        }
    }

    /// The field's constraints but the `minimum` and `maximum` of its `format` (the loader's
    /// narrowing), which the generated property's number type holds already.
    private static func bounds(of field: Field) -> [(constraint: Field.Constraint, bound: Double)] {
        guard let range = field.numberFormat?.range else { return field.constraints.bounds }
        return field.constraints.bounds.filter { constraint, bound in
            !(constraint == .minimum && bound == range.lowerBound || constraint == .maximum && bound == range.upperBound)
        }
    }

    /// One line that states the field's schema: `string`, default `""`, max-length 32 (UTF-8 bytes).
    private func summary(of field: Field) -> String {
        var parts = ["`\(field.type.name)`"]
        if field.isRequired { parts.append("required") }
        if field.isOptional { parts.append("optional") }
        if let defaultValue = field.defaultValue { parts.append("default `\(ValueText.render(defaultValue))`") }
        if let format = field.formatName { parts.append("format `\(format)`") }
        parts += describe(field)
        switch field.type {
        case .array(let items), .map(let items):
            if let format = items.formatName { parts.append("items format `\(format)`") }
            parts += describe(items, prefix: "items ")
        default:
            break
        }
        if let fallback = field.fallback { parts.append("fallback `\(ValueText.render(fallback))`") }
        if !field.aliases.isEmpty { parts.append("aliases " + field.aliases.map { "`\($0)`" }.joined(separator: ", ")) }
        if field.rejectsInvalid { parts.append("on-invalid: reject") }
        if field.nullTakesDefault { parts.append("on-null: default") }
        if field.isDeprecated { parts.append("deprecated") }
        if field.truncate { parts.append("truncate") }
        if let dropPriority = field.dropPriority { parts.append("drop-priority \(dropPriority)") }
        return "Schema: " + parts.joined(separator: ", ") + "."
    }

    // MARK: - Enums

    private func writeEnumeration(_ plan: SwiftTypePlan.Enumeration, into writer: inout SwiftSourceWriter) {
        writer.doc(plan.documentation)
        let raw = plan.isInteger ? "Int" : "String"
        writer.block("\(access)enum \(plan.name): \(raw), Codable, Hashable, Sendable, CaseIterable") { writer in
            for (name, value) in plan.cases {
                let escaped = SwiftIdentifier.escaped(name)
                switch value {
                case .string(let string) where string == name: writer.line("case \(escaped)")
                case .string(let string): writer.line("case \(escaped) = \(SwiftLiteral.string(string))")
                case .int(let int): writer.line("case \(escaped) = \(SwiftLiteral.integer(int))")
                default: break
                }
            }
            writer.line()
            if let fallback = plan.fallback {
                writer.line("/// Decodes a raw value, compared as Swift compares strings; one the schema does not list becomes")
                writer.line("/// `.\(fallback)`, the fallback.")
            } else {
                writer.line("/// Decodes a raw value, compared as Swift compares strings; one the schema does not list fails")
                writer.line("/// the decode.")
            }
            writer.block("\(access)init(from decoder: any Decoder) throws") { writer in
                let fallback = plan.fallback.map { SwiftIdentifier.caseReference($0, type: "Self") } ?? "nil"
                writer.line("self = try TolerantValue(decoder).enumeration(fallback: \(fallback))")
            }
        }
    }

    // MARK: - Literals

    /// A value as a Swift expression of the field's type: `""`, `.pending`, `Courier(name: "", rating: 0)`.
    ///
    /// `qualifier` is the path from the scope the literal is written in to the struct that holds
    /// the field (`Nested.`), so that types nested deeper are named from where the literal is.
    private func literal(
        _ value: Value, of type: SwiftTypePlan.TypeReference, field: Field, qualifier: String = ""
    ) throws(CodegenError) -> String {
        if value.isNull { return "nil" }
        switch (type, value) {
        case (.string, .string(let string)):
            return SwiftLiteral.string(string)
        case (.url, .string(let string)):
            guard URL(string: string) != nil else {
                throw CodegenError(
                    code: .unparsableURLDefault,
                    message: "the default '\(string)' of url field '\(field.name)' is not a URL to Foundation's URL(string:)")
            }
            return "URL(string: \(SwiftLiteral.string(string)))!"
        case (.formatted(let format), .string(let string)):
            // The schema validator has checked the default against the format.
            return format == .uuid
                ? "UUID(uuidString: \(SwiftLiteral.string(string)))!" : "Data(base64Encoded: \(SwiftLiteral.string(string)))!"
        case (.int, .int(let int)):
            return SwiftLiteral.integer(int)
        case (.int, .uint(let uint)):
            return String(uint)
        case (.double(.decimal?), _):
            // A `Decimal` from a `Double` literal is the double's binary value (123.456 became
            // 123.45599999999997952): it is made from the number's text, as JSONDecoder makes one.
            if let number = value.number { return "Decimal(string: \(SwiftLiteral.string(SwiftLiteral.number(number))), locale: Locale(identifier: \"en_US_POSIX\"))!" }
        case (.double, _):
            if let number = value.number { return SwiftLiteral.number(number) }
        case (.date, _):
            if let seconds = value.number { return SwiftLiteral.date(seconds) }
        case (.dateRange, .dateRange(let lower, let upper)):
            return "\(SwiftLiteral.date(lower))...\(SwiftLiteral.date(upper))"
        case (.bool, .bool(let bool)):
            return bool ? "true" : "false"
        case (.enumeration(let plan), _):
            if let match = plan.cases.first(where: { $0.raw == value }) {
                return SwiftIdentifier.caseReference(match.name, type: qualifier + plan.name)
            }
        case (.structure(let plan), .object(let members)):
            var arguments: [String] = []
            for property in plan.properties {
                let member = members.first(where: { $0.name == property.field.name })?.value ?? property.field.missingValue ?? .null
                let argument = try literal(member, of: property.type, field: property.field, qualifier: qualifier + plan.name + ".")
                arguments.append("\(SwiftIdentifier.escaped(property.name)): \(argument)")
            }
            return "\(qualifier)\(plan.name)(\(arguments.joined(separator: ", ")))"
        case (.array(let element, let items), .array(let elements)):
            var parts: [String] = []
            for item in elements { parts.append(try literal(item, of: element, field: items, qualifier: qualifier)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case (.map(let element, let items, let integerKeys), .object(let members)):
            var parts: [String] = []
            var integers = Set<Int>()
            for member in members {
                // An `Int` key as the app's dictionary holds it (`02` is 2); a second key of one
                // integer is left out, as a dictionary literal that repeats a key traps.
                let key: String
                if integerKeys, let integer = Int(member.name) {
                    guard integers.insert(integer).inserted else { continue }
                    key = String(integer)
                } else {
                    key = SwiftLiteral.string(member.name)
                }
                parts.append(key + ": " + (try literal(member.value, of: element, field: items, qualifier: qualifier)))
            }
            return parts.isEmpty ? "[:]" : "[" + parts.joined(separator: ", ") + "]"
        default:
            break
        }
        throw CodegenError(
            code: .invalidSchema,
            message: "the default \(ValueText.render(value)) of field '\(field.name)' does not fit its type \(field.type.name)")
    }
}
