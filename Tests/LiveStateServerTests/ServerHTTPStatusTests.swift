import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Testing

/// Broken and unusual HTTP through a real socket: each gets its documented status and the JSON
/// error body, never a 500 or a dropped connection without an answer.
@Suite struct ServerHTTPStatusTests {
    static let validateHead = "POST /v1/schemas/delivery/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

    static func exchange(_ chunks: [String], halfClose: Bool = false) async throws -> String {
        let server = try ServerFixtures.server()
        return try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawHTTPClient.exchange(port: port, chunks: chunks.map { Array($0.utf8) }, halfClose: halfClose)
            // The server goes on serving.
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            return answer
        }
    }

    @Test func aBadChunkSizeIs400() async throws {
        let response = try await Self.exchange([Self.validateHead, "zz\r\n{}\r\n0\r\n\r\n"])
        #expect(RawHTTPClient.status(response) == 400, "\(response)")
        #expect(RawHTTPClient.body(response).contains(#""code":"bad-request""#), "\(response)")
    }

    @Test func aTruncatedChunkIs400() async throws {
        // A chunk of 0x20 bytes that ends after 2, and the client stops sending.
        let response = try await Self.exchange([Self.validateHead, "20\r\n{}"], halfClose: true)
        #expect(RawHTTPClient.status(response) == 400, "\(response)")
    }

    @Test func anOversizedChunkedBodyIs413() async throws {
        let chunk = "4000\r\n" + String(repeating: " ", count: 0x4000) + "\r\n"
        let response = try await Self.exchange([Self.validateHead] + Array(repeating: chunk, count: 6) + ["0\r\n\r\n"])
        #expect(RawHTTPClient.status(response) == 413, "\(response)")
        #expect(RawHTTPClient.body(response).contains(#""code":"payload-too-large""#))
    }

    @Test func anUnsupportedContentTypeIs415() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            for (uri, type) in [("/v1/schemas/delivery/validate", "text/xml"), ("/v1/schemas/delivery/encode?version=3", "application/x-www-form-urlencoded")] {
                let response = try await client.execute(uri: uri, method: .post, headers: [.contentType: type], body: ServerFixtures.text("{}"))
                #expect(response.status == .unsupportedMediaType, "\(uri) \(type)")
                #expect(try json(response)["error"]?["code"]?.string == "unsupported-media-type")
            }
            // JSON is UTF-8: a body declared in another charset reads as other text.
            for type in ["application/json; charset=latin1", "application/json;charset=\"ISO-8859-1\"", "application/json; charset=utf-16"] {
                let response = try await client.execute(
                    uri: "/v1/schemas/delivery/validate", method: .post, headers: [.contentType: type], body: ServerFixtures.text("{}"))
                #expect(response.status == .unsupportedMediaType, "\(type)")
                #expect(try json(response)["error"]?["message"]?.string == "the body must be UTF-8 text, as JSON is (charset=utf-8, or none), not \(type)")
            }
            for type in ["application/json", "application/json; charset=utf-8", "application/json; charset=\"UTF-8\"", "application/merge-patch+json",
                         "APPLICATION/JSON"] {
                let response = try await client.execute(
                    uri: "/v1/schemas/delivery/validate", method: .post, headers: [.contentType: type], body: ServerFixtures.text("{}"))
                #expect(response.status == .ok, "\(type)")
            }
            // No Content-Type at all is read as JSON.
            let bare = try await client.execute(uri: "/v1/schemas/delivery/validate", method: .post, body: ServerFixtures.text("{}"))
            #expect(bare.status == .ok)
        }
    }

    @Test func aMethodThePathDoesNotServeIs405WithAllow() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            for (uri, method, allow) in [
                ("/v1/schemas/delivery/validate", HTTPRequest.Method.get, "POST"),
                ("/v1/schemas/delivery/encode", .delete, "POST"),
                ("/health", .post, "GET, HEAD"),
                ("/v1/schemas", .put, "GET, HEAD"),
                ("/v1/schemas/delivery/diff", .post, "GET, HEAD"),
                ("/openapi.json", .patch, "GET, HEAD"),
            ] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                #expect(try json(response)["error"]?["code"]?.string == "method-not-allowed")
            }
            // A path no route has is still 404.
            #expect(try await client.execute(uri: "/v2/nothing", method: .get).status == .notFound)
        }
    }

    @Test func headAnswersWhereGetDoes() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            for path in ["/health", "/openapi.json", "/v1/schemas", "/v1/schemas/delivery/diff"] {
                let get = try await client.execute(uri: path, method: .get)
                let head = try await RawHTTPClient.exchange(port: port, chunks: [Array("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)])
                #expect(RawHTTPClient.status(head) == 200, "\(path): \(head)")
                #expect(head.lowercased().contains("content-type: application/json"), "\(path)")
                #expect(RawHTTPClient.body(head).isEmpty, "\(path)")
                #expect(get.status == .ok)
            }
        }
    }
}
