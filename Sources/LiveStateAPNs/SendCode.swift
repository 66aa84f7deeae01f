import LiveState

/// The diagnostic codes of the request checks a send makes before it connects: what APNs would
/// answer 400 to. The payload's own codes are `ValidationCode`s and `DecodeCode`s.
public enum SendCode: String, Sendable, Hashable, CaseIterable {
    /// The topic is empty, or names a push type other than `liveactivity` (`BadTopic`).
    case badTopic = "bad-topic"
    /// The device token is empty, not hex, or of odd length (`BadDeviceToken`, `MissingDeviceToken`).
    case badDeviceToken = "bad-device-token"
    /// The channel id is empty or not base64 (`BadChannelId`).
    case badChannelID = "bad-channel-id"
    /// `apns-priority` is not 5 or 10 (1, 5 or 10 for a broadcast) (`BadPriority`).
    case badPriority = "bad-priority"
    /// `apns-expiration` is negative, or in milliseconds (`BadExpirationDate`).
    case badExpiration = "bad-expiration"
    /// A broadcast without `apns-expiration`, which Apple requires.
    case missingExpiration = "missing-expiration"
    /// `apns-id` is not a lower-case canonical UUID (`BadMessageId`).
    case badAPNsID = "bad-apns-id"
    /// `apns-collapse-id` is over 64 bytes (`BadCollapseId`).
    case badCollapseID = "bad-collapse-id"

    /// Every request check is an error: APNs refuses the request.
    public var severity: Severity { .error }
}
