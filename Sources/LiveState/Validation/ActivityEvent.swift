/// The `aps.event` of a Live Activity push.
public enum ActivityEvent: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Starts an activity (push-to-start, iOS 17.2): needs `attributes-type`, `attributes`,
    /// `content-state` and an `alert`. A broadcast cannot start one.
    case start
    /// Updates the content-state.
    case update
    /// Ends the activity; `dismissal-date` says when it leaves the screen.
    case end

    public var description: String { rawValue }

    /// `start, update or end`, for messages.
    static let listed = "start, update or end"
}
