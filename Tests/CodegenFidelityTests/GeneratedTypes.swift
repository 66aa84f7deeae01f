import Foundation
import LiveState
import Testing

/// What the tests need of a generated `ActivityAttributes` type, whatever its namespace.
protocol GeneratedAttributes: Codable, Hashable, Sendable {
    associatedtype ContentState: Codable, Hashable, Sendable
}

extension DeliveryV1.DeliveryAttributes: GeneratedAttributes {}
extension DeliveryV2.DeliveryAttributes: GeneratedAttributes {}
extension DeliveryV3.DeliveryAttributes: GeneratedAttributes {}
extension FlashSaleV1.FlashSaleAttributes: GeneratedAttributes {}
extension FlashSaleV2.FlashSaleAttributes: GeneratedAttributes {}
extension GroceryV1.GroceryDeliveryAttributes: GeneratedAttributes {}
extension GroceryV2.GroceryDeliveryAttributes: GeneratedAttributes {}
extension GroceryV3.GroceryDeliveryAttributes: GeneratedAttributes {}
extension MatchScoreV1.MatchScoreAttributes: GeneratedAttributes {}
extension MatchScoreV2.MatchScoreAttributes: GeneratedAttributes {}
extension MatchScoreV3.MatchScoreAttributes: GeneratedAttributes {}
extension PizzaV1.PizzaDeliveryAttributes: GeneratedAttributes {}
extension PizzaV2.PizzaDeliveryAttributes: GeneratedAttributes {}
extension EdgeCasesV1.EdgeCaseAttributes: GeneratedAttributes {}

/// A generated type's decode and encode, without naming the type.
struct GeneratedCodec: Sendable {
    /// Decodes with a stock `JSONDecoder`: the value, or the error.
    let decode: @Sendable (Data) -> Result<any Sendable, any Error>
    /// Decodes the `aps.content-state` of a whole APNs body.
    let decodeBody: @Sendable (Data) -> Result<any Sendable, any Error>
    /// Encodes a value this codec decoded, with a stock `JSONEncoder`.
    let encode: @Sendable (any Sendable) throws -> Data
    /// Encodes with keys sorted, to compare bytes.
    let encodeSorted: @Sendable (any Sendable) throws -> Data
    /// Whether two values this codec decoded are equal.
    let equal: @Sendable (any Sendable, any Sendable) -> Bool

    static func of<T: Codable & Hashable & Sendable>(_ type: T.Type) -> GeneratedCodec {
        GeneratedCodec(
            decode: { data in Result { try JSONDecoder().decode(T.self, from: data) } },
            decodeBody: { data in Result { try JSONDecoder().decode(APNsBody<T>.self, from: data).aps.contentState } },
            encode: { value in try JSONEncoder().encode(value as! T) },
            encodeSorted: { value in
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                return try encoder.encode(value as! T)
            },
            equal: { lhs, rhs in (lhs as? T) == (rhs as? T) })
    }
}

/// `{"aps": {"content-state": …}}`, decoded as the device does.
private struct APNsBody<State: Decodable>: Decodable {
    struct APS: Decodable {
        var contentState: State
        enum CodingKeys: String, CodingKey { case contentState = "content-state" }
    }

    var aps: APS
}

/// One schema version and the types generated for it.
struct GeneratedVersion: Sendable, CustomTestStringConvertible {
    let activity: String
    let version: Int
    let contentState: GeneratedCodec
    let attributes: GeneratedCodec

    init<A: GeneratedAttributes>(_ activity: String, _ version: Int, _ type: A.Type) {
        self.activity = activity
        self.version = version
        contentState = .of(A.ContentState.self)
        attributes = .of(A.self)
    }

    var testDescription: String { "\(activity) v\(version)" }

    /// Every version of every schema in `CodegenPaths.schemaFiles`.
    static let all: [GeneratedVersion] = [
        .init("delivery", 1, DeliveryV1.DeliveryAttributes.self),
        .init("delivery", 2, DeliveryV2.DeliveryAttributes.self),
        .init("delivery", 3, DeliveryV3.DeliveryAttributes.self),
        .init("flash-sale", 1, FlashSaleV1.FlashSaleAttributes.self),
        .init("flash-sale", 2, FlashSaleV2.FlashSaleAttributes.self),
        .init("grocery", 1, GroceryV1.GroceryDeliveryAttributes.self),
        .init("grocery", 2, GroceryV2.GroceryDeliveryAttributes.self),
        .init("grocery", 3, GroceryV3.GroceryDeliveryAttributes.self),
        .init("match-score", 1, MatchScoreV1.MatchScoreAttributes.self),
        .init("match-score", 2, MatchScoreV2.MatchScoreAttributes.self),
        .init("match-score", 3, MatchScoreV3.MatchScoreAttributes.self),
        .init("pizza", 1, PizzaV1.PizzaDeliveryAttributes.self),
        .init("pizza", 2, PizzaV2.PizzaDeliveryAttributes.self),
        .init("edge-cases", 1, EdgeCasesV1.EdgeCaseAttributes.self),
    ]
}
