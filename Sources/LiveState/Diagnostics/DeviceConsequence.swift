/// What the device does with a push whose content-state (or, on a start, attributes) it cannot
/// decode, in the push's own terms: the end of every message that reports such a failure.
package enum DeviceConsequence: String, Sendable, CaseIterable {
    case update = "the app drops this update"
    case broadcastUpdate = "the app drops this broadcast update"
    case start = "the activity does not start"
    case end = "the app drops this end"
    case broadcastEnd = "the app drops this broadcast end"
    /// A push without an event the device knows: it cannot tell what the push is.
    case push = "the device drops this push"

    /// The consequence for a push with `event`; `nil` (no event, or one the device does not
    /// know) is ``push``.
    package init(event: ActivityEvent?, broadcast: Bool) {
        switch event {
        case .start?: self = .start
        case .end?: self = broadcast ? .broadcastEnd : .end
        case .update?: self = broadcast ? .broadcastUpdate : .update
        case nil: self = .push
        }
    }

    /// `message` with this consequence in place of `other` at its end, the wording a decode made
    /// before the push's event was known.
    func reword(_ message: String, from other: DeviceConsequence) -> String {
        guard self != other, message.hasSuffix(other.rawValue) else { return message }
        return String(message.dropLast(other.rawValue.count)) + rawValue
    }
}
