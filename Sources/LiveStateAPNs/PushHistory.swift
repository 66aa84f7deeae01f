import Foundation
import LiveState

/// What one sender has had APNs accept, per activity, for the checks that depend on the pushes
/// before a push (FACTS-SENDING §2, "stateful checks") and for its `timestamp`:
///
/// - each update or end a sender writes is stamped with the current second, or one past the
///   last `timestamp` APNs accepted for that activity when that is not earlier, so that two
///   updates in one second, or after a body stamped ahead, are still each newer than the one
///   before: the device ignores an update older than the last one it applied, and what it does
///   with one stamped the same is not documented;
/// - a whole body stamped before that last `timestamp` is refused (`older-timestamp`), and one
///   stamped the same is warned of (`repeated-timestamp`);
/// - an update less than 5 seconds after the last one APNs accepted for the activity is warned
///   of (`update-cadence`);
/// - a start to a push-to-start token that APNs accepted a start with the same `attributes`
///   for in the last 10 minutes is warned of (`duplicate-start`).
///
/// An activity is the device token an update or end goes to, or the broadcast channel. What is
/// kept is what APNs answered 200 to, in memory: a sender made anew (each `livestate send`)
/// starts with none, and an entry is forgotten 8 hours after its last push, when the activity
/// it describes has ended.
actor PushHistory {
    /// The last update or end APNs accepted for one activity.
    struct Activity: Sendable, Hashable {
        /// The largest `timestamp` accepted.
        var timestamp: Int
        /// When the last update was accepted, by the sender's clock; `nil` after only an end.
        var updatedAt: Date?
        /// When the last push was accepted, for forgetting it.
        var at: Date
    }

    /// The last start APNs accepted for one push-to-start token.
    struct Start: Sendable, Hashable {
        /// The `attributes` it carried, hashed.
        var attributes: Int
        /// When it was accepted.
        var at: Date
    }

    /// What the history holds for one push's target.
    struct Entry: Sendable, Hashable {
        var activity: Activity?
        var start: Start?
    }

    /// A push the sender is about to make, as the history needs it.
    struct Push: Sendable, Hashable {
        /// Where it goes.
        var target: PushTarget
        /// Its event, when known.
        var event: ActivityEvent?
        /// Its `aps.timestamp`, when known.
        var timestamp: Int?
        /// Its `attributes`, hashed, for a start.
        var attributes: Int?

        init(target: PushTarget, event: ActivityEvent? = nil, timestamp: Int? = nil, attributes: Int? = nil) {
            (self.target, self.event, self.timestamp, self.attributes) = (target, event, timestamp, attributes)
        }

        /// A push the sender writes with `envelope`.
        init(target: PushTarget, envelope: ContentStateEncoder.Envelope) {
            self.init(target: target, event: envelope.event, timestamp: envelope.timestamp,
                      attributes: envelope.event == .start ? envelope.attributes?.hashValue : nil)
        }
    }

    /// Updates closer than this to the one before are warned of: iOS 18 is reported to apply
    /// Live Activity updates at most every 5 to 15 seconds (FACTS-SENDING §1, a third-party report).
    static let cadence: TimeInterval = 5
    /// A second start with the same attributes within this time is warned of. The sender cannot
    /// see when the app hands its server the new activity's token, so it cannot tell that the
    /// first start is still pending, which is what makes the second a duplicate; a start with
    /// the same attributes this soon after the first is most often a retry, or an update sent
    /// as a start, and the device shows a second activity beside the first.
    static let startWindow: TimeInterval = 10 * 60
    /// How long an entry is kept after its last push: an activity lives at most 8 hours.
    static let lifetime: TimeInterval = 8 * 3600

    private var activities: [PushTarget: Activity] = [:]
    private var starts: [String: Start] = [:]
    /// The count past which entries older than `lifetime` are forgotten; doubled when that
    /// leaves many, so that forgetting is paid for once per doubling.
    private var limit = 10_000

    /// The activities and push-to-start tokens remembered.
    var count: Int { activities.count + starts.count }

    /// What the history holds for `target`.
    func entry(for target: PushTarget) -> Entry {
        var entry = Entry(activity: activities[target])
        if case .device(let token) = target { entry.start = starts[token] }
        return entry
    }

    /// Records a push APNs accepted.
    /// - Parameters:
    ///   - push: The push.
    ///   - now: When it was accepted, by the sender's clock.
    func accepted(_ push: Push, at now: Date) {
        switch push.event {
        case .update?, .end?:
            guard let timestamp = push.timestamp else { return }
            var activity = activities[push.target] ?? Activity(timestamp: timestamp, at: now)
            activity.timestamp = max(activity.timestamp, timestamp)
            activity.at = now
            if push.event == .update { activity.updatedAt = now }
            activities[push.target] = activity
        case .start?:
            guard case .device(let token) = push.target, let attributes = push.attributes else { return }
            starts[token] = Start(attributes: attributes, at: now)
        case nil:
            return
        }
        if count > limit {
            activities = activities.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            starts = starts.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            limit = max(10_000, 2 * count)
        }
    }

    /// The `timestamp` for an update or end the sender writes at `now`: `now`, or one past the
    /// last one APNs accepted for the activity when that is `now` or later.
    static func stamp(now: Int, after entry: Entry) -> Int {
        guard let last = entry.activity?.timestamp, last >= now else { return now }
        return last + 1
    }

    /// The findings for `push` given what the history holds for its target.
    /// - Parameters:
    ///   - push: The push.
    ///   - entry: What the history holds for its target.
    ///   - stampedHere: Whether the sender wrote its `timestamp` (then it is newer by `stamp`).
    ///   - now: The sender's clock.
    ///   - file: The body's file, for the findings.
    static func findings(_ push: Push, _ entry: Entry, stampedHere: Bool, now: Date, file: String?) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let event = push.event.map { "\($0)" } ?? "push"
        if let activity = entry.activity, let timestamp = push.timestamp, !stampedHere, push.event == .update || push.event == .end {
            let ago = seconds(now.timeIntervalSince(activity.at))
            if timestamp < activity.timestamp {
                findings.append(timestampFinding(.olderTimestamp, "timestamp \(timestamp) is older than \(activity.timestamp), the timestamp of "
                    + "the last push APNs accepted for this activity \(ago) ago: the device ignores an update older than the last "
                    + "one it applied, so it drops this \(event); stamp it with the current UNIX time, later than the last", file: file))
            } else if timestamp == activity.timestamp {
                findings.append(timestampFinding(.repeatedTimestamp, "timestamp \(timestamp) is the same as that of the last push APNs "
                    + "accepted for this activity \(ago) ago: whether the device applies an update stamped the same as the last "
                    + "one it applied is not documented; give each push to an activity a later timestamp", file: file))
            }
        }
        if push.event == .update, let updatedAt = entry.activity?.updatedAt {
            let since = now.timeIntervalSince(updatedAt)
            if since >= 0 && since < cadence {
                findings.append(PushRequestRules.finding(.updateCadence, "APNs accepted an update for this activity \(seconds(since)) ago: iOS 18 "
                    + "is reported to apply Live Activity updates at most every 5 to 15 seconds, so the device may show this one "
                    + "late or not at all; send the latest state at most every 5 seconds"))
            }
        }
        if push.event == .start, let start = entry.start, let attributes = push.attributes, attributes == start.attributes {
            let since = now.timeIntervalSince(start.at)
            if since >= 0 && since < startWindow {
                findings.append(PushRequestRules.finding(.duplicateStart, "APNs accepted a start with the same attributes for this push-to-start "
                    + "token \(seconds(since)) ago: each start the device receives shows another activity, so it shows this one "
                    + "beside the first; send updates to the first activity's own push token"))
            }
        }
        return findings
    }

    /// `3 s`, `4 min`, `2 h`.
    private static func seconds(_ interval: TimeInterval) -> String {
        let whole = max(0, Int(interval.rounded(.down)))
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        return "\(whole / 3600) h"
    }

    /// A finding on the body's `aps.timestamp`.
    private static func timestampFinding(_ code: SendCode, _ message: String, file: String?) -> Diagnostic {
        Diagnostic(code: code.rawValue, severity: code.severity, message: message, file: file, scope: .envelope, pointer: "/aps/timestamp")
    }
}
