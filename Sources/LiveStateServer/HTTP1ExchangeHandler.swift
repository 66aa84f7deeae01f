import Hummingbird
@_spi(Scanner) import LiveState
import NIOCore
import NIOHTTP1

/// Answers `Expect: 100-continue` with `100 Continue` once a route is about to read the body,
/// HTTP/1.0 requests in HTTP/1.0, and a request NIO cannot parse with the JSON error body.
///
/// Hummingbird does not answer the expectation, and a client that sends it (curl for a large
/// body or when told to, PHP's and .NET's HTTP clients) then waits before it sends the body:
/// curl one second per request. Sent when the route reads the body (`SchemaRoutes.collectBody`,
/// by ``SidecarRequestContext/continueIfExpected()``), and not before, so that a request the
/// route refuses unread (by its `Content-Length`, type or coding) is answered at once and its
/// body never sent, as RFC 9110 §10.1.1 intends.
///
/// It reads the request's head as NIO decodes it, where the HTTP version is still known: a
/// server must ignore the expectation in an HTTP/1.0 request (§10.1.1), and answer that request
/// without chunks, closing the connection after it. Hummingbird adds its
/// own handlers after the HTTP types conversion, so ``Installer`` puts this one right after the
/// request decoder.
final class HTTP1ExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The event a route sends down the pipeline when it is about to read the body.
    struct SendContinue: Sendable {}

    /// The version of the request in flight while it waits for `100 Continue`: its head came
    /// with the expectation, and neither its body nor an answer has.
    private var waiting: HTTPVersion?
    /// The version of the request in flight.
    private var version = HTTPVersion.http1_1
    /// Whether the connection closes once the answer ends: one answered while its request
    /// waited for `100 Continue`, whose body will not come.
    private var closesAfterAnswer = false
    /// What NIO could not parse: Hummingbird answers it 400 with an empty body, which gets the
    /// JSON error body every error has here. (A body's error, a bad chunk, is answered by the
    /// route that reads the body, with its own JSON body.)
    private var unparsed: HTTPParserError?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            waiting = Self.expectsContinue(head) ? head.version : nil
            version = head.version
        // A client that stopped waiting sends its body anyway.
        case .body, .end: waiting = nil
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { unparsed = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where unparsed != nil && head.status == .badRequest && head.headers["content-length"] == ["0"]:
            let error = APIError.badRequest(unparsed!)
            unparsed = nil
            var writer = JSONWriter(capacity: 256)
            writer.write(error.jsonValue)
            head.headers.replaceOrAdd(name: "content-type", value: "application/json; charset=utf-8")
            head.headers.replaceOrAdd(name: "content-length", value: String(writer.bytes.count))
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: writer.bytes)))), promise: nil)
        case .head(var head) where waiting != nil || version == .http1_0:
            if waiting != nil {
                // Answered without its body (refused by its query, its `Content-Length`, its
                // type): the client does not send the body, and the connection is closed after
                // the answer, since its next bytes would be read as that body (RFC 9110 §10.1.1
                // asks the server to say which it does).
                waiting = nil
            } else {
                // An HTTP/1.0 request gets an HTTP/1.0 answer, which cannot be chunked: a body of
                // unknown length (a batch's stream) ends where the connection does, so the
                // connection closes after every answer (nginx speaks 1.0 to its upstreams unless
                // told otherwise). The types Hummingbird answers with carry no version.
                head.version = version
            }
            closesAfterAnswer = true
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closesAfterAnswer:
            closesAfterAnswer = false
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is SendContinue else { return context.triggerUserOutboundEvent(event, promise: promise) }
        if let version = waiting {
            waiting = nil
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .continue))), promise: nil)
        }
        promise?.succeed()
    }

    /// Whether `head` asks for `100 Continue`: HTTP/1.1 or later, and an `Expect` of
    /// `100-continue` (its value is case-insensitive).
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else { return false }
        return head.headers["expect"].contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
    }

    /// Given to Hummingbird as an additional channel handler: once added, it adds an
    /// ``HTTP1ExchangeHandler`` right after NIO's HTTP/1 request decoder, and passes every
    /// event through untouched (NIO takes only inbound or outbound handlers: this one forwards
    /// what it reads without looking at it).
    final class Installer: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
            try? pipeline.addHandler(HTTP1ExchangeHandler(), position: .after(decoder))
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
