import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// The listeners: TLS, then HTTP/2 when ALPN chose `h2`, then one request handler per stream.
enum FakeServer {
    /// Binds one listener on 127.0.0.1, on a free port.
    static func bind(
        group: any EventLoopGroup,
        sslContext: NIOSSLContext,
        role: ListenerRole,
        core: FakeCore
    ) async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let connection = core.openConnection()
                channel.closeFuture.whenComplete { _ in core.closeConnection(connection) }
                return channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(NIOSSLServerHandler(context: sslContext))
                    try operations.addHandler(
                        ProtocolSelectionHandler(role: role, core: core, connection: connection)
                    )
                }
            }
        return try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
    }
}

/// Waits for the TLS handshake, then sets the connection up for the protocol ALPN chose.
///
/// APNs speaks only HTTP/2. A client that negotiated `h2` gets an HTTP/2 pipeline; any other
/// client (no ALPN, or `http/1.1`) gets an HTTP/1.1 pipeline whose every request is recorded
/// and answered 505, and the connection is then closed.
final class ProtocolSelectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let role: ListenerRole
    private let core: FakeCore
    private let connection: Int

    init(role: ListenerRole, core: FakeCore, connection: Int) {
        self.role = role
        self.core = core
        self.connection = connection
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let tlsEvent = event as? TLSUserEvent,
            case .handshakeCompleted(let negotiatedProtocol) = tlsEvent
        else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if negotiatedProtocol == "h2", core.configuration.silentAfterHandshake {
            // Reads what comes and writes nothing: the client waits for SETTINGS that never come.
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        do {
            try configure(context: context, http2: negotiatedProtocol == "h2")
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } catch {
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }
    }

    private func configure(context: ChannelHandlerContext, http2: Bool) throws {
        let role = self.role
        let core = self.core
        let connection = self.connection
        let operations = context.pipeline.syncOperations
        if http2 {
            var connectionConfiguration = NIOHTTP2Handler.ConnectionConfiguration()
            connectionConfiguration.initialSettings =
                nioDefaultSettings.filter { $0.parameter != .maxConcurrentStreams }
                + [HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000)]
            _ = try operations.configureHTTP2Pipeline(
                mode: .server,
                connectionConfiguration: connectionConfiguration,
                streamConfiguration: NIOHTTP2Handler.StreamConfiguration()
            ) { stream in
                stream.eventLoop.makeCompletedFuture {
                    let captured = CapturedHeaders()
                    let streamOperations = stream.pipeline.syncOperations
                    try streamOperations.addHandler(HeaderCaptureHandler(captured: captured, core: core))
                    try streamOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                    try streamOperations.addHandler(
                        RequestHandler(role: role, core: core, connection: connection, captured: captured)
                    )
                }
            }
        } else {
            try operations.configureHTTPServerPipeline(withErrorHandling: true)
            try operations.addHandler(
                RequestHandler(role: role, core: core, connection: connection, captured: nil)
            )
        }
    }
}

/// The request headers of one HTTP/2 stream as they arrived, pseudo-headers excluded.
///
/// The HTTP/2-to-HTTP/1 codec adds a `host` header made from `:authority`; the fake records
/// what the client sent instead.
final class CapturedHeaders {
    var headers: [(name: String, value: String)]?
    var authority: String?
}

/// Copies the first HEADERS frame of a stream (the request headers) into ``CapturedHeaders``,
/// or resets the stream with `REFUSED_STREAM` there when the fake was told to
/// (``FakeAPNs/refuseNextStreams(_:)``): the request is then neither processed nor recorded.
final class HeaderCaptureHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let captured: CapturedHeaders
    private let core: FakeCore
    private var refused = false

    init(captured: CapturedHeaders, core: FakeCore) {
        self.captured = captured
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .headers = unwrapInboundIn(data), captured.headers == nil, core.takeStreamToRefuse() {
            refused = true
            context.writeAndFlush(wrapOutboundOut(.rstStream(.refusedStream)), promise: nil)
            return
        }
        if case .headers(let headers) = unwrapInboundIn(data), captured.headers == nil {
            captured.headers = headers.headers
                .filter { !$0.name.hasPrefix(":") }
                .map { (name: $0.name.lowercased(), value: $0.value) }
            captured.authority = headers.headers.first(name: ":authority")
        }
        context.fireChannelRead(data)
    }
}

/// Collects one request, asks the rules for the answer, and writes it.
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let role: ListenerRole
    private let core: FakeCore
    private let connection: Int
    private let captured: CapturedHeaders?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(role: ListenerRole, core: FakeCore, connection: Int, captured: CapturedHeaders?) {
        self.role = role
        self.core = core
        self.connection = connection
        self.captured = captured
    }

    private var isHTTP2: Bool { captured != nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            respond(context: context, head: head)
        }
    }

    private func respond(context: ChannelHandlerContext, head: HTTPRequestHead) {
        let headers =
            captured?.headers
            ?? head.headers.map { (name: $0.name.lowercased(), value: $0.value) }
        let request = IncomingRequest(
            connection: connection,
            method: head.method.rawValue,
            path: head.uri,
            headers: headers,
            body: body,
            isHTTP2: isHTTP2,
            authority: captured?.authority ?? head.headers.first(name: "host")
        )
        body = []
        let answer = core.answer(request, role: role)
        let delay = core.state.withLockedValue { $0.answerDelay }
        guard delay == .zero else {
            let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                loopBoundSelf.value.write(answer, context: loopBoundContext.value)
            }
            return
        }
        write(answer, context: context)
    }

    private func write(_ answer: Answer, context: ChannelHandlerContext) {

        var responseHeaders = HTTPHeaders()
        for header in answer.headers {
            responseHeaders.add(name: header.name, value: header.value)
        }
        if !answer.body.isEmpty {
            responseHeaders.add(name: "content-type", value: "application/json")
        }
        let stalls = core.state.withLockedValue { $0.stallsAnswers }
        if answer.status != 204 {
            // A stalled answer promises more bytes than it sends.
            responseHeaders.add(name: "content-length", value: String(answer.body.count + (stalls ? 10 : 0)))
        }
        if !isHTTP2 {
            responseHeaders.add(name: "connection", value: "close")
        }
        let responseHead = HTTPResponseHead(
            version: isHTTP2 ? .http2 : .http1_1,
            status: HTTPResponseStatus(statusCode: answer.status),
            headers: responseHeaders
        )
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if !answer.body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: answer.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if stalls {
            context.flush()
            return
        }
        if isHTTP2 {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                loopBoundContext.value.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
