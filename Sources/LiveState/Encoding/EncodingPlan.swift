import Foundation

/// One field compiled for encoding and checking: its constraints as flat values, its key as the
/// bytes the writer emits, and what it weighs when left out. Built once per
/// `ContentStateEncoder`, and for each `Field.violation(of:)`.
///
/// `walk(_:urls:into:)` (in `ValueRules.swift`) states what a value must be to be the field's
/// value; the encoder writes by it and `Field.violation(of:)` checks by it.
final class FieldEncodingPlan: Sendable {
    /// The field as the schema declares it.
    let field: Field
    let name: String
    let kind: FieldKind
    let isOptional: Bool
    let constraints: Field.Constraints
    let enumStrings: [String]
    let enumIntegers: [Int]
    /// For an array field: its element.
    let items: FieldEncodingPlan?
    /// For an object field: its fields, in schema order.
    let fields: [FieldEncodingPlan]
    /// `"name":` as the writer emits it.
    let key: [UInt8]
    /// The `/` in the name: what the device's re-encoding adds to the key.
    let keyExtra: Int
    /// The value a decoder uses when the key is missing.
    let missingValue: Value?
    /// The device's worst case for `"name":value` when the member is left out and the device
    /// fills in `missingValue`.
    let missingWorstCase: Int
    /// `null` is not written: the field is optional without a default.
    let skipsNull: Bool
    /// The default may be left out under `elideDefaults`.
    let elidable: Bool

    init(_ field: Field, elidable: Bool = false) {
        self.field = field
        name = field.name
        isOptional = field.isOptional
        constraints = field.constraints
        var strings: [String] = []
        var integers: [Int] = []
        var items: FieldEncodingPlan?
        var fields: [FieldEncodingPlan] = []
        kind = FieldKind(field.type)
        switch field.type {
        case .enumeration(.strings(let values)): strings = values
        case .enumeration(.integers(let values)): integers = values
        case .array(let element): items = FieldEncodingPlan(element)
        case .object(let nested): fields = nested.map { FieldEncodingPlan($0) }
        default: break
        }
        enumStrings = strings
        enumIntegers = integers
        self.items = items
        self.fields = fields
        var writer = JSONWriter(capacity: field.name.utf8.count + 3)
        writer.writeString(field.name)
        key = writer.bytes + [UInt8(ascii: ":")]
        keyExtra = field.name.utf8.count { $0 == UInt8(ascii: "/") }
        missingValue = field.missingValue
        missingWorstCase = ByteBudget.memberLength(
            escapedName: ByteBudget.escapedLength(field.name), value: field.missingValue.map(ByteBudget.deviceWorstCase) ?? 0)
        skipsNull = field.nullReadsAsMissing
        self.elidable = elidable
    }

    /// Whether `number` is within `minimum` and `maximum`.
    @inline(__always)
    func inRange(_ number: Double) -> Bool {
        constraints.allowsNumber(number)
    }

    // MARK: - Checking

    /// The index of the nested field called `name`, trying `hint` first.
    func index(of name: String, hint: Int) -> Int? {
        Self.index(of: name, in: fields, hint: hint)
    }

    /// The index of the field called `name` among `fields`, trying `hint` first: members
    /// mostly arrive in schema order.
    static func index(of name: String, in fields: [FieldEncodingPlan], hint: Int) -> Int? {
        let count = fields.count
        guard count > 0 else { return nil }
        var index = hint < count ? hint : 0
        for _ in 0..<count {
            if fields[index].name == name { return index }
            index += 1
            if index == count { index = 0 }
        }
        return nil
    }
}
