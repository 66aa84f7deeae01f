import Foundation
import LiveState

/// What one sender (`LiveActivitySender`) has had APNs accept, or one sidecar has found valid,
/// per activity, for the checks that depend on the pushes before a push (FACTS-SENDING §2,
/// "stateful checks") and for its `timestamp`:
///
/// - each update or end a sender writes is stamped with the current second, or one past the
///   last `timestamp` APNs accepted for that activity when that is not earlier, so that two
///   updates in one second, or after a body stamped ahead, are still each newer than the one
///   before: the device ignores an update older than the last one it applied, and what it does
///   with one stamped the same is not documented;
/// - a whole body stamped before that last `timestamp` is refused (`older-timestamp`), but an
///   end only warned of (`older-end-timestamp`: one such end was reported to end the activity),
///   and one stamped the same is warned of (`repeated-timestamp`);
/// - an update less than 5 seconds after the last one APNs accepted for the activity is warned
///   of (`update-cadence`);
/// - a start to a push-to-start token that APNs accepted a start with the same `attributes`
///   for in the last 10 minutes is warned of (`duplicate-start`).
///
/// An activity is the device token an update or end goes to, or the broadcast channel. What is
/// kept is in memory: a sender keeps what APNs answered 200 to, the sidecar what it answered
/// `ok` to. One made anew (each `livestate send`) starts with none, and an entry is forgotten 8
/// hours after its last push, when the activity it describes has ended.
package actor PushHistory {
    /// Where a push goes: a device token (an activity's push token, or a push-to-start token
    /// for a start) or a broadcast channel.
    package struct Target: Sendable, Hashable {
        /// The channel id as given, or the device token in lower case: APNs takes a token's hex
        /// digits in either case, so `0A1B…` and `0a1b…` are one activity.
        package var id: String
        /// Whether `id` is a broadcast channel's.
        package var isBroadcast: Bool

        package init(id: String, isBroadcast: Bool) {
            (self.id, self.isBroadcast) = (isBroadcast ? id : id.lowercased(), isBroadcast)
        }

        /// Why `token` cannot be a device token, or `nil`: asked by the sender and by the
        /// sidecar's `token=`. Apple says not to assume its length.
        /// The longest device token or channel id taken: a device token is 64 hex digits today,
        /// and Apple says not to assume its size; one of 100,000 was sent on.
        package static let maxIDBytes = 512

        package static func problem(withToken token: String) -> String? {
            if token.isEmpty { return "the device token is empty" }
            if token.utf8.count > maxIDBytes {
                return "the device token is \(token.utf8.count) characters long; APNs's are 64 hex digits today, and none is taken past \(maxIDBytes)"
            }
            guard token.utf8.allSatisfy(JSONByte.isHexDigit) else {
                // `<0a1b2c3d 4e5f…>` is how `Data`'s description prints a token: the usual mistake.
                if token.utf8.contains(where: { $0 == 0x20 || $0 == 0x3C || $0 == 0x3E }),
                   token.utf8.allSatisfy({ JSONByte.isHexDigit($0) || $0 == 0x20 || $0 == 0x3C || $0 == 0x3E }) {
                    return "the device token must be hex digits only; '\(Diagnostic.quoted(token))' has spaces or angle brackets, which come from "
                        + "printing Data's description: remove them (in the app, make the token with "
                        + "token.map { String(format: \"%02x\", $0) }.joined())"
                }
                return "the device token must be hex digits, as the app received it; '\(Diagnostic.quoted(token))' is not"
            }
            guard token.utf8.count.isMultiple(of: 2) else {
                return "the device token has an odd number of hex digits (\(token.utf8.count)): a digit is missing"
            }
            return nil
        }

        /// Why `channel` cannot be a broadcast channel's id, or `nil`: channel ids are base64.
        package static func problem(withChannel channel: String) -> String? {
            if channel.isEmpty { return "the channel id is empty" }
            if channel.utf8.count > maxIDBytes {
                return "the channel id is \(channel.utf8.count) characters long; APNs's are a few dozen, and none is taken past \(maxIDBytes)"
            }
            guard Field.StringFormat.base64.problem(channel) == nil else {
                return "the channel id must be the base64 id APNs gave when the channel was created, not '\(Diagnostic.quoted(channel))'"
            }
            return nil
        }
    }

    /// The last update or end accepted for one activity (by APNs, for a sender; answered `ok`,
    /// for the sidecar).
    package struct Activity: Sendable, Hashable {
        /// The largest `timestamp` accepted.
        package var timestamp: Int
        /// When the last update was accepted, by the clock of whoever remembers; `nil` after only
        /// an end.
        package var updatedAt: Instant?
        /// When the last push was accepted, for forgetting it.
        package var at: Instant

        package init(timestamp: Int, updatedAt: Instant? = nil, at: Instant) {
            (self.timestamp, self.updatedAt, self.at) = (timestamp, updatedAt, at)
        }
    }

    /// The last start accepted for one push-to-start token, or sent with no answer after it may
    /// have reached APNs.
    package struct Start: Sendable, Hashable {
        /// The `attributes` it carried, hashed.
        package var attributes: Int
        /// When it was accepted, or sent.
        package var at: Instant
        /// Whether APNs accepted it; `false` for one whose answer was lost (`mayHaveReached`).
        package var isConfirmed: Bool

        package init(attributes: Int, at: Instant, isConfirmed: Bool = true) {
            (self.attributes, self.at, self.isConfirmed) = (attributes, at, isConfirmed)
        }
    }

    /// What the history holds for one push's target.
    package struct Entry: Sendable, Hashable {
        /// The activity's last update or end, when the target is an activity's token or a channel.
        package var activity: Activity?
        /// The last start, when the target is a push-to-start token.
        package var start: Start?
        /// The largest `timestamp` of an update or end that got no answer after it may have
        /// reached APNs (`mayHaveReached`) since one as new was accepted: the device may hold
        /// it, so the next stamp is past it.
        package var unconfirmedTimestamp: Int?

        package init(activity: Activity? = nil, start: Start? = nil, unconfirmedTimestamp: Int? = nil) {
            (self.activity, self.start, self.unconfirmedTimestamp) = (activity, start, unconfirmedTimestamp)
        }
    }

    /// A push about to be made (or a body the sidecar checks), as the history needs it.
    package struct Push: Sendable, Hashable {
        /// Where it goes.
        package var target: Target
        /// Its event, when known.
        package var event: ActivityEvent?
        /// Its `aps.timestamp`, when known.
        package var timestamp: Int?
        /// Its `attributes`, hashed, for a start.
        package var attributes: Int?

        package init(target: Target, event: ActivityEvent? = nil, timestamp: Int? = nil, attributes: Int? = nil) {
            (self.target, self.event, self.timestamp, self.attributes) = (target, event, timestamp, attributes)
        }

        /// A push the sender writes with `envelope`.
        package init(target: Target, envelope: ContentStateEncoder.Envelope) {
            self.init(target: target, event: envelope.event, timestamp: envelope.timestamp,
                      attributes: envelope.event == .start ? PushHistory.attributesHash(envelope.writtenAttributes) : nil)
        }
    }

    /// A moment on the clock the history's windows are measured on: seconds since a fixed start,
    /// on a clock that does not step (`PushClock.elapsed`). The wall clock moved them: set back
    /// an hour, an update a minute after the last was "5 s" or less apart, and a start within
    /// 10 minutes of the same one was not said; set forward, entries were forgotten early.
    package typealias Instant = TimeInterval

    /// Updates closer than this to the one before are warned of: iOS 18 is reported to apply
    /// Live Activity updates at most every 5 to 15 seconds (FACTS-SENDING §1, a third-party report).
    package static let cadence: TimeInterval = 5
    /// A second start with the same attributes within this time is warned of. The sender cannot
    /// see when the app hands its server the new activity's token, so it cannot tell that the
    /// first start is still pending, which is what makes the second a duplicate; a start with
    /// the same attributes this soon after the first is most often a retry, or an update sent
    /// as a start, and the device shows a second activity beside the first.
    package static let startWindow: TimeInterval = 10 * 60
    /// How long an entry is kept after its last push: an activity lives at most 8 hours.
    package static let lifetime: TimeInterval = 8 * 3600

    private var activities: [Target: Activity] = [:]
    private var starts: [String: Start] = [:]
    /// The largest `timestamp` of an update or end per activity that may have reached APNs with
    /// no answer, and when: for stamping past it, not for findings (APNs did not accept it).
    private var unconfirmed: [Target: (timestamp: Int, at: Instant)] = [:]
    /// The targets a check is under way for (`reserve`), each with the checks waiting for it.
    private var reserved: [Target: [CheckedContinuation<Void, Never>]] = [:]
    /// The count past which entries older than `lifetime` are forgotten; doubled when that
    /// leaves many, so that forgetting is paid for once per doubling.
    private var limit = 10_000
    /// The most entries kept: past it, those of the pushes longest ago are forgotten until a
    /// quarter of it is free (a sidecar's clients name any activity they like). Forgetting an
    /// entry forgets its findings, never refuses a push.
    private let capacity: Int

    /// The activities and push-to-start tokens remembered.
    package var count: Int { activities.count + starts.count + unconfirmed.count }

    /// - Parameter capacity: The most entries kept (at least 4).
    package init(capacity: Int = 1_000_000) {
        self.capacity = max(capacity, 4)
    }

    /// What the history holds for `target` at `now`: nothing of a push more than `lifetime` ago,
    /// whether or not it is forgotten yet.
    package func entry(for target: Target, at now: Instant) -> Entry {
        let activity = activities[target].flatMap { (now - $0.at) < Self.lifetime ? $0 : nil }
        let start = target.isBroadcast ? nil : starts[target.id].flatMap { (now - $0.at) < Self.lifetime ? $0 : nil }
        let sent = unconfirmed[target].flatMap { (now - $0.at) < Self.lifetime ? $0.timestamp : nil }
        return Entry(activity: activity, start: start, unconfirmedTimestamp: sent)
    }

    /// Records an update or end that got no answer after it may have reached APNs (the
    /// connection broke, the answer did not come in time, the send was cancelled): the device
    /// may hold it, so what the sender stamps next for the activity is later (`stamp`). The
    /// findings still judge by what APNs accepted. A start is kept as one that may have shown
    /// an activity: the same start again is a `duplicate-start`, as after one APNs accepted.
    /// - Parameters:
    ///   - push: The push.
    ///   - now: When it was sent, by the sender's clock.
    package func mayHaveReached(_ push: Push, at now: Instant) {
        switch push.event {
        case .update?, .end?:
            guard let timestamp = push.timestamp else { return }
            unconfirmed[push.target] = (max(timestamp, unconfirmed[push.target]?.timestamp ?? .min), now)
        case .start?:
            guard !push.target.isBroadcast, let attributes = push.attributes else { return }
            // One APNs accepted with the same attributes, in the window, stands: it showed an activity.
            if let kept = starts[push.target.id], kept.isConfirmed, kept.attributes == attributes,
               (now - kept.at) < Self.startWindow { return }
            starts[push.target.id] = Start(attributes: attributes, at: now, isConfirmed: false)
        case nil:
            return
        }
        forgetIfFull(now: now)
    }

    /// Waits until no other check of `target` is under way, and starts one: until `release`,
    /// a second check of the same target waits here. A check reads the entry, judges a push by
    /// it, and records the push when it passes; two at once for one target both read the entry
    /// from before the other, and both pass (two starts, each showing an activity, or two
    /// updates stamped the same). Checks of other targets do not wait.
    /// - Returns: What the history holds for `target` at `now`.
    package func reserve(_ target: Target, at now: @Sendable () -> Instant) async -> Entry {
        if reserved[target] != nil {
            await withCheckedContinuation { reserved[target, default: []].append($0) }
        } else {
            reserved[target] = []
        }
        return entry(for: target, at: now())
    }

    /// Ends the check of `target` that `reserve` started, recording `push` when it passed, and
    /// lets the next check of the target go on.
    package func release(_ target: Target, accepting push: Push?, at now: Instant) {
        if let push { accepted(push, at: now) }
        guard var waiting = reserved[target], !waiting.isEmpty else {
            reserved[target] = nil
            return
        }
        let next = waiting.removeFirst()
        reserved[target] = waiting
        next.resume()
    }

    /// Records a push APNs accepted (for a sender), or a body answered `ok` (for the sidecar).
    /// - Parameters:
    ///   - push: The push.
    ///   - now: When it was accepted, by the clock of whoever remembers.
    package func accepted(_ push: Push, at now: Instant) {
        switch push.event {
        case .update?, .end?:
            guard let timestamp = push.timestamp else { return }
            // An entry of a push more than `lifetime` ago is not read, nor built on.
            let kept = activities[push.target].flatMap { (now - $0.at) < Self.lifetime ? $0 : nil }
            var activity = kept ?? Activity(timestamp: timestamp, at: now)
            activity.timestamp = max(activity.timestamp, timestamp)
            activity.at = now
            // What may have reached APNs unanswered is past once one as new is accepted.
            if let sent = unconfirmed[push.target], sent.timestamp <= activity.timestamp { unconfirmed[push.target] = nil }
            if push.event == .update { activity.updatedAt = now }
            activities[push.target] = activity
        case .start?:
            guard !push.target.isBroadcast, let attributes = push.attributes else { return }
            starts[push.target.id] = Start(attributes: attributes, at: now)
        case nil:
            return
        }
        forgetIfFull(now: now)
    }

    /// Past `limit` entries, forgets those older than `lifetime`, and past `capacity`, those of
    /// the pushes longest ago.
    private func forgetIfFull(now: Instant) {
        guard count > min(limit, capacity) else { return }
        activities = activities.filter { (now - $0.value.at) < Self.lifetime }
        starts = starts.filter { (now - $0.value.at) < Self.lifetime }
        unconfirmed = unconfirmed.filter { (now - $0.value.at) < Self.lifetime }
        if count > capacity * 3 / 4 {
            // Still full: the entries of the pushes longest ago go.
            enum Key { case activity(Target), start(String), unconfirmed(Target) }
            let entries: [(at: Instant, key: Key)] = activities.map { ($0.value.at, .activity($0.key)) }
                + starts.map { ($0.value.at, .start($0.key)) } + unconfirmed.map { ($0.value.at, .unconfirmed($0.key)) }
            for entry in entries.sorted(by: { $0.at < $1.at }).prefix(count - capacity * 3 / 4) {
                switch entry.key {
                case .activity(let target): activities[target] = nil
                case .start(let token): starts[token] = nil
                case .unconfirmed(let target): unconfirmed[target] = nil
                }
            }
        }
        limit = max(10_000, 2 * count)
    }

    /// The `aps.attributes` of a whole body, hashed, when it has them: what a start is compared
    /// by. Hashed as the app reads them (`canonical`), so that the same attributes written in
    /// another order, as a server's dictionary may write them in each process, are the same.
    package static func attributesHash(ofBody bytes: some ContiguousBytes) -> Int? {
        guard case .object(let members)? = try? Value.parse(json: bytes),
              case .object(let aps)? = members.first(where: { $0.name == "aps" })?.value else { return nil }
        return aps.first { $0.name == "attributes" }.map { attributesHash($0.value) }
    }

    /// Start attributes, hashed as the app reads them: the one rule a start is compared by.
    package static func attributesHash(_ attributes: Value) -> Int {
        canonical(attributes).hashValue
    }

    /// `value` as an app's `Decodable` reads it: each object's members by key, a repeated key's
    /// first value (as `JSONDecoder` keeps it), and a number as its value (`1` and `1.0` are one
    /// `Int` or `Double`), at every depth.
    static func canonical(_ value: Value) -> Value {
        switch value {
        case .int, .uint, .double:
            return value.number.map(Value.double) ?? value
        case .object(let members):
            var seen = Set<String>()
            let kept = members.filter { seen.insert($0.name).inserted }
            return .object(kept.sorted { $0.name < $1.name }.map { Value.Member($0.name, canonical($0.value)) })
        case .array(let elements):
            return .array(elements.map(canonical))
        default:
            return value
        }
    }

    /// The `timestamp` for an update or end the sender writes at `now`: `now`, or one past the
    /// last one APNs accepted for the activity, or that may have reached it unanswered, when
    /// that is `now` or later.
    package static func stamp(now: Int, after entry: Entry) -> Int {
        guard let last = [entry.activity?.timestamp, entry.unconfirmedTimestamp].compactMap({ $0 }).max(), last >= now else { return now }
        return last + 1
    }

    /// Who remembers the pushes before, as the findings say it.
    package enum Source: Sendable {
        /// A sender: what APNs accepted.
        case sender
        /// The sidecar: the bodies it answered `ok` to.
        case sidecar

        /// `the last update APNs accepted`, `the last body this sidecar answered ok to`.
        func last(_ push: String) -> String {
            switch self {
            case .sender: "the last \(push) APNs accepted"
            case .sidecar: "the last \(push == "push" ? "body" : push) this sidecar answered ok to"
            }
        }
    }

    /// The findings for `push` given what the history holds for its target.
    /// - Parameters:
    ///   - push: The push.
    ///   - entry: What the history holds for its target.
    ///   - stampedHere: Whether the sender wrote its `timestamp` (then it is newer by `stamp`).
    ///   - now: The clock of whoever remembers.
    ///   - source: Who remembers, for the words.
    ///   - file: The body's file, for the findings.
    package static func findings(_ push: Push, _ entry: Entry, stampedHere: Bool, now: Instant, source: Source, file: String?) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let event = push.event.map { "\($0)" } ?? "push"
        if let activity = entry.activity, let timestamp = push.timestamp, !stampedHere, push.event == .update || push.event == .end {
            let last = "\(source.last("push")) for this activity, \(seconds(now - activity.at)) ago"
            if timestamp < activity.timestamp && push.event == .end {
                findings.append(timestampFinding(.olderEndTimestamp, "timestamp \(timestamp) is older than \(activity.timestamp), "
                    + "that of \(last): Apple documents that the device ignores a push older than the last one it applied, but "
                    + "forum thread 776165 reports an end with an old timestamp that still ended the activity, so this end may "
                    + "be dropped; stamp it with the current UNIX time, later than the last", file: file))
            } else if timestamp < activity.timestamp {
                findings.append(timestampFinding(.olderTimestamp, "timestamp \(timestamp) is older than \(activity.timestamp), that of "
                    + "\(last): the device ignores an update older than the last one it applied, so it drops this \(event); stamp "
                    + "it with the current UNIX time, later than the last", file: file))
            } else if timestamp == activity.timestamp {
                findings.append(timestampFinding(.repeatedTimestamp, "timestamp \(timestamp) is the same as that of \(last): whether "
                    + "the device applies an update stamped the same as the last one it applied is not documented; give each "
                    + "push to an activity a later timestamp", file: file))
            }
        }
        if push.event == .update, let updatedAt = entry.activity?.updatedAt {
            let since = now - updatedAt
            if since >= 0 && since < cadence {
                findings.append(finding(.updateCadence, "\(source.last("update")) for this activity was \(seconds(since)) ago: "
                    + "iOS 18 is reported to apply Live Activity updates at most every 5 to 15 seconds, so the device may show "
                    + "this one late or not at all; send the latest state at most every 5 seconds"))
            }
        }
        if push.event == .start, let start = entry.start, let attributes = push.attributes, attributes == start.attributes {
            let since = now - start.at
            if since >= 0 && since < startWindow, start.isConfirmed {
                findings.append(finding(.duplicateStart, "\(source.last("start")) for this push-to-start token, \(seconds(since)) "
                    + "ago, had the same attributes: each start the device receives shows another activity, so it shows this "
                    + "one beside the first; send updates to the first activity's own push token"))
            } else if since >= 0 && since < startWindow {
                findings.append(finding(.duplicateStart, "a start with the same attributes went to this push-to-start token "
                    + "\(seconds(since)) ago and no answer came (start-unconfirmed): it may have reached the device, and each start "
                    + "the device receives shows another activity, so this one may show beside it; check the device first"))
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

    /// A finding about the push as a whole, placed at `<request>`.
    private static func finding(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
        Diagnostic(code: code, severity: code.pushHistorySeverity, message: message, file: "<request>")
    }

    /// How far past this machine's clock a body's `timestamp` may be: an activity lives at most
    /// 8 hours (FACTS-SENDING: `timestamp` at most now + 8 h), the `lifetime` of an entry.
    static let timestampLead = Int(lifetime)

    /// A `timestamp-in-future` warning for a whole body stamped `timestamp` when it is more than
    /// `timestampLead` seconds after `now`, or `nil`: the one clock rule, which `lint`, `send`
    /// and the sidecar's `validate` ask. The device ignores an update older than the last it
    /// applied, so after this one it ignores every update stamped with the real time until that
    /// time passes it.
    /// - Parameters:
    ///   - timestamp: The body's `aps.timestamp`.
    ///   - now: This machine's clock, in UNIX seconds.
    ///   - file: The body's file, for the finding.
    ///   - body: The body's bytes, to place the finding at the value; `nil` leaves it unplaced.
    package static func futureTimestamp(_ timestamp: Int, now: Int, file: String?, in body: (some ContiguousBytes)?) -> Diagnostic? {
        let lead = timestamp - now
        guard lead > timestampLead else { return nil }
        return clockFinding(
            .timestampInFuture, .warning,
            "timestamp \(timestamp) is \(clockSpan(lead)) after this machine's clock (\(now)): a device that applies this update "
                + "ignores every later one stamped before \(timestamp), since it drops updates older than the last it applied; "
                + "stamp it with the current UNIX time in seconds",
            file: file, in: body)
    }

    /// A finding of the clock's at the body's `aps.timestamp`: placed at the value when the body
    /// is given.
    private static func clockFinding(
        _ code: DiagnosticCode, _ severity: Severity, _ message: String, file: String?, in body: (some ContiguousBytes)?
    ) -> Diagnostic {
        var finding = Diagnostic(code: code, severity: severity, message: message, file: file, scope: .envelope, pointer: "/aps/timestamp")
        if let body { finding.position = JSONPointer.position(of: "/aps/timestamp", in: body) }
        return finding
    }

    /// How far a stamp is from the clock: `30 days` from two days on, else hours and minutes
    /// (`8 hours 20 minutes`, `more than 8 hours` for seconds past the hour), so that a stamp
    /// just past the 8 hours is not said to be 8 hours.
    private static func clockSpan(_ seconds: Int) -> String {
        if seconds >= 2 * 86_400 { return "\(seconds / 86_400) days" }
        let minutes = seconds % 3600 / 60
        if minutes == 0 && seconds % 60 > 0 { return "more than \(seconds / 3600) hours" }
        return "\(seconds / 3600) hours" + (minutes > 0 ? " \(minutes) minute\(minutes == 1 ? "" : "s")" : "")
    }

    /// `futureTimestamp(_:now:file:in:)` for a body of unknown bytes: the finding is unplaced.
    package static func futureTimestamp(_ timestamp: Int, now: Int, file: String?) -> Diagnostic? {
        futureTimestamp(timestamp, now: now, file: file, in: [UInt8]?.none)
    }

    /// A `timestamp-in-past` finding for an update stamped `timestamp` when it is more than
    /// `timestampLead` seconds before `now`, or `nil`. An activity takes updates for at most
    /// 8 hours, so the content of any activity that still takes one is stamped later (the app
    /// stamps what it starts with the time): sent now, the device ignores this update. The one
    /// exception is an activity started by a push-to-start stamped earlier still (a start
    /// stamped 0). A stamp before iOS 16.1 is `timestamp-too-old`'s, not this rule's; a start
    /// and an end are not held to it (an end with an old stamp was reported to end the activity,
    /// forum thread 776165).
    /// - Parameters:
    ///   - timestamp: The body's `aps.timestamp`.
    ///   - event: The body's `aps.event`.
    ///   - now: This machine's clock, in UNIX seconds.
    ///   - file: The body's file, for the finding.
    ///   - body: The body's bytes, to place the finding at the value.
    package static func pastTimestamp(
        _ timestamp: Int, event: ActivityEvent?, now: Int, file: String?, in body: some ContiguousBytes
    ) -> Diagnostic? {
        let lag = now - timestamp
        guard event == .update, lag > timestampLead, timestamp >= BodyChecker.liveActivitiesRelease else { return nil }
        return clockFinding(
            .timestampInPast, .error,
            "timestamp \(timestamp) is \(clockSpan(lag)) before this machine's clock (\(now)): an activity takes updates for at most "
                + "8 hours, and the device ignores an update older than the content it shows, so it ignores this one (unless a push-to-start "
                + "stamped earlier still started the activity); stamp it with the current UNIX time in seconds",
            file: file, in: Optional(body))
    }

    /// Adds the clock's findings for `body` (`futureTimestamp`'s, and `pastTimestamp`'s where the
    /// body is sent now) to `findings` in input order, when there are any: what `lint`, `send`
    /// and the sidecar do with every body.
    /// - Parameters:
    ///   - result: What the validator read of the body (its `timestamp` and `event`).
    ///   - now: This machine's clock, in UNIX seconds.
    ///   - sentNow: Whether the body is sent at `now`: by `send`, or by a server that names the
    ///     activity to the sidecar (`token=`, `channel-id=`). Then an update stamped more than
    ///     8 hours before `now` is `timestamp-in-past`, an error. A file `lint` reads, or a body
    ///     the sidecar validates without an activity, may be sent at another time: a stored
    ///     example is always stamped in the past.
    ///   - file: The body's file, for the findings.
    ///   - body: The body's bytes.
    ///   - findings: Where the findings go.
    package static func holdToClock(
        _ result: ValidationResult?, now: Int, sentNow: Bool = false, file: String?, in body: some ContiguousBytes,
        findings: inout [Diagnostic]
    ) {
        guard let result, let timestamp = result.timestamp else { return }
        if let ahead = futureTimestamp(timestamp, now: now, file: file, in: body) { findings.insert(inInputOrder: ahead) }
        if sentNow, let behind = pastTimestamp(timestamp, event: result.event, now: now, file: file, in: body) {
            findings.insert(inInputOrder: behind)
        }
    }

    /// A finding on the body's `aps.timestamp`.
    private static func timestampFinding(_ code: DiagnosticCode, _ message: String, file: String?) -> Diagnostic {
        Diagnostic(code: code, severity: code.pushHistorySeverity, message: message, file: file, scope: .envelope, pointer: "/aps/timestamp")
    }
}
