import Foundation
import Hummingbird
import LiveState
import LiveStateTooling
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// `livestate serve`: the HTTP validation sidecar, built on Hummingbird.
///
/// ```swift
/// let store = try SchemaStore(paths: ["schemas"])
/// let server = LiveStateServer(store: store, configuration: .init(port: 8080))
/// try await server.run()                  // until SIGTERM or SIGINT; SIGHUP reloads the schemas
/// ```
///
/// Endpoints (JSON in and out but for `/metrics` and `validate-batch`; `OpenAPIDocument`
/// describes them): `GET /health`, `GET /ready`, `GET /metrics`, `GET /openapi.json`,
/// `GET /v1/schemas`, `GET /v1/schemas/{id}/diff`, `POST /v1/schemas/{id}/validate`,
/// `POST /v1/schemas/{id}/validate-batch`, `POST /v1/schemas/{id}/encode`,
/// `POST /v1/schemas/{id}/encode-content-state`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct LiveStateServer: Sendable {
    /// Where the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// The address to bind; loopback by default, since the sidecar has no authentication.
        public var host: String
        /// The port; 0 picks a free one (see `onServerRunning`).
        public var port: Int
        /// The largest request body read, in bytes; larger ones get 413. Default 64 KiB.
        public var maxBodyBytes: Int
        /// The largest `validate-batch` body, in bytes; larger ones get 413. Default 4 MiB.
        public var maxBatchBytes: Int
        /// Seconds a connection may stay silent before it is closed. Default 30.
        public var idleTimeoutSeconds: Int64
        /// The most connections open at once; more wait in the accept queue. Default 2048.
        public var maxConnections: Int
        /// Adds `POST /echo`, which answers the body it was sent: the framework's own cost, for
        /// load tests to measure beside `validate`. Off by default.
        public var echoRoute: Bool
        /// When set, the schema and fleet files are looked at this often and reloaded when one
        /// changes (`serve --watch`). Off by default.
        public var watchInterval: Duration?
        /// Seconds SIGTERM or SIGINT waits for the requests in flight before it closes their
        /// connections: a client that sends its body a byte at a time, or stops sending it,
        /// would otherwise keep the server from stopping. Default 8, within systemd's default
        /// `TimeoutStopSec` and Kubernetes' grace period.
        public var drainSeconds: Int64 = 8
        /// Seconds a request may take to arrive whole, its head and its body: the idle time-out
        /// starts again with each byte, and a client that sends its body a byte at a time kept a
        /// connection for as long as it liked. Its connection is closed then. Default 60.
        public var requestTimeoutSeconds: Int64 = 60

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The address to bind.
        ///   - port: The port; 0 picks a free one.
        ///   - maxBodyBytes: The largest request body read.
        ///   - idleTimeoutSeconds: Seconds before a silent connection is closed.
        ///   - maxConnections: The most connections open at once.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = 64 * 1024,
            idleTimeoutSeconds: Int64 = 30, maxConnections: Int = 2048, echoRoute: Bool = false,
            watchInterval: Duration? = nil, maxBatchBytes: Int = 4 << 20
        ) {
            self.maxBatchBytes = maxBatchBytes
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.maxConnections = maxConnections
            self.echoRoute = echoRoute
            self.watchInterval = watchInterval
        }
    }

    /// The schemas served.
    public let store: SchemaStore
    /// Where the server listens and what it accepts.
    public let configuration: Configuration
    /// Where the server logs.
    public let logger: Logger
    /// What `GET /metrics` serves.
    let metrics = SidecarMetrics()
    /// The bodies `validate` answered `ok` per device token or channel, shared by every router made here.
    let history = PushHistory()
    /// The time the checks against the pushes before read: the wall clock for timestamps, and one
    /// that does not step for the history's windows (tests move both).
    var clock = PushClock.system

    /// Creates a server.
    /// - Parameters:
    ///   - store: The schemas to serve.
    ///   - configuration: Where to listen and what to accept.
    ///   - logger: Where to log; `nil` logs as `livestate.serve` to standard error as text, at
    ///     `info` (or the level `LIVESTATE_LOG_LEVEL` or `LOG_LEVEL` names).
    public init(store: SchemaStore, configuration: Configuration = .init(), logger: Logger? = nil) {
        self.store = store
        self.configuration = configuration
        self.logger = logger ?? Logger(label: "livestate.serve", factory: ServerLogHandler.init(label:))
    }

    /// The router with every endpoint.
    /// - Returns: A router for `SidecarRequestContext`.
    public func router() -> Router<SidecarRequestContext> {
        router(routes: routes)
    }

    private var routes: SchemaRoutes {
        SchemaRoutes(store: store, maxBodyBytes: configuration.maxBodyBytes, maxBatchBytes: configuration.maxBatchBytes, metrics: metrics,
                     history: history, clock: clock)
    }

    private func router(routes: SchemaRoutes) -> Router<SidecarRequestContext> {
        let router = Router(context: SidecarRequestContext.self)
        routes.register(on: router)
        if configuration.echoRoute { routes.registerEcho(on: router) }
        return router
    }

    /// The Hummingbird application: the router, the HTTP/1.1 server and the SIGHUP reload service.
    /// - Parameters:
    ///   - eventLoopGroup: The event loops that serve the connections; `nil` uses NIO's shared ones.
    ///   - onServerRunning: Called with the bound port once the server listens.
    /// - Returns: The application; run it with `runService()`, or test it with `HummingbirdTesting`.
    public func application(
        eventLoopGroup: (any EventLoopGroup)? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let routes = routes
        var application = Application(
            router: router(routes: routes),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [HTTP1ExchangeHandler.Installer(requestTimeout: .seconds(configuration.requestTimeoutSeconds), metrics: metrics)],
                idleTimeout: .seconds(configuration.idleTimeoutSeconds))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "livestate",
                availableConnectionsDelegate: .maximum(configuration.maxConnections, logger: logger)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton,
            logger: logger)
        application.addServices(SchemaReloadService(store: store, logger: logger))
        if let interval = configuration.watchInterval {
            application.addServices(SchemaWatchService(store: store, interval: interval, logger: logger))
        }
        return application
    }

    /// Makes NIO's event loops Swift Concurrency's global executor, so a request's handler runs
    /// on the thread that read it instead of hopping to the cooperative pool and back.
    ///
    /// Call it once, from the main thread, before any task starts: `livestate serve` does.
    /// - Returns: Whether the event loops took over.
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Runs until SIGTERM or SIGINT, then lets the requests in flight finish for at most
    /// `drainSeconds`; SIGHUP reloads the schemas.
    /// - Parameter onServerRunning: Called with the bound port once the server listens.
    /// - Throws: `ListenError` when the server cannot listen on its address (the port is taken,
    ///   the host is not this machine's); what stopped it otherwise.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        // The address is tried once before the service group starts, so that a port already
        // taken is said without starting and then cancelling the group's services: that
        // cancellation goes through swift-async-algorithms' `merge` (in `cancelOnGracefulShutdown`,
        // which Hummingbird's date cache uses), whose lock can deadlock against the task's, and a
        // `serve` on a busy port hung about once in 150 runs on busy cores.
        if configuration.port != 0 {
            do {
                let probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .bind(host: configuration.host, port: configuration.port).get()
                try await probe.close()
            } catch {
                throw ListenError(host: configuration.host, port: configuration.port, reason: ListenError.reason(of: error))
            }
        }
        let listening = ListeningFlag()
        let application = application { port in
            listening.set()
            await onServerRunning(port)
        }
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: application),
                .init(service: StopNotice(logger: logger, drainSeconds: configuration.drainSeconds), successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Past the drain, the group cancels the server, which closes the connections left. A
        // drain of 0 still gives the server 100 ms to stop on its own: cancelled at once, an
        // idle server logged its cancellation as errors on a routine stop.
        group.maximumGracefulShutdownDuration = max(.seconds(configuration.drainSeconds), .milliseconds(100))
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error where !listening.isSet {
            throw ListenError(host: configuration.host, port: configuration.port, reason: ListenError.reason(of: error))
        }
        logger.info("stopped")
    }
}

/// The server could not listen on its address: the port is taken, the host is not one of this
/// machine's addresses or does not resolve, or the port needs privileges.
public struct ListenError: Error, CustomStringConvertible {
    /// The address asked for.
    public var host: String
    /// The port asked for.
    public var port: Int
    /// Why, in plain words: `address already in use`.
    public var reason: String

    /// The diagnostic code a caller reports it with: an I/O error, as the commands call one.
    public static let code: DiagnosticCode = "io-error"

    /// Creates the error.
    /// - Parameters:
    ///   - host: The address asked for.
    ///   - port: The port asked for.
    ///   - reason: Why, in plain words.
    public init(host: String, port: Int, reason: String) {
        self.host = host
        self.port = port
        self.reason = reason
    }

    /// `cannot listen on 127.0.0.1:8080: address already in use` (an IPv6 host in brackets).
    public var description: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "cannot listen on \(address):\(port): \(reason)"
    }

    /// The system's words for a socket error (`address already in use`), rather than NIO's
    /// description, which names the system call; the error's description for anything else.
    static func reason(of error: any Error) -> String {
        if let error = error as? IOError {
            var words = String(cString: strerror(error.errnoCode))
            if let first = words.first, words.dropFirst().first?.isLowercase ?? true {
                words.replaceSubrange(...words.startIndex, with: first.lowercased())
            }
            return words
        }
        if let error = error as? SocketAddressError, case .unsupported = error {
            return "the address is not one a server can listen on"
        }
        if error is SocketAddressError.UnknownHost {
            return "the host name does not resolve"
        }
        return "\(error)"
    }
}

/// Says, at `info`, that a stop signal came and how long the requests in flight have: a stop
/// is told from a crash in the log.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private struct StopNotice: Service {
    let logger: Logger
    let drainSeconds: Int64

    func run() async throws {
        try await gracefulShutdown()
        // A drain of 0 still leaves the server its 100 ms (`maximumGracefulShutdownDuration`).
        logger.info("stopping: the requests in flight have \(drainSeconds == 0 ? "100 ms" : "\(drainSeconds) s") to finish")
    }
}

/// Whether the server has started listening, set from the callback that says so.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class ListeningFlag: Sendable {
    private let state = Mutex(false)

    /// Records that the server listens.
    func set() { state.withLock { $0 = true } }

    /// Whether the server has listened.
    var isSet: Bool { state.withLock { $0 } }
}
