import FakeAPNs
import Foundation
import LiveState
import LiveStateTooling
import Testing
@testable import LiveStateAPNs

/// The checks against the pushes a sender made before (`PushHistory`), through a sender and a
/// fake APNs written from Apple's documents, with the sender's clock held still or moved.
@Suite(.serialized) struct PushHistoryTests {
    static let state: Value = .object([.init("title", .string("On its way")), .init("progress", .double(0.5))])

    /// A whole body, as a server that writes its own would give it.
    static func body(event: ActivityEvent = .update, timestamp: Int, attributes: String = "") -> LiveActivityPush {
        var aps = #""timestamp":\#(timestamp),"event":"\#(event)","content-state":{"title":"On its way","progress":0.5}"#
        if event == .start {
            aps += #","attributes-type":"DeliveryAttributes","attributes":\#(attributes),"alert":{"title":"Order","body":"On its way"},"input-push-token":1"#
        }
        return LiveActivityPush(target: .device(token: Harness.deviceToken), content: .payload(Array(#"{"aps":{\#(aps)}}"#.utf8)))
    }

    static func start(_ orderID: String) -> LiveActivityPush {
        let attributes: Value = .object([.init("totalAmount", .string("$12")), .init("orderId", .string(orderID))])
        let alert: Value = .object([.init("title", .string("Order")), .init("body", .string("On its way"))])
        return LiveActivityPush(target: .device(token: Harness.deviceToken),
                                content: .state(state, envelope: .init(event: .start, timestamp: 0, alert: alert, attributes: attributes, inputPushToken: true)))
    }

    /// The codes of the errors and warnings (a whole body's missing keys are infos).
    static func codes(_ outcome: SendOutcome) -> [DiagnosticCode] { findings(outcome).map(\.code) }
    static func findings(_ outcome: SendOutcome) -> [Diagnostic] { outcome.diagnostics.filter { $0.severity != .info } }

    @Test func updatesInOneSecondAreEachStampedNewerAndTheSecondIsWarnedOf() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let now = Int(harness.clock.now.timeIntervalSince1970)
        let first = await sender.send(Harness.update())
        let second = await sender.send(Harness.update())
        let third = await sender.send(Harness.update(event: .end))
        harness.clock.advance(minutes: 10.0 / 60)
        let later = await sender.send(Harness.update())
        try await harness.stop()
        #expect([first, second, third, later].allSatisfy { $0.delivered })
        // Four requests: an answer read late (a loaded test run) was once taken for none and its
        // push sent again, restamped (`anAnswerThatCameInTimeIsTakenHoweverLateItIsRead`).
        #expect(harness.fake.requests.map(\.timestamp) == [now, now + 1, now + 2, now + 10],
                "each push is newer than the last one the device applied; the clock wins once it is ahead")
        #expect(Self.codes(first).isEmpty)
        #expect(Self.codes(second) == [DiagnosticCode.updateCadence])
        #expect(second.diagnostics.first?.message.hasPrefix("the last update APNs accepted for this activity was 0 s ago: iOS 18") == true,
                "\(second.diagnostics)")
        #expect(second.diagnostics.first?.severity == .warning)
        #expect(Self.codes(third).isEmpty, "an end is not an update to coalesce")
        #expect(Self.codes(later).isEmpty)
    }

    /// The windows are measured on the clock that does not step: with the wall clock set an hour
    /// ahead between two updates a second apart, the second is still warned of (on the wall
    /// clock it was an hour later), and with it set back 30 minutes, the same start 5 minutes
    /// after the first is too (on the wall clock it came before the first, and was not).
    @Test func theWindowsDoNotMoveWithTheWallClock() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        #expect(await sender.send(Harness.update()).delivered)
        harness.clock.stepWall(minutes: 60)
        harness.clock.advance(minutes: 1.0 / 60)
        let second = await sender.send(Harness.update())
        #expect(second.delivered && Self.codes(second) == [DiagnosticCode.updateCadence], "\(second.diagnostics)")
        #expect(second.diagnostics.first?.message.hasPrefix("the last update APNs accepted for this activity was 1 s ago") == true, "\(second.diagnostics)")
        // The sender again: a start, the wall set back 30 minutes, the same start 5 minutes on.
        let starter = try harness.sender()
        let start = Self.start("A-1")
        #expect(await starter.send(start).delivered)
        harness.clock.stepWall(minutes: -30)
        harness.clock.advance(minutes: 5)
        let again = await starter.send(start)
        #expect(Self.codes(again) == [DiagnosticCode.duplicateStart], "\(again.diagnostics)")
        try await harness.stop()
    }

    @Test func aWholeBodyStampedBeforeTheLastAcceptedIsRefusedAndTheSameIsWarnedOf() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let now = Int(harness.clock.now.timeIntervalSince1970)
        let first = await sender.send(Self.body(timestamp: now))
        harness.clock.advance(minutes: 1)
        let older = await sender.send(Self.body(timestamp: now - 60))
        let olderEnd = await sender.send(Self.body(event: .end, timestamp: now - 1))
        let same = await sender.send(Self.body(timestamp: now))
        try await harness.stop()
        #expect(first.delivered && Self.codes(first).isEmpty)
        #expect(older.refused)
        // An older end is sent with a warning: one was reported to end the activity.
        #expect(olderEnd.delivered)
        #expect(Self.codes(olderEnd) == [DiagnosticCode.olderEndTimestamp])
        #expect(Self.codes(older) == [DiagnosticCode.olderTimestamp])
        let refusal = try #require(Self.findings(older).first)
        #expect(refusal.severity == .error)
        #expect(refusal.pointer == "/aps/timestamp")
        #expect(refusal.message.hasPrefix("timestamp \(now - 60) is older than \(now), that of the last push APNs accepted for this activity, 60 s ago: "),
                "\(refusal.message)")
        #expect(Self.findings(olderEnd).first?.message.contains("so this end may be dropped") == true)
        #expect(same.delivered)
        #expect(Self.codes(same) == [DiagnosticCode.repeatedTimestamp])
        #expect(harness.fake.requests.map(\.timestamp) == [now, now - 1, now], "no update the device ignores is sent")
    }

    @Test func afterABodyStampedAheadTheSenderStampsPastIt() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let now = Int(harness.clock.now.timeIntervalSince1970)
        _ = await sender.send(Self.body(timestamp: now + 100))
        harness.clock.advance(minutes: 1)
        let next = await sender.send(Harness.update())
        try await harness.stop()
        #expect(next.delivered && Self.codes(next).isEmpty)
        #expect(harness.fake.requests.last?.timestamp == now + 101, "stamped with the clock, the device would ignore it")
    }

    @Test func aSecondStartWithTheSameAttributesIsWarnedOfWithinTenMinutes() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let first = await sender.send(Self.start("A-1"))
        harness.clock.advance(minutes: 2)
        let again = await sender.send(Self.start("A-1"))
        let other = await sender.send(Self.start("B-2"))
        harness.clock.advance(minutes: 11)
        let late = await sender.send(Self.start("B-2"))
        // A whole body's attributes are compared as the state's are.
        let whole = await sender.send(Self.body(event: .start, timestamp: Int(harness.clock.now.timeIntervalSince1970),
                                                attributes: #"{"totalAmount":"$12","orderId":"B-2"}"#))
        try await harness.stop()
        #expect([first, again, other, late, whole].allSatisfy { $0.delivered }, "a warning does not stop a push")
        #expect(Self.codes(first).isEmpty)
        #expect(Self.codes(again) == [DiagnosticCode.duplicateStart])
        #expect(again.diagnostics.first?.message.hasPrefix("the last start APNs accepted for this push-to-start token, 2 min ago, had the same attributes") == true,
                "\(again.diagnostics)")
        #expect(Self.codes(other).isEmpty, "other attributes start another activity on purpose")
        #expect(Self.codes(late).isEmpty)
        #expect(Self.codes(whole) == [DiagnosticCode.duplicateStart])
        #expect(harness.fake.requests.map(\.timestamp).allSatisfy { $0 != nil })
    }

    @Test func onlyWhatAPNsAcceptedIsRemembered() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender(retry: .never)
        let now = Int(harness.clock.now.timeIntervalSince1970)
        // A dry run, a push refused here, and one APNs refused leave nothing behind.
        _ = await sender.prepare(Harness.update())
        let refused = await sender.send(Harness.update(headers: .init(priority: 7)))
        harness.fake.answerNext(status: 500, reason: "InternalServerError")
        let failed = await sender.send(Harness.update())
        let delivered = await sender.send(Harness.update())
        try await harness.stop()
        #expect(refused.refused && !failed.delivered)
        #expect(delivered.delivered && Self.codes(delivered).isEmpty, "\(delivered.diagnostics)")
        #expect(harness.fake.requests.map(\.timestamp) == [now, now])
    }

    @Test func aSenderThatDoesNotCheckStillStampsEachPushNewer() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender(validates: false)
        let now = Int(harness.clock.now.timeIntervalSince1970)
        let first = await sender.send(Harness.update())
        let second = await sender.send(Harness.update())
        try await harness.stop()
        #expect(first.delivered && second.delivered)
        #expect(Self.codes(second).isEmpty, "the checks are off")
        #expect(harness.fake.requests.map(\.timestamp) == [now, now + 1])
    }

    @Test func entriesAreForgottenOnceTheirActivityHasEnded() async {
        let history = PushHistory()
        let start = PushHistory.Instant(1_800_000_000)
        for index in 0..<10_000 {
            await history.accepted(.init(target: .init(id: String(index, radix: 16), isBroadcast: false), event: .update, timestamp: 1), at: start)
        }
        #expect(await history.count == 10_000)
        let later = start + PushHistory.lifetime + 1
        await history.accepted(.init(target: .init(id: "YWJj", isBroadcast: true), event: .update, timestamp: 1), at: later)
        #expect(await history.count == 1, "only the push of the last 8 hours is kept")
        #expect(await history.entry(for: .init(id: "0", isBroadcast: false), at: later).activity == nil)
    }

    @Test func pastItsCapacityTheEntriesOfThePushesLongestAgoAreForgotten() async {
        let history = PushHistory(capacity: 8)
        let start = PushHistory.Instant(1_800_000_000)
        for index in 0..<9 {
            await history.accepted(.init(target: .init(id: "\(index)", isBroadcast: false), event: .update, timestamp: 1),
                                   at: start + Double(index))
        }
        #expect(await history.count == 6, "three quarters of the capacity are kept")
        let now = start + 9
        #expect(await history.entry(for: .init(id: "2", isBroadcast: false), at: now).activity == nil)
        #expect(await history.entry(for: .init(id: "3", isBroadcast: false), at: now).activity?.timestamp == 1)
        #expect(await history.entry(for: .init(id: "8", isBroadcast: false), at: now).activity != nil)
    }

    /// An entry is not read once its push is more than 8 hours ago, though it is forgotten only
    /// when the history grows: an end 8 h 1 min later is not an older timestamp.
    @Test func anEntryOfAPushMoreThanEightHoursAgoIsNotRead() async {
        let history = PushHistory()
        let start = PushHistory.Instant(1_800_000_000)
        let target = PushHistory.Target(id: "0a1b", isBroadcast: false)
        await history.accepted(.init(target: target, event: .update, timestamp: 1_800_000_000), at: start)
        #expect(await history.entry(for: target, at: start + PushHistory.lifetime - 1).activity != nil)
        #expect(await history.entry(for: target, at: start + PushHistory.lifetime + 60).activity == nil)
        #expect(await history.count == 1)
        // Nor is it built on: a push accepted then starts the entry anew, its own timestamp the
        // last (the old one, stamped ahead, made the next push after it look older).
        let later = start + PushHistory.lifetime + 60
        let ahead = PushHistory.Target(id: "0c0d", isBroadcast: true)
        await history.accepted(.init(target: ahead, event: .update, timestamp: 1_900_000_000), at: start)
        await history.accepted(.init(target: ahead, event: .update, timestamp: 1_800_030_000), at: later)
        #expect(await history.entry(for: ahead, at: later).activity?.timestamp == 1_800_030_000)
    }

    /// A device token's hex digits in either case are one activity; a channel id is base64, in
    /// which case matters.
    @Test func aTokenInEitherCaseIsOneActivity() async {
        let history = PushHistory()
        let now = PushHistory.Instant(1_800_000_000)
        await history.accepted(.init(target: .init(id: "0A1B", isBroadcast: false), event: .update, timestamp: 5), at: now)
        #expect(await history.entry(for: .init(id: "0a1b", isBroadcast: false), at: now).activity?.timestamp == 5)
        await history.accepted(.init(target: .init(id: "QUJD", isBroadcast: true), event: .update, timestamp: 5), at: now)
        #expect(await history.entry(for: .init(id: "qujd", isBroadcast: true), at: now).activity == nil)
    }

    /// A start whose attributes are the same but written in another order, or with a repeated
    /// key the app does not read, is the same start.
    @Test func startsAreComparedByTheAttributesTheAppReads() {
        func hash(_ attributes: String) -> Int? {
            PushHistory.attributesHash(ofBody: Array(#"{"aps":{"event":"start","attributes":"#.utf8) + Array(attributes.utf8) + Array("}}".utf8))
        }
        let first = hash(#"{"order":"42","shop":{"name":"A","id":1}}"#)
        #expect(first != nil)
        #expect(hash(#"{"shop":{"id":1,"name":"A"},"order":"42"}"#) == first)
        #expect(hash(#"{"order":"42","shop":{"name":"A","id":1},"order":"43"}"#) == first, "the first of a repeated key is read")
        #expect(hash(#"{"order":"43","shop":{"name":"A","id":1}}"#) != first)
        #expect(hash(#"{"order":"42","shop":{"name":"A","id":1},"x":[2,1]}"#) != hash(#"{"order":"42","shop":{"name":"A","id":1},"x":[1,2]}"#),
                "an array keeps its order")
        #expect(hash(#"{"order":"42","shop":{"name":"A","id":1.0}}"#) == first, "1 and 1.0 are one number to the app")
        // A start written without attributes carries {}, and is hashed as such.
        let envelope = ContentStateEncoder.Envelope(event: .start, timestamp: 1)
        #expect(PushHistory.Push(target: .init(id: "0a", isBroadcast: false), envelope: envelope).attributes == hash("{}"))
    }

    /// An end stamped before the last update is a warning, not an error: Apple documents that
    /// it is ignored, but one was reported to end the activity; an update so stamped stays an error.
    @Test func anEndOlderThanTheLastUpdateIsAWarning() {
        let target = PushHistory.Target(id: "0a1b", isBroadcast: false)
        let now = PushHistory.Instant(1_800_000_100)
        let entry = PushHistory.Entry(activity: .init(timestamp: 1_800_000_050, updatedAt: now, at: now))
        let end = PushHistory.findings(.init(target: target, event: .end, timestamp: 1_800_000_000), entry,
                                       stampedHere: false, now: now, source: .sidecar, file: nil)
        #expect(end.map(\.code) == [.olderEndTimestamp])
        #expect(end.first?.severity == .warning)
        #expect(end.first?.message.contains("forum thread 776165") == true, "\(end)")
        let update = PushHistory.findings(.init(target: target, event: .update, timestamp: 1_800_000_000), entry,
                                          stampedHere: false, now: now, source: .sidecar, file: nil)
        #expect(update.map(\.code).contains(.olderTimestamp))
        #expect(update.first { $0.code == .olderTimestamp }?.severity == .error)
    }

    /// Checks of one target wait for each other (`reserve`, `release`); of another, they do not.
    @Test func checksOfOneTargetRunOneAfterTheOther() async {
        let history = PushHistory()
        let now = PushHistory.Instant(1_800_000_000)
        let target = PushHistory.Target(id: "0a1b", isBroadcast: false)
        let first = await history.reserve(target, at: { now })
        #expect(first.activity == nil)
        // Another target is not held up.
        let other = PushHistory.Target(id: "0c0d", isBroadcast: false)
        _ = await history.reserve(other, at: { now })
        await history.release(other, accepting: nil, at: now)
        // A second check of the first target waits until the first is released, and then sees
        // what the first recorded.
        let second = Task { await history.reserve(target, at: { now }) }
        try? await Task.sleep(nanoseconds: 50_000_000)
        await history.release(target, accepting: .init(target: target, event: .update, timestamp: 7), at: now)
        #expect(await second.value.activity?.timestamp == 7)
        await history.release(target, accepting: nil, at: now)
    }
}
