import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveStateTestSupport

/// A blocking HTTP/1.1 client over one loopback TCP socket, for requests a well-behaved client
/// would not send: a body larger than declared limits, a `Content-Length` never followed by
/// the body. It runs on a thread of its own, never on the test's cooperative pool.
enum RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port`, writes `chunks` in order, and reads until the response head
    /// and `Content-Length` bytes of body arrived, the peer closed, or `timeoutSeconds` passed.
    /// With `halfClose`, the client shuts its sending side once the chunks are sent, as a client
    /// that stops in the middle of a body does.
    /// With `until`, it reads until that says the bytes received so far are the whole response
    /// (a chunked one, say); `onReceive` sees them after every read. With `after`, it waits for
    /// the semaphore (at most `timeoutSeconds`) before it connects. With `interimAfterFirst`, it
    /// reads an interim answer's head (`100 Continue`) after the first chunk, before it sends the
    /// others, as a client that sends `Expect: 100-continue` does. `onSendError` gets the
    /// `errno` of a send that fails (the server reset the connection).
    ///
    /// Each exchange runs on a thread of its own, made for it, not on a shared pool: a test whose
    /// timing counts must not wait for a turn on pools that a full parallel test run keeps busy.
    /// - Returns: The response text, head and body.
    static func exchange(
        port: Int, chunks: [[UInt8]], halfClose: Bool = false, timeoutSeconds: Int = 20, after start: DispatchSemaphore? = nil,
        interimAfterFirst: Bool = false,
        until isDone: @escaping @Sendable ([UInt8]) -> Bool = isComplete, onReceive: @escaping @Sendable ([UInt8]) -> Void = { _ in },
        onSendError: @escaping @Sendable (Int32) -> Void = { _ in }
    ) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                if let start, start.wait(timeout: .now() + .seconds(timeoutSeconds)) == .timedOut {
                    return continuation.resume(throwing: Failure(description: "waited \(timeoutSeconds) s to start"))
                }
                continuation.resume(with: Result {
                    try blockingExchange(
                        port: port, chunks: chunks, halfClose: halfClose, timeoutSeconds: timeoutSeconds, interimAfterFirst: interimAfterFirst,
                        onSendError: onSendError, isDone: isDone, onReceive: onReceive)
                })
            }
        }
    }

    private static func blockingExchange(
        port: Int, chunks: [[UInt8]], halfClose: Bool, timeoutSeconds: Int, interimAfterFirst: Bool,
        onSendError: (Int32) -> Void, isDone: ([UInt8]) -> Bool, onReceive: ([UInt8]) -> Void
    ) throws -> String {
        guard let fd = LoopbackSocket.connect(port: port) else { throw Failure(description: "connect() to 127.0.0.1:\(port) failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        /// Reads until `done` says the bytes so far are enough, the peer closes, or the time-out.
        func read(until done: ([UInt8]) -> Bool) {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received += buffer[..<count]
                onReceive(received)
                if done(received) { break }
            }
        }

        for (index, chunk) in chunks.enumerated() {
            var sent = 0
            while sent < chunk.count {
                let count = chunk[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                // The server may answer and stop reading before the whole body is sent.
                if count <= 0 {
                    onSendError(errno)
                    break
                }
                sent += count
            }
            if interimAfterFirst && index == 0 { read { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") } }
        }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        read(until: isDone)
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether `bytes` hold a whole response: the head and `Content-Length` bytes after it.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return true }
        return text[end.upperBound...].utf8.count >= length
    }

    /// The status code of a response text.
    static func status(_ response: String) -> Int? {
        guard response.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(response.dropFirst(9).prefix(3))
    }

    /// The body of a response text.
    static func body(_ response: String) -> String {
        response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }
}
