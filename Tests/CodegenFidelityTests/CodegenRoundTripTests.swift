import Foundation
import LiveState
import Testing

/// `encode(to:)` writes what synthesized `Codable` writes, and reads back unchanged through
/// the generated `init(from:)` and through `ContentStateDecoder`.
@Suite struct CodegenRoundTripTests {
    @Test(arguments: GeneratedVersion.all)
    func encodedStateDecodesBackUnchangedThroughBothDecoders(_ generated: GeneratedVersion) throws {
        let decoder = try Fidelity.decoder(generated)
        let fields = decoder.version.contentState
        var roundTrips = 0
        for payload in try RoundTrip.decodablePayloads(generated, fields: fields) {
            guard case .success(let value) = generated.contentState.decode(payload) else { continue }
            let encoded = try generated.contentState.encode(value)
            let text = String(decoding: encoded, as: UTF8.self)
            guard case .success(let again) = generated.contentState.decode(encoded) else {
                Issue.record("\(generated.testDescription): the generated type cannot decode its own output \(text)")
                continue
            }
            #expect(generated.contentState.equal(value, again), "\(generated.testDescription): \(text)")
            let library = decoder.decode(contentState: encoded)
            let noise = library.diagnostics.filter { $0.code != "defaulted" && $0.code != "unix-date-in-date-field" }
            #expect(noise.isEmpty, "\(generated.testDescription): \(text) → \(noise.map(\.description))")
            let state = try #require(library.state, "\(generated.testDescription): ContentStateDecoder rejects \(text)")
            #expect(StateComparison.value(of: value, fields: fields) == StateComparison.normalized(state, fields: fields), "\(text)")
            #expect(KeyOrderRecorder.keys(of: value) == RoundTrip.expectedKeys(of: value, fields: fields), "\(text)")
            roundTrips += 1
        }
        #expect(roundTrips > 0)
    }

    @Test func optionalFieldWithADefaultWritesNilAsNullSoItReadsBackAsNil() throws {
        let state = EdgeCasesV1.EdgeCaseAttributes.ContentState(
            requiredText: "t", optionalWithDefault: nil, requiredObject: .init())
        let encoded = try JSONEncoder().encode(state)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""optionalWithDefault":null"#))
        #expect(!text.contains("rejectOptional"))
        #expect(try JSONDecoder().decode(EdgeCasesV1.EdgeCaseAttributes.ContentState.self, from: encoded) == state)
    }

    @Test(arguments: SynthesizedTwin.all)
    func encodeWritesTheBytesSynthesizedCodableWrites(_ twin: SynthesizedTwin) throws {
        let generated = try #require(GeneratedVersion.all.first { $0.activity == twin.activity && $0.version == twin.version })
        let decoder = try Fidelity.decoder(generated)
        var compared = 0
        for payload in try RoundTrip.decodablePayloads(generated, fields: decoder.version.contentState) {
            guard case .success(let value) = generated.contentState.decode(payload) else { continue }
            let result = decoder.decode(contentState: payload)
            guard result.state != nil else { continue }
            let synthesized = try twin.encodeLibraryState(decoder, payload)
            let encoded = try generated.contentState.encodeSorted(value)
            #expect(
                encoded == synthesized,
                "\(String(decoding: payload, as: UTF8.self)): generated \(String(decoding: encoded, as: UTF8.self)), synthesized \(String(decoding: synthesized, as: UTF8.self))")
            compared += 1
        }
        #expect(compared > 10)
    }
}

enum RoundTrip {
    /// Content-states the generated type may decode: the examples' and their mutations.
    static func decodablePayloads(_ generated: GeneratedVersion, fields: [Field]) throws -> [Data] {
        var payloads: [Data] = []
        for base in try Fidelity.contentStateBases(generated.activity, fields: fields) {
            payloads.append(base.data)
            payloads += PayloadMutations.all(of: base, fields: fields).map(\.payload.data)
        }
        return payloads
    }

    /// The keys synthesized `Codable` writes: every field in schema order, a `nil` optional
    /// without a default left out.
    static func expectedKeys(of value: any Sendable, fields: [Field]) -> [String] {
        guard case .object(let members) = StateComparison.value(of: value, fields: fields) else { return [] }
        return zip(members, fields).compactMap { member, field in
            member.value.isNull && field.isOptional && (field.defaultValue?.isNull ?? true) ? nil : field.name
        }
    }
}

/// A hand-written `ContentState` with synthesized `Codable`, as an app would declare it.
struct SynthesizedTwin: Sendable, CustomTestStringConvertible {
    let activity: String
    let version: Int
    /// Decodes the library's state for the payload into the twin (through `ContentStateDecoder`'s
    /// typed decoding) and encodes it with a `JSONEncoder` that sorts keys (without it, the
    /// order of keys in Foundation's output on Linux varies from run to run).
    let encodeLibraryState: @Sendable (ContentStateDecoder, Data) throws -> Data

    init<T: Codable & Sendable>(_ activity: String, _ version: Int, _ type: T.Type) {
        self.activity = activity
        self.version = version
        encodeLibraryState = { decoder, payload in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(try decoder.decode(contentState: payload).decode(T.self))
        }
    }

    var testDescription: String { "\(activity) v\(version)" }

    static let all: [SynthesizedTwin] = [
        .init("delivery", 3, DeliveryV3Synthesized.self),
        .init("flash-sale", 2, FlashSaleV2Synthesized.self),
        .init("grocery", 3, GroceryV3Synthesized.self),
        .init("pizza", 2, PizzaV2Synthesized.self),
    ]
}

struct DeliveryV3Synthesized: Codable, Sendable {
    enum Status: String, Codable { case pending, preparing, delivering, delivered, delayed }
    struct Courier: Codable, Sendable {
        var name: String
        var rating: Double
    }

    var logo: String
    var title: String
    var subtitle: String
    var progress: Double
    var eta: Date
    var etaText: String
    var status: Status
    var delayMinutes: Int
    var courier: Courier
    var items: [String]
    var note: String?
    var badge: String
}

struct FlashSaleV2Synthesized: Codable, Sendable {
    var isSeckill: Bool
    var remaining: Int
    var endsAt: Date
    var deepLink: URL?
}

struct GroceryV3Synthesized: Codable, Sendable {
    enum Stage: String, Codable {
        case picking, packing, arrived
        case onTheWay = "on-the-way"
    }

    struct Substitution: Codable, Sendable {
        var original: String
        var replacement: String
    }

    var statusText: String
    var minutesLeft: Int
    var progress: Double
    var riderName: String
    var stage: Stage
    var deliverBy: Date
    var itemCount: Int
    var substitutions: [Substitution]
}

struct PizzaV2Synthesized: Codable, Sendable {
    enum Status: Int, Codable { case waiting = 1, delivering, done, cancelled }

    var name: String
    var status: Status
    var timer: ClosedRange<Date>
    var driverName: String
}

/// An `Encoder` that records the keys a value's `encode(to:)` writes at its top level, in order.
final class KeyOrderRecorder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    private(set) var keys: [String] = []

    static func keys(of value: any Sendable) -> [String] {
        let recorder = KeyOrderRecorder()
        try? (value as? any Encodable)?.encode(to: recorder)
        return recorder.keys
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("not used at the top level") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("not used at the top level") }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: KeyOrderRecorder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) { recorder.keys.append(key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { recorder.keys.append(key.stringValue) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            recorder.keys.append(key.stringValue)
            return KeyedEncodingContainer(Container<NestedKey>(recorder: KeyOrderRecorder()))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { fatalError("not used") }
        mutating func superEncoder() -> any Encoder { KeyOrderRecorder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { KeyOrderRecorder() }
    }
}
