import LiveState
import LiveStateYAML

/// The `delivery` schema that the benchmarks decode with: `schemas/delivery.yaml`, loaded by
/// `LiveStateYAML`'s `SchemaLoader` once, outside every measured loop.
public enum DeliverySchema {
    /// The path of `schemas/delivery.yaml` in the repository this package sits in.
    public static var path: String { Payloads.repositoryRoot + "/schemas/delivery.yaml" }

    /// The newest version: the one every benchmark decodes as.
    public static let newestVersion = 3

    /// The schema.
    public static let schema: Schema = {
        do {
            let schema = try SchemaLoader().load(contentsOf: path)
            precondition(schema.latest?.version == newestVersion, "\(path): the newest version is no longer \(newestVersion)")
            return schema
        } catch {
            fatalError("cannot load the benchmark schema: \(error)")
        }
    }()

    /// A decoder for the newest version.
    /// - Returns: The decoder.
    public static func decoder() -> ContentStateDecoder {
        // The version exists: `schema` checked it.
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
