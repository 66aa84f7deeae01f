import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// `POST /v1/schemas/{id}/validate-batch`: NDJSON in, one result per line out, in order.
@Suite struct ServerBatchTests {
    static func lines(_ response: TestResponse) throws -> [Value] {
        let text = String(buffer: response.body)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try Value.parse(json: Array(line.utf8))
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

    /// `livestate serve` runs every task on NIO's event loops, so a connection shares its loop
    /// with others. Here the server has one loop, which runs its tasks too: a `/health` sent once
    /// the first results of a long batch came must not wait for the whole batch.
    @Test func aLongBatchLetsOtherRequestsThrough() async throws {
        let good = String(decoding: try ServerFixtures.bytes("update-600.json"), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: "")
        let body = Array(repeating: good, count: 6000).joined(separator: "\n")
        let head = "POST /v1/schemas/delivery/validate-batch?version=all HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let server = try ServerFixtures.server()
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await Self.healthDuringBatch(on: loop, server: server, head: head, body: body)
        } catch {
            try await loop.shutdownGracefully()
            throw error
        }
        try await loop.shutdownGracefully()
    }

    /// Serves from `loop` alone, tasks included, and sends a `/health` during a batch. How far
    /// the batch's answer had come when `/health` was answered is measured in bytes, not in
    /// seconds, so a loaded machine slows both alike. Each client has a thread of its own, and
    /// the batch's reader starts the `/health` request itself: a client that waited for a turn
    /// on a pool the other tests keep busy let the whole batch through first (seen in full
    /// parallel runs).
    private static func healthDuringBatch(
        on loop: MultiThreadedEventLoopGroup, server: LiveStateServer, head: String, body: String
    ) async throws {
        let received = SharedCount(0)
        let receivedAtHealth = SharedCount(-1)
        try await withTaskExecutorPreference(EventLoopTaskExecutor(loop: loop.next())) {
            try await server.application(eventLoopGroup: loop).test(.live) { client in
                let port = try #require(client.port)
                let resultsCame = DispatchSemaphore(value: 0)
                // The clients run off the server's loop; only the server runs on it.
                let batch = Task.detached {
                    try await RawHTTPClient.exchange(
                        port: port, chunks: [Array((head + body).utf8)],
                        until: { $0.suffix(5).elementsEqual("0\r\n\r\n".utf8) },
                        onReceive: { bytes in
                            received.value.store(bytes.count, ordering: .relaxed)
                            // The first results are in the first 64 KiB; past them, the search would slow the reads.
                            if bytes.count < 64 * 1024, String(decoding: bytes, as: UTF8.self).contains(#"{"line":1,"#) {
                                resultsCame.signal()
                            }
                        })
                }
                let health = Task.detached {
                    try await RawHTTPClient.exchange(
                        port: port, chunks: [Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)], after: resultsCame,
                        onReceive: { bytes in
                            if RawHTTPClient.isComplete(bytes) { receivedAtHealth.value.store(received.value.load(ordering: .relaxed), ordering: .relaxed) }
                        })
                }
                let healthResponse = try await health.value
                let batchResponse = try await batch.value
                #expect(RawHTTPClient.status(healthResponse) == 200)
                #expect(RawHTTPClient.status(batchResponse) == 200)
                #expect(batchResponse.components(separatedBy: #"{"line":"#).count - 1 == 6000)
                let atHealth = receivedAtHealth.value.load(ordering: .relaxed)
                let total = batchResponse.utf8.count
                #expect(atHealth >= 0 && atHealth < total / 2, "/health was answered with \(atHealth) of the batch's \(total) bytes received")
            }
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
            // No lines is refused: an empty answer would read as a batch that passed.
            #expect(empty.status == .badRequest)
            #expect(try json(empty)["error"]?["code"]?.string == "empty-batch")
            let newline = try await client.execute(uri: "/v1/schemas/delivery/validate-batch", method: .post, body: ServerFixtures.text("\n"))
            #expect(try Self.lines(newline).map { $0["line"]?.int } == [1])
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

/// Runs every job on one event loop, as `livestate serve` runs its tasks (on NIO's loops): the
/// loop runs its tasks until none is left before it reads its sockets again.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    /// Runs `job` on the loop, after the tasks already queued there.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A count that threads share.
final class SharedCount: Sendable {
    let value: Atomic<Int>

    init(_ start: Int) {
        value = Atomic(start)
    }
}
