import Foundation
import LiveStateTestSupport
import Testing
@_spi(Scanner) @testable import LiveState
import LiveStateTooling

/// The encoder writes a value as it checks it, in one walk (`FieldPlan.walk`), the same
/// walk `Field.violation(of:)` checks by and the encoder's long way completes values by. What
/// that walk writes must be what the plain writer writes for the value completed (as
/// `completed(_:_:)` below, written apart from the walk, completes it), what it makes as a
/// `Value` must be that completed value, and it must refuse exactly what `violation(of:)`
/// refuses.
@Suite struct ValueCheckAgreementTests {
    /// What the encoder's walk writes for `value`, or `nil` when it refuses it.
    static func walkWrites(_ value: Value, _ field: Field) -> [UInt8]? {
        let plan = FieldPlan(field, urls: URLRule())
        let (bytes, accepted) = withUnsafePointer(to: value) { pointer in
            StateWriter.writingArray(capacity: 64) { (try? plan.walk(pointer, into: &$0)) != nil }
        }
        return accepted ? bytes : nil
    }

    /// Each object in `value`, at any depth, with every field of its schema: the members given
    /// in their order, then each missing field with its missing value. The rule the walk
    /// follows, written again here, on its own, to check it by.
    static func completed(_ value: Value, _ field: Field) -> Value {
        switch (field.type, value) {
        case (.array(let items), .array(let elements)):
            return .array(elements.map { completed($0, items) })
        case (.object(let fields), .object(let members)):
            var result = members.map { member in
                guard let field = fields.first(where: { $0.name == member.name }) else { return member }
                return Value.Member(member.name, completed(member.value, field))
            }
            for field in fields where !members.contains(where: { $0.name == field.name }) {
                if let missing = field.missingValue { result.append(.init(field.name, completed(missing, field))) }
            }
            return .object(result)
        default:
            return value
        }
    }

    /// Values for `field`: of its type at and around each bound, of other types, `null`, and
    /// containers with elements and members that break their own rules.
    static func values(for field: Field, random: inout SplitMix64, depth: Int = 0) -> [Value] {
        var values: [Value] = [.null, .bool(true), .int(0), .double(0.5), .string(""), .date(1), .dateRange(lower: 2, upper: 1), .array([]), .object([])]
        let bounds = [field.constraints.minimum, field.constraints.maximum].compactMap { $0 }
        for bound in bounds {
            values += [bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1].flatMap { number -> [Value] in
                [.double(number), .date(number)] + (number.rounded() == number ? [.int(Int(number))] : [])
            }
        }
        values += [.double(.nan), .double(.infinity), .double(-0.0), .int(.max), .int(.min)]
        for length in [field.constraints.minLength, field.constraints.maxLength].compactMap({ $0 }) {
            values += [max(0, length - 1), length, length + 1].map { .string(String(repeating: "a", count: $0)) }
            values.append(.string(String(repeating: "é", count: length / 2 + 1)))
        }
        values += [.string("https://example.com/a b"), .string("https://example.com/x"), .string("not a url"), .string("/")]
        values += [.string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .string("e621e1f8-c36c-495a-93fc-0c247a3e6e5"), .string("aGk="), .string("aGk")]
        switch field.type {
        case .enumeration(let allowed):
            values += allowed.values
            values += [.string("lost"), .int(99), .string("cafe\u{301}")]
        case .dateRange:
            values += [.dateRange(lower: 1, upper: 2), .dateRange(lower: .nan, upper: 2), .array([.double(1), .double(2)])]
        case .array(let items) where depth < 2:
            let elements = Self.values(for: items, random: &random, depth: depth + 1)
            let counts = [0, 1, 2] + [field.constraints.maxItems].compactMap { $0 }.flatMap { [$0, $0 + 1] }
            for count in counts {
                values.append(.array((0..<count).map { _ in elements[Int(random.next() % UInt64(elements.count))] }))
            }
        case .object(let fields) where depth < 2:
            let valid = fields.compactMap { field in field.missingValue.map { Value.Member(field.name, $0) } }
            values += [.object(valid), .object(valid + [.init("extra", .int(1))])]
            if let first = valid.first { values.append(.object(valid + [first])) }
            for nested in fields {
                for value in Self.values(for: nested, random: &random, depth: depth + 1) {
                    values.append(.object(valid.filter { $0.name != nested.name } + [.init(nested.name, value)]))
                }
            }
        default:
            break
        }
        return values
    }

    static let fields: [Field] = encodingSchema.versions.flatMap(\.contentState) + [
        Field(name: "bounded", type: .string, constraints: .init(minLength: 2, maxLength: 4)),
        Field(name: "link", type: .url, constraints: .init(minLength: 20, maxLength: 30)),
        Field(name: "slot", type: .int, isOptional: true, constraints: .init(minimum: -2, maximum: 2)),
        Field(name: "window", type: .dateRange, constraints: .init(minimum: 0, maximum: 10)),
        Field(name: "tags", type: .array(items: Field(name: "", type: .enumeration(.integers([1, 2])))), constraints: .init(maxItems: 2)),
        formatted("ticket", .uuid), formatted("code", .base64, constraints: .init(maxLength: 4)),
        Field(name: "companions", type: .array(items: formatted("", .uuid)), constraints: .init(maxItems: 2)),
    ]

    static func formatted(_ name: String, _ format: Field.StringFormat, constraints: Field.Constraints = .init()) -> Field {
        var field = Field(name: name, type: .string, constraints: constraints)
        field.stringFormat = format
        return field
    }

    @Test func theEncoderWritesWhatViolationAcceptsAndNothingElse() {
        var random = SplitMix64(state: 0x5EED)
        var checked = 0
        var accepted = 0
        for field in Self.fields {
            for value in Self.values(for: field, random: &random) {
                checked += 1
                let problem = field.violation(of: value)
                let written = Self.walkWrites(value, field)
                #expect((written == nil) == (problem != nil), "\(field.name): \(value): written \(written != nil), violation \(problem ?? "none")")
                guard let written else { continue }
                let expected = Self.completed(value, field)
                var plain = JSONWriter()
                plain.write(expected)
                #expect(written == plain.bytes, "\(field.name): \(value) is written \(String(decoding: written, as: UTF8.self)), not \(String(decoding: plain.bytes, as: UTF8.self))")
                var builder = ValueBuilder()
                let made = try? FieldPlan(field, urls: URLRule()).completed(value, into: &builder)
                #expect(made == expected, "\(field.name): \(value) is made \(String(describing: made)), not \(expected)")
                accepted += 1
            }
        }
        // Both outcomes were met: the test says something about each.
        #expect(checked > 500 && accepted > 80, "\(checked) values, \(accepted) taken")
    }

    /// What the encoder writes, the app decodes as written: for every value `violation(of:)`
    /// accepts, the encoder's bytes decode to the same value with no warning or error, for a
    /// tolerant and a strict app version alike.
    @Test func whatTheEncoderWritesDecodesAsWritten() throws {
        var random = SplitMix64(state: 0x5EED)
        var written = 0
        for field in Self.fields where !field.name.isEmpty {
            var required = field
            required.defaultValue = nil
            let schema = Schema(activity: "agree", strictClients: [2], versions: [
                SchemaVersion(version: 1, contentState: [field]),
                SchemaVersion(version: 2, contentState: [field]),
            ])
            let encoder = try ContentStateEncoder(schema: schema, version: 1)
            for value in Self.values(for: field, random: &random) where field.violation(of: value) == nil {
                let encoded = encoder.encode(.object([.init(field.name, value)]))
                guard encoded.succeeded else { continue }
                written += 1
                // Its budget, as the encoder measures it, is the validator's.
                let payload = encoder.encodePayload(.object([.init(field.name, value)]), envelope: .init(event: .update, timestamp: 1_795_000_000))
                let validated = try PayloadValidator(schema: schema, version: 1).validate(payload.bytes).budget
                #expect(payload.budget?.deviceWorstCase == validated.deviceWorstCase, "\(field.name): \(value)")
                #expect(payload.budget?.contentState == validated.contentState, "\(field.name): \(value)")
                for version in [1, 2] {
                    let decoded = try ContentStateDecoder(schema: schema, version: version).decode(contentState: encoded.bytes)
                    let text = String(decoding: encoded.bytes, as: UTF8.self)
                    #expect(decoded.appDecodes, "v\(version) \(field.name): \(value) written as \(text)")
                    // Not even a default taken: every key is written.
                    #expect(decoded.allDiagnostics.isEmpty,
                            "v\(version) \(field.name): \(value) written as \(text): \(decoded.allDiagnostics.map(\.message))")
                    let read = decoded.state?[field.name] ?? (field.nullReadsAsMissing ? .null : nil)
                    #expect(read.map { Self.same($0, Self.completed(value, field)) } == true,
                            "v\(version) \(field.name): \(value) written as \(text), read as \(String(describing: read))")
                }
            }
        }
        #expect(written > 80, "\(written) values written")
    }

    /// `a` and `b` are the same value: an integer and a double of the same number alike (JSON
    /// has one kind of number), an object's members in any order.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { member in
                y.contains { $0.name == member.name && same($0.value, member.value) }
            }
        default: return a == b
        }
    }
}
