import Foundation
import LiveStateTooling

/// One provider token (JWT) per key and environment, shared by every send.
///
/// APNs wants a token refreshed "no more than once every 20 minutes and no less than once every
/// 60 minutes"; a connection that sees a new token sooner is answered
/// `TooManyProviderTokenUpdates` and is unusable for a while. So the cache mints a token on first
/// use, reuses it for `refreshAfter` (50 minutes), and never mints again within
/// `minimumLifetime` (20 minutes) of the last one — not even when asked to.
public actor ProviderTokenCache {
    /// A token and when it was minted, by both clocks.
    struct Minted {
        var token: String
        /// Its `iat`.
        var issuedAt: Date
        /// `PushClock.elapsed` then: its age is measured from this.
        var mintedAt: TimeInterval
    }

    /// The signing key.
    public nonisolated let key: ProviderKey
    /// How long a token is used before a new one is minted.
    public nonisolated let refreshAfter: TimeInterval
    /// How long a token is kept at least.
    public nonisolated let minimumLifetime: TimeInterval
    private let clock: PushClock
    private var current: [APNsEnvironment: Minted] = [:]
    /// After `TooManyProviderTokenUpdates`: no minting before this `PushClock.elapsed`.
    private var mintingSuspendedUntil: [APNsEnvironment: TimeInterval] = [:]
    /// How many tokens this cache has minted.
    public private(set) var mintedCount = 0

    /// Creates a cache for one key.
    /// - Parameters:
    ///   - key: The signing key.
    ///   - refreshAfter: Seconds a token is used before a new one is minted (default 50 minutes).
    ///   - minimumLifetime: Seconds a token is kept at least (default 20 minutes).
    ///   - clock: The wall clock, by which ages are measured too (tests move it). `nil`, the
    ///     default, reads the system's wall clock for each token's `iat` and measures ages on a
    ///     clock that does not step, so that setting the wall clock neither keeps a token past
    ///     its hour nor renews one early.
    public init(key: ProviderKey, refreshAfter: TimeInterval = 50 * 60, minimumLifetime: TimeInterval = 20 * 60,
                clock: (@Sendable () -> Date)? = nil) {
        self.init(key: key, refreshAfter: refreshAfter, minimumLifetime: minimumLifetime, clock: PushClock(clock))
    }

    init(key: ProviderKey, refreshAfter: TimeInterval = 50 * 60, minimumLifetime: TimeInterval = 20 * 60, clock: PushClock) {
        self.key = key
        self.refreshAfter = refreshAfter
        self.minimumLifetime = minimumLifetime
        self.clock = clock
    }

    /// The token to send with now: the cached one, or a new one when it is `refreshAfter` old.
    /// - Parameter environment: The environment the request goes to.
    /// - Returns: The JWT.
    public func token(for environment: APNsEnvironment) -> String {
        let now = clock.elapsed()
        if let minted = current[environment] {
            let suspended = mintingSuspendedUntil[environment].map { now < $0 } ?? false
            if now - minted.mintedAt < refreshAfter || suspended { return minted.token }
        }
        return mint(for: environment, at: now)
    }

    /// After `ExpiredProviderToken`: mints a new token if the rejected one is at least
    /// `minimumLifetime` old. A younger token that APNs calls expired means this machine's clock
    /// is wrong, and a new token would be just as wrong.
    /// - Parameters:
    ///   - rejected: The token APNs rejected.
    ///   - environment: Its environment.
    /// - Returns: Whether a new token was minted (and a retry is worth it).
    public func renew(after rejected: String, for environment: APNsEnvironment) -> Bool {
        let now = clock.elapsed()
        guard let minted = current[environment] else { return false }
        if minted.token != rejected { return true }  // another send renewed it already
        // Old enough by either clock: by the steady one, or by the wall clock since its `iat`,
        // which is what APNs judges (a clock set right since the token was minted made its
        // `iat` old at once; only a new token, with the right time, is taken).
        let wallAge = clock.now().timeIntervalSince(minted.issuedAt)
        guard max(now - minted.mintedAt, wallAge) >= minimumLifetime else { return false }
        if let until = mintingSuspendedUntil[environment], now < until { return false }
        _ = mint(for: environment, at: now)
        return true
    }

    /// When the cache minted a token, by its own clock.
    /// - Parameters:
    ///   - token: A token this cache gave out.
    ///   - environment: Its environment.
    /// - Returns: Its `iat`, or `nil` when it is not the environment's current token.
    public func issuedAt(of token: String, for environment: APNsEnvironment) -> Date? {
        current[environment].flatMap { $0.token == token ? $0.issuedAt : nil }
    }

    /// A token's `iat` and how long ago it was minted, measured as the cache measures ages.
    func minted(_ token: String, for environment: APNsEnvironment) -> (issuedAt: Date, age: TimeInterval)? {
        current[environment].flatMap { $0.token == token ? ($0.issuedAt, clock.elapsed() - $0.mintedAt) : nil }
    }

    /// After `TooManyProviderTokenUpdates`: stops minting until `minimumLifetime` after the last token.
    /// - Parameter environment: The environment.
    /// - Returns: When minting may resume.
    @discardableResult
    public func suspendMinting(for environment: APNsEnvironment) -> Date {
        let now = clock.elapsed()
        let until = max((current[environment]?.mintedAt ?? now) + minimumLifetime, now)
        mintingSuspendedUntil[environment] = until
        return clock.now().addingTimeInterval(until - now)
    }

    private func mint(for environment: APNsEnvironment, at now: TimeInterval) -> String {
        let issuedAt = clock.now()
        let token = key.makeToken(issuedAt: Int(issuedAt.timeIntervalSince1970))
        current[environment] = Minted(token: token, issuedAt: issuedAt, mintedAt: now)
        mintedCount += 1
        return token
    }
}
