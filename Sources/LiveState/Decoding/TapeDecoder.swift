import Foundation

/// What every decoder and container of one `TapeDecoder.decode` call shares.
final class TapeDecoding {
    let tape: StateTape
    let nodes: UnsafeMutablePointer<TapeNode>
    let reader: JSONReader
    let root: ObjectPlan
    /// Where each object's next key lookup starts, by its header node (modulo 8): synthesized
    /// `init(from:)` asks for the keys in declaration order, which is mostly schema order.
    /// (Eight stored integers, not an array: an array here costs a tenth of a struct decode.)
    private var hints: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    init(tape: StateTape, nodes: UnsafeMutablePointer<TapeNode>, reader: JSONReader) {
        self.tape = tape
        self.nodes = nodes
        self.reader = reader
        self.root = tape.plan
    }

    func hint(_ header: Int) -> Int {
        switch header & 7 {
        case 0: hints.0
        case 1: hints.1
        case 2: hints.2
        case 3: hints.3
        case 4: hints.4
        case 5: hints.5
        case 6: hints.6
        default: hints.7
        }
    }

    func setHint(_ header: Int, _ value: Int) {
        switch header & 7 {
        case 0: hints.0 = value
        case 1: hints.1 = value
        case 2: hints.2 = value
        case 3: hints.3 = value
        case 4: hints.4 = value
        case 5: hints.5 = value
        case 6: hints.6 = value
        default: hints.7 = value
        }
    }

    /// The coding path of the object whose header is at `header`: its fields' names (and
    /// element indices) from the root.
    func path(toHeader header: Int) -> [any CodingKey] {
        tape.path(toHeader: header, nodes: nodes).0.flatMap { step -> [any CodingKey] in
            [StateKey.name(step.field.field.name)] + step.elements.map { StateKey.index($0) }
        }
    }

    /// The node at `slot` made whole (`missing` when the key was absent).
    func made(_ slot: Int, _ field: FieldPlan, missing: Value) -> Value {
        tape.value(at: slot, field: field, missing: missing, nodes: nodes, reader: reader)
    }

    @inline(__always)
    func string(at slot: Int) -> String? {
        let node = nodes[slot]
        guard node.kind == .string || node.kind == .escapedString else { return nil }
        return reader.string(node.string)
    }

    /// The number at `slot`, as `Value.number` reads one (an int, a double or a date's seconds).
    @inline(__always)
    func double(at slot: Int) -> Double? {
        nodes[slot].scalar?.number
    }
}

/// A `Decoder` over a `StateTape`: any `Decodable` type read straight from the tape, with no
/// `Value` tree in between.
///
/// It reads objects, strings, numbers, `Date`, raw-value enums and arrays (but arrays of arrays)
/// itself, an array's elements through a `TapeUnkeyedContainer`. Everything else (a field that
/// took its default, `null`, a date-range, a URL, an array of arrays) is made into its `Value`
/// and read by `ValueDecoder`, so a type sees what it sees through `ValueDecoder` on the whole
/// tree, errors included: the same `DecodingError` cases and text, the same coding path (an
/// enclosing object's key in it is a plain name key, not the type's own `CodingKey`).
/// `TapeDecoderTests` holds the two to that on every bundled state and on mutations of them,
/// for types that fit and types that do not, and FuzzDecode on every input (`DecodeProbe`).
///
/// Three words, so that passing it as `any Decoder` allocates nothing.
struct TapeDecoder: Decoder {
    let context: TapeDecoding
    /// The node of the value (0, the root's header, for the root) and the header of the object
    /// that holds it, as two 32-bit halves.
    private let location: UInt64
    /// The field whose value it is; `nil` for the root object.
    private let field: Unmanaged<FieldPlan>?

    fileprivate var slot: Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: location)) }
    private var parentHeader: Int { Int(Int32(truncatingIfNeeded: location >> 32)) }

    init(context: TapeDecoding, slot: Int, parentHeader: Int, field: FieldPlan?) {
        self.context = context
        self.location = UInt64(UInt32(truncatingIfNeeded: slot)) | UInt64(UInt32(truncatingIfNeeded: parentHeader)) << 32
        self.field = field.map { .passUnretained($0) }
    }

    var codingPath: [any CodingKey] {
        guard let field else { return [] }
        // An object knows its place from its header: an element of an array among them.
        let node = context.nodes[slot]
        if node.kind == .object { return context.path(toHeader: node.a &- 1) }
        return context.path(toHeader: parentHeader) + [StateKey.name(field.takeUnretainedValue().field.name)]
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `T` from the root of `tape`, built over `bytes`.
    static func decode<T: Decodable>(_ type: T.Type, tape: StateTape, bytes: UnsafeRawBufferPointer) throws -> T {
        try tape.withUnsafeMutablePointerToElements { nodes in
            let reader = try JSONReader(bytes: bytes, options: .init(maxInputBytes: .max))
            let context = TapeDecoding(tape: tape, nodes: nodes, reader: reader)
            return try T(from: TapeDecoder(context: context, slot: 0, parentHeader: -1, field: nil))
        }
    }

    /// The value, made whole.
    private func made() -> Value {
        guard let field else { return context.tape.state(in: context.reader.bytes) }
        return context.made(slot, field.takeUnretainedValue(), missing: .null)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let field else {
            return KeyedDecodingContainer(TapeKeyedContainer<Key>(context: context, first: 1, plan: context.root))
        }
        let node = context.nodes[slot]
        guard node.kind == .object, let plan = field.takeUnretainedValue().object else {
            return try ValueDecoder(value: made(), codingPath: codingPath).container(keyedBy: type)
        }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(context: context, first: node.a, plan: plan))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if let field, context.nodes[slot].kind == .array, let items = field.takeUnretainedValue().items, items.kind != .array {
            return TapeUnkeyedContainer(array: self, items: items)
        }
        return try ValueDecoder(value: made(), codingPath: codingPath).unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard field != nil else { return try ValueDecoder(value: made(), codingPath: codingPath).singleValueContainer() }
        return TapeSingleValueContainer(decoder: self)
    }

    fileprivate func valueDecoder() -> ValueDecoder {
        ValueDecoder(value: made(), codingPath: codingPath)
    }
}

/// A tape object's fields by key.
private struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: TapeDecoding
    /// The node of the object's first field; its header is the node before.
    let first: Int
    /// Unretained: the tape keeps the plan alive, and the standard library copies the container
    /// for every call, so one reference counted here is one retain and release per key.
    private let planReference: Unmanaged<ObjectPlan>
    private var plan: ObjectPlan { planReference.takeUnretainedValue() }

    init(context: TapeDecoding, first: Int, plan: ObjectPlan) {
        self.context = context
        self.first = first
        self.planReference = .passUnretained(plan)
    }

    private var header: Int { first &- 1 }

    var codingPath: [any CodingKey] { context.path(toHeader: header) }

    var allKeys: [Key] { plan.fields.compactMap { Key(stringValue: $0.field.name) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    /// The field's index, looked up by name from where the last lookup ended.
    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        let names = plan.memberNames
        guard let index = firstIndex(from: context.hint(header), count: plan.fieldCount, where: { names[$0] == name }) else {
            return nil
        }
        context.setHint(header, index &+ 1)
        return index
    }

    private func require(_ key: Key) throws -> Int {
        guard let index = find(key) else {
            throw DecodingError.noField(key, codingPath: codingPath)
        }
        return index
    }

    /// The field's value made whole, for everything `ValueDecoder` reads.
    private func made(_ index: Int) -> Value {
        context.made(first &+ index, plan.fields[index], missing: plan.initialMembers[index].value)
    }

    private func viaValue<T: Decodable>(_ type: T.Type, _ index: Int, _ key: Key) throws -> T {
        try ValueDecoder.decode(T.self, from: made(index), codingPath: codingPath + [key])
    }

    /// `viaValue`, or `nil` when the field's value is `null`.
    private func viaValueIfPresent<T: Decodable>(_ type: T.Type, _ index: Int, _ key: Key) throws -> T? {
        let value = made(index)
        return value.isNull ? nil : try ValueDecoder.decode(T.self, from: value, codingPath: codingPath + [key])
    }

    /// Whether the key's value is `null` (or its default is); a key the object does not have
    /// is an error, as JSONDecoder throws it.
    func decodeNil(forKey key: Key) throws -> Bool {
        let index = try require(key)
        switch context.nodes[first &+ index].kind {
        case .null: return true
        case .missing: return plan.initialMembers[index].value.isNull
        default: return false
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(T.self, at: try require(key), key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = find(key), try !decodeNil(forKey: key) else { return nil }
        return try decode(T.self, at: index, key: key)
    }

    /// `T` from field `index`: the types `ValueDecoder` reads straight are read straight here,
    /// objects, arrays and raw-value enums through a nested `TapeDecoder`, the rest through
    /// `ValueDecoder` on the field's value.
    private func decode<T: Decodable>(_ type: T.Type, at index: Int, key: Key) throws -> T {
        let slot = first &+ index
        let node = context.nodes[slot]
        switch node.kind {
        case .string, .escapedString:
            if T.self == String.self, let string = context.string(at: slot) { return (string as! T) }
            if T.self == URL.self || T.self == Data.self { return try viaValue(T.self, index, key) }
        case .double, .date, .int:
            if T.self == Date.self, let seconds = context.double(at: slot) {
                return (Date(timeIntervalSinceReferenceDate: seconds) as! T)
            }
            if T.self == Double.self || T.self == Int.self || T.self == Bool.self || T.self == Decimal.self {
                return try viaValue(T.self, index, key)
            }
        case .array:
            if T.self == [String].self {
                var strings: [String] = []
                strings.reserveCapacity(node.b)
                for element in node.a ..< node.a &+ node.b {
                    guard let string = context.string(at: element) else { return try viaValue(T.self, index, key) }
                    strings.append(string)
                }
                return (strings as! T)
            }
            // An array of arrays is made whole; any other is read element by element.
            if plan.fields[index].items?.kind == .array { return try viaValue(T.self, index, key) }
        case .object:
            break
        default:
            return try viaValue(T.self, index, key)
        }
        return try T(from: TapeDecoder(context: context, slot: slot, parentHeader: header, field: plan.fields[index]))
    }

    /// The field's value when its key was absent or `null`: its default, read in place.
    private func absent(_ index: Int) -> Value? {
        switch context.nodes[first &+ index].kind {
        case .missing: plan.initialMembers[index].value
        case .null: .null
        default: nil
        }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = try require(key)
        if let string = context.string(at: first &+ index) { return string }
        if case .string(let string)? = absent(index) { return string }
        return try viaValue(String.self, index, key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = find(key) else { return nil }
        if let string = context.string(at: first &+ index) { return string }
        switch absent(index) {
        case .null?: return nil
        case .string(let string)?: return string
        default: break
        }
        return try viaValueIfPresent(String.self, index, key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let index = try require(key)
        if let double = context.double(at: first &+ index) { return double }
        return try viaValue(Double.self, index, key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = find(key) else { return nil }
        if let double = context.double(at: first &+ index) { return double }
        if case .null? = absent(index) { return nil }
        return try viaValueIfPresent(Double.self, index, key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let index = try require(key)
        let node = context.nodes[first &+ index]
        if node.kind == .int { return node.a }
        if case .int(let int)? = absent(index) { return int }
        return try viaValue(Int.self, index, key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = find(key) else { return nil }
        let node = context.nodes[first &+ index]
        if node.kind == .int { return node.a }
        switch absent(index) {
        case .null?: return nil
        case .int(let int)?: return int
        default: break
        }
        return try viaValueIfPresent(Int.self, index, key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try require(key)
        let node = context.nodes[first &+ index]
        if node.kind == .bool { return node.a != 0 }
        return try viaValue(Bool.self, index, key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try require(key)
        if context.nodes[first &+ index].kind == .object {
            return try TapeDecoder(context: context, slot: first &+ index, parentHeader: header, field: plan.fields[index]).container(keyedBy: type)
        }
        return try ValueDecoder(value: made(index), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try require(key)
        if context.nodes[first &+ index].kind == .array {
            return try TapeDecoder(context: context, slot: first &+ index, parentHeader: header, field: plan.fields[index]).unkeyedContainer()
        }
        return try ValueDecoder(value: made(index), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// The value of the key `super`, as JSONDecoder gives it (`null` when there is none).
    func superDecoder() throws -> any Decoder {
        let index = plan.memberNames.firstIndex(of: "super")
        return ValueDecoder(value: index.map(made) ?? .null, codingPath: codingPath + [StateKey.name("super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: find(key).map(made) ?? .null, codingPath: codingPath + [key])
    }
}

/// A tape array's elements, in order: objects through a nested `TapeDecoder`, strings, integers,
/// doubles and booleans straight from their nodes, anything else (and an element of another
/// type than asked for) through `ValueDecoder` on the element's value, with the coding path and
/// errors of `ValueDecoder`'s own unkeyed container. The elements' nodes are consecutive (see
/// `TapeNode`); an array of arrays is never read here (`TapeDecoder.unkeyedContainer`).
private struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    /// The decoder of the array: the context, the array's node, and its coding path.
    let array: TapeDecoder
    /// The node of the first element.
    let first: Int
    private let elementCount: Int
    /// Unretained: the tape keeps the plan alive (see `TapeKeyedContainer`).
    private let itemsReference: Unmanaged<FieldPlan>
    private(set) var currentIndex = 0

    init(array: TapeDecoder, items: FieldPlan) {
        self.array = array
        let node = array.context.nodes[array.slot]
        first = node.a
        elementCount = node.b
        itemsReference = .passUnretained(items)
    }

    private var context: TapeDecoding { array.context }
    private var items: FieldPlan { itemsReference.takeUnretainedValue() }

    var codingPath: [any CodingKey] { array.codingPath }

    var count: Int? { elementCount }

    var isAtEnd: Bool { currentIndex >= elementCount }

    /// The next element's node, the index moved past it.
    private mutating func next() throws -> Int {
        guard !isAtEnd else { throw DecodingError.pastTheEnd(codingPath, currentIndex) }
        defer { currentIndex &+= 1 }
        return first &+ currentIndex
    }

    /// The element at `slot` made whole, and its coding path.
    private func made(_ slot: Int) -> (Value, [any CodingKey]) {
        (context.made(slot, items, missing: .null), codingPath + [StateKey.index(slot &- first)])
    }

    /// `T` from the element at `slot` through `ValueDecoder`.
    private func viaValue<T: Decodable>(_ type: T.Type, _ slot: Int) throws -> T {
        let (value, path) = made(slot)
        return try ValueDecoder.decode(T.self, from: value, codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        // Past the end, JSONDecoder throws, as every `decode` does there.
        if isAtEnd { throw DecodingError.pastTheEnd(codingPath, currentIndex) }
        let slot = first &+ currentIndex
        switch context.nodes[slot].kind {
        case .null: break
        case .made, .missing: guard made(slot).0.isNull else { return false }
        default: return false
        }
        currentIndex &+= 1
        return true
    }

    /// `Array`'s `init(from:)` asks for its elements here, whatever their type: the four read
    /// straight are sent to their own methods.
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try decode(String.self) as! T }
        if T.self == Int.self { return try decode(Int.self) as! T }
        if T.self == Double.self { return try decode(Double.self) as! T }
        if T.self == Bool.self { return try decode(Bool.self) as! T }
        let slot = try next()
        if context.nodes[slot].kind == .object {
            return try T(from: TapeDecoder(context: context, slot: slot, parentHeader: -1, field: items))
        }
        return try viaValue(T.self, slot)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let slot = try next()
        return try context.string(at: slot) ?? viaValue(String.self, slot)
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let slot = try next()
        let node = context.nodes[slot]
        return node.kind == .int ? node.a : try viaValue(Int.self, slot)
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let slot = try next()
        return try context.double(at: slot) ?? viaValue(Double.self, slot)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let slot = try next()
        let node = context.nodes[slot]
        return node.kind == .bool ? node.a != 0 : try viaValue(Bool.self, slot)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let slot = try next()
        if context.nodes[slot].kind == .object {
            return try TapeDecoder(context: context, slot: slot, parentHeader: -1, field: items).container(keyedBy: type)
        }
        let (value, path) = made(slot)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = made(try next())
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = made(try next())
        return ValueDecoder(value: value, codingPath: path)
    }
}

/// A single value on the tape: raw-value enums read their string or integer here.
private struct TapeSingleValueContainer: SingleValueDecodingContainer {
    /// Three words, as the decoder: `any SingleValueDecodingContainer` holds it inline.
    let decoder: TapeDecoder

    private var slot: Int { decoder.slot }

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.context.nodes[slot].kind == .null }

    func decode(_ type: String.Type) throws -> String {
        if let string = decoder.context.string(at: slot) { return string }
        return try decoder.valueDecoder().singleValueContainer().decode(String.self)
    }

    func decode(_ type: Int.Type) throws -> Int {
        let node = decoder.context.nodes[slot]
        if node.kind == .int { return node.a }
        return try decoder.valueDecoder().singleValueContainer().decode(Int.self)
    }

    func decode(_ type: Double.Type) throws -> Double {
        if let double = decoder.context.double(at: slot) { return double }
        return try decoder.valueDecoder().singleValueContainer().decode(Double.self)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.valueDecoder().singleValueContainer().decode(Bool.self) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.valueDecoder().singleValueContainer().decode(Float.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.valueDecoder().singleValueContainer().decode(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.valueDecoder().singleValueContainer().decode(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.valueDecoder().singleValueContainer().decode(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.valueDecoder().singleValueContainer().decode(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.valueDecoder().singleValueContainer().decode(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.valueDecoder().singleValueContainer().decode(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.valueDecoder().singleValueContainer().decode(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.valueDecoder().singleValueContainer().decode(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.valueDecoder().singleValueContainer().decode(UInt64.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.valueDecoder().singleValueContainer().decode(T.self)
    }
}
