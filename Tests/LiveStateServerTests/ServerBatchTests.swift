import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Testing

/// `POST /v1/schemas/{id}/validate-batch`: NDJSON in, one result per line out, in order.
@Suite struct ServerBatchTests {
    static func lines(_ response: TestResponse) throws -> [Value] {
        let text = String(buffer: response.body)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try Array(line.utf8).withUnsafeBytes { try Value.parse(json: $0) }
        }
    }

    @Test func everyLineGetsItsResultInOrderAndABadLineDoesNotStopTheRest() async throws {
        let good = String(decoding: try ServerFixtures.bytes("update-600.json"), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: "")
        let body = [good, "{not json", "", good, #"{"aps":{"event":"update","timestamp":1795000000,"content-state":{"progress":"x"}}}"#]
            .joined(separator: "\r\n") + "\n"
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch?version=3", method: .post,
                headers: [.contentType: "application/x-ndjson"], body: ServerFixtures.text(body))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-ndjson")
            let results = try Self.lines(response)
            #expect(results.map { $0["line"]?.int } == [1, 2, 3, 4, 5])
            #expect(results.map { $0["ok"]?.bool } == [true, false, false, true, false])
            #expect(results[1].diagnosticCodes == ["json-syntax"])
            #expect(results[2].diagnosticCodes == ["json-syntax"])
            // Each result is what `validate` answers for that payload alone.
            let single = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text(good))
            var alone = try json(single)
            if case .object(let members) = alone { alone = .object([Value.Member("line", .int(1))] + members) }
            #expect(results[0] == alone)
            // version=all works line by line too.
            let all = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch?version=all", method: .post, body: ServerFixtures.text(good + "\n" + good))
            #expect(try Self.lines(all).map { $0["version"]?.string } == ["all", "all"])
        }
    }

    @Test func theLimitsAreDocumentedErrors() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.router) { client in
            let many = String(repeating: "{}\n", count: 10_001)
            let tooMany = try await client.execute(uri: "/v1/schemas/delivery/validate-batch", method: .post, body: ServerFixtures.text(many))
            #expect(tooMany.status == .contentTooLarge)
            #expect(try json(tooMany)["error"]?["code"]?.string == "too-many-lines")
            let wrongType = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch", method: .post, headers: [.contentType: "text/csv"], body: ServerFixtures.text("{}"))
            #expect(wrongType.status == .unsupportedMediaType)
            let unknown = try await client.execute(uri: "/v1/schemas/nope/validate-batch", method: .post, body: ServerFixtures.text("{}"))
            #expect(unknown.status == .notFound)
            let get = try await client.execute(uri: "/v1/schemas/delivery/validate-batch", method: .get)
            #expect(get.status == .methodNotAllowed)
            let empty = try await client.execute(uri: "/v1/schemas/delivery/validate-batch", method: .post, body: ServerFixtures.text(""))
            #expect(empty.status == .ok)
            #expect(String(buffer: empty.body).isEmpty)
        }
        let small = LiveStateServer(
            store: try SchemaStore(paths: [ServerFixtures.schemas]), configuration: .init(port: 0, maxBatchBytes: 100))
        try await small.application().test(.router) { client in
            let big = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch", method: .post, body: ServerFixtures.text(String(repeating: "{}\n", count: 50)))
            #expect(big.status == .contentTooLarge)
        }
    }
}
