import LiveState

/// The `delivery` schema that the benchmarks decode with.
///
/// `schemas/delivery.yaml` is the source of truth. `LiveStateYAML`'s `SchemaLoader` is not on
/// this branch yet, so the schema is written out here in code: the whole file with all three
/// versions, and only the fields that change decoding (types, defaults resolved the way the
/// loader resolves them, constraints, aliases, fallbacks, the strict client). Descriptions and
/// source positions are left out: the decoder never reads them. When the loader lands, replace
/// `make()` with `SchemaLoader().load(contentsOf: DeliverySchema.path)`.
public enum DeliverySchema {
    /// The path of `schemas/delivery.yaml` in the repository this package sits in.
    public static var path: String { Payloads.repositoryRoot + "/schemas/delivery.yaml" }

    /// The newest version: the one every benchmark decodes as.
    public static let newestVersion = 3

    /// The schema.
    public static let schema: Schema = make()

    /// A decoder for the newest version, built once.
    /// - Returns: The decoder.
    public static func decoder() -> ContentStateDecoder {
        // The version exists: `make()` builds it.
        try! ContentStateDecoder(schema: schema, version: newestVersion)
    }

    static func make() -> Schema {
        let attributes = [
            Field(name: "totalAmount", type: .string, maxLength: 24),
            Field(name: "orderId", type: .string, maxLength: 40),
        ]
        let version1 = SchemaVersion(
            version: 1,
            contentState: [
                Field(name: "logo", type: .string, maxLength: 32),
                Field(name: "title", type: .string, maxLength: 64),
                Field(name: "subTitle", type: .string, maxLength: 96),
                Field(name: "progress", type: .double, minimum: 0, maximum: 1),
            ],
            attributes: attributes)
        let version2 = SchemaVersion(
            version: 2,
            contentState: tolerantFields(version: 2),
            attributes: attributes)
        let version3 = SchemaVersion(
            version: 3,
            contentState: tolerantFields(version: 3),
            attributes: attributes)
        return Schema(
            activity: "delivery", attributesType: "DeliveryAttributes", compatibility: .forwardTransitive,
            strictClients: [1], versions: [version1, version2, version3])
    }

    /// The content-state of version 2 or 3. Version 3 adds `delayed` and `delayMinutes`,
    /// deprecates `etaText`, allows 48-byte courier names and 160-byte notes (200 before).
    private static func tolerantFields(version: Int) -> [Field] {
        let isVersion3 = version == 3
        var statuses = ["pending", "preparing", "delivering", "delivered"]
        if isVersion3 { statuses.append("delayed") }
        let courierNameLength = isVersion3 ? 48 : 32
        let noteLength = isVersion3 ? 160 : 200
        let courierFields = [
            Field(name: "name", type: .string, defaultValue: .string(""), maxLength: courierNameLength),
            Field(name: "rating", type: .double, defaultValue: .double(0), minimum: 0, maximum: 5),
        ]
        var fields = [
            Field(name: "logo", type: .string, defaultValue: .string(""), maxLength: 32),
            Field(name: "title", type: .string, maxLength: 64),
            Field(name: "subtitle", type: .string, defaultValue: .string(""), maxLength: 96, aliases: ["subTitle"]),
            Field(name: "progress", type: .double, defaultValue: .double(0), onInvalid: .reject, minimum: 0, maximum: 1),
            Field(name: "eta", type: .date, defaultValue: .date(0)),
            Field(name: "etaText", type: .string, defaultValue: .string(""), maxLength: 32, isDeprecated: isVersion3),
            Field(
                name: "status", type: .enumeration(.strings(statuses)), defaultValue: .string("pending"),
                fallback: .string("pending")),
        ]
        if isVersion3 {
            fields.append(Field(name: "delayMinutes", type: .int, defaultValue: .int(0), minimum: 0, maximum: 600))
        }
        fields += [
            Field(
                name: "courier", type: .object(fields: courierFields),
                defaultValue: .object(courierFields.map { Value.Member($0.name, $0.defaultValue!) })),
            Field(
                name: "items", type: .array(items: Field(name: "", type: .string, maxLength: 64)),
                defaultValue: .array([]), maxItems: 40),
            Field(name: "note", type: .string, isOptional: true, maxLength: noteLength, truncate: true),
            Field(name: "badge", type: .string, defaultValue: .string(""), maxLength: 64, dropPriority: 1),
        ]
        return fields
    }
}
