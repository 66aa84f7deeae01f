import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A loopback stand-in for Apple Push Notification service (APNs), built from Apple's documents.
///
/// It listens on 127.0.0.1 with two TLS listeners that speak only HTTP/2 (ALPN `h2`): the push
/// port takes device pushes (`POST /3/device/<token>`) and broadcasts
/// (`POST /4/broadcasts/apps/<bundleID>`); the manage port takes channel management requests
/// (`/1/apps/<bundleID>/channels` and `/1/apps/<bundleID>/all-channels`). Each request is checked
/// against the rules Apple documents and answered with the status and `reason` APNs would give.
/// Every request, refused or not, is kept in ``requests``.
public final class FakeAPNs: Sendable {
    /// The APNs environment an instance plays, or a provider key is allowed in.
    public enum Environment: String, Sendable {
        /// The development environment (`api.sandbox.push.apple.com`).
        case sandbox
        /// The production environment (`api.push.apple.com`).
        case production
    }

    /// A provider key the fake accepts.
    public struct Key: Sendable {
        /// The 10-character key identifier, the JWT header's `kid`.
        public var keyID: String
        /// The 10-character team identifier, the JWT claims' `iss`.
        public var teamID: String
        /// The public half of the key that signs the provider tokens (ES256).
        public var publicKey: P256.Signing.PublicKey
        /// The environments the key may be used in; a token signed with it in another environment
        /// is answered 403 `BadEnvironmentKeyInToken`.
        public var environments: Set<Environment>

        /// Creates a provider key.
        /// - Parameters:
        ///   - keyID: The 10-character key identifier.
        ///   - teamID: The 10-character team identifier.
        ///   - publicKey: The public key that verifies the token signatures.
        ///   - environments: The environments the key is allowed in; both by default.
        public init(
            keyID: String,
            teamID: String,
            publicKey: P256.Signing.PublicKey,
            environments: Set<Environment> = [.sandbox, .production]
        ) {
            self.keyID = keyID
            self.teamID = teamID
            self.publicKey = publicKey
            self.environments = environments
        }
    }

    /// How an instance behaves.
    public struct Configuration: Sendable {
        /// The environment this instance plays (default `.sandbox`). Only the sandbox answers a
        /// successful device push with `apns-unique-id`.
        public var environment: Environment
        /// The team's apps. A topic or path naming another bundle is refused.
        public var bundleIDs: Set<String>
        /// The provider keys the fake accepts.
        public var keys: [Key]
        /// The clock every time rule reads (token age, token refresh, rate limit). Tests move it.
        public var now: @Sendable () -> Date
        /// More than `count` accepted pushes to one device token within `seconds` makes the next
        /// one 429 `TooManyRequests`. `nil` (the default) sets no limit.
        public var tokenRateLimit: (count: Int, seconds: Double)?
        /// Whether the Broadcast capability is on (default `true`). When `false`, broadcasts and
        /// channel management requests are answered 400 `FeatureNotEnabled`.
        public var broadcastEnabled: Bool
        /// The number of channels an app may have (default 10,000, Apple's limit). Creating one
        /// more is answered 400 `CannotCreateChannelConfig`.
        public var channelLimit: Int
        /// Whether `requests` records every request (default `true`; a load test turns it off).
        public var recordsRequests: Bool
        /// Whether TLS offers HTTP/2 (default `true`). `false` offers only `http/1.1`, as a proxy
        /// or another server might: for tests of a client that must refuse such a peer.
        public var offersHTTP2: Bool
        /// Whether TLS goes no further than 1.1 (default `false`: 1.2 or later, as APNs): for
        /// tests of a client that must refuse an old protocol.
        public var offersOnlyTLS11: Bool
        /// Whether the fake goes silent once TLS has chosen HTTP/2 (default `false`): the handshake
        /// completes with ALPN `h2`, then nothing is ever written, not even the server's SETTINGS,
        /// as a TLS-terminating proxy whose backend is down behaves. For tests of a client's
        /// deadlines.
        public var silentAfterHandshake: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - environment: The environment this instance plays.
        ///   - bundleIDs: The team's apps.
        ///   - keys: The provider keys the fake accepts.
        ///   - now: The clock; `Date.init` by default.
        public init(
            environment: Environment = .sandbox,
            bundleIDs: Set<String>,
            keys: [Key],
            now: @escaping @Sendable () -> Date = Date.init
        ) {
            self.environment = environment
            self.bundleIDs = bundleIDs
            self.keys = keys
            self.now = now
            self.tokenRateLimit = nil
            self.broadcastEnabled = true
            self.channelLimit = 10_000
            self.recordsRequests = true
            self.offersHTTP2 = true
            self.offersOnlyTLS11 = false
            self.silentAfterHandshake = false
        }
    }

    /// One request the fake received, with its answer.
    public struct Request: Sendable {
        /// The 0-based number of the TCP connection the request came on.
        public var connection: Int
        /// The request method, such as `POST`.
        public var method: String
        /// The request path (`:path`), such as `/3/device/<token>`.
        public var path: String
        /// The request headers with lowercased names, in the order sent, pseudo-headers excluded.
        public var headers: [(name: String, value: String)]
        /// The request body.
        public var body: [UInt8]
        /// The status the fake answered.
        public var status: Int
        /// The `reason` the fake answered, or `nil` on success.
        public var reason: String?
        /// Whether the request came over HTTP/2 (`false` for an HTTP/1.1 request, which APNs refuses).
        public var isHTTP2: Bool
        /// The `:authority` pseudo-header (`host` over HTTP/1.1).
        public var authority: String?

        /// The value of the first header with this name (case-insensitive), or `nil`.
        /// - Parameter name: The header name.
        /// - Returns: The header's value, if the request had it.
        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.name == lowered }?.value
        }
    }

    let core: FakeCore
    private let group: MultiThreadedEventLoopGroup
    private let pushChannel: any Channel
    private let manageChannel: any Channel
    private let certificate: String

    private init(
        core: FakeCore,
        group: MultiThreadedEventLoopGroup,
        pushChannel: any Channel,
        manageChannel: any Channel,
        certificate: String
    ) {
        self.core = core
        self.group = group
        self.pushChannel = pushChannel
        self.manageChannel = manageChannel
        self.certificate = certificate
    }

    /// Starts a fake: makes a self-signed certificate and binds the push and manage listeners on
    /// 127.0.0.1, each on a free port.
    /// - Parameter configuration: How the fake behaves.
    /// - Returns: The running fake. Call ``shutdown()`` when done.
    /// - Throws: If the certificate cannot be made or a listener cannot be bound.
    public static func start(_ configuration: Configuration) async throws -> FakeAPNs {
        let identity = try SelfSignedIdentity.make(now: Date())
        let sslContext = try identity.makeServerContext(
            protocols: configuration.offersHTTP2 ? ["h2"] : ["http/1.1"], onlyTLS11: configuration.offersOnlyTLS11)
        let core = FakeCore(configuration: configuration)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let push = try await FakeServer.bind(group: group, sslContext: sslContext, role: .push, core: core)
            let manage: any Channel
            do {
                manage = try await FakeServer.bind(group: group, sslContext: sslContext, role: .manage, core: core)
            } catch {
                try? await push.close()
                throw error
            }
            return FakeAPNs(
                core: core,
                group: group,
                pushChannel: push,
                manageChannel: manage,
                certificate: identity.certificatePEM
            )
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The port of the push listener: device pushes and broadcasts.
    public var pushPort: Int { pushChannel.localAddress?.port ?? 0 }

    /// The port of the channel management listener.
    public var managePort: Int { manageChannel.localAddress?.port ?? 0 }

    /// The self-signed certificate the fake serves (PEM), valid for "localhost" and 127.0.0.1; a
    /// client trusts it as its only root.
    public var certificatePEM: String { certificate }

    /// Closes both listeners and every open connection.
    /// - Throws: If the event loop group fails to shut down.
    public func shutdown() async throws {
        try? await pushChannel.close()
        try? await manageChannel.close()
        try await group.shutdownGracefully()
    }

    /// Makes a device token valid in this instance's environment, for one app.
    ///
    /// A token the fake was not told about is answered 400 `BadDeviceToken`, as APNs answers a
    /// token of the other environment.
    /// - Parameters:
    ///   - deviceToken: The token in hex (either case).
    ///   - bundleID: The app the token belongs to; a push with another app's topic is answered
    ///     400 `DeviceTokenNotForTopic`.
    public func register(deviceToken: String, bundleID: String) {
        core.state.withLockedValue {
            $0.tokens[deviceToken.lowercased()] = DeviceTokenRecord(bundleID: bundleID, status: .active)
        }
    }

    /// Marks a device token as no longer registered: pushes to it are answered
    /// 410 `{"reason":"Unregistered","timestamp":<ms since 1970>}`.
    /// - Parameters:
    ///   - deviceToken: The token in hex (either case).
    ///   - date: When the token stopped being valid; answered as `timestamp`.
    public func unregister(deviceToken: String, at date: Date) {
        setInactive(deviceToken, status: .unregistered(date))
    }

    /// Marks a device token as expired: pushes to it are answered 410 `ExpiredToken` with a
    /// `timestamp`.
    /// - Parameters:
    ///   - deviceToken: The token in hex (either case).
    ///   - date: When the token expired; answered as `timestamp`.
    public func expire(deviceToken: String, at date: Date) {
        setInactive(deviceToken, status: .expired(date))
    }

    private func setInactive(_ deviceToken: String, status: DeviceTokenRecord.Status) {
        core.state.withLockedValue {
            let key = deviceToken.lowercased()
            let bundleID = $0.tokens[key]?.bundleID
            $0.tokens[key] = DeviceTokenRecord(bundleID: bundleID, status: status)
        }
    }

    /// Answers the next `count` requests (on any path of the push port) with this status and
    /// reason instead of processing them — for what a request cannot cause (InternalServerError,
    /// ServiceUnavailable, Shutdown, IdleTimeout, Forbidden, BadCertificate, ...). The answer is
    /// JSON `{"reason": reason}`, and still counts as received.
    /// - Parameters:
    ///   - count: How many requests to answer this way.
    ///   - status: The HTTP status to answer.
    ///   - reason: The `reason` to answer.
    public func answerNext(_ count: Int = 1, status: Int, reason: String) {
        guard count > 0 else { return }
        core.state.withLockedValue {
            for _ in 0..<count {
                $0.scriptedAnswers.append(ScriptedAnswer(status: status, reason: reason))
            }
        }
    }

    /// Answers the next `count` push requests with this status and exactly this body, as APNs
    /// never does: an empty or non-JSON error body (a proxy's page), a body over a megabyte, a
    /// success other than 200. The request still counts as received, with no reason.
    /// - Parameters:
    ///   - count: How many requests to answer this way.
    ///   - status: The HTTP status to answer.
    ///   - body: The body, sent as it is.
    public func answerNext(_ count: Int = 1, status: Int, body: [UInt8]) {
        guard count > 0 else { return }
        core.state.withLockedValue {
            for _ in 0..<count {
                $0.scriptedAnswers.append(ScriptedAnswer(status: status, reason: "", body: body))
            }
        }
    }

    /// Answers the next push request with a redirect to `location`, which APNs never sends:
    /// for tests of a client that must not follow it.
    public func redirectNext(status: Int = 307, to location: String) {
        core.state.withLockedValue { $0.scriptedAnswers.append(ScriptedAnswer(status: status, reason: "", location: location)) }
    }

    /// Makes every answer from now on stop after its head and the first bytes of its body, the
    /// stream left open, as a peer that stalls would: for tests of a client's deadline.
    public func stallAnswers() {
        core.state.withLockedValue { $0.stallsAnswers = true }
    }

    /// Resets the next `count` request streams, on either listener, with `REFUSED_STREAM` as
    /// their headers arrive, as a server under load may (RFC 9113 §8.7: the request was not
    /// processed). Such a request is not recorded in ``requests``; ``refusedStreams`` counts it.
    /// - Parameter count: How many streams to refuse.
    public func refuseNextStreams(_ count: Int = 1) {
        core.state.withLockedValue { $0.streamsToRefuse += max(0, count) }
    }

    /// The streams reset with `REFUSED_STREAM` so far.
    public var refusedStreams: Int {
        core.state.withLockedValue { $0.refusedStreams }
    }

    /// Makes every answer from now on wait `delay` before it is written, as a slow network
    /// would: a request is then in flight for that long, for tests of what happens to it
    /// meanwhile. The answer itself is decided (and the request recorded) when it arrives.
    /// - Parameter delay: The wait; `.zero` answers at once again.
    public func delayAnswers(by delay: TimeAmount) {
        core.state.withLockedValue { $0.answerDelay = delay }
    }

    /// The channel identifiers an app has, in the order they were created.
    /// - Parameter bundleID: The app.
    /// - Returns: The channel identifiers (base64).
    public func channelIDs(bundleID: String) -> [String] {
        core.state.withLockedValue { state in
            state.channels.filter { $0.bundleID == bundleID }.map(\.id)
        }
    }

    /// Every request received so far, in the order they were answered.
    public var requests: [Request] {
        core.state.withLockedValue { $0.requests }
    }

    /// The number of TCP connections accepted so far, on both listeners.
    public var connectionCount: Int {
        core.state.withLockedValue { $0.connectionCount }
    }

    /// The number of distinct provider token (JWT) strings seen, valid or not, so a test can
    /// assert that a client minted exactly one.
    public var tokensSeen: Int {
        core.state.withLockedValue { $0.tokensSeen.count }
    }
}
