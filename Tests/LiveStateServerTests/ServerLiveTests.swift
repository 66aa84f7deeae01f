import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Testing

/// The server on a real loopback socket, on an ephemeral port.
@Suite struct ServerLiveTests {
    @Test func validatesOverLoopback() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(health.headers[.contentLength] != nil)

            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post,
                headers: [.contentType: "application/json"], body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == .ok)
            #expect(try json(response)["ok"]?.bool == true)

            // The same connection goes on after a refusal.
            let refused = try await client.execute(uri: "/v1/schemas/nope/validate", method: .post, body: ServerFixtures.text("{}"))
            #expect(refused.status == .notFound)
            let again = try await client.execute(uri: "/v1/schemas/delivery/validate", method: .post, body: ServerFixtures.text("{"))
            #expect(try json(again).diagnosticCodes.contains("json-syntax"))
        }
    }

    @Test func declaredOversizedBodyIsRefusedBeforeItIsSent() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            // Promise 10 MB and send none of it: the answer must come from the header alone.
            let head = "POST /v1/schemas/delivery/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n"
            let response = try await RawHTTPClient.exchange(port: port, chunks: [Array(head.utf8)])
            #expect(RawHTTPClient.status(response) == 413)
            #expect(RawHTTPClient.body(response).contains(#""code":"payload-too-large""#))
        }
    }

    @Test func chunkedOversizedBodyIsRefusedOnceItPassesTheLimit() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let head = "POST /v1/schemas/delivery/encode HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x4000) + Array("\r\n".utf8)
            let chunks = [Array(head.utf8)] + Array(repeating: chunk, count: 6) + [Array("0\r\n\r\n".utf8)]
            let response = try await RawHTTPClient.exchange(port: port, chunks: chunks)
            #expect(RawHTTPClient.status(response) == 413)
        }
    }

    @Test func garbageRequestLineGets400AndTheServerGoesOn() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let response = try await RawHTTPClient.exchange(port: port, chunks: [Array("\u{1}\u{2}GARBAGE\r\n\r\n".utf8)])
            #expect(RawHTTPClient.status(response) == 400)
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }
}
