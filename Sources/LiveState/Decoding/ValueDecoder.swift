import Foundation

/// A `Decoder` over a decoded `Value` tree, so any `Decodable` type can take a tolerant decode.
///
/// Dates decode as `Date` (or as `Double` seconds since 2001-01-01), date-ranges as
/// `ClosedRange<Date>` (or as a two-element array), URLs as `URL` or `String`.
struct ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: Value, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw Primitive.mismatch([String: Any].self, value, codingPath, expected: "an object") }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements):
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        case .dateRange(let lower, let upper):
            return UnkeyedContainer(elements: [.date(lower), .date(upper)], codingPath: codingPath)
        default:
            throw Primitive.mismatch([Any].self, value, codingPath, expected: "an array")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes `T` from `value`, with the special cases for `Date`, `URL`, `Data` (base64) and
    /// date-ranges.
    static func decode<T: Decodable>(_ type: T.Type, from value: Value, codingPath: [any CodingKey]) throws -> T {
        if let special = try special(T.self, from: value, codingPath: codingPath) { return special }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }

    /// Decodes `T` from the value of `key` in a container at `parentPath`; the coding path is
    /// made only when a nested decoder or an error needs it.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: Value, parentPath: [any CodingKey], key: any CodingKey
    ) throws -> T {
        if let special = try special(T.self, from: value, codingPath: parentPath + [key]) { return special }
        return try T(from: ValueDecoder(value: value, codingPath: parentPath + [key]))
    }

    /// The types read straight from the value: `Date`, `URL`, `Data` (base64), and arrays of strings, integers,
    /// doubles or booleans (whose `Decodable` conformance is the standard library's, so reading
    /// them here is what it would do, with one allocation instead of a growing array).
    /// `nil` for every other type, and for an array that holds anything else.
    @inline(__always)
    private static func special<T: Decodable>(
        _ type: T.Type, from value: Value, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T? {
        if T.self == Date.self {
            return value.number.map { Date(timeIntervalSinceReferenceDate: $0) as! T }
        }
        if T.self == Decimal.self {
            guard let number = value.number else { throw Primitive.mismatch(Decimal.self, value, codingPath()) }
            guard let decimal = value.decimalValue else {
                throw Primitive.doesNotFit(number, Decimal.self, codingPath())
            }
            return (decimal as! T)
        }
        if T.self == URL.self, case .string(let string) = value {
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "'\(string)' is not a URL"))
            }
            return (url as! T)
        }
        if T.self == Data.self, case .string(let string) = value {
            // JSONDecoder's default `.base64` strategy.
            guard let data = Data(base64Encoded: string) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "'\(string)' is not base64"))
            }
            return (data as! T)
        }
        guard case .array(let elements) = value else { return nil }
        if T.self == [String].self {
            return elements.mapIfAll { if case .string(let string) = $0 { string } else { nil } }.map { $0 as! T }
        }
        if T.self == [Int].self {
            return elements.mapIfAll { if case .int(let int) = $0 { int } else { nil } }.map { $0 as! T }
        }
        if T.self == [Double].self {
            return elements.mapIfAll(\.number).map { $0 as! T }
        }
        if T.self == [Bool].self {
            return elements.mapIfAll { if case .bool(let bool) = $0 { bool } else { nil } }.map { $0 as! T }
        }
        return nil
    }
}

extension Array {
    /// The transformed elements, in one allocation; `nil` as soon as one does not transform.
    fileprivate func mapIfAll<U>(_ transform: (Element) -> U?) -> [U]? {
        var result: [U] = []
        result.reserveCapacity(count)
        for element in self {
            guard let transformed = transform(element) else { return nil }
            result.append(transformed)
        }
        return result
    }
}

/// Reading primitives straight out of a `Value`, for all three containers: no nested decoder,
/// no boxed container, and the coding path is built only when a mismatch is thrown.
enum Primitive {
    /// What JSONDecoder throws for a value of another type: `valueNotFound` for `null`,
    /// `typeMismatch` for the rest.
    static func mismatch<T>(_ type: T.Type, _ value: Value, _ codingPath: [any CodingKey], expected: String? = nil) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected ?? "\(type)"), found \(ValueText.render(value))")
        return value.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    /// What JSONDecoder throws for a number the type does not hold: `dataCorrupted`.
    static func doesNotFit<T>(_ number: some CustomStringConvertible, _ type: T.Type, _ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
    }

    /// A `Float` as JSONDecoder reads one, from the number's text, by the rule of `format:
    /// float` (`Field.NumberFormat.float.holds`): not through a `Double` (`1e39` became
    /// infinity, `1e-50` zero, and a number between two `Float`s could round twice).
    static func float(_ value: Value, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
        let number = try double(value, codingPath())
        guard Field.NumberFormat.float.holds(number), let float = value.floatValue else {
            throw doesNotFit(number, Float.self, codingPath())
        }
        return float
    }

    @inline(__always)
    static func bool(_ value: Value, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, codingPath()) }
        return bool
    }

    @inline(__always)
    static func string(_ value: Value, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, codingPath()) }
        return string
    }

    @inline(__always)
    static func double(_ value: Value, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        guard let number = value.number else { throw mismatch(Double.self, value, codingPath()) }
        return number
    }

    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: Value, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> T {
        switch value {
        case .int(let int):
            guard let exact = T(exactly: int) else { throw doesNotFit(int, type, codingPath()) }
            return exact
        case .uint(let uint):
            guard let exact = T(exactly: uint) else { throw doesNotFit(uint, type, codingPath()) }
            return exact
        case .double(let double), .date(let double):
            guard let exact = T(exactly: double) else { throw doesNotFit(double, type, codingPath()) }
            return exact
        default: throw mismatch(type, value, codingPath())
        }
    }
}

extension DecodingError {
    /// What both of LiveState's unkeyed containers throw past an array's last element: the
    /// path names the element asked for, as JSONDecoder's does.
    static func pastTheEnd(_ codingPath: [any CodingKey], _ index: Int) -> DecodingError {
        .valueNotFound(Any.self, .init(codingPath: codingPath + [StateKey.index(index)], debugDescription: "the array has no element \(index)"))
    }

    /// What both of LiveState's `Decoder`s (`ValueDecoder`, `TapeDecoder`) throw for a key the
    /// schema version does not have.
    static func noField(_ key: some CodingKey, codingPath: [any CodingKey]) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the schema version has no field '\(key.stringValue)'"))
    }
}

/// A coding key of the paths LiveState's decoders and encoder make: a field's name, an array
/// element's index, or a JSON Pointer's reference token (also an index when it is a number).
/// An enum, so that it stays inside an existential's inline buffer in `[any CodingKey]`.
enum StateKey: CodingKey {
    case name(String)
    case index(Int)
    case token(String)

    var stringValue: String {
        switch self {
        case .name(let name), .token(let name): name
        case .index(let index): String(index)
        }
    }

    var intValue: Int? {
        switch self {
        case .name: nil
        case .index(let index): index
        case .token(let token): Int(token)
        }
    }

    init?(stringValue: String) { self = .name(stringValue) }
    init?(intValue: Int) { self = .index(intValue) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [Value.Member]
    let codingPath: [any CodingKey]
    /// Where the next lookup starts: after the member found last. Synthesized `init(from:)`
    /// asks for the keys in declaration order, which is mostly schema order, so most lookups
    /// compare one name. A class, because the container's methods are not mutating.
    private let cursor = Cursor()

    private final class Cursor {
        var next = 0
    }

    init(members: [Value.Member], codingPath: [any CodingKey]) {
        self.members = members
        self.codingPath = codingPath
    }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.name) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> Value? {
        let name = key.stringValue
        guard let index = firstIndex(from: cursor.next, count: members.count, where: { members[$0].name == name }) else {
            return nil
        }
        cursor.next = index &+ 1
        return members[index].value
    }

    private func require(_ key: Key) throws -> Value {
        guard let value = find(key) else {
            throw DecodingError.noField(key, codingPath: codingPath)
        }
        return value
    }

    /// Whether the key's value is `null`; a key the object does not have is an error, as
    /// JSONDecoder throws it.
    func decodeNil(forKey key: Key) throws -> Bool { try require(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.decode(T.self, from: require(key), parentPath: codingPath, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = find(key), !value.isNull else { return nil }
        return try ValueDecoder.decode(T.self, from: value, parentPath: codingPath, key: key)
    }

    // The primitives, read in place (the generic paths above would build a decoder and a path).
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Primitive.bool(require(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Primitive.string(require(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Primitive.double(require(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try Primitive.float(require(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Primitive.integer(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Primitive.integer(type, require(key), codingPath + [key]) }

    private func present(_ key: Key) -> Value? {
        guard let value = find(key), !value.isNull else { return nil }
        return value
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try Primitive.bool($0, codingPath + [key]) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try Primitive.string($0, codingPath + [key]) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try Primitive.double($0, codingPath + [key]) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try Primitive.float($0, codingPath + [key]) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try Primitive.integer(type, $0, codingPath + [key]) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try Primitive.integer(type, $0, codingPath + [key]) } }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: require(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: require(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// The value of the key `super`, as JSONDecoder gives it (`null` when there is none).
    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members.first { $0.name == "super" }?.value ?? .null, codingPath: codingPath + [StateKey.name("super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: find(key) ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [Value], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (Value, [any CodingKey]) {
        guard !isAtEnd else { throw DecodingError.pastTheEnd(codingPath, currentIndex) }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [StateKey.index(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        // Past the end, JSONDecoder throws, as every `decode` does there.
        if isAtEnd { throw DecodingError.pastTheEnd(codingPath, currentIndex) }
        guard elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try ValueDecoder.decode(T.self, from: value, codingPath: path)
    }

    /// The next element for a primitive read, and its index; no coding path is built.
    private mutating func nextValue() throws -> (Value, Int) {
        guard !isAtEnd else { throw DecodingError.pastTheEnd(codingPath, currentIndex) }
        defer { currentIndex += 1 }
        return (elements[currentIndex], currentIndex)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, index) = try nextValue()
        return try Primitive.bool(value, codingPath + [StateKey.index(index)])
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (value, index) = try nextValue()
        return try Primitive.string(value, codingPath + [StateKey.index(index)])
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, index) = try nextValue()
        return try Primitive.double(value, codingPath + [StateKey.index(index)])
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let (value, index) = try nextValue()
        return try Primitive.integer(type, value, codingPath + [StateKey.index(index)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool { try Primitive.bool(value, codingPath) }

    func decode(_ type: String.Type) throws -> String { try Primitive.string(value, codingPath) }

    func decode(_ type: Double.Type) throws -> Double { try Primitive.double(value, codingPath) }

    func decode(_ type: Float.Type) throws -> Float { try Primitive.float(value, codingPath) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try Primitive.integer(type, value, codingPath)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder.decode(T.self, from: value, codingPath: codingPath)
    }
}
