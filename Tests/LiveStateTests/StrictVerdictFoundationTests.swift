import Foundation
import Testing
@testable import LiveState

/// The `ContentState` an app version with synthesized `Codable` would have for `richStrictSchema`.
private struct RichState: Decodable {
    enum Status: String, Decodable { case waiting, delivering, done }
    enum Level: Int, Decodable { case low = 1, high = 2 }
    struct Courier: Decodable {
        var name: String
        var rating: Double?
    }
    struct Stop: Decodable {
        var tip: Int?
    }
    var name: String
    var count: Int
    var ratio: Double
    var done: Bool
    var at: Date
    var window: ClosedRange<Date>
    var status: Status
    var level: Level
    var courier: Courier
    var items: [Int]
    var note: String?
    var tip: Int?
    var stops: [Stop]
}

/// The same version as a schema, listed under `clients.strict`, with defaults and fallbacks
/// that synthesized `Codable` ignores.
private let richStrictSchema = Schema(
    activity: "rich",
    strictClients: [1],
    versions: [SchemaVersion(version: 1, contentState: [
        Field(name: "name", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 4)),
        Field(name: "count", type: .int, defaultValue: .int(0), constraints: .init(maximum: 10)),
        Field(name: "ratio", type: .double, defaultValue: .double(0)),
        Field(name: "done", type: .bool, defaultValue: .bool(false)),
        Field(name: "at", type: .date, defaultValue: .date(0)),
        Field(name: "window", type: .dateRange, defaultValue: .dateRange(lower: 0, upper: 0)),
        Field(name: "status", type: .enumeration(.strings(["waiting", "delivering", "done"])),
              defaultValue: .string("waiting"), fallback: .string("waiting")),
        Field(name: "level", type: .enumeration(.integers([1, 2])), defaultValue: .int(1)),
        Field(name: "courier", type: .object(fields: [
            Field(name: "name", type: .string, defaultValue: .string("")),
            Field(name: "rating", type: .double, defaultValue: .double(5), isOptional: true, nullTakesDefault: true),
        ]), defaultValue: .object([.init("name", .string("")), .init("rating", .double(5))])),
        Field(name: "items", type: .array(items: Field(name: "", type: .int)), defaultValue: .array([]), constraints: .init(maxItems: 2)),
        Field(name: "note", type: .string, isOptional: true),
        // Optional with a default, which synthesized `Codable` never takes: it holds `nil`.
        Field(name: "tip", type: .int, defaultValue: .int(5), isOptional: true, nullTakesDefault: true),
        Field(name: "stops", type: .array(items: Field(name: "", type: .object(fields: [
            Field(name: "tip", type: .int, defaultValue: .int(1), isOptional: true),
        ]))), defaultValue: .array([])),
    ])]
)

private let baseMembers: [(String, String)] = [
    ("name", #""Li""#), ("count", "3"), ("ratio", "0.5"), ("done", "true"), ("at", "752000000.5"),
    ("window", "[752000000,752000600]"), ("status", #""delivering""#), ("level", "2"),
    ("courier", #"{"name":"Li","rating":4.9}"#), ("items", "[1,2]"), ("note", #""ring twice""#),
    ("tip", "2"), ("stops", #"[{"tip":3},{}]"#),
]

private func render(_ members: [(String, String)]) -> String {
    "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
}

/// Payloads made by mutating a valid one: each key removed, and each value replaced by values
/// of other types and edge values.
private let mutatedPayloads: [String] = {
    var payloads = [render(baseMembers)]
    let replacements = [
        "null", "1", "1.5", "2.0", "1e2", "-0", "true", #""x""#, "[]", "{}", "[1]", #"["a"]"#,
        "[2,1]", "[1,2,3]", "1e400", #""waiting""#, #""Waiting""#, "3", #"{"name":"Li"}"#,
        #"{"rating":1}"#, #"{"name":"Li","rating":"x"}"#, #"{"name":"Li","rating":null}"#,
        "[1,1.5]", "[1,2,3]", "12", #""long name""#, "9223372036854775808",
    ]
    for index in baseMembers.indices {
        var removed = baseMembers
        removed.remove(at: index)
        payloads.append(render(removed))
        for replacement in replacements {
            var changed = baseMembers
            changed[index].1 = replacement
            payloads.append(render(changed))
        }
    }
    // Duplicate keys: the first value counts on the device.
    payloads.append(render(baseMembers + [("count", #""x""#)]))
    payloads.append(render([("count", #""x""#)] + baseMembers))
    return payloads
}()

@Suite struct StrictVerdictFoundationTests {
    @Test(arguments: mutatedPayloads)
    func strictVerdictAgreesWithSynthesizedCodable(payload: String) throws {
        let foundationDecodes = (try? JSONDecoder().decode(RichState.self, from: Data(payload.utf8))) != nil
        let decoder = try ContentStateDecoder(schema: richStrictSchema, version: 1)
        let result = decoder.decode(contentState: Array(payload.utf8))
        #expect(result.appDecodes == foundationDecodes, "\(payload): \(result.allDiagnostics.map(\.description))")
    }

    /// What the state holds where the app's optional fields hold `nil`: a missing key or a
    /// `null` in a field whose default synthesized `Codable` never takes.
    @Test(arguments: mutatedPayloads)
    func strictStateHoldsNilWhereSynthesizedCodableDoes(payload: String) throws {
        guard let app = try? JSONDecoder().decode(RichState.self, from: Data(payload.utf8)) else { return }
        let decoder = try ContentStateDecoder(schema: richStrictSchema, version: 1)
        let state = try #require(decoder.decode(contentState: Array(payload.utf8)).state, "\(payload)")
        #expect(state["tip"] == app.tip.map(Value.int) ?? .null, "\(payload)")
        #expect(state["courier"]?["rating"] == app.courier.rating.map(Value.double) ?? .null, "\(payload)")
        #expect(state["stops"] == .array(app.stops.map { .object([.init("tip", $0.tip.map(Value.int) ?? .null)]) }), "\(payload)")
    }

    @Test func tolerantReadingOfTheSameVersionNeverDropsAMutatedPayload() throws {
        let tolerant = Schema(activity: "rich", versions: richStrictSchema.versions)
        let decoder = try ContentStateDecoder(schema: tolerant, version: 1)
        for payload in mutatedPayloads {
            let result = decoder.decode(contentState: Array(payload.utf8))
            #expect(result.appDecodes, "\(payload)")
        }
    }
}
