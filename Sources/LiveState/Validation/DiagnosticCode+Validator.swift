// The diagnostic codes of the APNs envelope and byte budget checks.
//
// The content-state's own codes are the decoder's (`DiagnosticCode+Decoder.swift`).
extension DiagnosticCode {
    /// The body has no `aps` object (error).
    public static let missingAPS = DiagnosticCode(rawValue: "missing-aps")
    /// A key the event needs is missing from `aps`: `timestamp` and `event` always,
    /// `content-state` on start and update, `attributes-type`, `attributes` and `alert` on start (error).
    public static let missingAPSKey = DiagnosticCode(rawValue: "missing-aps-key")
    /// An `aps` value of the wrong type or shape: a fractional or string timestamp, a string
    /// `relevance-score`, an alert's `loc-key` that is not a string (error).
    public static let invalidAPSValue = DiagnosticCode(rawValue: "invalid-aps-value")
    /// `event` is not `start`, `update` or `end` (error).
    public static let invalidEvent = DiagnosticCode(rawValue: "invalid-event")
    /// `timestamp`, `stale-date` or `dismissal-date` is 1e11 or more: milliseconds (or micro- or
    /// nanoseconds), not seconds (error).
    public static let dateInMilliseconds = DiagnosticCode(rawValue: "date-in-milliseconds")
    /// `timestamp`, `stale-date` or `dismissal-date` is a whole number written with a fraction or
    /// an exponent (`1795000000.0`, `1.795e9`): Apple documents an integer, and the number is the
    /// same, so it is read as that integer (warning).
    public static let dateNotation = DiagnosticCode(rawValue: "date-notation")
    /// A start's `input-push-token` other than the number 1, or an `input-push-channel` that is
    /// not a base64 channel id: the activity starts, but with no push token or channel to update
    /// it through (error; the start still applies).
    public static let invalidInputPush = DiagnosticCode(rawValue: "invalid-input-push")
    /// A start's `attributes-type` is not the schema's `attributes-type` (error).
    public static let attributesTypeMismatch = DiagnosticCode(rawValue: "attributes-type-mismatch")
    /// `event: start` in a broadcast push, which can only update and end (error).
    public static let broadcastStart = DiagnosticCode(rawValue: "broadcast-start")
    /// A key only a start reads (`attributes`, `attributes-type`, `input-push-token`,
    /// `input-push-channel`) in a broadcast push, which never starts an activity (error).
    public static let broadcastStartOnlyKey = DiagnosticCode(rawValue: "broadcast-start-only-key")
    /// A Live Activity `aps` key (`dismissal-date`, `stale-date`, …) beside `aps` instead of in
    /// it, which `aps` does not hold: the device does not read it there (warning).
    public static let apsKeyOutsideAPS = DiagnosticCode(rawValue: "aps-key-outside-aps")
    /// `dismissal-date` on a start or update, where it has no effect (warning).
    public static let dismissalDateOutsideEnd = DiagnosticCode(rawValue: "dismissal-date-outside-end")
    /// `stale-date` before `timestamp`: the activity is stale on arrival (warning).
    public static let staleDateBeforeTimestamp = DiagnosticCode(rawValue: "stale-date-before-timestamp")
    /// Both `input-push-token` and `input-push-channel` on one start (warning).
    public static let inputPushConflict = DiagnosticCode(rawValue: "input-push-conflict")
    /// A start with neither `input-push-token` nor `input-push-channel`: on iOS 18 and later
    /// the new activity gets no push token, so no server can update it by push (warning: an
    /// activity updated only by the app needs neither).
    public static let noInputPush = DiagnosticCode(rawValue: "no-input-push")
    /// A start that joins a broadcast channel (`input-push-channel`) for an app version that
    /// runs on an iOS before 18, where channels do not exist and what such a start does is not
    /// documented (warning: a server may send it only to the devices on iOS 18 and later).
    public static let channelStartBeforeIOS18 = DiagnosticCode(rawValue: "channel-start-before-ios18")
    /// `attributes`, `attributes-type`, `input-push-token` or `input-push-channel` on an update
    /// or end, where the device ignores them (warning).
    public static let startOnlyKey = DiagnosticCode(rawValue: "start-only-key")
    /// A standard APNs key that does nothing for a Live Activity: `sound` outside `alert`,
    /// `badge`, `content-available` and the keys of ordinary notifications; or an alert's
    /// `sound` that names no sound (a number, a boolean, an array, `null`) (warning).
    public static let noEffectAPSKey = DiagnosticCode(rawValue: "no-effect-aps-key")
    /// A key inside `aps` that APNs does not know, such as a typo; APNs ignores it (warning).
    public static let unknownAPSKey = DiagnosticCode(rawValue: "unknown-aps-key")
    /// An update's `timestamp` before 1666569600, the release of iOS 16.1: older than any
    /// activity's content, so the device ignores the update (error).
    public static let timestampTooOld = DiagnosticCode(rawValue: "timestamp-too-old")
    /// An end's `timestamp` before 1666569600: Apple documents that the device ignores an end
    /// older than the activity's content, and a forum report says such an end still ended it
    /// (warning).
    public static let endTimestampTooOld = DiagnosticCode(rawValue: "end-timestamp-too-old")
    /// `alert` is a string; Live Activity alerts are objects with `title` and `body` (warning).
    public static let stringAlert = DiagnosticCode(rawValue: "string-alert")
    /// A start's `alert` with neither `title` nor `body` (`{}`, or only a `sound`): as without an
    /// alert, the activity does not start (error).
    public static let emptyAlert = DiagnosticCode(rawValue: "empty-alert")
    /// A start's `alert` with a `title` or a `body` but not both non-empty, or with its text only in
    /// an ordinary notification's keys (`loc-key`, …); an update's or end's alert object with
    /// neither `title` nor `body`, which shows no alert (warning).
    public static let incompleteAlert = DiagnosticCode(rawValue: "incomplete-alert")
    /// The body is over the APNs limit: 4096 bytes, 5120 for broadcast (error). The encoder
    /// reports it too, when `--fit` could not or was not asked to help (error).
    public static let overBudget = DiagnosticCode(rawValue: "over-budget")
    /// The device's re-encoding of the decoded state passes 4096 bytes, whatever numbers it
    /// writes: it drops the update (error).
    public static let contentStateOverBudget = DiagnosticCode(rawValue: "content-state-over-budget")
    /// The device's re-encoding of the decoded state passes 4096 bytes only where its Foundation
    /// writes numbers as Darwin's `%.17g` does (error; the push applies elsewhere).
    public static let reencodedOverBudget = DiagnosticCode(rawValue: "reencoded-over-budget")
    /// With every version checked: this app version drops the update (error; a warning from
    /// the encoder, which writes for one version, of each other live version that drops what
    /// it wrote).
    public static let droppedByVersion = DiagnosticCode(rawValue: "dropped-by-version")
    /// The app version checked for is retired: none is left in the field to read the push
    /// (a warning from the validator; an error from the encoder, which writes nothing for it).
    public static let retiredVersion = DiagnosticCode(rawValue: "retired-version")

    /// The severity the validator gives this code.
    package var validatorSeverity: Severity {
        switch self {
        case .dismissalDateOutsideEnd, .staleDateBeforeTimestamp, .inputPushConflict, .noInputPush, .channelStartBeforeIOS18, .startOnlyKey, .noEffectAPSKey,
            .unknownAPSKey, .endTimestampTooOld, .stringAlert, .incompleteAlert, .retiredVersion, .apsKeyOutsideAPS, .dateNotation:
            .warning
        default: .error
        }
    }

    /// Whether the device still applies a push with this error (the payload validator's
    /// `appDecodes` stays true): the push is wrong and fails the check, but it is not dropped. A date in
    /// milliseconds reads as one thousands of years ahead: the update shows, and what the date
    /// sets goes wrong (the order of later updates, going stale, the dismissal). A start's key on
    /// a broadcast update or end breaks Apple's broadcast rules, and the device ignores the key.
    /// A start with an unusable `input-push-token` starts the activity, which then has no way to
    /// be updated by push; one with an unusable `input-push-channel` is counted the same,
    /// though its message says that Apple says an app's request with one fails to start (no
    /// source says what a push-to-start does). An `aps` key repeated with another value is read,
    /// but with which value is not documented: the verdict is the first's, as every reader here
    /// takes it, and the error says the push must not be sent so.
    package var pushStillApplies: Bool {
        self == .dateInMilliseconds || self == .broadcastStartOnlyKey || self == .invalidInputPush || self == .duplicateKey
    }

    /// Every code this version names.
    package static let validatorCodes: [DiagnosticCode] = [
        .missingAPS,
        .missingAPSKey,
        .invalidAPSValue,
        .invalidEvent,
        .dateInMilliseconds,
        .dateNotation,
        .invalidInputPush,
        .attributesTypeMismatch,
        .broadcastStart,
        .broadcastStartOnlyKey,
        .apsKeyOutsideAPS,
        .dismissalDateOutsideEnd,
        .staleDateBeforeTimestamp,
        .inputPushConflict,
        .noInputPush,
        .channelStartBeforeIOS18,
        .startOnlyKey,
        .noEffectAPSKey,
        .unknownAPSKey,
        .timestampTooOld,
        .endTimestampTooOld,
        .stringAlert,
        .emptyAlert,
        .incompleteAlert,
        .overBudget,
        .contentStateOverBudget,
        .reencodedOverBudget,
        .droppedByVersion,
        .retiredVersion,
    ]
}
