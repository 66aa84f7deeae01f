import LiveState

// The diagnostic codes of the request checks a send makes before it connects (what APNs would
// answer 400 to, and one header Apple's documents disagree on), and of what an answer shows
// about this machine (`clock-behind`). The checks against the pushes the same sender made
// before, and the payload's own checks, name theirs beside their rules.
extension DiagnosticCode {
    /// The topic is empty, is not a bundle id (labels of letters, digits and hyphens between
    /// dots), or names a push type other than `liveactivity` (`BadTopic`).
    public static let badTopic = DiagnosticCode(rawValue: "bad-topic")
    /// The device token is empty, not hex, or of odd length (`BadDeviceToken`, `MissingDeviceToken`).
    public static let badDeviceToken = DiagnosticCode(rawValue: "bad-device-token")
    /// The channel id is empty or not base64 (`BadChannelId`).
    public static let badChannelID = DiagnosticCode(rawValue: "bad-channel-id")
    /// `apns-priority` is not 5 or 10 (1, 5 or 10 for a broadcast), or a broadcast has none,
    /// which Apple's broadcast document requires (`BadPriority`).
    public static let badPriority = DiagnosticCode(rawValue: "bad-priority")
    /// `apns-expiration` is negative, or in milliseconds (`BadExpirationDate`).
    public static let badExpiration = DiagnosticCode(rawValue: "bad-expiration")
    /// A broadcast without `apns-expiration`, which Apple requires.
    public static let missingExpiration = DiagnosticCode(rawValue: "missing-expiration")
    /// `apns-id` is not a lower-case canonical UUID (`BadMessageId`).
    public static let badAPNsID = DiagnosticCode(rawValue: "bad-apns-id")
    /// `apns-collapse-id` is empty, over 64 bytes, holds a control character (CR, LF and NUL
    /// would split or end the HTTP/2 header), or begins or ends with a space (`BadCollapseId`).
    public static let badCollapseID = DiagnosticCode(rawValue: "bad-collapse-id")
    /// A broadcast at `apns-priority` 1, which Apple's broadcast document allows but its
    /// ActivityKit push article does not name (it names 5 and 10): a warning.
    public static let broadcastPriorityOne = DiagnosticCode(rawValue: "broadcast-priority-one")
    /// APNs answered `ExpiredProviderToken` to a token minted minutes ago: this machine's clock
    /// is behind APNs's by more than an hour.
    public static let clockBehind = DiagnosticCode(rawValue: "clock-behind")
    /// No answer came to a start after its request may have reached APNs: it is not sent again,
    /// as each start shows another activity (a warning).
    public static let startUnconfirmed = DiagnosticCode(rawValue: "start-unconfirmed")

    /// Every code is an error (APNs refuses the request) but `broadcast-priority-one` (APNs
    /// takes it; whether the device updates the activity is not documented),
    /// `timestamp-in-future` (APNs takes it; the harm is to the updates after it) and
    /// `start-unconfirmed` (what became of the start is not known): warnings.
    package var sendSeverity: Severity {
        self == .broadcastPriorityOne || self == .timestampInFuture || self == .startUnconfirmed ? .warning : .error
    }

    /// Every code this version names.
    package static let sendCodes: [DiagnosticCode] = [
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
        .timestampInPast,
        .clockBehind,
        .startUnconfirmed,
    ]
}
