import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML

/// An activity the benchmarks decode: its schema in `schemas/`, the content-state type the app
/// declares (synthesized `Codable`), and the hand-written tolerant `JSONDecoder` type a team
/// writes today without LiveState.
public protocol BenchmarkActivity {
    /// The content-state as the app declares it, with synthesized `Codable`.
    associatedtype State: Codable, Sendable, Hashable
    /// The same state read by a hand-written tolerant `init(from:)`.
    associatedtype Tolerant: Decodable
    /// A whole APNs body around the state, as `JSONDecoder` reads it.
    associatedtype Push: Decodable

    /// The schema file's stem in `schemas/`.
    static var schemaName: String { get }
    /// The newest version: the one every benchmark decodes as.
    static var newestVersion: Int { get }
    /// The schema, loaded once (`loadSchema()`).
    static var schema: Schema { get }

    /// The state a tolerant decode read.
    static func state(tolerant: Tolerant) -> State
    /// The content-state of a body.
    static func state(push: Push) -> State
    /// The state with each `nil` that `JSONDecoder` leaves for a missing key replaced by the
    /// schema's default, as LiveState decodes it.
    static func withSchemaDefaults(_ state: State) -> State
    /// A figure that depends on the state, so that no decode is optimized away.
    static func checksum(_ state: State) -> Int
}

extension BenchmarkActivity {
    /// The path of the schema file in the repository this package sits in.
    public static var path: String { Payloads.repositoryRoot + "/schemas/\(schemaName).yaml" }

    /// Loads the schema with `LiveStateYAML`'s `SchemaLoader`, outside every measured loop, and
    /// checks that its newest version is still `newestVersion`.
    /// - Returns: The schema.
    static func loadSchema() -> Schema {
        do {
            let schema = try SchemaLoader().load(contentsOf: path)
            precondition(schema.latest?.version == newestVersion, "\(path): the newest version is no longer \(newestVersion)")
            return schema
        } catch {
            fatalError("cannot load the benchmark schema: \(error)")
        }
    }

    /// A decoder for the newest version.
    /// - Returns: The decoder.
    public static func decoder() -> ContentStateDecoder {
        // The version exists: `loadSchema()` checked it.
        try! ContentStateDecoder(schema: schema, version: newestVersion)
    }

    /// What `livestate lint` runs on a whole body, for the newest version.
    /// - Returns: The validator.
    public static func validator() -> PayloadValidator {
        try! PayloadValidator(schema: schema, version: newestVersion)
    }

    /// LiveState's encoder for the newest version, with its default options.
    /// - Returns: The encoder.
    public static func encoder() -> ContentStateEncoder {
        try! ContentStateEncoder(schema: schema, version: newestVersion)
    }
}

/// The `delivery` schema (`schemas/delivery.yaml`) and `Delivery`: the activity of the shared
/// benchmark payloads, which the decoder's speed work was measured on.
public enum DeliverySchema: BenchmarkActivity {
    public static let schemaName = "delivery"
    public static let newestVersion = 3
    public static let schema = loadSchema()

    public static func state(tolerant: TolerantDelivery) -> Delivery { tolerant.delivery }

    public static func state(push: DeliveryPush) -> Delivery { push.aps.contentState }

    public static func withSchemaDefaults(_ state: Delivery) -> Delivery { state.withSchemaDefaults() }

    public static func checksum(_ state: Delivery) -> Int { state.items.count }
}

/// The `grocery` schema (`schemas/grocery.yaml`) and `Grocery`: an activity the speed work was
/// not measured on, with another shape (an array of objects, an enum with a fallback, a date),
/// so that the targets are also shown on bytes the code was not tuned for.
public enum GrocerySchema: BenchmarkActivity {
    public static let schemaName = "grocery"
    public static let newestVersion = 3
    public static let schema = loadSchema()

    public static func state(tolerant: TolerantGrocery) -> Grocery { tolerant.grocery }

    public static func state(push: GroceryPush) -> Grocery { push.aps.contentState }

    /// Every field of `Grocery` is required: the payload sends them all.
    public static func withSchemaDefaults(_ state: Grocery) -> Grocery { state }

    public static func checksum(_ state: Grocery) -> Int { state.substitutions.count }
}
