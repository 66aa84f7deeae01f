import Foundation

extension ContentStateEncoder {
    /// What a caller asks the encoder to write, as text from command-line flags or HTTP query
    /// parameters: `livestate encode`, `livestate send` and the sidecar's encode route read it
    /// with the same rules.
    package struct Request: Sendable, Hashable {
        /// Write the bare content-state instead of a whole body.
        package var contentStateOnly = false
        /// `start`, `update` or `end`; `nil` means `update`.
        package var event: String?
        /// `now` or UNIX seconds; `nil` means now.
        package var timestamp: String?
        /// UNIX seconds after which the activity shows as stale.
        package var staleDate: Int?
        /// UNIX seconds at which an ended activity leaves the screen.
        package var dismissalDate: Int?
        /// The relevance score.
        package var relevanceScore: Double?
        /// The alert object.
        package var alert: Value?
        /// The static attributes of a start.
        package var attributes: Value?
        /// Whether a start asks for the activity's update token.
        package var inputPushToken = false
        /// The broadcast channel a start subscribes the activity to.
        package var inputPushChannel: String?

        /// Creates an empty request: an update stamped now.
        package init() {}

        /// The envelope parameters given, by their names (`event`, `timestamp`, `stale-date`,
        /// `dismissal-date`, `relevance-score`, `alert`, `attributes`, `input-push-token`,
        /// `input-push-channel`), in that order.
        package var envelopeParameters: [String] {
            [("event", event != nil), ("timestamp", timestamp != nil), ("stale-date", staleDate != nil),
             ("dismissal-date", dismissalDate != nil), ("relevance-score", relevanceScore != nil),
             ("alert", alert != nil), ("attributes", attributes != nil), ("input-push-token", inputPushToken),
             ("input-push-channel", inputPushChannel != nil)].filter(\.1).map(\.0)
        }

        /// The envelope the request asks for, or what is wrong with it, worded with the
        /// parameters' names (`event`, `timestamp`, …).
        /// - Parameter now: The time `now` stands for.
        /// - Returns: The envelope, or the problem (`nil` envelope with a message).
        package func envelope(now: Date) -> (envelope: Envelope?, problem: String?) {
            let given = event ?? "update"
            guard let kind = ActivityEvent(rawValue: given) else {
                return (nil, "event must be \(ActivityEvent.listed), not '\(given)'")
            }
            var seconds = Int(now.timeIntervalSince1970)
            if let timestamp, timestamp != "now" {
                guard let value = Int(timestamp), value >= 0 else {
                    return (nil, "timestamp must be now or a number of UNIX seconds, 0 or more, not '\(timestamp)'")
                }
                seconds = value
            }
            if let relevanceScore, !relevanceScore.isFinite {
                // JSON has no NaN or infinity: the body could not carry it.
                // A number past Double's range (`1e400`) reaches here as infinity: say why.
                let why = relevanceScore.isInfinite ? " (a number past Double's range, such as 1e400, reads as infinity)" : ""
                return (nil, "relevance-score must be a finite number, not \(relevanceScore)\(why)")
            }
            if contentStateOnly, !envelopeParameters.isEmpty {
                return (nil, "the bare content-state takes no envelope parameters (given: \(envelopeParameters.joined(separator: ", ")))")
            }
            // What the new activity's later pushes reach it by: a start's alone, and one of them.
            let inputPush = ["input-push-token", "input-push-channel"].filter(envelopeParameters.contains)
            if let first = inputPush.first, kind != .start {
                return (nil, "\(first) is for event start: it says how the activity a start creates is reached later, and "
                    + "\(kind == .end ? "an end" : "an update") (event \(given)\(event == nil ? ", the default" : "")) creates none")
            }
            if inputPush.count == 2 {
                return (nil, "input-push-token and input-push-channel ask for two ways to reach the activity; give one: "
                    + "input-push-token for an update token, input-push-channel for a broadcast channel")
            }
            return (Envelope(event: kind, timestamp: seconds, staleDate: staleDate, dismissalDate: dismissalDate,
                             relevanceScore: relevanceScore, alert: alert, attributes: attributes,
                             inputPushToken: inputPushToken, inputPushChannel: inputPushChannel), nil)
        }
    }
}
