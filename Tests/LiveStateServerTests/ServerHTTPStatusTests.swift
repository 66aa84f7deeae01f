import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Synchronization
import Testing

/// Broken and unusual HTTP through a real socket: each gets its documented status and the JSON
/// error body, never a 500 or a dropped connection without an answer.
@Suite struct ServerHTTPStatusTests {
    static let validateHead = "POST /v1/schemas/delivery/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

    static func exchange(
        _ chunks: [String], halfClose: Bool = false, until isDone: @escaping @Sendable ([UInt8]) -> Bool = RawHTTPClient.isComplete
    ) async throws -> String {
        let server = try ServerFixtures.server()
        return try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawHTTPClient.exchange(
                port: port, chunks: chunks.map { Array($0.utf8) }, halfClose: halfClose, timeoutSeconds: 5, until: isDone)
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

    /// A request line or header NIO cannot parse gets the JSON error body too, also after a
    /// request answered on the same connection, and the connection closes.
    @Test func aRequestThatIsNotHTTPIs400WithTheJSONErrorBody() async throws {
        for (request, message) in [
            ("GARBAGE\r\n\r\n", "the request is not valid HTTP/1.1: invalid HTTP method"),
            ("GET /health HTTP/1.1\r\nBad Header\r\n\r\n", "the request is not valid HTTP/1.1: invalid character in header"),
            ("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n", "the request is not valid HTTP/1.1: invalid HTTP method"),
            // RFC 9112 §3.2: one Host header, in every HTTP/1.1 request.
            ("GET /health HTTP/1.1\r\n\r\n", "the request is not valid HTTP/1.1: it has no Host header (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
             "the request is not valid HTTP/1.1: it has 2 Host headers, where it must have one (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.1\r\nHost: a, b\r\n\r\n", "the request is not valid HTTP/1.1: its Host header is not a host and port (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.1\r\nHost: x/y\r\n\r\n", "the request is not valid HTTP/1.1: its Host header is not a host and port (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.1\r\nHost: x:8a\r\n\r\n", "the request is not valid HTTP/1.1: its Host header is not a host and port (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
             "the request is not valid HTTP/1.1: it has 2 Host headers, where it must have one (RFC 9112 §3.2)"),
            ("GET /health HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/schemas/delivery/validate HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
             "the request is not valid HTTP/1.1: it has no Host header (RFC 9112 §3.2)"),
        ] {
            let response = try await Self.exchange([request]) { _ in false }
            let refusal = try #require(response.range(of: "HTTP/1.1 400 Bad Request\r\n"), "\(response)")
            let answer = String(response[refusal.lowerBound...])
            #expect(RawHTTPClient.body(answer) == #"{"error":{"status":400,"code":"bad-request","message":""# + message + #""}}"#, "\(answer)")
            #expect(answer.lowercased().contains("content-type: application/json"), "\(answer)")
        }
    }

    /// HTTP/1.0 has no Host rule: a request without one is answered; so is every form of a
    /// host and port, and an empty one (RFC 9112 §3.2).
    @Test func anHTTP10RequestWithoutHostIsAnswered() async throws {
        let response = try await Self.exchange(["GET /health HTTP/1.0\r\n\r\n"])
        #expect(response.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(response)")
        for host in ["", "127.0.0.1:8080", "[::1]:8080", "[::1]", "sidecar.internal", "x:"] {
            let answered = try await Self.exchange(["GET /health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"])
            #expect(RawHTTPClient.status(answered) == 200, "\(host): \(answered)")
        }
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

    /// `Expect: 100-continue` is answered with `100 Continue` before the body is sent (a client
    /// that waits for it, curl among them, waited a second per request), then with the final
    /// answer; an HTTP/1.0 request's expectation is ignored, as RFC 9110 §10.1.1 requires.
    @Test func aClientThatExpectsContinueGetsItBeforeItSendsTheBody() async throws {
        let body = #"{"aps":{"timestamp":1795669738,"event":"update","content-state":{"title":"x"}}}"#
        @Sendable func head(_ version: String, expect: String = "100-continue") -> String {
            "POST /v1/schemas/delivery/validate?version=3 HTTP/\(version)\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: \(expect)\r\n\r\n"
        }
        let headEnds: @Sendable ([UInt8]) -> Bool = { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            // The head alone: the interim answer comes without the body.
            for expect in ["100-continue", "100-Continue"] {
                let interim = try await RawHTTPClient.exchange(port: port, chunks: [Array(head("1.1", expect: expect).utf8)], timeoutSeconds: 5, until: headEnds)
                #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n", "\(interim)")
            }
            // Then the body, once the interim answer came: the final answer follows it.
            let whole = try await RawHTTPClient.exchange(
                port: port, chunks: [Array(head("1.1").utf8), Array(body.utf8)], timeoutSeconds: 5, interimAfterFirst: true
            ) { bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                guard let final = text.range(of: "\r\n\r\nHTTP/1.1 ") else { return false }
                return RawHTTPClient.isComplete(Array(text[final.upperBound...].utf8))
            }
            #expect(whole.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"), "\(whole)")
            #expect(whole.contains(#""ok":true"#), "\(whole)")
            // HTTP/1.0: no interim answer; the server waits for the body.
            let old = try await RawHTTPClient.exchange(port: port, chunks: [Array(head("1.0").utf8)], timeoutSeconds: 2, until: headEnds)
            #expect(old.isEmpty, "\(old)")
            // Without the expectation, nothing comes before the body either.
            let plain = try await RawHTTPClient.exchange(port: port, chunks: [Array(head("1.1", expect: "nothing").utf8)], timeoutSeconds: 2, until: headEnds)
            #expect(!plain.contains("100 Continue"), "\(plain)")
            // A client that sends its body at once gets no interim answer, only the final one.
            let eager = try await RawHTTPClient.exchange(port: port, chunks: [Array((head("1.1") + body).utf8)], timeoutSeconds: 5)
            #expect(eager.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(eager)")
        }
    }

    /// After an answer that ends the connection, what the client sends on it is read and
    /// dropped, never run (RFC 9112 §9.6): a start sent behind a refused request was still
    /// remembered for its token, and the client's real start then drew `duplicate-start`.
    @Test func noRequestIsRunAfterAnAnswerThatEndsTheConnection() async throws {
        let token = String(repeating: "5e", count: 32)
        let start = #"{"aps":{"timestamp":1795000000,"event":"start","attributes-type":"DeliveryAttributes","#
            + #""attributes":{"totalAmount":"$12","orderId":"A-1"},"alert":{"title":"Order","body":"On its way"},"#
            + #""content-state":{"title":"On the way","progress":0}}}"#
        let post = "POST /v1/schemas/delivery/validate?token=\(token) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(start.utf8.count)\r\n\r\n" + start
        // Refused by its type while it waits for `100 Continue`; its client sends the body anyway.
        let refused = "POST /v1/schemas/delivery/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
            + "Expect: 100-continue\r\n\r\n"
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            // Behind a refusal answered with `Connection: close`, and behind an HTTP/1.0 request.
            let afterRefusal = try await RawHTTPClient.exchange(
                port: port, chunks: [Array(refused.utf8), Array(("hello" + post).utf8)], timeoutSeconds: 5, interimAfterFirst: true,
                until: { _ in false })
            #expect(RawHTTPClient.status(afterRefusal) == 415 && !afterRefusal.contains("200 OK"), "\(afterRefusal)")
            let pipelined = try await RawHTTPClient.exchange(
                port: port, chunks: [Array("GET /health HTTP/1.0\r\n\r\n".utf8) + Array(post.utf8)], timeoutSeconds: 5, until: { _ in false })
            #expect(pipelined.hasPrefix("HTTP/1.0 200 OK") && !pipelined.contains(#""ok":"#), "\(pipelined)")
            // Neither start was run: the first one the client sees answered is clean (after a
            // pause in which a start run would have been remembered).
            try await Task.sleep(nanoseconds: 300_000_000)
            let first = try await client.execute(
                uri: "/v1/schemas/delivery/validate?token=\(token)", method: .post, body: ServerFixtures.text(start))
            #expect(!String(buffer: first.body).contains("duplicate-start"), "\(String(buffer: first.body))")
        }
    }

    /// An HTTP/1.0 request (nginx's to its upstreams, unless told otherwise) gets an HTTP/1.0
    /// answer, never chunked, and the connection closes after it: a batch's stream of unknown
    /// length ends where the connection does.
    @Test func anHTTP10RequestGetsAnHTTP10AnswerAndTheConnectionCloses() async throws {
        let line = #"{"aps":{"timestamp":1795669738,"event":"update","content-state":{"title":"x"}}}"#
        let batch = line + "\n" + line + "\n"
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            // Read to the end: the server closes the connection.
            let health = try await RawHTTPClient.exchange(port: port, chunks: [Array("GET /health HTTP/1.0\r\n\r\n".utf8)], timeoutSeconds: 5) { _ in false }
            #expect(health.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(health)")
            #expect(health.lowercased().contains("\r\nconnection: close\r\n"), "\(health)")
            #expect(RawHTTPClient.body(health).hasPrefix(#"{"status":"ok""#), "\(health)")
            let head = "POST /v1/schemas/delivery/validate-batch?version=3 HTTP/1.0\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(batch.utf8.count)\r\n\r\n"
            let streamed = try await RawHTTPClient.exchange(port: port, chunks: [Array((head + batch).utf8)], timeoutSeconds: 5) { _ in false }
            #expect(streamed.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(streamed)")
            #expect(!streamed.lowercased().contains("transfer-encoding"), "\(streamed)")
            // The lines as they are, with no chunk sizes between them.
            let lines = RawHTTPClient.body(streamed).split(separator: "\n")
            #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix(#"{"line":"#) }, "\(streamed)")
            // HTTP/1.1 keeps its connection and its chunks.
            let kept = try await RawHTTPClient.exchange(port: port, chunks: [Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)], timeoutSeconds: 5)
            #expect(kept.hasPrefix("HTTP/1.1 200 OK\r\n") && !kept.lowercased().contains("connection: close"), "\(kept)")
        }
    }

    /// An answer that ends the connection (HTTP/1.0 here) to a request refused before its body
    /// is read reaches the client whole while the body is still arriving: the server closes its
    /// side, reads what the client sends to its end, and drops it. Closed whole at once, the
    /// unread body reset the connection, which threw the answer away (nginx, which speaks
    /// HTTP/1.0 to upstreams, said 502).
    @Test func anAnswerBeforeALargeBodyIsNotLostToAReset() async throws {
        let body = [UInt8](repeating: UInt8(ascii: " "), count: 32 << 20)
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            for (path, status) in [("/v1/schemas/nothing/validate-batch", 404), ("/v1/schemas/delivery/validate-batch?nope=1", 400)] {
                let head = "POST \(path) HTTP/1.0\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(body.count)\r\n\r\n"
                let failure = Mutex<Int32?>(nil)
                let answer = try await RawHTTPClient.exchange(
                    port: port, chunks: [Array(head.utf8), body], timeoutSeconds: 10, until: { _ in false },
                    onSendError: { code in failure.withLock { $0 = code } })
                // A client that gives up on a reset while it sends, as nginx does, would have lost the answer.
                #expect(failure.withLock { $0 } == nil, "\(path): the body's sending failed, errno \(failure.withLock { $0 } ?? 0)")
                #expect(answer.hasPrefix("HTTP/1.0 \(status) "), "\(path): \(answer.prefix(200))")
                #expect(RawHTTPClient.body(answer).hasPrefix(#"{"error":"#), "\(path): \(answer.prefix(300))")
            }
        }
    }

    /// A request waiting for `100 Continue` that is answered before its body is read (over the
    /// limit by its `Content-Length`, of a type the route does not take, a bad query) gets no
    /// `100 Continue` and is told `Connection: close`, and the connection closes: its client does
    /// not send the body, and its next request on that connection would be read as the body. A
    /// client that sends its body at once keeps the connection.
    @Test func aRequestAnsweredBeforeItsBodyClosesTheConnection() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let heads = [
                ("/v1/schemas/delivery/validate", "Content-Length: 70000\r\n", 413),
                ("/v1/schemas/delivery/validate", "Content-Type: text/plain\r\nContent-Length: 2\r\n", 415),
                ("/v1/schemas/delivery/validate?version=x", "Content-Length: 2\r\n", 400),
                ("/v1/schemas/nothing/validate", "Content-Length: 2\r\n", 404),
            ]
            for (path, headers, status) in heads {
                let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Expect: 100-continue\r\n\r\n"
                // Read to the end: the server closes the connection after its answer.
                let answer = try await RawHTTPClient.exchange(port: port, chunks: [Array(head.utf8)], timeoutSeconds: 5) { _ in false }
                #expect(RawHTTPClient.status(answer) == status, "\(path) \(answer)")
                #expect(answer.lowercased().contains("\r\nconnection: close\r\n"), "\(path) \(answer)")
                #expect(RawHTTPClient.isComplete(Array(answer.utf8)), "closed after a whole answer: \(answer)")
                #expect(!answer.contains("100 Continue"), "\(path) \(answer)")
            }
            // The same refusal without the expectation keeps the connection open.
            let sent = try await client.execute(
                uri: "/v1/schemas/delivery/validate", method: .post, headers: [.contentType: "text/plain"], body: ServerFixtures.text("{}"))
            #expect(sent.status == .unsupportedMediaType)
            #expect(sent.headers[.connection] == nil)
        }
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
