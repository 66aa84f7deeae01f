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
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(ValueText.render(value))"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements):
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        case .dateRange(let lower, let upper):
            return UnkeyedContainer(elements: [.date(lower), .date(upper)], codingPath: codingPath)
        default:
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(ValueText.render(value))"))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes `T` from `value`, with the special cases for `Date`, `URL` and date-ranges.
    static func decode<T: Decodable>(_ type: T.Type, from value: Value, codingPath: [any CodingKey]) throws -> T {
        if T.self == Date.self {
            switch value {
            case .date(let seconds), .double(let seconds):
                return Date(timeIntervalSinceReferenceDate: seconds) as! T
            case .int(let seconds):
                return Date(timeIntervalSinceReferenceDate: Double(seconds)) as! T
            default: break
            }
        }
        if T.self == URL.self, case .string(let string) = value {
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "'\(string)' is not a URL"))
            }
            return url as! T
        }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [Value.Member]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.name) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> Value? {
        let name = key.stringValue
        for member in members where member.name == name {
            return member.value
        }
        return nil
    }

    private func require(_ key: Key) throws -> Value {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the schema version has no field '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { find(key)?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.decode(T.self, from: require(key), codingPath: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = find(key), !value.isNull else { return nil }
        return try ValueDecoder.decode(T.self, from: value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: require(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: require(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), codingPath: codingPath) }

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
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try ValueDecoder.decode(T.self, from: value, codingPath: path)
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

    private func mismatch<T>(_ type: T.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found \(ValueText.render(value))"))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .double(let double), .date(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let int):
            guard let exact = T(exactly: int) else { throw mismatch(type) }
            return exact
        case .double(let double), .date(let double):
            guard let exact = T(exactly: double) else { throw mismatch(type) }
            return exact
        default: throw mismatch(type)
        }
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
