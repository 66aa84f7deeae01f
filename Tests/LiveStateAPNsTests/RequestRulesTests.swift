import Foundation
import LiveState
import LiveStateTooling
import Testing
@testable import LiveStateAPNs

@Suite struct RequestRulesTests {
    static let token = String(repeating: "0a", count: 32)

    func codes(_ target: PushTarget, _ headers: PushHeaders = .init()) -> [DiagnosticCode] {
        PushRequestRules.check(target, headers).map(\.code)
    }

    @Test func aValidDevicePushAndBroadcastPass() {
        #expect(codes(.device(token: Self.token), .init(priority: 5, expiration: 0, apnsID: "123e4567-e89b-12d3-a456-426614174000", collapseID: "x")) == [])
        #expect(codes(.device(token: "ab")) == [], "Apple: do not assume a token length")
        #expect(codes(.broadcast(channelID: "dHdvIHBsdXMgdHdv"), .init(priority: 5, expiration: 1_800_000_000)) == [])
    }

    @Test(arguments: [
        ("", "the device token is empty"),
        ("0a1", "odd number of hex digits (3)"),
        ("<0a1b 2c3d>", "has spaces or angle brackets, which come from printing Data's description: remove them"),
        ("0a1b 2c3d", "has spaces or angle brackets, which come from printing Data's description: remove them"),
        ("0a1b-2c3d", "must be hex digits, as the app received it"),
        ("0x0a1b", "must be hex digits"),
    ])
    func badDeviceTokens(token: String, message: String) throws {
        let findings = PushRequestRules.check(.device(token: token), .init())
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == DiagnosticCode.badDeviceToken)
        #expect(finding.severity == .error)
        #expect(finding.message.contains(message))
        #expect(finding.description.hasPrefix("<request>: error: "))
    }

    @Test func badChannelIDs() {
        for channel in ["", "not base64!", "abc", "ab==c=", String(repeating: "YWJj", count: 129)] {
            #expect(codes(.broadcast(channelID: channel), .init(priority: 5, expiration: 0)) == [DiagnosticCode.badChannelID], "\(channel.prefix(20))")
        }
        #expect(codes(.broadcast(channelID: String(repeating: "YWJj", count: 128)), .init(priority: 5, expiration: 0)) == [])
    }

    /// A device token or channel id longer than 512 characters is refused: a token of 100,000
    /// hex digits was sent on (the ugly-input audit's L10). Apple says not to assume a token's
    /// size, so the bound is generous: 64 hex digits today.
    @Test func aTokenPastAnyAPNsGivesIsRefused() {
        #expect(codes(.device(token: String(repeating: "ab", count: 257)), .init()) == [DiagnosticCode.badDeviceToken])
        #expect(codes(.device(token: String(repeating: "ab", count: 256)), .init()) == [])
    }

    @Test func priorityIsFiveOrTenForDevicesAndAlsoOneForBroadcasts() {
        #expect(codes(.device(token: Self.token), .init(priority: 1)) == [DiagnosticCode.badPriority])
        #expect(codes(.device(token: Self.token), .init(priority: 7)) == [DiagnosticCode.badPriority])
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 1, expiration: 0)) == [DiagnosticCode.broadcastPriorityOne])
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 5, expiration: 0)) == [])
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 7, expiration: 0)) == [DiagnosticCode.badPriority])
    }

    /// Priority 1 is in Apple's broadcast document but not in its ActivityKit push article: a
    /// broadcast at 1 is sent, with a warning that says so.
    @Test func aBroadcastAtPriorityOneIsAWarning() throws {
        let findings = PushRequestRules.check(.broadcast(channelID: "YWJj"), .init(priority: 1, expiration: 0))
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == "broadcast-priority-one")
        #expect(finding.severity == .warning)
        #expect(finding.description.hasPrefix("<request>: warning: apns-priority 1 is in Apple's broadcast document"), "\(finding)")
        #expect(DiagnosticCode.broadcastPriorityOne.sendSeverity == .warning)
        #expect(DiagnosticCode.badPriority.sendSeverity == .error)
    }

    /// A body stamped more than 8 hours past the clock is a warning at `/aps/timestamp`, in
    /// hours or, from two days on, in days; up to 8 hours ahead (a clock a little behind) is not.
    /// An update stamped more than 8 hours before the clock is `timestamp-in-past` at
    /// `/aps/timestamp`; up to 8 hours before (an activity's lifetime) is not, nor a start or an
    /// end, nor a stamp before iOS 16.1 (`timestamp-too-old`'s).
    @Test func anUpdateStampedHoursBeforeTheClockIsInThePast() throws {
        let now = 1_795_000_000
        let body = Array(#"{"aps":{"event":"update",\#n"timestamp":1685952000}}"#.utf8)
        func past(_ timestamp: Int, _ event: ActivityEvent? = .update) -> Diagnostic? {
            PushHistory.pastTimestamp(timestamp, event: event, now: now, file: "b.json", in: body)
        }
        #expect(past(now - 8 * 3600) == nil)
        // Just past the limit, the minutes are said: not "8 hours" beside "at most 8 hours".
        #expect(try #require(past(now - 8 * 3600 - 1200)).message.hasPrefix("timestamp 1794970000 is 8 hours 20 minutes before"))
        #expect(try #require(past(now - 8 * 3600 - 60)).message.contains(" is 8 hours 1 minute before"))
        #expect(try #require(past(now - 8 * 3600 - 1)).message.contains(" is more than 8 hours before"))
        let hours = try #require(past(now - 9 * 3600))
        #expect(hours.code == "timestamp-in-past" && hours.severity == .error && hours.pointer == "/aps/timestamp")
        #expect(hours.message == "timestamp 1794967600 is 9 hours before this machine's clock (1795000000): an activity takes updates for "
            + "at most 8 hours, and the device ignores an update older than the content it shows, so it ignores this one (unless a "
            + "push-to-start stamped earlier still started the activity); stamp it with the current UNIX time in seconds")
        #expect(try #require(past(1_685_952_000)).message.hasPrefix("timestamp 1685952000 is 1262 days before"))
        #expect(hours.position?.line == 2 && hours.position?.column == 13, "\(String(describing: hours.position))")
        #expect(past(1_685_952_000, .start) == nil && past(1_685_952_000, .end) == nil && past(1_685_952_000, nil) == nil)
        #expect(past(1_666_569_599) == nil, "timestamp-too-old's")
        #expect(past(1_666_569_600) != nil)
    }

    @Test func aTimestampFarPastTheClockIsAWarning() throws {
        let now = 1_795_000_000
        #expect(PushHistory.futureTimestamp(now, now: now, file: "b.json") == nil)
        #expect(PushHistory.futureTimestamp(now + 8 * 3600, now: now, file: "b.json") == nil)
        let hours = try #require(PushHistory.futureTimestamp(now + 9 * 3600, now: now, file: "b.json"))
        #expect(hours.code == "timestamp-in-future")
        #expect(hours.severity == .warning)
        #expect(hours.pointer == "/aps/timestamp")
        #expect(hours.message == "timestamp 1795032400 is 9 hours after this machine's clock (1795000000): a device that applies this update "
            + "ignores every later one stamped before 1795032400, since it drops updates older than the last it applied; "
            + "stamp it with the current UNIX time in seconds")
        let days = try #require(PushHistory.futureTimestamp(now + 30 * 86_400, now: now, file: nil))
        #expect(days.message.contains("is 30 days after"))
        #expect(DiagnosticCode.timestampInFuture.sendSeverity == .warning)
        // Given the body, the finding is at the value.
        let body = Array(#"{"aps":{"event":"update",\#n"timestamp":9999999999}}"#.utf8)
        let placed = body.withUnsafeBytes { PushHistory.futureTimestamp(9_999_999_999, now: now, file: "b.json", in: $0) }
        #expect(placed?.position?.line == 2 && placed?.position?.column == 13, "\(String(describing: placed?.position))")
    }

    @Test func expirationIsSecondsAndABroadcastNeedsOne() {
        #expect(codes(.device(token: Self.token), .init(expiration: -1)) == [DiagnosticCode.badExpiration])
        let milliseconds = PushRequestRules.check(.device(token: Self.token), .init(expiration: 1_800_000_000_000))
        #expect(milliseconds.map(\.code) == [DiagnosticCode.badExpiration])
        #expect(milliseconds.first?.message == "apns-expiration 1800000000000 is in milliseconds; APNs takes UNIX seconds: send 1800000000")
        let nanoseconds = PushRequestRules.check(.device(token: Self.token), .init(expiration: 1_800_000_000_000_000_000))
        #expect(nanoseconds.first?.message == "apns-expiration 1800000000000000000 is in nanoseconds; APNs takes UNIX seconds: send 1800000000")
        // `Int.max` is no date in any unit: no guess (it was "in nanoseconds: send 9223372036").
        let never = PushRequestRules.check(.device(token: Self.token), .init(expiration: .max))
        #expect(never.first?.message == "apns-expiration 9223372036854775807 is no date in UNIX seconds or a finer unit; APNs takes UNIX seconds: send the date in UNIX seconds")
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 5)) == [DiagnosticCode.missingExpiration])
    }

    @Test func apnsIDIsALowerCaseUUIDAndCollapseIDAtMost64Bytes() {
        #expect(codes(.device(token: Self.token), .init(apnsID: "123E4567-E89B-12D3-A456-426614174000")) == [DiagnosticCode.badAPNsID])
        #expect(codes(.device(token: Self.token), .init(apnsID: "123e4567e89b12d3a456426614174000")) == [DiagnosticCode.badAPNsID])
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 5, expiration: 0, requestID: "nope")) == [DiagnosticCode.badAPNsID])
        #expect(codes(.device(token: Self.token), .init(collapseID: String(repeating: "é", count: 32))) == [])
        #expect(codes(.device(token: Self.token), .init(collapseID: String(repeating: "é", count: 32) + "x")) == [DiagnosticCode.badCollapseID])
    }

    /// An HTTP/2 header value may not hold CR, LF or NUL: a collapse id with a CR LF would end
    /// the header and start another (`x-evil: 1`). Such a value, an empty one and one with a
    /// space at either end are refused, and the finding's line shows the value on one line.
    @Test(arguments: [
        ("a\r\nx-evil: 1", "holds CR (byte 2 is 0x0D)"),
        ("a\nb", "holds LF (byte 2 is 0x0A)"),
        ("a\u{0}b", "holds NUL (byte 2 is 0x00)"),
        ("a\tb", "holds a tab (byte 2 is 0x09)"),
        ("a\u{7F}", "holds a control character (byte 2 is 0x7F)"),
        ("", "is empty; leave the header out"),
        (" a", "begins or ends with a space"),
        ("a ", "begins or ends with a space"),
        // What every printed line escapes is refused too (a dry run printed it raw).
        ("a\u{9B}2J", "holds the control character U+009B"),
        ("a\u{2028}b", "holds the control character U+2028"),
    ])
    func aCollapseIDWithControlCharactersOrEmptyIsRefused(collapse: String, message: String) throws {
        let findings = PushRequestRules.check(.device(token: Self.token), .init(collapseID: collapse))
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == DiagnosticCode.badCollapseID)
        #expect(finding.message.hasPrefix("apns-collapse-id " + message), "\(finding.message)")
        #expect(!finding.description.contains("\r") && !finding.description.contains("\n"), "\(finding.description)")
    }

    @Test func aCollapseIDWithASpaceInsideIsFine() {
        #expect(codes(.device(token: Self.token), .init(collapseID: "order 42")) == [])
    }

    /// The other header values the user gives are refused with control characters in them too,
    /// by their own rules, and named on one line.
    @Test func theOtherHeaderValuesRefuseControlCharacters() {
        let channel = PushRequestRules.check(.broadcast(channelID: "YWJj\r\nx-evil: 1"), .init(priority: 5, expiration: 0))
        #expect(channel.map(\.code) == [DiagnosticCode.badChannelID])
        #expect(channel.first?.message.contains("YWJj\r\nx-evil: 1") == true, "\(channel)")
        #expect(channel.first?.description.contains(#"YWJj\u{D}\u{A}x-evil: 1"#) == true, "\(channel)")
        // C1 too (U+009B is a terminal's CSI), as every other finding writes it.
        let csi = PushRequestRules.check(.broadcast(channelID: "YWJj\u{9B}2J"), .init(expiration: 0))
        #expect(csi.first?.description.contains("YWJj\\u{9B}2J") == true, "\(csi)")
        let topic = PushRequestRules.bundleID(from: "com.example.app\r\nx-evil: 1")
        #expect(topic.problem?.code == DiagnosticCode.badTopic)
        #expect(topic.problem?.description.contains("\n") == false)
        #expect(PushRequestRules.bundleID(from: "com.example.app\u{0}").problem?.code == DiagnosticCode.badTopic)
        #expect(codes(.device(token: Self.token), .init(apnsID: "123e4567-e89b-12d3-a456-426614174000\r\n")) == [DiagnosticCode.badAPNsID])
    }

    @Test func topicTakesTheBundleWithOrWithoutItsSuffixAndRefusesOtherPushTypes() {
        #expect(PushRequestRules.bundleID(from: "com.example.app").bundle == "com.example.app")
        #expect(PushRequestRules.bundleID(from: "com.example.app.push-type.liveactivity").bundle == "com.example.app")
        let other = PushRequestRules.bundleID(from: "com.example.app.push-type.voip")
        #expect(other.bundle == nil)
        #expect(other.problem?.code == DiagnosticCode.badTopic)
        #expect(other.problem?.message.contains("'voip'") == true)
        // Given twice, the suffix is said to be given twice (it was "names push type 'liveactivity'").
        let twice = PushRequestRules.bundleID(from: "com.example.app.push-type.liveactivity.push-type.liveactivity")
        #expect(twice.bundle == nil && twice.problem?.message == "the topic ends in '.push-type.liveactivity' more than once; give the bundle id (the suffix is added)")
        #expect(PushRequestRules.bundleID(from: "").problem?.code == DiagnosticCode.badTopic)
        #expect(PushRequestRules.bundleID(from: "com.example app").problem?.code == DiagnosticCode.badTopic)
        // Spliced into a broadcast's :path, `#` or `?` would end it: `com.example#x` aimed at `com.example`.
        for bad in ["com.example#x", "com.example?x=1", "com.example.delivery.", "com..example", ".com.example", "com.example.*", "com.ex%41mple"] {
            #expect(PushRequestRules.bundleID(from: bad).problem?.code == DiagnosticCode.badTopic, "\(bad)")
        }
        #expect(PushRequestRules.bundleID(from: "com.Example-2.app").bundle == "com.Example-2.app")
    }

    /// Apple's broadcast document requires apns-priority; a device push without one is sent at 10.
    @Test func aBroadcastNeedsAPriority() {
        #expect(codes(.broadcast(channelID: "YWJj"), .init(expiration: 0)) == [DiagnosticCode.badPriority])
        #expect(codes(.broadcast(channelID: "YWJj"), .init(priority: 5, expiration: 0)) == [])
        #expect(codes(.device(token: Self.token), .init()) == [])
    }

    @Test func everySendCodeIsProducedByARule() {
        var seen: Set<DiagnosticCode> = []
        seen.formUnion(codes(.device(token: "0"), .init(priority: 3, expiration: -1, apnsID: "X", collapseID: String(repeating: "a", count: 65))))
        seen.formUnion(codes(.broadcast(channelID: "!")))
        seen.formUnion(codes(.broadcast(channelID: "YWJj"), .init(priority: 1, expiration: 0)))
        if let problem = PushRequestRules.bundleID(from: "a.push-type.voip").problem { seen.insert(problem.code) }
        if let problem = PushRequestRules.clockProblem(tokenIssuedAt: Date(), age: 5, minimumLifetime: 1200) {
            seen.insert(problem.code)
        }
        if let ahead = PushHistory.futureTimestamp(2_000_000_000, now: 1_795_000_000, file: nil) { seen.insert(ahead.code) }
        let past = PushHistory.pastTimestamp(1_685_952_000, event: .update, now: 1_795_000_000, file: nil, in: [UInt8]())
        if let past { seen.insert(past.code) }
        seen.insert(PushRequestRules.startUnconfirmed("timed out", file: nil).code)
        #expect(seen == Set(DiagnosticCode.sendCodes))
    }

    @Test func everyPushHistoryCodeIsProducedByARule() {
        let past = PushHistory.Instant(1_795_000_000)
        let entry = PushHistory.Entry(activity: .init(timestamp: 1_795_000_000, updatedAt: past, at: past), start: .init(attributes: 7, at: past))
        let device = PushHistory.Target(id: "5e", isBroadcast: false)
        var seen: Set<DiagnosticCode> = []
        for push in [PushHistory.Push(target: device, event: .update, timestamp: 1_794_999_999),
                     PushHistory.Push(target: device, event: .end, timestamp: 1_794_999_999),
                     PushHistory.Push(target: device, event: .update, timestamp: 1_795_000_000),
                     PushHistory.Push(target: device, event: .start, timestamp: 1_795_000_001, attributes: 7)] {
            seen.formUnion(PushHistory.findings(push, entry, stampedHere: false, now: past + 1, source: .sender, file: nil).map(\.code))
        }
        #expect(seen == Set(DiagnosticCode.pushHistoryCodes))
    }
}

@Suite struct APNsAnswerTests {
    @Test func reasonsCompareIgnoringCaseAndSpaces() {
        #expect(APNsReason(rawValue: "Service Unavailable") == .serviceUnavailable)
        #expect(APNsReason(rawValue: "badDeviceToken") == .badDeviceToken)
        #expect(Set([APNsReason(rawValue: "Service Unavailable"), .serviceUnavailable]).count == 1)
        #expect(APNsReason(rawValue: "SomethingNew") != .badTopic)
    }

    @Test func everyDocumentedReasonHasARemedy() {
        for reason in APNsReason.documented {
            #expect(SendRemedy(status: 400, reason: reason) != .unknown, "\(reason)")
        }
        #expect(SendRemedy(status: 400, reason: APNsReason(rawValue: "SomethingNew")) == .unknown)
        #expect(SendRemedy(status: 502, reason: nil) == .retryLater)
        #expect(SendRemedy(status: 410, reason: nil) == .tokenDead)
        #expect(SendRemedy(status: 200, reason: nil) == .delivered)
        #expect(SendRemedy(status: 403, reason: .badEnvironmentKeyInToken) == SendRemedy(status: 403, reason: .badEnvironmentKeyIdInToken))
    }

    @Test func readsTheReasonAndThe410TimestampInMilliseconds() {
        let body = Array(#"{"reason":"Unregistered","timestamp":1454096879000}"#.utf8)
        let response = APNsResponse(status: 410, header: { $0 == "apns-id" ? "3e9a0b02-7e0e-4b4e-9b65-1b3a1bd34d2e" : nil }, body: body)
        #expect(response.reason == .unregistered)
        #expect(response.timestamp == Date(timeIntervalSince1970: 1_454_096_879))
        #expect(response.apnsID == "3e9a0b02-7e0e-4b4e-9b65-1b3a1bd34d2e")
        let garbled = APNsResponse(status: 500, header: { _ in nil }, body: Array("<html>".utf8))
        #expect(garbled.reason == nil)
        #expect(SendRemedy(status: garbled.status, reason: garbled.reason) == .retryLater)
    }

    @Test func retryDelaysDoubleUpToTheLongest() {
        let policy = RetryPolicy(maxAttempts: 6, initialDelay: .seconds(1), maxDelay: .seconds(5))
        #expect((1...5).map { policy.delay(after: $0) } == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }
}
