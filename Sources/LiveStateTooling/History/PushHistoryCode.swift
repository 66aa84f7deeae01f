import LiveState

/// The diagnostic codes of the checks against the pushes before (`PushHistory`): made by
/// `LiveActivitySender` for what APNs accepted from it, and by the sidecar's `validate` route
/// for the bodies it answered `ok` to for the same `activity`.
public struct PushHistoryCode: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The code, as it appears in diagnostics and documents.
    public let rawValue: String

    /// A code by its text; codes this version does not name are kept as they are.
    /// - Parameter rawValue: The kebab-case code.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// A body stamped before the last `timestamp` of its activity: the device ignores an update
    /// older than the last one it applied (an error).
    public static let olderTimestamp = PushHistoryCode(rawValue: "older-timestamp")
    /// A body stamped the same as the last push of its activity: what the device does with it
    /// is not documented (a warning).
    public static let repeatedTimestamp = PushHistoryCode(rawValue: "repeated-timestamp")
    /// An update less than 5 seconds after the last one of its activity: iOS 18 is reported to
    /// apply updates at most every 5 to 15 seconds (a warning).
    public static let updateCadence = PushHistoryCode(rawValue: "update-cadence")
    /// A start to a push-to-start token that was given a start with the same attributes in the
    /// last 10 minutes: the device shows a second activity beside the first (a warning).
    public static let duplicateStart = PushHistoryCode(rawValue: "duplicate-start")

    /// `older-timestamp` is an error (the device drops the push); the others are warnings.
    public var severity: Severity { self == .olderTimestamp ? .error : .warning }

    /// Every code this version names.
    public static let allCases: [PushHistoryCode] = [.olderTimestamp, .repeatedTimestamp, .updateCadence, .duplicateStart]
}
