import LiveState

// The diagnostic codes of the checks against the pushes before (`PushHistory`): made by
// `LiveActivitySender` for what APNs accepted from it, and by the sidecar's `validate` route
// for the bodies it answered `ok` to for the same `activity`.
extension DiagnosticCode {
    /// A body stamped before the last `timestamp` of its activity: the device ignores an update
    /// older than the last one it applied (an error).
    public static let olderTimestamp = DiagnosticCode(rawValue: "older-timestamp")
    /// An end stamped before the last `timestamp` of its activity: Apple documents that the
    /// device ignores it, but an end with an old timestamp was reported to end the activity
    /// (forum thread 776165), so it may be dropped (a warning, as `end-timestamp-too-old` is).
    public static let olderEndTimestamp = DiagnosticCode(rawValue: "older-end-timestamp")
    /// A body stamped the same as the last push of its activity: what the device does with it
    /// is not documented (a warning).
    public static let repeatedTimestamp = DiagnosticCode(rawValue: "repeated-timestamp")
    /// An update less than 5 seconds after the last one of its activity: iOS 18 is reported to
    /// apply updates at most every 5 to 15 seconds (a warning).
    public static let updateCadence = DiagnosticCode(rawValue: "update-cadence")
    /// A start to a push-to-start token that was given a start with the same attributes in the
    /// last 10 minutes: the device shows a second activity beside the first (a warning).
    public static let duplicateStart = DiagnosticCode(rawValue: "duplicate-start")
    /// A whole body's `aps.timestamp` more than 8 hours after this machine's clock: a device
    /// that applies it ignores every later update stamped before it (a warning). Not a check
    /// against the pushes before, but against the clock: `PushHistory.futureTimestamp`, asked by
    /// `lint`, `send` and the sidecar's `validate` for every body.
    public static let timestampInFuture = DiagnosticCode(rawValue: "timestamp-in-future")
    /// An update's `aps.timestamp` more than 8 hours before this machine's clock: an activity
    /// takes updates for at most 8 hours, so the device ignores it, unless a push-to-start
    /// stamped earlier still started the activity (`PushHistory.pastTimestamp`). An error, held
    /// only to a body sent now: by `send`, or by a server that names the activity to the
    /// sidecar's `validate`.
    public static let timestampInPast = DiagnosticCode(rawValue: "timestamp-in-past")

    /// `older-timestamp` is an error (the device drops the push); the others are warnings.
    package var pushHistorySeverity: Severity { self == .olderTimestamp ? .error : .warning }

    /// Every code this version names.
    package static let pushHistoryCodes: [DiagnosticCode] = [
        .olderTimestamp, .olderEndTimestamp, .repeatedTimestamp, .updateCadence, .duplicateStart,
    ]
}
