import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers `Expect: 100-continue` with `100 Continue` once a route is about to read the body,
/// HTTP/1.0 requests in HTTP/1.0, `Connection: close` in any spelling, and a request NIO cannot
/// parse, or one without its one `Host` header, with the JSON error body.
///
/// Hummingbird does not answer the expectation, and a client that sends it (curl for a large
/// body or when told to, PHP's and .NET's HTTP clients) then waits before it sends the body:
/// curl one second per request. Sent when the route reads the body (`SchemaRoutes.collectBody`,
/// by ``SidecarRequestContext/continueIfExpected()``), and not before, so that a request the
/// route refuses unread (by its `Content-Length`, type or coding) is answered at once and its
/// body never sent, as RFC 9110 §10.1.1 intends.
///
/// It reads each request's head as NIO decodes it, where the HTTP version is still known: a
/// server must ignore the expectation in an HTTP/1.0 request (§10.1.1), and answer that request
/// without chunks. Hummingbird adds its own handlers after the HTTP types conversion, so
/// ``Installer`` puts this one right after the request decoder.
///
/// A connection that ends with an answer (HTTP/1.0, `Connection: close`, an answer to a request
/// that waited for `100 Continue`) is closed in stages, as RFC 9112 §9.6 asks: the server's side
/// first, after the answer, while what the client still sends is read and dropped; closed whole
/// at once, a body still arriving (one refused unread) reset the connection, and a proxy in front
/// (nginx, which speaks HTTP/1.0 to its upstreams) lost the answer and said 502.
final class HTTP1ExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The event a route sends down the pipeline when it is about to read the body.
    struct SendContinue: Sendable {}

    /// A request read whose answer has not ended.
    private struct Exchange {
        var version: HTTPVersion
        /// Whether it waits for `100 Continue`: its head came with the expectation, and neither
        /// its body nor an answer has.
        var waiting: Bool
        /// Whether the connection ends with its answer: HTTP/1.0, or `Connection: close`.
        var closes: Bool
    }

    /// The requests read whose answers have not ended, oldest first: one, unless the client
    /// sends the next before the answer (pipelining). The oldest is the one being answered.
    private var exchanges: [Exchange] = []
    /// Whether the answer being written ends the connection.
    private var closesAfterAnswer = false
    /// Whether what the client sends is read and dropped: after an answer that ends the
    /// connection, and from a request sent behind one whose answer will (RFC 9112 §9.6: a server
    /// that sends `close` processes no further request). Such a request, read, was run: a
    /// `validate?token=` the client never saw answered was still remembered.
    private var discarding = false
    /// What NIO could not parse, or a request head refused here (``HostField``): Hummingbird
    /// answers it 400 with an empty body, which gets the JSON error body every error has here.
    /// (A body's error, a bad chunk, is answered by the route that reads the body, with its own
    /// JSON body.)
    private var unparsed: (any Error)?
    /// How long a request may take to arrive whole (`Configuration.requestTimeoutSeconds`).
    private let requestTimeout: TimeAmount
    /// The close of the connection when the request being read is not whole in time.
    private var deadline: Scheduled<Void>?

    /// Where a request NIO could not parse is counted: it never reaches the router, whose
    /// middleware counts every other request.
    private let metrics: SidecarMetrics?

    init(requestTimeout: TimeAmount, metrics: SidecarMetrics?) {
        self.requestTimeout = requestTimeout
        self.metrics = metrics
    }

    /// The route label of a request NIO could not parse (its path may be anything, or none).
    static let unparsedRoute = "unparsed"

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !discarding else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if exchanges.contains(where: \.closes) {
                discarding = true
                return
            }
            if let refusal = HostField(head) {
                // Refused as NIO refuses what it cannot parse: Hummingbird answers the requests
                // read before this one, then this one 400, and closes the connection.
                unparsed = refusal
                discarding = true
                context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
                return
            }
            let closes = head.version == .http1_0 || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
            exchanges.append(Exchange(version: head.version, waiting: Self.expectsContinue(head), closes: closes))
            // From its head, the request has `requestTimeout` to arrive whole.
            deadline?.cancel()
            let handler = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: requestTimeout) { handler.value.0.requestTimedOut(context: handler.value.1) }
        case .body:
            // A client that stopped waiting sends its body anyway.
            if !exchanges.isEmpty { exchanges[exchanges.count - 1].waiting = false }
        case .end:
            if !exchanges.isEmpty { exchanges[exchanges.count - 1].waiting = false }
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    /// A request that has not arrived whole in `requestTimeout`: the route reading its body is
    /// told (``RequestTimedOut``) and answers 408 (RFC 9110 §15.5.9), after which the
    /// connection closes; one that has no route reading it, or a route that does not answer,
    /// loses its connection a second later.
    private func requestTimedOut(context: ChannelHandlerContext) {
        deadline = nil
        if !exchanges.isEmpty { exchanges[exchanges.count - 1].closes = true }
        context.fireErrorCaught(RequestTimedOut(seconds: requestTimeout.nanoseconds / 1_000_000_000))
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    /// What a route reading a body is told when the request has not arrived whole in time.
    struct RequestTimedOut: Error, CustomStringConvertible {
        let seconds: Int64

        var description: String { "the request did not arrive whole within \(seconds) s" }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if unparsed == nil, let error = error as? HTTPParserError { unparsed = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where unparsed != nil && head.status == .badRequest && head.headers["content-length"] == ["0"]:
            let body = JSONResponse.bytes(APIError.badRequest(unparsed!).jsonValue, capacity: 256)
            unparsed = nil
            metrics?.request(route: Self.unparsedRoute, method: "unknown", status: 400, duration: nil)
            head.headers.replaceOrAdd(name: "content-type", value: JSONResponse.contentType)
            head.headers.replaceOrAdd(name: "content-length", value: String(body.count))
            closesAfterAnswer = true
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        case .head(var head):
            if let exchange = exchanges.first {
                // Answered without its body (refused by its query, its `Content-Length`, its
                // type): the client does not send the body, and its next bytes would be read as
                // that body, so the connection ends (RFC 9110 §10.1.1 asks the server to say which
                // it does). An HTTP/1.0 request gets an HTTP/1.0 answer, which cannot be chunked:
                // a body of unknown length (a batch's stream) ends where the connection does. The
                // types Hummingbird answers with carry no version.
                if exchange.version == .http1_0 { head.version = exchange.version }
                closesAfterAnswer = exchange.waiting || exchange.closes
                exchanges[0].waiting = false
            }
            if closesAfterAnswer { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            if !exchanges.isEmpty { exchanges.removeFirst() }
            guard closesAfterAnswer else { return context.write(data, promise: promise) }
            closesAfterAnswer = false
            discarding = true
            context.writeAndFlush(data, promise: promise)
            // The server's side only: what the client still sends is read (Hummingbird reads
            // a body to its end) and dropped, and the connection closes when the client's
            // side does, or at the idle time-out.
            context.close(mode: .output, promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is SendContinue else { return context.triggerUserOutboundEvent(event, promise: promise) }
        if let exchange = exchanges.first, exchange.waiting {
            exchanges[0].waiting = false
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: exchange.version, status: .continue))), promise: nil)
        }
        promise?.succeed()
    }

    /// A request head whose `Host` headers RFC 9112 §3.2 asks a server to answer with 400: none
    /// in an HTTP/1.1 request, more than one in any, or one whose value is not a host and an
    /// optional port (`uri-host [":" port]`, RFC 3986 §3.2.2; an empty one is allowed). (HTTP/1.0
    /// has no Host rule; a proxy in front, nginx among them, sends one.)
    struct HostField: Error, CustomStringConvertible {
        let description: String

        init?(_ head: HTTPRequestHead) {
            let values = head.headers["host"]
            if values.isEmpty && HTTP1ExchangeHandler.isHTTP11OrLater(head) {
                description = "it has no Host header (RFC 9112 §3.2)"
            } else if values.count > 1 {
                description = "it has \(values.count) Host headers, where it must have one (RFC 9112 §3.2)"
            } else if let value = values.first, !Self.isHostAndPort(value) {
                description = "its Host header is not a host and port (RFC 9112 §3.2)"
            } else {
                return nil
            }
        }

        /// Whether `value` is `uri-host [":" port]`: an IP literal in brackets, or a registered
        /// name (letters, digits, `-._~%!$&'()*+,;=`), and digits after a colon.
        static func isHostAndPort(_ value: String) -> Bool {
            var rest = Substring(value)
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return false }
                let literal = rest[rest.index(after: rest.startIndex) ..< close]
                guard !literal.isEmpty, literal.unicodeScalars.allSatisfy({ isNameCharacter($0) || $0 == ":" }) else { return false }
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ":") ?? rest.endIndex
                guard rest[..<end].unicodeScalars.allSatisfy(isNameCharacter) else { return false }
                rest = rest[end...]
            }
            guard let colon = rest.first else { return true }
            return colon == ":" && rest.dropFirst().unicodeScalars.allSatisfy { $0.value >= 0x30 && $0.value <= 0x39 }
        }

        /// A character of a registered name: unreserved, `%` of a percent-encoding, or a sub-delim.
        private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", "%", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=": true
            default: false
            }
        }
    }

    /// Whether `head` is HTTP/1.1 or later, which the `Host` and `Expect` rules are of.
    static func isHTTP11OrLater(_ head: HTTPRequestHead) -> Bool {
        head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
    }

    /// Whether `head` asks for `100 Continue`: HTTP/1.1 or later, and an `Expect` of
    /// `100-continue` (its value is case-insensitive).
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        guard isHTTP11OrLater(head) else { return false }
        return head.headers["expect"].contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
    }

    /// Given to Hummingbird as an additional channel handler: once added, it adds an
    /// ``HTTP1ExchangeHandler`` right after NIO's HTTP/1 request decoder, and passes every
    /// event through untouched (NIO takes only inbound or outbound handlers: this one forwards
    /// what it reads without looking at it).
    final class Installer: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = NIOAny

        /// How long a request may take to arrive whole.
        let requestTimeout: TimeAmount
        /// Where the requests NIO could not parse are counted.
        let metrics: SidecarMetrics?

        init(requestTimeout: TimeAmount, metrics: SidecarMetrics?) {
            self.requestTimeout = requestTimeout
            self.metrics = metrics
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
            try? pipeline.addHandler(HTTP1ExchangeHandler(requestTimeout: requestTimeout, metrics: metrics), position: .after(decoder))
        }
    }
}

/// The sidecar's request context: Hummingbird's basic one, and the connection, so that a route
/// about to read a body can answer `Expect: 100-continue`.
public struct SidecarRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    private let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Sends `100 Continue` when the request waits for it before sending its body (see
    /// `HTTP1ExchangeHandler`); does nothing otherwise.
    func continueIfExpected() {
        channel.triggerUserOutboundEvent(HTTP1ExchangeHandler.SendContinue(), promise: nil)
    }
}
