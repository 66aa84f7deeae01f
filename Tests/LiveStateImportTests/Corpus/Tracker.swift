import Foundation

/// A ContentState synthesized `Codable` decodes, whose properties have property wrappers
/// declared beside it, in the shapes teams and libraries write them: a wrapper whose
/// `init(from:)` takes a value of another type as its default, with a `KeyedDecodingContainer`
/// method that takes a missing key or `null` as the same default (written as an `if let`); one
/// whose `init(from:)` refuses such a value, with a method of one line (`?? .init()`, the default
/// the wrapper's `wrappedValue` starts with; and `?? Wrapper(wrappedValue: 0)`); and one without
/// such a method, which changes nothing; and a generic wrapper whose default is its strategy's
/// (BetterCodable's `DefaultCodable` shape), named directly and through a typealias. The version
/// is not a strict client.
struct TrackerAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        @LenientFalse var isLive: Bool
        @EmptyIfAbsent var laps: [Int]
        @ZeroIfAbsent var steps: Int
        @Verbatim var title: String
        @LenientFalse var paused: Bool
        @Defaulted<NoSubtitle> var subtitle: String
        @RetriesOrZero var retries: Int
        var pace: Double?
    }
    @ZeroIfAbsent var goal: Int
    var runner: String
}

@propertyWrapper
struct LenientFalse: Codable, Hashable {
    var wrappedValue: Bool

    init(wrappedValue: Bool) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = (try? container.decode(Bool.self)) ?? false
    }

    func encode(to encoder: Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

@propertyWrapper
struct EmptyIfAbsent<Element: Codable & Hashable & Sendable>: Hashable, Sendable {
    var wrappedValue: [Element] = []

    init() {}
}

extension EmptyIfAbsent: Codable {
    init(from decoder: Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode([Element].self)
    }

    func encode(to encoder: Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

@propertyWrapper
struct ZeroIfAbsent: Codable, Hashable {
    var wrappedValue: Int

    init(wrappedValue: Int) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.wrappedValue = try container.decode(Int.self)
    }

    func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

/// A wrapper that decodes its value as the property would: no method of its own for a missing key.
@propertyWrapper
struct Verbatim: Codable, Hashable {
    var wrappedValue: String

    init(wrappedValue: String) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

protocol DefaultStrategy {
    associatedtype Value: Codable & Hashable & Sendable
    static var defaultValue: Value { get }
}

enum NoSubtitle: DefaultStrategy {
    static var defaultValue: String { "none" }
}

enum ZeroRetries: DefaultStrategy {
    static let defaultValue = 0
}

typealias RetriesOrZero = Defaulted<ZeroRetries>

@propertyWrapper
struct Defaulted<Strategy: DefaultStrategy>: Codable, Hashable, Sendable {
    var wrappedValue: Strategy.Value

    init(wrappedValue: Strategy.Value) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = (try? container.decode(Strategy.Value.self)) ?? Strategy.defaultValue
    }

    func encode(to encoder: Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    func decode<S>(_: Defaulted<S>.Type, forKey key: Key) throws -> Defaulted<S> {
        if let value = try decodeIfPresent(Defaulted<S>.self, forKey: key) {
            return value
        }
        return Defaulted(wrappedValue: S.defaultValue)
    }

    func decode(_ type: LenientFalse.Type, forKey key: Key) throws -> LenientFalse {
        if let value = try decodeIfPresent(type, forKey: key) {
            return value
        } else {
            return LenientFalse(wrappedValue: false)
        }
    }

    func decode<T>(_ type: EmptyIfAbsent<T>.Type, forKey key: Key) throws -> EmptyIfAbsent<T> {
        try decodeIfPresent(type, forKey: key) ?? .init()
    }

    func decode(_: ZeroIfAbsent.Type, forKey key: Key) throws -> ZeroIfAbsent {
        try self.decodeIfPresent(ZeroIfAbsent.self, forKey: key) ?? ZeroIfAbsent(wrappedValue: 0)
    }
}
