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
            aps += #","attributes-type":"DeliveryAttributes","attributes":\#(attributes),"alert":{"title":"Order","body":"On its way"}"#
        }
        return LiveActivityPush(target: .device(token: Harness.deviceToken), content: .payload(Array(#"{"aps":{\#(aps)}}"#.utf8)))
    }

    static func start(_ orderID: String) -> LiveActivityPush {
        let attributes: Value = .object([.init("totalAmount", .string("$12")), .init("orderId", .string(orderID))])
        let alert: Value = .object([.init("title", .string("Order")), .init("body", .string("On its way"))])
        return LiveActivityPush(target: .device(token: Harness.deviceToken),
                                content: .state(state, envelope: .init(event: .start, timestamp: 0, alert: alert, attributes: attributes)))
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
        #expect(older.refused && olderEnd.refused)
        #expect(Self.codes(older) == [DiagnosticCode.olderTimestamp])
        let refusal = try #require(Self.findings(older).first)
        #expect(refusal.severity == .error)
        #expect(refusal.pointer == "/aps/timestamp")
        #expect(refusal.message.hasPrefix("timestamp \(now - 60) is older than \(now), that of the last push APNs accepted for this activity, 60 s ago: "),
                "\(refusal.message)")
        #expect(Self.findings(olderEnd).first?.message.contains("so it drops this end") == true)
        #expect(same.delivered)
        #expect(Self.codes(same) == [DiagnosticCode.repeatedTimestamp])
        #expect(harness.fake.requests.map(\.timestamp) == [now, now], "nothing the device ignores is sent")
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
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<10_000 {
            await history.accepted(.init(target: .init(id: String(index, radix: 16), isBroadcast: false), event: .update, timestamp: 1), at: start)
        }
        #expect(await history.count == 10_000)
        let later = start.addingTimeInterval(PushHistory.lifetime + 1)
        await history.accepted(.init(target: .init(id: "YWJj", isBroadcast: true), event: .update, timestamp: 1), at: later)
        #expect(await history.count == 1, "only the push of the last 8 hours is kept")
        #expect(await history.entry(for: .init(id: "0", isBroadcast: false)).activity == nil)
    }

    @Test func pastItsCapacityTheEntriesOfThePushesLongestAgoAreForgotten() async {
        let history = PushHistory(capacity: 8)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<9 {
            await history.accepted(.init(target: .init(id: "\(index)", isBroadcast: false), event: .update, timestamp: 1),
                                   at: start.addingTimeInterval(Double(index)))
        }
        #expect(await history.count == 6, "three quarters of the capacity are kept")
        #expect(await history.entry(for: .init(id: "2", isBroadcast: false)).activity == nil)
        #expect(await history.entry(for: .init(id: "3", isBroadcast: false)).activity?.timestamp == 1)
        #expect(await history.entry(for: .init(id: "8", isBroadcast: false)).activity != nil)
    }
}
