import Foundation

/// A schema version's object compiled once: every key and string enum value as UTF-8 bytes, so
/// that keys are matched against the input without making a `String`, and each field's
/// `FieldPlan`, which the decoder, the tape builder, the encoder and `Field.violation(of:)` all
/// read by.
///
/// Built once per `ContentStateDecoder` and `ContentStateEncoder` and shared; immutable.
final class ObjectPlan: @unchecked Sendable {
    // @unchecked: the key table below is written once in `init` and only read after.

    /// The object's fields, in schema order.
    let fields: [FieldPlan]
    /// Each field's value when its key is missing (`.null` stands in for a required field).
    let initialMembers: [Value.Member]
    /// Alias bytes, the index of the field they name, and their position in its `aliases`.
    let aliases: [(bytes: [UInt8], field: Int, rank: Int)]
    /// Whether a field of this object, or of an object inside it at any depth, has an alias.
    let hasAliases: Bool
    /// Whether a field of this object, or of an object inside it at any depth, holds values
    /// its Swift type writes otherwise (`FieldPlan.writesOtherwise`).
    let writesOtherwise: Bool
    /// Every field's key as UTF-8, one after another, and where each one starts and ends in
    /// it: read through pointers that live as long as the plan, so a lookup retains nothing.
    private let keyBytes: UnsafeMutablePointer<UInt8>
    private let keyBounds: UnsafeMutablePointer<Int>
    /// For each of `slotCount` slots, the one field whose key falls in it, `noField`, or
    /// `manyFields`: a key that is not the field expected next is most often found, or ruled
    /// out, with one comparison.
    private let slots: UnsafeMutablePointer<Int32>
    /// `fields`, unretained, for `TapeBuilder`: the plan keeps them alive.
    let fieldRefs: UnsafeMutablePointer<Unmanaged<FieldPlan>>
    /// `fields.count`, without touching the arrays.
    let fieldCount: Int
    /// The fields' names in schema order, for `DecodeResult.Node.names` and `TapeDecoder`'s
    /// lookups by `CodingKey` (a name of up to 15 bytes is stored inline in its `String`, so
    /// comparing two of them is comparing two words).
    let memberNames: [String]
    /// Bit `n` is set when an alias is `n` bytes long (bit 63: 63 bytes or more), so that most
    /// unknown keys are told apart from the aliases without comparing any bytes.
    private let aliasLengths: UInt64

    /// - Parameters:
    ///   - fields: The object's fields.
    ///   - urls: How the app version's devices read `url` values.
    init(fields: [Field], urls: URLRule) {
        self.fields = fields.map { FieldPlan($0, urls: urls) }
        self.tapeSlots = min(self.fields.reduce(1 + fields.count) { $0 + $1.tapeNodes }, Self.maxTapeSlots)
        self.initialMembers = fields.initialMembers
        var aliases: [(bytes: [UInt8], field: Int, rank: Int)] = []
        for (index, field) in fields.enumerated() {
            for (rank, alias) in field.aliases.enumerated() {
                aliases.append((Array(alias.utf8), index, rank))
            }
        }
        self.aliases = aliases
        func aliasesBelow(_ plan: FieldPlan) -> Bool {
            if let object = plan.objectRef { return object.takeUnretainedValue().hasAliases }
            return plan.itemsRef.map { aliasesBelow($0.takeUnretainedValue()) } ?? false
        }
        self.hasAliases = !aliases.isEmpty || self.fields.contains(where: aliasesBelow)
        func writesOtherwiseBelow(_ plan: FieldPlan) -> Bool {
            plan.writesOtherwise || plan.object?.writesOtherwise == true || plan.items.map(writesOtherwiseBelow) == true
        }
        self.writesOtherwise = self.fields.contains(where: writesOtherwiseBelow)
        self.hasNonASCIIKeys = fields.contains { field in !field.name.isASCII || field.aliases.contains { !$0.isASCII } }
        self.aliasLengths = aliases.reduce(0) { $0 | 1 << UInt64(min($1.bytes.count, 63)) }
        let keys = fields.flatMap { Array($0.name.utf8) }
        fieldCount = fields.count
        memberNames = fields.map(\.name)
        // Eight bytes of padding, so that a key's first word can be read whatever its length.
        keyBytes = .allocate(capacity: keys.count + 8)
        keyBytes.initialize(from: keys, count: keys.count)
        (keyBytes + keys.count).initialize(repeating: 0, count: 8)
        fieldRefs = .allocate(capacity: max(fields.count, 1))
        for (index, plan) in self.fields.enumerated() { (fieldRefs + index).initialize(to: .passUnretained(plan)) }
        keyBounds = .allocate(capacity: fields.count + 1)
        var bound = 0
        for (index, field) in fields.enumerated() {
            keyBounds[index] = bound
            bound += field.name.utf8.count
        }
        keyBounds[fields.count] = bound
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Self.noField, count: Self.slotCount)
        for index in fields.indices {
            let slot = Self.slot(of: keyBytes + keyBounds[index], length: keyBounds[index + 1] - keyBounds[index])
            slots[slot] = slots[slot] == Self.noField ? Int32(index) : Self.manyFields
        }
    }

    deinit {
        keyBytes.deallocate()
        keyBounds.deallocate()
        slots.deallocate()
        fieldRefs.deallocate()
    }

    /// Whether a field name or alias is not plain ASCII: then a key whose bytes match none may
    /// still name a field in another Unicode normalization, as Foundation's `JSONDecoder` finds
    /// it (`==` on `String`s); the tape builder then looks every key up as the full decoder does.
    let hasNonASCIIKeys: Bool

    /// The nodes a `StateTape` of this object is made with room for: a header and a slot per
    /// field, nested objects included, and each array's first elements (`FieldPlan.tapeNodes`),
    /// so that the builder seldom grows the tape of a usual state. At most `maxTapeSlots`: room
    /// is a guess, and the builder grows a tape that needs more.
    let tapeSlots: Int

    /// The most nodes `tapeSlots` asks for (24 KiB of nodes), however the schema nests its arrays.
    static let maxTapeSlots = 1024

    /// The index of the field whose name is the `length` bytes at `key` (no escapes), trying
    /// `hint` first (payloads mostly follow schema order). `wordReadable`: eight bytes can be
    /// read at `key`, so that a key of up to eight bytes is compared as one word (the key table
    /// is padded for the same read).
    @inline(__always)
    func index(ofKey key: UnsafePointer<UInt8>, length: Int, hint: Int, wordReadable: Bool) -> Int? {
        guard fieldCount > 0 else { return nil }
        // The next field in schema order, or the one after it (a payload often leaves out a
        // field or two).
        let expected = hint < fieldCount ? hint : 0
        if isKey(of: expected, key, length: length, wordReadable: wordReadable) { return expected }
        let after = expected &+ 1 < fieldCount ? expected &+ 1 : 0
        if isKey(of: after, key, length: length, wordReadable: wordReadable) { return after }
        return index(ofUnexpectedKey: key, length: length, wordReadable: wordReadable)
    }

    /// The index of the field named `name`: found through the key table, byte for byte, or
    /// else compared as `String`s are (a name in another Unicode normalization than the
    /// schema's), as `Value`'s subscript does.
    func index(ofName name: String) -> Int? {
        func lookUp(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let base = key.baseAddress, !key.isEmpty else { return nil }
            return index(ofUnexpectedKey: base, length: key.count, wordReadable: false)
        }
        // A native string lends its bytes without the copy (and retain) `withUTF8` needs.
        let found: Int?
        if let lent = name.utf8.withContiguousStorageIfAvailable(lookUp) {
            found = lent
        } else {
            var name = name
            found = name.withUTF8(lookUp)
        }
        if let found { return found }
        // An ASCII name equals only the same bytes; the empty name has none to look up.
        guard name.isEmpty || !name.isASCII else { return nil }
        return memberNames.firstIndex(of: name)
    }

    /// `index(ofName:)`, trying the field at `hint` first: members mostly come in schema order.
    @inline(__always)
    func index(ofName name: String, hint: Int) -> Int? {
        if hint < fieldCount, memberNames[hint] == name { return hint }
        return index(ofName: name)
    }

    /// A key that is not the one expected next: the one field in its slot, if the slot holds
    /// one, else every field in turn.
    private func index(ofUnexpectedKey key: UnsafePointer<UInt8>, length: Int, wordReadable: Bool) -> Int? {
        let field = Int(slots[Self.slot(of: key, length: length)])
        if field >= 0 { return isKey(of: field, key, length: length, wordReadable: wordReadable) ? field : nil }
        if field == Int(Self.noField) { return nil }
        return firstIndex(from: 0, count: fieldCount) { isKey(of: $0, key, length: length, wordReadable: wordReadable) }
    }

    /// Whether the `length` bytes at `key` are `field`'s key. `wordReadable`: as in
    /// `index(ofKey:length:hint:wordReadable:)`.
    @inline(__always)
    private func isKey(of field: Int, _ key: UnsafePointer<UInt8>, length: Int, wordReadable: Bool) -> Bool {
        let keyStart = keyBounds[field]
        guard keyBounds[field &+ 1] &- keyStart == length else { return false }
        guard length <= 8 && wordReadable else { return memcmp(key, keyBytes + keyStart, length) == 0 }
        let mask: UInt64 = length == 8 ? ~0 : (1 &<< UInt64(length &* 8)) &- 1
        return (UnsafeRawPointer(key).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(keyBytes + keyStart).loadUnaligned(as: UInt64.self)) & mask == 0
    }

    /// The key table's slots, by a hash of a key's length and its first and last bytes (no two
    /// keys of any bundled schema's object share a slot).
    private static let slotCount = 128
    private static let noField: Int32 = -1
    private static let manyFields: Int32 = -2

    private static func slot(of key: UnsafePointer<UInt8>, length: Int) -> Int {
        guard length > 0 else { return 0 }
        let mixed = UInt32(truncatingIfNeeded: length) &* 0x9E37_79B1 ^ UInt32(key[0]) &* 0x85EB_CA6B
            ^ UInt32(key[length &- 1]) &* 0xC2B2_AE35
        return Int(mixed >> 16) & (slotCount &- 1)
    }

    /// The index of the field whose name is `key`, trying `hint` first (payloads mostly follow
    /// schema order): the same bytes, or, for a schema with non-ASCII names, the same `String`
    /// (canonically equivalent), as Foundation's `JSONDecoder` matches keys.
    func index(of key: JSONString, in reader: JSONReader, hint: Int) -> Int? {
        if let index = index(ofBytes: key, in: reader, hint: hint) { return index }
        guard hasNonASCIIKeys else { return nil }
        return memberNames.firstIndex(of: reader.string(key))
    }

    private func index(ofBytes key: JSONString, in reader: JSONReader, hint: Int) -> Int? {
        guard fieldCount > 0 else { return nil }
        let index = hint < fieldCount ? hint : 0
        guard !key.hasEscapes, let base = reader.bytes.baseAddress else {
            // An escaped key is compared scalar by scalar.
            return firstIndex(from: index, count: fieldCount) { fields[$0].name.withUnsafeBytes { reader.matches(key, $0) } }
        }
        return self.index(
            ofKey: (base + key.start).assumingMemoryBound(to: UInt8.self), length: key.end &- key.start, hint: index,
            wordReadable: key.start &+ 8 <= reader.bytes.count)
    }

    /// Whether a key of `length` bytes (no escapes) may be an alias.
    @inline(__always)
    func mayBeAlias(length: Int) -> Bool {
        aliasLengths & 1 &<< UInt64(min(length, 63)) != 0
    }

    /// The index of the field that has `key` among its aliases, and the alias's position there,
    /// matched as `index(of:in:hint:)` matches names.
    func aliasIndex(of key: JSONString, in reader: JSONReader) -> (field: Int, rank: Int)? {
        for alias in aliases where alias.bytes.withUnsafeBytes({ reader.matches(key, $0) }) {
            return (alias.field, alias.rank)
        }
        guard hasNonASCIIKeys else { return nil }
        let name = reader.string(key)
        for alias in aliases where String(decoding: alias.bytes, as: UTF8.self) == name {
            return (alias.field, alias.rank)
        }
        return nil
    }
}

/// One field compiled once for everything that reads, writes or checks its values: the
/// decoder and the tape builder, the encoder, and `Field.violation(of:)`, which all ask its
/// rule walk (`walk(_:into:)`, in `ValueRules.swift`) or the rules it is made of.
final class FieldPlan: Sendable {
    /// The field as the schema declares it.
    let field: Field
    /// The key as UTF-8 bytes.
    let name: [UInt8]
    /// For an `object` field: its fields.
    let object: ObjectPlan?
    /// For an `array` field: its element; for a `map` field: its values.
    let items: FieldPlan?
    /// For a string `enum` field: each raw value as UTF-8 bytes, with the `Value` to produce.
    let enumStrings: [(bytes: [UInt8], value: Value)]
    /// `/` and the escaped name: the field's token in a JSON Pointer.
    let pointerToken: String
    /// The key's length as the device's `JSONEncoder` writes it (`ByteBudget.escapedLength`).
    let escapedNameLength: Int
    /// The device's worst case for the value a missing key takes (`null` for a required field,
    /// as `ObjectPlan.initialMembers` holds it).
    let missingValueWorstCase: Int
    /// The value a missing key takes: the default, `null` for an optional field, `nil` for a
    /// required one (`Field.missingValue`).
    let missingValue: Value?
    /// `"name":` as the encoder writes it, and the `/`s in the name: what the device's
    /// re-encoding adds to the key.
    let key: [UInt8]
    let keyExtra: Int
    /// The device's worst case for the whole member `"name":value` when the encoder leaves it
    /// out and the device fills in `missingValue` (0 for a required field).
    let missingMemberWorstCase: Int
    /// `null` is not written: the field is optional without a default.
    let skipsNull: Bool
    /// `null` takes the default (`on-null: default`, `Field.nullReplacement`; `missingValue`
    /// is then that default, never `null`), with a `defaulted` finding.
    let nullTakesDefault: Bool
    /// The field's type without its payload, and the constraints the decoder checks on every
    /// value: flat copies, so that the hot path never copies `field`.
    let kind: FieldKind
    let isOptional: Bool
    let constraints: Field.Constraints
    /// `constraints.integerRange`, made once: an `int` field's bounds as `Int`s.
    let integerRange: ClosedRange<Int>?
    /// The app's number type, when narrower than `Int` or `Double`: a value outside its range
    /// fails synthesized `Codable`.
    let numberFormat: Field.NumberFormat?
    /// The text a `string` field's value must be (`format: uuid`); its kind is then
    /// `formattedString`.
    let stringFormat: Field.StringFormat?
    /// Whether a `map`'s keys are an `Int`'s text (`keys: int`).
    let hasIntegerKeys: Bool
    /// How the app version's devices read a `url` value.
    let urls: URLRule
    /// Whether the app's Swift type writes a value otherwise than a `Double` or a `String` of
    /// it would (`ByteBudget.deviceLengths(of:as:)`): a `Float`, a `Decimal`, a `URL`.
    let writesOtherwise: Bool

    /// Whether the field has a value for a missing key: a default, or `null` when optional.
    let hasMissingValue: Bool
    /// Whether a missing key is reported (`defaultedMessage` is not `nil`).
    let reportsDefault: Bool
    /// `object` and `items`, unretained, for `TapeBuilder`: the plan keeps them alive.
    let objectRef: Unmanaged<ObjectPlan>?
    let itemsRef: Unmanaged<FieldPlan>?
    /// Whether a value of the field may hold an object: an object, or an array whose elements
    /// may. `TapeBuilder` reads every such value itself; the full decoder's object walk reads
    /// only for the reference decode, and for a map's values: a map (rare in payloads, and
    /// with keys that are data, not fields) is read by the full decoder whole.
    var holdsObjects: Bool {
        kind != .map && (object != nil || items?.holdsObjects == true)
    }

    /// The nodes a value of this field takes on a tape besides its own slot: a nested object's
    /// (`ObjectPlan.tapeSlots`), or for an array, up to eight elements (fewer when `max-items`
    /// says so) with what each takes.
    var tapeNodes: Int {
        if let object { return object.tapeSlots }
        guard kind == .array, let items else { return 0 }
        return min(constraints.maxItems ?? 8, 8) &* (1 &+ min(items.tapeNodes, ObjectPlan.maxTapeSlots))
    }

    /// For an integer `enum` field: its raw values.
    let enumIntegers: [Int]
    /// For a string `enum` field: its raw values, compared as `String`s compare.
    let enumRawStrings: [String]

    /// The value of the string enum case whose raw value `string` is, if any: the same bytes,
    /// or a canonically equivalent spelling, as synthesized `init(rawValue:)` compares `String`s
    /// (the schema's spelling is the value).
    func enumValue(matching string: JSONString, in reader: JSONReader) -> Value? {
        for candidate in enumStrings where candidate.bytes.withUnsafeBytes({ reader.matches(string, $0) }) {
            return candidate.value
        }
        guard enumHasNonASCII else { return nil }
        let text = reader.string(string)
        return enumStrings.first { $0.value == .string(text) }?.value
    }

    /// Whether a string enum raw value is not plain ASCII (see `enumValue(matching:in:)`).
    let enumHasNonASCII: Bool

    /// Whether `number` breaks `minimum` or `maximum`: the check alone, without a message.
    @inline(__always)
    func isOutOfRange(_ number: Double) -> Bool {
        !constraints.allowsNumber(number)
    }

    /// Whether an integer breaks `minimum` or `maximum`, compared exactly
    /// (`Constraints.allowsInteger`, through the range it holds).
    @inline(__always)
    func isOutOfRange(integer: Int) -> Bool {
        guard let integerRange else { return true }
        return !integerRange.contains(integer)
    }

    /// `isOutOfRange(integer:)` for an app's `UInt64` past `Int`.
    func isOutOfRange(integer: UInt64) -> Bool {
        !constraints.allowsInteger(integer)
    }

    /// The `defaulted` message for a missing key, made once; `nil` for a field without a default.
    let defaultedMessage: String?

    /// For an `enum` field, its raw values as its messages list them (`[a, b]`), made once.
    let enumListText: String
    /// For an `enum` field with a fallback: the fallback, and the end of the `unknown-enum-value`
    /// message (`; it takes the fallback "unknown"`), made once.
    let fallback: Value?
    let fallbackSuffix: String
    /// For a field whose invalid values take its default (`on-invalid: default` and a value
    /// for a missing key): that value, and the end of the `invalid-defaulted` message
    /// (`; 'eta' takes its default 0`), made once. `nil` for every other field.
    let invalidReplacement: (value: Value, suffix: String)?

    init(_ field: Field, urls: URLRule) {
        self.field = field
        self.urls = urls
        self.name = Array(field.name.utf8)
        self.pointerToken = JSONPointer.appending(field.name, to: "")
        self.escapedNameLength = ByteBudget.escapedLength(field.name)
        self.missingValueWorstCase = ByteBudget.deviceWorstCase(field.missingValue ?? .null)
        self.missingValue = field.missingValue
        var writer = JSONWriter(capacity: field.name.utf8.count + 3)
        writer.writeString(field.name)
        self.key = writer.bytes + [UInt8(ascii: ":")]
        self.keyExtra = field.name.utf8.count { $0 == UInt8(ascii: "/") }
        self.missingMemberWorstCase = ByteBudget.memberLength(
            escapedName: ByteBudget.escapedLength(field.name), value: field.missingValue.map(ByteBudget.deviceWorstCase) ?? 0)
        self.skipsNull = field.nullReadsAsMissing
        self.nullTakesDefault = field.nullReplacement != nil
        self.isOptional = field.isOptional
        self.hasMissingValue = field.missingValue != nil
        self.constraints = field.checkedConstraints
        self.integerRange = constraints.integerRange
        self.numberFormat = field.numberFormat
        self.stringFormat = field.type == .string ? field.stringFormat : nil
        self.kind = stringFormat != nil ? .formattedString : FieldKind(field.type)
        self.hasIntegerKeys = kind == .map && field.hasIntegerKeys
        self.writesOtherwise = kind == .url || (kind == .double && (numberFormat == .float || numberFormat == .decimal))
        self.defaultedMessage = field.defaultValue.map {
            "key '\(field.name)' is missing; it takes its default \(ValueText.render($0))"
        }
        self.reportsDefault = defaultedMessage != nil
        self.fallback = field.fallback
        self.fallbackSuffix = field.fallback.map { "; it takes the fallback \(ValueText.render($0))" } ?? ""
        if let replacement = field.invalidReplacement {
            let shown = field.defaultValue.map(ValueText.render) ?? "null"
            self.invalidReplacement = (replacement, "; '\(field.name)' takes its default \(shown)")
        } else {
            self.invalidReplacement = nil
        }
        if case .enumeration(let values) = field.type {
            self.enumListText = ValueText.list(values.values)
        } else {
            self.enumListText = ""
        }
        if case .enumeration(.integers(let integers)) = field.type {
            self.enumIntegers = integers
        } else {
            self.enumIntegers = []
        }
        if case .enumeration(.strings(let strings)) = field.type {
            self.enumRawStrings = strings
        } else {
            self.enumRawStrings = []
        }
        switch field.type {
        case .object(let fields):
            self.object = ObjectPlan(fields: fields, urls: urls)
            self.items = nil
            self.enumStrings = []
            self.enumHasNonASCII = false
        case .array(let items), .map(let items):
            self.object = nil
            self.items = FieldPlan(items, urls: urls)
            self.enumStrings = []
            self.enumHasNonASCII = false
        case .enumeration(.strings(let values)):
            self.object = nil
            self.items = nil
            self.enumStrings = values.map { (Array($0.utf8), Value.string($0)) }
            self.enumHasNonASCII = values.contains { !$0.isASCII }
        default:
            self.object = nil
            self.items = nil
            self.enumStrings = []
            self.enumHasNonASCII = false
        }
        self.objectRef = object.map { .passUnretained($0) }
        self.itemsRef = items.map { .passUnretained($0) }
    }
}

/// What an object does with a field met again, under its own name or an alias: the one rule
/// the full decoder and the tape builder both ask.
///
/// The field's own name wins over an alias read first, and an alias listed earlier in the
/// schema over one listed later, whatever the input order: what a decoder that asks for the
/// keys in schema order sees. Otherwise the value read first stays, as `JSONDecoder` keeps it,
/// and the field's own name met again is reported as a duplicate (an alias met after the name
/// is not).
enum ReadAgain: Equatable {
    /// The value read first stays; `reportsDuplicate`: the key met now is the field's own name.
    case keepsFirst(reportsDuplicate: Bool)
    /// The value met now replaces the one read under an alias.
    case replaces

    /// - Parameters:
    ///   - earlier: The position in the field's `aliases` of the alias it was read under, or
    ///     `nil` when it was read under its own name.
    ///   - now: The same for the key met now.
    init(earlier: Int?, now: Int?) {
        if let earlier, now.map({ $0 < earlier }) ?? true {
            self = .replaces
        } else {
            self = .keepsFirst(reportsDuplicate: now == nil)
        }
    }
}

extension String {
    /// Whether every byte is ASCII: such a string equals another (`==`, canonical
    /// equivalence) only when their bytes are the same, so a byte comparison settles it.
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}

/// The first index from `start` on, wrapping around at `count`, that passes `matches`: each
/// lookup by name starts where the last one ended, since keys mostly come in schema order.
@inline(__always)
func firstIndex(from start: Int, count: Int, where matches: (Int) -> Bool) -> Int? {
    var index = start < count ? start : 0
    for _ in 0..<count {
        if matches(index) { return index }
        index &+= 1
        if index == count { index = 0 }
    }
    return nil
}
