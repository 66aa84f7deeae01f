/// The diagnostic codes of the APNs envelope and byte budget checks.
///
/// The content-state's own codes are `DecodeCode`s. Codes are stable: new ones may be added,
/// existing ones never change meaning.
public enum ValidationCode: String, Sendable, Hashable, CaseIterable {
    /// The body has no `aps` object (error).
    case missingAPS = "missing-aps"
    /// A key the event needs is missing from `aps`: `timestamp` and `event` always,
    /// `content-state` on start and update, `attributes-type`, `attributes` and `alert` on start (error).
    case missingAPSKey = "missing-aps-key"
    /// An `aps` value of the wrong type or shape: a fractional timestamp, a string
    /// `relevance-score`, `input-push-token` other than 1, a channel id that is not base64 (error).
    case invalidAPSValue = "invalid-aps-value"
    /// `event` is not `start`, `update` or `end` (error).
    case invalidEvent = "invalid-event"
    /// `timestamp`, `stale-date` or `dismissal-date` is 1e11 or more: milliseconds, not seconds (error).
    case dateInMilliseconds = "date-in-milliseconds"
    /// A start's `attributes-type` is not the schema's `attributes-type` (error).
    case attributesTypeMismatch = "attributes-type-mismatch"
    /// `event: start` in a broadcast push, which can only update and end (error).
    case broadcastStart = "broadcast-start"
    /// `dismissal-date` on a start or update, where it has no effect (warning).
    case dismissalDateOutsideEnd = "dismissal-date-outside-end"
    /// `stale-date` before `timestamp`: the activity is stale on arrival (warning).
    case staleDateBeforeTimestamp = "stale-date-before-timestamp"
    /// Both `input-push-token` and `input-push-channel` on one start (warning).
    case inputPushConflict = "input-push-conflict"
    /// `attributes`, `attributes-type`, `input-push-token` or `input-push-channel` on an update
    /// or end, where the device ignores them (warning).
    case startOnlyKey = "start-only-key"
    /// A standard APNs key that does nothing for a Live Activity: `sound` outside `alert`,
    /// `badge`, `content-available` and the keys of ordinary notifications (warning).
    case noEffectAPSKey = "no-effect-aps-key"
    /// A key inside `aps` that APNs does not know, such as a typo; APNs ignores it (warning).
    case unknownAPSKey = "unknown-aps-key"
    /// An update's or end's `timestamp` before 1666569600, the release of iOS 16.1: older than
    /// any activity's content, so the device ignores the push (warning).
    case timestampTooOld = "timestamp-too-old"
    /// `alert` is a string; Live Activity alerts are objects with `title` and `body` (warning).
    case stringAlert = "string-alert"
    /// A start's `alert` without a non-empty `title` and `body` (warning).
    case incompleteAlert = "incomplete-alert"
    /// The body is over the APNs limit: 4096 bytes, 5120 for broadcast (error).
    case overBudget = "over-budget"
    /// The content-state as sent is over 4096 bytes (error).
    case contentStateOverBudget = "content-state-over-budget"
    /// The content-state as the device re-encodes it may pass 4096 bytes (error).
    case reencodedOverBudget = "reencoded-over-budget"
    /// With every version checked: this app version drops the update (error).
    case droppedByVersion = "dropped-by-version"
    /// The app version checked for is retired: none is left in the field to read the push (warning).
    case retiredVersion = "retired-version"

    /// The severity the validator gives this code.
    public var severity: Severity {
        switch self {
        case .dismissalDateOutsideEnd, .staleDateBeforeTimestamp, .inputPushConflict, .startOnlyKey, .noEffectAPSKey,
            .unknownAPSKey, .timestampTooOld, .stringAlert, .incompleteAlert, .retiredVersion:
            .warning
        default: .error
        }
    }
}
