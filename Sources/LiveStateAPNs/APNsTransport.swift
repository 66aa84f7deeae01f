import AsyncHTTPClient
import Foundation
import LiveState
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// What carries a request to APNs and brings back its answer.
public protocol APNsTransport: Sendable {
    /// Sends one request.
    /// - Parameter request: The request.
    /// - Returns: The answer.
    /// - Throws: When no answer came (connection refused, TLS failure, time-out); an
    ///   ``APNsUnprocessedRequestError`` when the request is known not to have been processed.
    func send(_ request: APNsRequest) async throws -> APNsResponse
    /// Drops the open connections, so the next request opens new ones.
    func reconnect() async
    /// Drops the connection `request` went on, so the next request there opens a new one (after
    /// no answer, `IdleTimeout`, `Shutdown`, `UnrelatedKeyIdInToken`, `ExpiredProviderToken` or
    /// `TooManyProviderTokenUpdates`). A transport that cannot tell its connections apart drops
    /// them all (`reconnect()`), the default.
    func reconnect(after request: APNsRequest) async
}

extension APNsTransport {
    public func reconnect(after request: APNsRequest) async {
        await reconnect()
    }
}

/// HTTP/2 over TLS with AsyncHTTPClient: one multiplexed connection per host and provider token
/// (a renewed token opens a new connection; one unused for 20 minutes is closed).
///
/// A connection that cannot be made fails the request at once (after at most `connectTimeout`),
/// so that the sender's `RetryPolicy` alone decides whether and when to try again: a host that
/// refuses connections is reported after the policy's attempts, not after the client has kept
/// reconnecting behind each of them.
///
/// One transport may serve many concurrent sends (a server's). `reconnect(after:)` sends the
/// requests after it with that request's token to that host over a new client (`reconnect()`,
/// every request after it), and lets the requests still on the old one finish there: the old
/// client is shut down when its last request ends. (Shut down at once, it would cancel them,
/// and the sender would send again pushes APNs had already taken.) A reconnect after a request
/// that went on a client already replaced keeps the new one: when a connection fails under
/// many requests, it is replaced once, not once per request.
///
/// Nothing here waits on a connection to close. A peer that completes TLS with ALPN `h2` and
/// then never sends its HTTP/2 SETTINGS (a TLS-terminating proxy whose backend is down) leaves
/// the client's connection open until the peer closes it, and the client's shutdown waits for
/// it: such a shutdown held `reconnect()` between attempts, and a command's exit, for ever.
public actor HTTPClientTransport: APNsTransport {
    /// A client and the requests on it. Its counts are read and written on the actor only;
    /// `deinit` reads its `client`, a constant.
    private final class Lease: @unchecked Sendable {
        let client: HTTPClient
        /// Which client of this transport it is (1, 2, …): never reused, as an address may be.
        let serial: Int
        var requests = 0
        /// Dropped by `reconnect()`: shut down when its last request ends.
        var isRetired = false
        /// When its last request ended, or its first began.
        var lastUsed = NIODeadline.now()

        init(_ client: HTTPClient, serial: Int) {
            self.client = client
            self.serial = serial
        }
    }

    /// The client of each provider token to each host (`host:port authorization`).
    private var clients: [String: Lease] = [:]
    /// The clients `reconnect()` dropped that still have requests on them.
    private var retired: [ObjectIdentifier: Lease] = [:]
    /// Every client, in use and retired (a function of the two, as `deinit` may read them but
    /// not a property of the actor's).
    private static func allLeases(_ clients: [String: Lease], _ retired: [ObjectIdentifier: Lease]) -> [Lease] {
        Array(clients.values) + Array(retired.values)
    }
    /// The serial number of the last client made.
    private var lastSerial = 0
    /// The client each request that failed or was refused went on last (the request's hash to
    /// the client's serial number), so that `reconnect(after:)` drops that client alone. When
    /// one connection fails under many requests, the first of their reconnects replaces it;
    /// the others' must not replace the new one (each opened another connection). Kept in two
    /// generations of at most `failuresKept` each: when the newer is full it becomes the older,
    /// and the older is forgotten, so the newest failures are always known (clearing them all
    /// let the late reconnects replace the new connection again). A reconnect after a failure
    /// forgotten drops the current client.
    private var failedOn: [Int: Int] = [:]
    private var failedBefore: [Int: Int] = [:]
    /// How many failures a generation holds (`keepFailures(_:)` sets it for tests).
    private var failuresKept = 10_000
    func keepFailures(_ count: Int) { failuresKept = count }
    /// How long a client may go unused before it is closed: a token of its own is not used
    /// again once renewed, and one of another environment, used now and then, reconnects.
    static let idleLimit = TimeAmount.minutes(20)
    /// Whether `shutdown()` was called: no request is sent after it, and no client made.
    private var isShutDown = false
    private let configuration: HTTPClient.Configuration
    /// How long one request may take, its answer's body included.
    public nonisolated let timeout: TimeAmount
    /// How long making a connection (TCP and TLS) may take.
    public nonisolated let connectTimeout: TimeAmount

    /// Creates a transport.
    /// - Parameters:
    ///   - trustRootsPEM: Certificates (PEM) to trust instead of the system's roots: a proxy's or a
    ///     test server's. `nil` trusts the system's roots, which is what APNs needs.
    ///   - timeout: How long one request may take, its answer's body included.
    ///   - connectTimeout: How long making a connection may take (within `timeout`).
    /// - Throws: `NIOSSLError` when the PEM holds no certificate.
    public init(trustRootsPEM: String? = nil, timeout: TimeAmount = .seconds(30), connectTimeout: TimeAmount = .seconds(10)) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        // APNs takes TLS 1.2 or later, as HTTP/2 does.
        tls.minimumTLSVersion = .tlsv12
        if let trustRootsPEM {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(trustRootsPEM.utf8)))
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        // APNs speaks HTTP/2 only; ALPN picks it, and requests share one connection.
        configuration.httpVersion = .automatic
        configuration.decompression = .disabled
        // APNs never redirects: a 3xx is an answer to report, not a place to send the push
        // and its provider token again (another device token, another app's channels).
        configuration.redirectConfiguration = .disallow
        // A failed connection fails the request; the sender's retry policy retries it. Left on,
        // the client would reconnect with back-off until the request's deadline under every one
        // of the sender's attempts (30 s of reconnecting per attempt to a host that refuses).
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = connectTimeout
        self.connectTimeout = connectTimeout
        self.configuration = configuration
        self.timeout = timeout
    }

    public func send(_ request: APNsRequest) async throws -> APNsResponse {
        guard !isShutDown else { throw APNsTransportShutDownError() }
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        let outgoing = try HTTPClient.Request(
            url: "https://\(request.host):\(request.port)\(request.path)", method: HTTPMethod(rawValue: request.method),
            headers: headers, body: request.body.isEmpty ? nil : .bytes(request.body))
        let lease = lease(for: Self.clientKey(of: request))
        lease.requests += 1
        var answered200 = false
        defer { release(lease, after: answered200 ? nil : request) }
        // One deadline for the whole answer, its body included, kept by the client on its event
        // loop, where the answer is read as it comes (`AnswerCollector`): an answer that came in
        // time is the answer, however late this task runs (a process whose threads are all
        // busy). A race against a sleeping task took such an answer for none when both were ready
        // at once, and the push was sent again.
        let collector = AnswerCollector(limit: Self.bodyLimit)
        let task = lease.client.execute(request: outgoing, delegate: collector, deadline: NIODeadline.now() + timeout)
        let failure: (any Error)?
        do {
            try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            failure = nil
        } catch {
            failure = error
        }
        // Read after the task ended, on the loop, which wrote them before it did.
        guard let head = collector.head else {
            switch failure {
            case let error? where APNsConnectionError.isConnecting(error): throw APNsConnectionError(underlying: error)
            case let error? where !collector.sentRequestHead:
                // Nothing of it was written (it waited for a connection that was never ready, or
                // was cancelled first): APNs cannot have it, so even a start may be sent again.
                throw APNsConnectionError(underlying: NotSent(cause: Self.reported(error, timeout: timeout)))
            case let error?: throw Self.reported(error, timeout: timeout)
            case nil: throw NoAnswerInTime(timeout: timeout)
            }
        }
        guard head.version.major == 2 else { throw NotHTTP2(version: "\(head.version)") }
        // The status is the answer: a body that is too long, stalls or breaks off is noted, not
        // taken for no answer (which would send a push APNs refused again).
        let truncation: APNsResponse.Truncation? = switch failure.map({ Self.reported($0, timeout: timeout) }) {
        case nil: nil
        case is AnswerCollector.TooLarge: .tooLarge(limit: Self.bodyLimit)
        case is NoAnswerInTime: .stalled
        case let error?: .brokenOff("\(error)")
        }
        answered200 = head.status == .ok
        return APNsResponse(status: Int(head.status.code), header: { head.headers.first(name: $0) },
                            body: collector.body, truncation: truncation)
    }

    /// `error` as this transport reports it: a refused stream as ``APNsRefusedStreamError``, any
    /// other reset and the client's own time-out in words.
    private static func reported(_ error: any Error, timeout: TimeAmount) -> any Error {
        switch error {
        case let error as NIOHTTP2Errors.StreamClosed:
            error.errorCode == .refusedStream ? APNsRefusedStreamError() : StreamReset(code: error.errorCode)
        case let error as HTTPClientError where error == .deadlineExceeded:
            NoAnswerInTime(timeout: timeout)
        default:
            error
        }
    }

    /// An answer over another HTTP than 2, which APNs alone speaks: a proxy or another server.
    struct NotHTTP2: Error, CustomStringConvertible {
        var version: String
        var description: String { "the host answered over \(version); APNs speaks HTTP/2 only, so it is not APNs" }
    }

    /// A stream the peer (or a GOAWAY that dropped it, which NIO reports as `CANCEL`) closed
    /// before its answer came, with any code but `REFUSED_STREAM`: the request may have been
    /// processed. Said in words, not as NIO's debug text with its source location.
    struct StreamReset: Error, CustomStringConvertible {
        var code: HTTP2ErrorCode
        var description: String { "the stream was reset (\(Self.name(of: code))) before the answer came" }

        /// RFC 9113's name of an error code (`REFUSED_STREAM`), or its number.
        static func name(of code: HTTP2ErrorCode) -> String {
            let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
                         "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
                         "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
            return names.indices.contains(code.networkCode) ? names[code.networkCode] : "error code \(code.networkCode)"
        }
    }

    /// A request that failed before any of it was written.
    struct NotSent: Error, CustomStringConvertible {
        var cause: any Error
        var description: String {
            if let late = cause as? NoAnswerInTime { return "no connection was ready within \(late.seconds) s, so the request was not sent" }
            return "\(cause), before the request was sent"
        }
    }

    /// No answer, or no end to its body, by the deadline.
    struct NoAnswerInTime: Error, CustomStringConvertible {
        var timeout: TimeAmount
        var description: String { "timed out after \(seconds) s waiting for the answer" }
        /// The time-out in seconds, as written: `30`, `0.5`.
        var seconds: String {
            timeout.nanoseconds % 1_000_000_000 == 0 ? "\(timeout.nanoseconds / 1_000_000_000)" : "\(Double(timeout.nanoseconds) / 1e9)"
        }
    }

    /// The most of a body kept: 1 MiB (APNs's bodies are a few hundred bytes at most).
    static let bodyLimit = 1 << 20

    /// Reads an answer's head and body, up to `limit` bytes, as the client's event loop hands
    /// them over. Its fields are written on that loop while the request runs and read once the
    /// request's future has completed, which happens after (hence `@unchecked Sendable`).
    private final class AnswerCollector: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Void

        /// The body ran past `limit`: the request is ended there.
        struct TooLarge: Error {}

        let limit: Int
        /// Whether the request's head was written: until then, nothing of it has left.
        private(set) var sentRequestHead = false
        private(set) var head: HTTPResponseHead?
        private(set) var body: [UInt8] = []

        init(limit: Int) {
            self.limit = limit
        }

        func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
            sentRequestHead = true
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            self.head = head
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            let room = limit - body.count
            body += buffer.readableBytesView.prefix(room)
            return buffer.readableBytes <= room ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(TooLarge())
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
    }

    /// The client a request with this `authorization` to this host goes to: one per provider
    /// token. APNs answers a connection whose provider token changes twice within 20 minutes
    /// `TooManyProviderTokenUpdates`, and the connection is then unusable for a while. At a
    /// renewal, a request made with the old token just before (another send's) can reach the
    /// transport after one made with the new token; a sender that tries a token in the other
    /// environment, or two keys, on one host, alternate tokens too. So each token has its own
    /// client (its own connection), which stays while it is used and closes once it has gone
    /// unused for `idleLimit`.
    private func lease(for key: String) -> Lease {
        let now = NIODeadline.now()
        for (key, lease) in clients where lease.requests == 0 && now - lease.lastUsed > Self.idleLimit {
            clients[key] = nil
            // Not waited for: see the type's note on connections that never close.
            lease.client.shutdown { _ in }
        }
        if let lease = clients[key] { return lease }
        lastSerial += 1
        let lease = Lease(HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration), serial: lastSerial)
        clients[key] = lease
        return lease
    }

    /// Ends a request on `lease`'s client, and shuts a retired client down after its last one.
    /// - Parameter failed: The request, if it failed or was answered with an error.
    private func release(_ lease: Lease, after failed: APNsRequest?) {
        if let failed {
            if failedOn.count >= failuresKept, failedOn[failed.hashValue] == nil {
                failedBefore = failedOn
                failedOn = [:]
            }
            failedOn[failed.hashValue] = lease.serial
        }
        lease.requests -= 1
        lease.lastUsed = .now()
        guard lease.isRetired, lease.requests == 0 else { return }
        lease.client.shutdown { _ in }
        retired[ObjectIdentifier(lease)] = nil
    }

    /// The key of the client `request` goes to: `host:port authorization`.
    private static func clientKey(of request: APNsRequest) -> String {
        "\(request.host):\(request.port) \(request.headers.first { $0.name == "authorization" }?.value ?? "")"
    }

    public func reconnect() async {
        for key in clients.keys { retire(key) }
    }

    /// Drops the client of `request`'s token and host alone: a failure on one connection is no
    /// reason to reopen the others (many failures at once reopened every connection each time).
    /// The client it went on is dropped only while it is still the current one: a failure on
    /// a connection that has already been replaced leaves the new one in place.
    public func reconnect(after request: APNsRequest) async {
        let key = Self.clientKey(of: request)
        let serial = failedOn.removeValue(forKey: request.hashValue) ?? failedBefore.removeValue(forKey: request.hashValue)
        if let serial, let current = clients[key], current.serial != serial { return }
        retire(key)
    }

    /// Drops the client at `key`: the next request there opens a new one, and this one
    /// finishes its requests.
    private func retire(_ key: String) {
        // A client made after the shutdown would send what the shutdown cancelled again.
        guard !isShutDown, let lease = clients.removeValue(forKey: key) else { return }
        lease.isRetired = true
        if lease.requests == 0 {
            // Not waited for: see the type's note on connections that never close.
            lease.client.shutdown { _ in }
        } else {
            retired[ObjectIdentifier(lease)] = lease
        }
    }

    /// Closes the connections, waiting for them to close at most `shutdownWait`; one that has
    /// not closed by then closes in the background. Call once, when done: requests still in
    /// flight are cancelled, and any sent after it throw ``APNsTransportShutDownError``.
    /// - Throws: What the client's shutdown reported within the wait.
    public func shutdown() async throws {
        isShutDown = true
        // Every client: those in use, and those `reconnect()` dropped that still have requests.
        let clients = Self.allLeases(self.clients, retired).map(\.client)
        self.clients = [:]
        retired = [:]
        failedOn = [:]
        failedBefore = [:]
        guard !clients.isEmpty else { return }
        let ended = ShutdownWait(clients: clients.count)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            ended.begin(continuation)
            for client in clients { client.shutdown { error in ended.clientEnded(error) } }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(Self.shutdownWait.nanoseconds))
                ended.end(nil)
            }
        }
        if let error { throw error }
    }

    /// How long `shutdown()` waits for the connections to close.
    static let shutdownWait = TimeAmount.seconds(2)

    /// Hands the first of the shutdown's end and the end of the wait to the one waiting.
    private final class ShutdownWait: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: CheckedContinuation<(any Error)?, Never>?
        private var clients: Int
        private var firstError: (any Error)?

        init(clients: Int) {
            self.clients = clients
        }

        /// One client's shutdown ended; the last one ends the wait, with the first error.
        func clientEnded(_ error: (any Error)?) {
            let (done, first): (Bool, (any Error)?) = lock.withLock {
                clients -= 1
                if firstError == nil { firstError = error }
                return (clients == 0, firstError)
            }
            if done { end(first) }
        }

        func begin(_ continuation: CheckedContinuation<(any Error)?, Never>) {
            lock.withLock { waiting = continuation }
        }

        func end(_ error: (any Error)?) {
            let continuation: CheckedContinuation<(any Error)?, Never>? = lock.withLock {
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: error)
        }
    }

    deinit {
        // A transport dropped without `shutdown()` closes its connections in the background
        // (a second shutdown only reports that it was already done).
        for lease in Self.allLeases(clients, retired) { lease.client.shutdown { _ in } }
    }
}

/// An error after which the request is known not to have been processed: a sender sends it
/// again within its retry policy, a start included (no second activity can come of it). Any
/// other error a transport throws may come after APNs took the request.
///
/// ``APNsConnectionError`` (no connection) and ``APNsRefusedStreamError`` (`REFUSED_STREAM`)
/// are such errors; a transport of one's own may mark its own.
public protocol APNsUnprocessedRequestError: Error {}

/// The transport was shut down before the request: it was not sent, and no later one will be.
public struct APNsTransportShutDownError: APNsUnprocessedRequestError, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    public var description: String { "the transport was shut down, so the request was not sent" }
}

/// APNs reset the request's HTTP/2 stream with `REFUSED_STREAM`: it closed the stream before
/// processing any of it (RFC 9113 §8.7), so sending the request again cannot make it twice.
public struct APNsRefusedStreamError: APNsUnprocessedRequestError, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    public var description: String { Self.message }

    /// What the error says, which an outcome's advice also looks for.
    static let message = "APNs refused the stream before processing it (REFUSED_STREAM)"
}

/// No connection could be made (refused, unreachable, a TLS handshake that failed, or a time-out
/// while connecting): the request never left, so sending it again cannot make it twice.
public struct APNsConnectionError: APNsUnprocessedRequestError, CustomStringConvertible {
    /// What the connection failed with.
    public var underlying: any Error

    /// Creates the error.
    public init(underlying: any Error) {
        self.underlying = underlying
    }

    public var description: String { "\(underlying)" }

    /// Whether `error` is a TLS handshake's (a certificate not trusted or not the host's, a TLS
    /// the two sides do not share, a connection closed before the handshake ended): the request
    /// was not written. Not every `NIOSSLError` is: `uncleanShutdown` ends a connection that
    /// may have carried it.
    static func isHandshake(_ error: any Error) -> Bool {
        if error is NIOSSLExtraError { return true }
        switch error as? NIOSSLError {
        case .handshakeFailed?, .unableToValidateCertificate?, .noCertificateToValidate?, .cannotMatchULabel?: return true
        default: return false
        }
    }

    /// Whether `error` is one of making the connection.
    static func isConnecting(_ error: any Error) -> Bool {
        if error is NIOConnectionError || isHandshake(error) { return true }
        if let error = error as? HTTPClientError { return error == .connectTimeout }
        return false
    }
}

extension APNsResponse {
    /// Reads an answer: its APNs headers, and the error body's `reason` and `timestamp`
    /// (milliseconds, on 410 only); of a body cut short, the `reason` its first bytes hold.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - header: A header's value by name.
    ///   - body: The body, or what came of it.
    ///   - truncation: Why `body` is not all of it, when it is not.
    init(status: Int, header: (String) -> String?, body: [UInt8], truncation: Truncation? = nil) {
        self.init(status: status, apnsID: header("apns-id"), uniqueID: header("apns-unique-id"),
                  requestID: header("apns-request-id"), channelID: header("apns-channel-id"), body: body)
        self.truncation = truncation
        guard status >= 300, !body.isEmpty else { return }
        guard truncation == nil else {
            reason = Self.leadingReason(body).map(APNsReason.init(rawValue:))
            return
        }
        guard let error = try? Value.parse(json: body) else { return }
        if case .string(let reason)? = error["reason"] { self.reason = APNsReason(rawValue: reason) }
        switch error["timestamp"] {
        case .int(let milliseconds)?: timestamp = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        case .double(let milliseconds)?: timestamp = Date(timeIntervalSince1970: milliseconds / 1000)
        default: break
        }
    }

    /// The `reason` of a JSON body that begins `{"reason":"…"` (APNs writes it first), read
    /// from a body whose end never came or was cut off; `nil` when its string is not whole.
    static func leadingReason(_ body: [UInt8]) -> String? {
        var index = body.startIndex
        func skipSpace() { while index < body.endIndex, JSONByte.isWhitespace(body[index]) { index += 1 } }
        func take(_ text: String) -> Bool {
            skipSpace()
            guard body[index...].starts(with: text.utf8) else { return false }
            index += text.utf8.count
            return true
        }
        guard take("{"), take("\"reason\""), take(":"), take("\"") else { return nil }
        guard let end = body[index...].firstIndex(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }), body[end] == 0x22 else { return nil }
        return String(decoding: body[index..<end], as: UTF8.self)
    }
}
