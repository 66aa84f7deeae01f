import LiveState

/// The diagnostic codes of the request checks a send makes before it connects (what APNs would
/// answer 400 to, and one header Apple's documents disagree on), and of what an answer shows
/// about this machine (`clock-behind`). The checks against the pushes the same sender made
/// before have `PushHistoryCode`s. The payload's own codes are `ValidationCode`s and
/// `DecodeCode`s.
public struct SendCode: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The code, as it appears in diagnostics and documents.
    public let rawValue: String

    /// A code by its text; codes this version does not name are kept as they are.
    /// - Parameter rawValue: The kebab-case code.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The topic is empty, or names a push type other than `liveactivity` (`BadTopic`).
    public static let badTopic = SendCode(rawValue: "bad-topic")
    /// The device token is empty, not hex, or of odd length (`BadDeviceToken`, `MissingDeviceToken`).
    public static let badDeviceToken = SendCode(rawValue: "bad-device-token")
    /// The channel id is empty or not base64 (`BadChannelId`).
    public static let badChannelID = SendCode(rawValue: "bad-channel-id")
    /// `apns-priority` is not 5 or 10 (1, 5 or 10 for a broadcast) (`BadPriority`).
    public static let badPriority = SendCode(rawValue: "bad-priority")
    /// `apns-expiration` is negative, or in milliseconds (`BadExpirationDate`).
    public static let badExpiration = SendCode(rawValue: "bad-expiration")
    /// A broadcast without `apns-expiration`, which Apple requires.
    public static let missingExpiration = SendCode(rawValue: "missing-expiration")
    /// `apns-id` is not a lower-case canonical UUID (`BadMessageId`).
    public static let badAPNsID = SendCode(rawValue: "bad-apns-id")
    /// `apns-collapse-id` is empty, over 64 bytes, holds a control character (CR, LF and NUL
    /// would split or end the HTTP/2 header), or begins or ends with a space (`BadCollapseId`).
    public static let badCollapseID = SendCode(rawValue: "bad-collapse-id")
    /// A broadcast at `apns-priority` 1, which Apple's broadcast document allows but its
    /// ActivityKit push article does not name (it names 5 and 10): a warning.
    public static let broadcastPriorityOne = SendCode(rawValue: "broadcast-priority-one")
    /// A whole body's `aps.timestamp` more than 8 hours after this machine's clock: a device
    /// that applies it ignores every later update stamped before it (a warning).
    public static let timestampInFuture = SendCode(rawValue: "timestamp-in-future")
    /// APNs answered `ExpiredProviderToken` to a token minted minutes ago: this machine's clock
    /// is behind APNs's by more than an hour.
    public static let clockBehind = SendCode(rawValue: "clock-behind")

    /// Every code is an error (APNs refuses the request) but `broadcast-priority-one` (APNs
    /// takes it; whether the device updates the activity is not documented) and
    /// `timestamp-in-future` (APNs takes it; the harm is to the updates after it): warnings.
    public var severity: Severity { self == .broadcastPriorityOne || self == .timestampInFuture ? .warning : .error }

    /// Every code this version names.
    public static let allCases: [SendCode] = [
        .badTopic,
        .badDeviceToken,
        .badChannelID,
        .badPriority,
        .badExpiration,
        .missingExpiration,
        .badAPNsID,
        .badCollapseID,
        .broadcastPriorityOne,
        .timestampInFuture,
        .clockBehind,
    ]
}
