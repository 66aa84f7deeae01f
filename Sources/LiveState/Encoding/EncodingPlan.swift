import Foundation

/// One field compiled for encoding: its constraints as flat values, its key as the bytes the
/// writer emits, and what it weighs when left out. Built once per `ContentStateEncoder`.
///
/// `StateWriter.writeChecked(_:as:)` is a quick check in the writer's walk that never accepts a
/// value `Field.violation(of:)` refuses; when it says no, the encoder asks `violation(of:)` for
/// the verdict and its message.
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

extension StateWriter {
    /// Writes `value` as `write(_:)` does while checking it, in the same walk, never passing a
    /// value `Field.violation(of:)` refuses. Returns the device's extra bytes, or `nil` as soon
    /// as a check says no (ask `violation(of:)`); what was written is then to be discarded with
    /// `rewind(to:)`.
    ///
    /// The value is read where it lies, through a pointer, and so are the elements and members
    /// of containers: no container is retained and released on the way. (A string still is:
    /// the compiler keeps it alive across the writes into the buffer.)
    mutating func writeChecked(_ value: UnsafePointer<Value>, as plan: FieldEncodingPlan) -> Int? {
        switch value.pointee {
        case .null:
            guard plan.isOptional else { return nil }
            append("null")
            return 0
        case .string(let string):
            switch plan.kind {
            case .string: guard plan.constraints.allowsLength(string.utf8.count) else { return nil }
            case .stringEnum: guard plan.enumStrings.contains(string) else { return nil }
            default: return nil
            }
            return writeString(string)
        case .int(let int):
            switch plan.kind {
            case .int: guard plan.inRange(Double(int)) else { return nil }
            case .intEnum: guard plan.enumIntegers.contains(int) else { return nil }
            default: return nil
            }
            writeInt(int)
            return 0
        case .double(let double):
            guard plan.kind == .double, double.isFinite, plan.inRange(double) else { return nil }
            return writeNumber(double)
        case .date(let double):
            guard plan.kind == .date, double.isFinite, plan.inRange(double) else { return nil }
            return writeNumber(double)
        case .bool(let bool):
            guard plan.kind == .bool else { return nil }
            append(bool ? "true" : "false")
            return 0
        case .dateRange:
            return nil
        case .array(let elements):
            guard plan.kind == .array, let items = plan.items, plan.constraints.allowsCount(elements.count) else { return nil }
            append(UInt8(ascii: "["))
            let extra: Int? = elements.withUnsafeBufferPointer { elements in
                var extra = 0
                for index in 0..<elements.count {
                    if index > 0 { append(UInt8(ascii: ",")) }
                    guard let written = writeChecked(elements.baseAddress! + index, as: items) else { return nil }
                    extra &+= written
                }
                return extra
            }
            append(UInt8(ascii: "]"))
            return extra
        case .object(let members):
            let fields = plan.fields
            guard plan.kind == .object, fields.count <= FieldSet.maskCapacity, members.count <= fields.count else { return nil }
            append(UInt8(ascii: "{"))
            let extra: Int? = members.withUnsafeBufferPointer { members in
                var extra = 0
                var seen: UInt64 = 0
                var hint = 0
                for position in 0..<members.count {
                    let member = members.baseAddress! + position
                    guard let index = plan.index(of: member.pointee.name, hint: hint) else { return nil }
                    let bit: UInt64 = 1 << UInt64(index)
                    guard seen & bit == 0 else { return nil }
                    if seen != 0 { append(UInt8(ascii: ",")) }
                    seen |= bit
                    hint = index &+ 1
                    extra &+= writeString(member.pointee.name)
                    append(UInt8(ascii: ":"))
                    guard let written = writeChecked(member.pointer(to: \.value)!, as: fields[index]) else { return nil }
                    extra &+= written
                }
                if members.count < fields.count {
                    // Every field is written, a missing one with its missing value (`null` for an
                    // optional field without a default), as `Field.completed(_:)` says: an app
                    // version that decodes with synthesized Codable fails on a missing key.
                    for (index, field) in fields.enumerated() where seen & (1 << UInt64(index)) == 0 {
                        guard let missing = field.missingValue else { return nil }
                        if seen != 0 { append(UInt8(ascii: ",")) }
                        seen |= 1 << UInt64(index)
                        extra &+= writeString(field.name)
                        append(UInt8(ascii: ":"))
                        guard let written = withUnsafePointer(to: missing, { writeChecked($0, as: field) }) else { return nil }
                        extra &+= written
                    }
                }
                return extra
            }
            append(UInt8(ascii: "}"))
            return extra
        }
    }
}
