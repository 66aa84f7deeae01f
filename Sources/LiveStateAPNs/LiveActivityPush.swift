import LiveState
import LiveStateTooling

/// Where a push goes.
public enum PushTarget: Sendable, Hashable {
    /// One device's activity: its push token (update) or push-to-start token (start), hex.
    case device(token: String)
    /// Every device subscribed to a broadcast channel (iOS 18): its base64 channel id.
    case broadcast(channelID: String)

    /// Whether this is a broadcast.
    public var isBroadcast: Bool {
        if case .broadcast = self { return true }
        return false
    }

    /// The target as the history of pushes keys it.
    var historyTarget: PushHistory.Target {
        switch self {
        case .device(let token): PushHistory.Target(id: token, isBroadcast: false)
        case .broadcast(let channel): PushHistory.Target(id: channel, isBroadcast: true)
        }
    }
}

/// The optional APNs headers of a push.
public struct PushHeaders: Sendable, Hashable {
    /// `apns-priority`: 10 (immediate, counts against the budget; the default when omitted) or
    /// 5; a broadcast also takes 1.
    public var priority: Int?
    /// `apns-expiration`: UNIX seconds; 0 means one attempt, never stored. Required on a broadcast.
    public var expiration: Int?
    /// `apns-id`: a lower-case UUID; APNs makes one when omitted.
    public var apnsID: String?
    /// `apns-collapse-id`: 1 to 64 bytes, with no control characters and no space at either end.
    public var collapseID: String?
    /// `apns-request-id` (broadcast): a UUID echoed in the answer.
    public var requestID: String?

    /// Creates headers.
    /// - Parameters:
    ///   - priority: `apns-priority`.
    ///   - expiration: `apns-expiration`, UNIX seconds.
    ///   - apnsID: `apns-id`.
    ///   - collapseID: `apns-collapse-id`.
    ///   - requestID: `apns-request-id`.
    public init(priority: Int? = nil, expiration: Int? = nil, apnsID: String? = nil, collapseID: String? = nil, requestID: String? = nil) {
        self.priority = priority
        self.expiration = expiration
        self.apnsID = apnsID
        self.collapseID = collapseID
        self.requestID = requestID
    }
}

/// One Live Activity push: where it goes, what it carries, its headers.
public struct LiveActivityPush: Sendable {
    /// What the push carries.
    public enum Content: Sendable {
        /// A content-state and the `aps` keys around it: encoded for the version with
        /// `ContentStateEncoder`, its `timestamp` set at each attempt.
        case state(Value, envelope: ContentStateEncoder.Envelope)
        /// Like `state`, but the state is asked for at each attempt, so a retry carries the
        /// state as it is then, not as it was at the first attempt.
        case latest(@Sendable () async -> Value, envelope: ContentStateEncoder.Envelope)
        /// A whole APNs body as written: sent as it is, checked like any other; a retry sets its
        /// `aps.timestamp` to the time of the retry.
        case payload([UInt8])
    }

    /// Where it goes.
    public var target: PushTarget
    /// What it carries.
    public var content: Content
    /// Its headers.
    public var headers: PushHeaders
    /// The file the content came from, for diagnostics.
    public var file: String?

    /// Creates a push.
    /// - Parameters:
    ///   - target: Where it goes.
    ///   - content: What it carries.
    ///   - headers: Its headers.
    ///   - file: The file the content came from, for diagnostics.
    public init(target: PushTarget, content: Content, headers: PushHeaders = .init(), file: String? = nil) {
        self.target = target
        self.content = content
        self.headers = headers
        self.file = file
    }
}
