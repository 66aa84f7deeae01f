/// The `reason` of an APNs error answer.
///
/// A struct with a member per documented reason rather than an enum, so a reason Apple adds
/// later is kept as it came (`APNsReason(rawValue: "SomethingNew")`) and a switch over the known
/// ones does not break. Comparison ignores case and spaces: Apple's broadcast table spells
/// `Service Unavailable` with a space.
public struct APNsReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The reason as APNs wrote it.
    public let rawValue: String

    /// Creates a reason.
    /// - Parameter rawValue: The reason string.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    private var folded: String { rawValue.lowercased().filter { $0 != " " } }
    public static func == (lhs: APNsReason, rhs: APNsReason) -> Bool { lhs.folded == rhs.folded }
    public func hash(into hasher: inout Hasher) { hasher.combine(folded) }

    // Header or body bugs (400).
    public static let badCollapseId = APNsReason(rawValue: "BadCollapseId")
    public static let badExpirationDate = APNsReason(rawValue: "BadExpirationDate")
    public static let badMessageId = APNsReason(rawValue: "BadMessageId")
    public static let badPriority = APNsReason(rawValue: "BadPriority")
    public static let badTopic = APNsReason(rawValue: "BadTopic")
    public static let duplicateHeaders = APNsReason(rawValue: "DuplicateHeaders")
    public static let invalidPushType = APNsReason(rawValue: "InvalidPushType")
    public static let missingPushType = APNsReason(rawValue: "MissingPushType")
    public static let missingTopic = APNsReason(rawValue: "MissingTopic")
    public static let payloadEmpty = APNsReason(rawValue: "PayloadEmpty")
    public static let topicDisallowed = APNsReason(rawValue: "TopicDisallowed")
    public static let missingDeviceToken = APNsReason(rawValue: "MissingDeviceToken")
    public static let badRequestParams = APNsReason(rawValue: "BadRequestParams")
    public static let badRequestPayload = APNsReason(rawValue: "BadRequestPayload")
    // Tokens.
    public static let badDeviceToken = APNsReason(rawValue: "BadDeviceToken")
    public static let deviceTokenNotForTopic = APNsReason(rawValue: "DeviceTokenNotForTopic")
    public static let unregistered = APNsReason(rawValue: "Unregistered")
    public static let expiredToken = APNsReason(rawValue: "ExpiredToken")
    // Connection.
    public static let idleTimeout = APNsReason(rawValue: "IdleTimeout")
    public static let unrelatedKeyIdInToken = APNsReason(rawValue: "UnrelatedKeyIdInToken")
    // Credentials (403).
    public static let expiredProviderToken = APNsReason(rawValue: "ExpiredProviderToken")
    public static let invalidProviderToken = APNsReason(rawValue: "InvalidProviderToken")
    public static let missingProviderToken = APNsReason(rawValue: "MissingProviderToken")
    public static let badCertificate = APNsReason(rawValue: "BadCertificate")
    public static let badCertificateEnvironment = APNsReason(rawValue: "BadCertificateEnvironment")
    public static let forbidden = APNsReason(rawValue: "Forbidden")
    /// The documented spelling.
    public static let badEnvironmentKeyIdInToken = APNsReason(rawValue: "BadEnvironmentKeyIdInToken")
    /// The spelling APNs returns.
    public static let badEnvironmentKeyInToken = APNsReason(rawValue: "BadEnvironmentKeyInToken")
    public static let topicMismatch = APNsReason(rawValue: "TopicMismatch")
    // Paths and methods.
    public static let badPath = APNsReason(rawValue: "BadPath")
    public static let methodNotAllowed = APNsReason(rawValue: "MethodNotAllowed")
    // Size.
    public static let payloadTooLarge = APNsReason(rawValue: "PayloadTooLarge")
    // Throttling (429).
    public static let tooManyProviderTokenUpdates = APNsReason(rawValue: "TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNsReason(rawValue: "TooManyRequests")
    // APNs side.
    public static let internalServerError = APNsReason(rawValue: "InternalServerError")
    public static let serviceUnavailable = APNsReason(rawValue: "ServiceUnavailable")
    public static let shutdown = APNsReason(rawValue: "Shutdown")
    // Broadcast and channels.
    public static let featureNotEnabled = APNsReason(rawValue: "FeatureNotEnabled")
    public static let missingChannelId = APNsReason(rawValue: "MissingChannelId")
    public static let badChannelId = APNsReason(rawValue: "BadChannelId")
    public static let channelNotRegistered = APNsReason(rawValue: "ChannelNotRegistered")
    public static let cannotCreateChannelConfig = APNsReason(rawValue: "CannotCreateChannelConfig")

    /// Every reason Apple documents, for tests and help text.
    public static let documented: [APNsReason] = [
        .badCollapseId, .badExpirationDate, .badMessageId, .badPriority, .badTopic, .duplicateHeaders, .invalidPushType,
        .missingPushType, .missingTopic, .payloadEmpty, .topicDisallowed, .missingDeviceToken, .badRequestParams,
        .badRequestPayload, .badDeviceToken, .deviceTokenNotForTopic, .unregistered, .expiredToken, .idleTimeout,
        .unrelatedKeyIdInToken, .expiredProviderToken, .invalidProviderToken, .missingProviderToken, .badCertificate,
        .badCertificateEnvironment, .forbidden, .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken, .topicMismatch,
        .badPath, .methodNotAllowed, .payloadTooLarge, .tooManyProviderTokenUpdates, .tooManyRequests,
        .internalServerError, .serviceUnavailable, .shutdown, .featureNotEnabled, .missingChannelId, .badChannelId,
        .channelNotRegistered, .cannotCreateChannelConfig,
    ]
}

/// What a sender should do about an answer: the reason's class.
public enum SendRemedy: String, Sendable, Hashable, CaseIterable {
    /// 200, APNs's only success for a push: nothing. (Another 2xx is not APNs's answer to one.)
    case delivered
    /// The token is no longer valid (`Unregistered`, `ExpiredToken`, or `BadDeviceToken` in both
    /// environments): delete it unless it was registered again after the answer's `timestamp`.
    case tokenDead = "token-dead"
    /// A header or body the pre-flight checks did not catch: fix it; never retried.
    case fixRequest = "fix-request"
    /// The key, team or environment is wrong: stop the queue and tell an operator.
    case fixCredentials = "fix-credentials"
    /// The app's setup is wrong (token of another app, broadcast capability off, topic mismatch).
    case fixConfiguration = "fix-configuration"
    /// The channel is unknown or malformed: stop using it.
    case stopUsingChannel = "stop-using-channel"
    /// `TooManyRequests`: this token is pushed too often; back off and send only the latest state.
    case backOffToken = "back-off-token"
    /// `TooManyProviderTokenUpdates`: the token was renewed too soon; minting stops and the
    /// connection is replaced.
    case stopMinting = "stop-minting"
    /// The connection must be replaced (`IdleTimeout`, `UnrelatedKeyIdInToken`, `Shutdown`).
    case reconnect
    /// APNs had a problem (5xx): try again later with back-off, re-rendering the current state.
    case retryLater = "retry-later"
    /// A reason this sender does not know: read it.
    case unknown

    /// The remedy of an answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - reason: The reason, if any.
    public init(status: Int, reason: APNsReason?) {
        guard status != 200 else { self = .delivered; return }
        switch reason {
        case .unregistered?, .expiredToken?, .badDeviceToken?: self = .tokenDead
        case .badCollapseId?, .badExpirationDate?, .badMessageId?, .badPriority?, .badTopic?, .duplicateHeaders?,
             .invalidPushType?, .missingPushType?, .missingTopic?, .payloadEmpty?, .missingDeviceToken?, .badPath?,
             .methodNotAllowed?, .payloadTooLarge?, .badRequestParams?, .badRequestPayload?:
            self = .fixRequest
        case .expiredProviderToken?, .invalidProviderToken?, .missingProviderToken?, .badCertificate?,
             .badCertificateEnvironment?, .forbidden?, .badEnvironmentKeyIdInToken?, .badEnvironmentKeyInToken?:
            self = .fixCredentials
        case .deviceTokenNotForTopic?, .topicDisallowed?, .topicMismatch?, .featureNotEnabled?, .cannotCreateChannelConfig?:
            self = .fixConfiguration
        case .missingChannelId?, .badChannelId?, .channelNotRegistered?: self = .stopUsingChannel
        case .tooManyRequests?: self = .backOffToken
        case .tooManyProviderTokenUpdates?: self = .stopMinting
        case .idleTimeout?, .unrelatedKeyIdInToken?, .shutdown?: self = .reconnect
        case .internalServerError?, .serviceUnavailable?: self = .retryLater
        // No reason (an empty or non-JSON body): the status alone, where it says one thing.
        // (429 says two: TooManyRequests or TooManyProviderTokenUpdates.)
        case nil where status == 403: self = .fixCredentials
        case nil where [400, 404, 405, 413].contains(status): self = .fixRequest
        default: self = status >= 500 ? .retryLater : status == 410 ? .tokenDead : .unknown
        }
    }

    /// What to do, in a sentence.
    public var advice: String {
        switch self {
        case .delivered: "delivered"
        case .tokenDead: "the token is no longer valid: stop sending to it (delete it unless the app registered it again after the timestamp)"
        case .fixRequest: "the request is wrong: fix it; retrying the same bytes fails again"
        case .fixCredentials: "the provider key, team or environment is wrong: stop sending and check --key, --key-id, --team-id and --sandbox/--production"
        case .fixConfiguration: "the app's setup does not allow this push: check the bundle id, the token's app and the Broadcast capability"
        case .stopUsingChannel: "the channel is unknown or malformed: stop using it"
        case .backOffToken: "too many pushes to this token: wait, then send only the latest state"
        case .stopMinting: "the provider token was renewed too soon: reuse it; the connection is unusable for a while"
        case .reconnect: "open a new connection and send the current state again"
        case .retryLater: "APNs had a problem: retry later (after a 5xx, Apple says 15 minutes) with back-off, sending the current state"
        case .unknown: "an answer this sender does not know"
        }
    }

    /// What to do after an answer with `reason`, in a sentence: `advice`, but where the reason
    /// says more than its remedy. `BadDeviceToken` is also the answer to a token of the other
    /// environment, and `ExpiredProviderToken` to a token this machine's clock made old.
    /// - Parameter reason: The answer's reason.
    public func advice(for reason: APNsReason?) -> String {
        advice(for: reason, broadcast: false)
    }

    /// What to do after an answer with `reason` to a device push or a broadcast, in a sentence:
    /// `advice(for:)`, and for a broadcast's `BadExpirationDate`, the channel's storage policy,
    /// which the checks before sending cannot see.
    /// - Parameters:
    ///   - reason: The answer's reason.
    ///   - broadcast: Whether the request was a broadcast.
    public func advice(for reason: APNsReason?, broadcast: Bool) -> String {
        switch reason {
        case .badExpirationDate? where broadcast:
            "a channel created with storage policy none (message-storage-policy 0, the default of `livestate channels create`) "
                + "accepts only apns-expiration 0 (--expiration 0); only a channel that stores the latest message takes a later "
                + "time (`livestate channels read ID` says which policy the channel has)"
        case .badDeviceToken?:
            "the token is not valid in this environment: a token from an Xcode build is the sandbox's, one from TestFlight or "
                + "the App Store production's, and each is refused by the other's host; unless it was tried in the other "
                + "environment (--retry-other-environment), try it there once, and stop sending to it if it fails there too"
        case .expiredProviderToken?:
            "APNs read the provider token as more than an hour old: a new one is made for the next request; if one made "
                + "minutes ago is refused so, this machine's clock is behind APNs's (the key is not at fault)"
        default:
            advice
        }
    }
}
