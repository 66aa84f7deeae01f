import Crypto
import FakeAPNs
import NIOHTTP2
import NIOSSL
import Foundation
import LiveState
import LiveStateTooling
import Testing
@testable import LiveStateAPNs

/// The sender against a fake APNs written from Apple's documents (`FakeAPNs`).
@Suite(.serialized) struct SenderTests {
    @Test func deliversAnUpdateEveryTargetedVersionDecodes() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let outcome = try await harness.sender().send(Harness.update(headers: .init(priority: 5, apnsID: "123e4567-e89b-12d3-a456-426614174000")))
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.response?.apnsID == "123e4567-e89b-12d3-a456-426614174000")
        #expect(outcome.response?.uniqueID != nil, "sandbox answers carry apns-unique-id")
        let request = try #require(harness.fake.requests.last)
        #expect(request.isHTTP2)
        #expect(request.path == "/3/device/\(Harness.deviceToken)")
        #expect(request.header("apns-topic") == "com.example.delivery.push-type.liveactivity")
        #expect(request.header("apns-push-type") == "liveactivity")
        #expect(request.header("apns-priority") == "5")
        #expect(request.timestamp == Int(harness.clock.now.timeIntervalSince1970))
    }

    @Test func refusesWhatAnAppVersionInTheFieldDropsAndSendsNothing() async throws {
        let harness = try await Harness.start()
        // Version 1 is strict and needs subTitle: a v3 state without it is dropped there.
        let outcome = try await harness.sender(versions: nil).send(Harness.update())
        let headers = try await harness.sender().send(Harness.update(headers: .init(priority: 7)))
        let start = try await harness.sender().send(Harness.update(event: .start))
        let collapse = try await harness.sender().send(Harness.update(headers: .init(collapseID: "a\r\nx-evil: 1")))
        try await harness.stop()
        #expect(outcome.refused)
        #expect(outcome.diagnostics.contains { $0.code == DiagnosticCode.droppedByVersion && $0.message.hasPrefix("app version 1") })
        #expect(headers.refused)
        #expect(headers.diagnostics.map(\.code) == [DiagnosticCode.badPriority])
        #expect(collapse.refused, "a header value that would split the header is never sent")
        #expect(collapse.diagnostics.map(\.code) == [DiagnosticCode.badCollapseID])
        #expect(start.refused, "a start needs attributes and an alert")
        #expect(start.diagnostics.contains { $0.code == DiagnosticCode.missingAPSKey })
        #expect(harness.fake.requests.isEmpty, "nothing invalid is ever sent")
    }

    /// Apple's status for each documented reason.
    static let statuses: [APNsReason: Int] = {
        var statuses: [APNsReason: Int] = [:]
        for reason in APNsReason.documented { statuses[reason] = 400 }
        for reason: APNsReason in [.expiredProviderToken, .invalidProviderToken, .missingProviderToken, .badCertificate,
                                   .badCertificateEnvironment, .forbidden, .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken,
                                   .topicMismatch, .unrelatedKeyIdInToken] { statuses[reason] = 403 }
        statuses[.badPath] = 404
        statuses[.methodNotAllowed] = 405
        statuses[.unregistered] = 410
        statuses[.expiredToken] = 410
        statuses[.payloadTooLarge] = 413
        statuses[.tooManyProviderTokenUpdates] = 429
        statuses[.tooManyRequests] = 429
        statuses[.internalServerError] = 500
        statuses[.serviceUnavailable] = 503
        statuses[.shutdown] = 503
        return statuses
    }()

    @Test func everyDocumentedReasonEndsWithItsRemedyWithoutRetryingWhatCannotPass() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender(retry: .never)
        for reason in APNsReason.documented {
            let status = try #require(Self.statuses[reason])
            harness.fake.answerNext(status: status, reason: reason.rawValue)
            let before = harness.fake.requests.count
            let outcome = await sender.send(Harness.update())
            #expect(outcome.response?.status == status, "\(reason)")
            #expect(outcome.response?.reason == reason)
            #expect(outcome.remedy == SendRemedy(status: status, reason: reason), "\(reason)")
            #expect(!outcome.delivered)
            #expect(harness.fake.requests.count == before + 1, "\(reason): one request, no retry")
            if reason == .tooManyProviderTokenUpdates {
                #expect(outcome.retryAfter != nil)
            }
        }
        // An unknown reason is kept as it came.
        harness.fake.answerNext(status: 400, reason: "SomethingNew")
        let unknown = await sender.send(Harness.update())
        try await harness.stop()
        #expect(unknown.response?.reason?.rawValue == "SomethingNew")
        #expect(unknown.remedy == .unknown)
    }

    /// APNs's success for a push is 200 and nothing else: a 201 or a 204 (a proxy's, another
    /// server's) was counted as delivered.
    @Test func onlyA200IsDelivered() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        var outcomes: [SendOutcome] = []
        for status in [201, 204, 202] {
            harness.fake.answerNext(status: status, body: [])
            outcomes.append(await sender.send(Harness.update()))
        }
        try await harness.stop()
        #expect(outcomes.map { $0.response?.status } == [201, 204, 202])
        for outcome in outcomes {
            #expect(!outcome.delivered, "\(outcome.summary)")
            #expect(outcome.remedy == .unknown)
            #expect(outcome.attempts == 1)
        }
        #expect(SendRemedy(status: 200, reason: nil) == .delivered)
    }

    /// An error without a JSON reason (an empty 403, a proxy's HTML 400) got `unknown` and
    /// showed nothing of its body: the status says the remedy where it says one, and the start
    /// of the body is shown.
    @Test func anErrorWithoutAReasonIsClassifiedByItsStatusAndShowsItsBody() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        harness.fake.answerNext(status: 403, body: [])
        let forbidden = await sender.send(Harness.update())
        harness.fake.answerNext(status: 400, body: Array("<html>Bad gateway</html>\n".utf8))
        let page = await sender.send(Harness.update())
        try await harness.stop()
        #expect(forbidden.remedy == .fixCredentials)
        #expect(forbidden.attempts == 1)
        #expect(forbidden.response?.unexplainedBody == nil)
        #expect(page.remedy == .fixRequest)
        #expect(page.attempts == 1)
        #expect(page.response?.unexplainedBody == "<html>Bad gateway</html>\\u{A}")
        // A reason is printed as sent, escaped: one with a line feed forged a line.
        let forged = APNsResponse(status: 400, header: { _ in nil }, body: Array(#"{"reason":"BadDeviceToken\n<request>: error: FORGED"}"#.utf8))
        #expect(forged.facts.contains(#"reason BadDeviceToken\u{A}<request>: error: FORGED"#), "\(forged.facts)")
        #expect(page.summary.hasPrefix(#"status 400, body "<html>Bad gateway</html>\u{A}", sandbox"#), "\(page.summary)")
        for status in [400, 404, 405, 413] { #expect(SendRemedy(status: status, reason: nil) == .fixRequest, "\(status)") }
        #expect(SendRemedy(status: 410, reason: nil) == .tokenDead)
        #expect(SendRemedy(status: 503, reason: nil) == .retryLater)
        #expect(SendRemedy(status: 429, reason: nil) == .unknown, "TooManyRequests or TooManyProviderTokenUpdates")
        #expect(SendRemedy(status: 403, reason: APNsReason(rawValue: "SomethingNew")) == .unknown, "a reason unknown is read, not guessed")
        // A body's start is clipped to 80 characters.
        let long = APNsResponse(status: 502, body: Array(String(repeating: "y", count: 500).utf8))
        #expect(long.unexplainedBody?.count == 80)
    }

    @Test func anUnregisteredTokenIsDeadSinceItsTimestamp() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.unregister(deviceToken: Harness.deviceToken, at: Date(timeIntervalSince1970: 1_790_000_000))
        let outcome = try await harness.sender().send(Harness.update())
        try await harness.stop()
        #expect(outcome.response?.status == 410)
        #expect(outcome.remedy == .tokenDead)
        #expect(outcome.response?.timestamp == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(outcome.attempts == 1)
    }

    @Test func badDeviceTokenIsTriedOnceInTheOtherEnvironment() async throws {
        let sandbox = try await Harness.start(.sandbox)
        let production = try await Harness.start(.production, key: sandbox.key, clock: sandbox.clock)
        production.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        // The token is a production token sent to the sandbox first. (Apple's two hosts share
        // a root; the two fakes' certificates are both trusted.)
        let both = try HTTPClientTransport(trustRootsPEM: sandbox.fake.certificatePEM + "\n" + production.fake.certificatePEM)
        let moved = try await sandbox.sender(otherEnvironment: production, transport: both).send(Harness.update())
        try await both.shutdown()
        let stays = try await sandbox.sender().send(Harness.update())
        try await sandbox.stop()
        try await production.stop()
        #expect(moved.delivered, "\(moved.summary)")
        #expect(moved.environment == .production)
        #expect(moved.attempts == 2)
        #expect(stays.remedy == .tokenDead)
        #expect(stays.attempts == 1)
    }

    /// The first environment's answer was dropped: a token refused in the sandbox, then tried
    /// in production with a key limited to the sandbox, ended as "the provider key … is wrong".
    /// Both answers are kept and said.
    @Test func theFirstEnvironmentsAnswerIsKept() async throws {
        let sandbox = try await Harness.start(.sandbox)
        let production = try await Harness.start(.production, key: sandbox.key, clock: sandbox.clock, configure: {
            $0.keys = [FakeAPNs.Key(keyID: Harness.keyID, teamID: Harness.teamID, publicKey: sandbox.key.publicKey, environments: [.sandbox])]
        })
        let both = try HTTPClientTransport(trustRootsPEM: sandbox.fake.certificatePEM + "\n" + production.fake.certificatePEM)
        let outcome = try await sandbox.sender(otherEnvironment: production, transport: both).send(Harness.update())
        try await both.shutdown()
        try await sandbox.stop()
        try await production.stop()
        #expect(outcome.environment == .production)
        #expect(outcome.response?.reason == .badEnvironmentKeyInToken)
        #expect(outcome.firstEnvironmentResponse?.status == 400)
        #expect(outcome.firstEnvironmentResponse?.reason == .badDeviceToken)
        let lines = outcome.summary.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(outcome.summary)")
        #expect(lines.first?.hasSuffix("reason BadEnvironmentKeyInToken, production, 2 attempts") == true, "\(outcome.summary)")
        #expect(lines.dropFirst().first?.hasPrefix("sandbox answered first: status 400, ") == true, "\(outcome.summary)")
        #expect(lines.dropFirst().first?.hasSuffix(", reason BadDeviceToken") == true, "\(outcome.summary)")
        #expect(outcome.advice == "this key is not allowed in production (BadEnvironmentKeyInToken), so the token could not be tried "
                + "there, and sandbox answered BadDeviceToken: try the token in production with a key allowed there, or stop sending to it")
    }

    @Test func tooManyRequestsBacksOffThatTokenAndRetriesWithAFreshTimestamp() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.answerNext(status: 429, reason: "TooManyRequests")
        let sleeps = Sleeps()
        let outcome = try await harness.sender(sleeps: sleeps).send(Harness.update())
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.attempts == 2)
        #expect(sleeps.all == [.seconds(1)])
        let stamps = harness.fake.requests.map(\.timestamp)
        #expect(stamps.count == 2)
        #expect((stamps[1] ?? 0) > (stamps[0] ?? 0), "a retry is never a stale replay")
    }

    /// The hold after `TooManyRequests` grows across sends to the token while APNs keeps
    /// refusing, and ends when it takes one: begun anew at each send, it was 1, 2 and 4 s again
    /// each time, and the throttle was kept up.
    @Test func tooManyRequestsInARowHoldTheTokenLongerAcrossSends() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let otherToken = String(repeating: "6f", count: 32)
        harness.fake.register(deviceToken: otherToken, bundleID: Harness.bundleID)
        harness.fake.answerNext(5, status: 429, reason: "TooManyRequests")
        let sleeps = Sleeps()
        let sender = try harness.sender(retry: RetryPolicy(maxAttempts: 2, maxDelay: .seconds(60)), sleeps: sleeps)
        let first = await sender.send(Harness.update())
        let second = await sender.send(Harness.update())
        let third = await sender.send(Harness.update())
        let fourth = await sender.send(Harness.update())
        let other = await sender.send(Harness.update(token: otherToken))
        try await harness.stop()
        #expect(!first.delivered && !second.delivered && first.remedy == .backOffToken, "\(first.summary)")
        // Two attempts per send: the holds after the five refusals are 1, 2, 4, 8 and 16 s, each
        // waited out before the next attempt; APNs takes the third send's second attempt, and the
        // fourth send waits for nothing.
        #expect(sleeps.all == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)], "\(sleeps.all)")
        #expect(third.delivered && fourth.delivered && fourth.attempts == 1, "\(third.summary) / \(fourth.summary)")
        #expect(other.delivered && other.attempts == 1, "another token is not held back")
    }

    @Test func aProblemOnApplesSideIsRetriedWithBackOffThenReported() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.answerNext(3, status: 503, reason: "ServiceUnavailable")
        let sleeps = Sleeps()
        let outcome = try await harness.sender(retry: RetryPolicy(serverErrorDelay: .seconds(1)), sleeps: sleeps).send(Harness.update())
        try await harness.stop()
        #expect(outcome.remedy == .retryLater)
        #expect(outcome.attempts == 3)
        #expect(sleeps.all == [.seconds(1), .seconds(2)])
    }

    /// By default a 5xx is not retried within the send: Apple's guidance is 15 minutes, with
    /// back-off, and the outcome says when (it was sent again after 1 s and 2 s).
    @Test func aProblemOnApplesSideIsRetriedAfterFifteenMinutesByDefault() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.answerNext(status: 500, reason: "InternalServerError")
        let sleeps = Sleeps()
        let start = harness.clock.now
        let outcome = try await harness.sender(sleeps: sleeps).send(Harness.update())
        try await harness.stop()
        #expect(outcome.remedy == .retryLater)
        #expect(outcome.attempts == 1)
        #expect(sleeps.all.isEmpty)
        #expect(outcome.retryAfter == start.addingTimeInterval(15 * 60))
        #expect(outcome.summary.contains("(not before \(Int(start.timeIntervalSince1970) + 900))"), "\(outcome.summary)")
    }

    @Test func theLatestStateIsRenderedAgainForARetry() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.answerNext(status: 500, reason: "InternalServerError")
        let renders = Sleeps()
        let retry = RetryPolicy(serverErrorDelay: .seconds(1))
        let push = LiveActivityPush(target: .device(token: Harness.deviceToken), content: .latest({
            renders.append(.seconds(1))
            let progress = Double(renders.all.count) / 10
            return .object([.init("title", .string("On its way")), .init("progress", .double(progress))])
        }, envelope: .init(timestamp: 0)))
        let outcome = try await harness.sender(retry: retry).send(push)
        try await harness.stop()
        #expect(outcome.delivered)
        #expect(renders.all.count == 2)
        #expect(String(decoding: try #require(harness.fake.requests.last).body, as: UTF8.self).contains(#""progress":0.2"#))
    }

    @Test func anExpiredProviderTokenIsRenewedOnceWhenOldEnough() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let tokens = harness.tokens()
        let sender = try harness.sender(tokens: tokens)
        #expect(await sender.send(Harness.update()).delivered)
        harness.clock.advance(minutes: 25)
        harness.fake.answerNext(status: 403, reason: "ExpiredProviderToken")
        let outcome = await sender.send(Harness.update())
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.attempts == 2)
        #expect(await tokens.mintedCount == 2)
    }

    @Test func manySendsShareOneTokenOnOneConnection() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let delivered = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 { group.addTask { await sender.send(Harness.update()).delivered } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        // An hour later: one new token, not one per send.
        harness.clock.advance(minutes: 51)
        for _ in 0..<10 { _ = await sender.send(Harness.update()) }
        try await harness.stop()
        #expect(delivered == 100)
        #expect(harness.fake.tokensSeen == 2)
        #expect(await sender.tokens.mintedCount == 2)
        #expect(harness.fake.requests.allSatisfy { $0.status == 200 })
    }

    /// At a renewal, a request made with the old token can reach the transport after one made
    /// with the new token (two sends at once). Each token goes on a connection of its own, so no
    /// connection sees its token change twice, which APNs (and the fake) answers
    /// `TooManyProviderTokenUpdates`; the old token's requests finish on its connection.
    @Test func eachProviderTokenGoesOnAConnectionOfItsOwn() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.delayAnswers(by: .milliseconds(300))
        let tokens = harness.tokens()
        let old = await tokens.token(for: .sandbox)
        harness.clock.advance(minutes: 51)
        let new = await tokens.token(for: .sandbox)
        #expect(old != new)
        let transport = harness.transport
        func request(_ token: String) -> APNsRequest { harness.deviceRequest(token: token) }
        // The old token, then the new one while the first waits for its answer, then the old again.
        let first = Task { try await transport.send(request(old)) }
        while harness.fake.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        let second = Task { try await transport.send(request(new)) }
        while harness.fake.requests.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        let third = try await transport.send(request(old))
        let statuses = [try await first.value.status, try await second.value.status, third.status]
        // Then one after the other, alternating (as tokens of two environments to one host do).
        var later: [Int] = []
        for token in [new, old, new, old] { later.append(try await transport.send(request(token)).status) }
        try await harness.stop()
        #expect(statuses == [200, 200, 200], "\(harness.fake.requests.map { "\($0.connection): \($0.status) \($0.reason ?? "")" })")
        #expect(later == [200, 200, 200, 200])
        let connections = harness.fake.requests.map(\.connection)
        #expect(connections[0] == connections[2] && connections[1] == connections[3] && connections[0] != connections[1], "\(connections)")
        #expect(Set(connections).count == 2, "one connection per token: \(connections)")
    }

    /// Tokens of two keys to one host (a server sending for two teams' apps) do not retire each
    /// other's connection: each key keeps one connection per host, however the requests alternate. (Taken for an older token of one key, every request of the
    /// other key opened a connection of its own.)
    @Test func twoKeysOnOneTransportKeepAConnectionEach() async throws {
        let other = P256.Signing.PrivateKey()
        let harness = try await Harness.start(configure: {
            $0.keys.append(FakeAPNs.Key(keyID: "OTHER12345", teamID: "TEAMOTHER1", publicKey: other.publicKey))
        })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let first = await harness.tokens().token(for: .sandbox)
        let second = await ProviderTokenCache(key: ProviderKey(privateKey: other, keyID: "OTHER12345", teamID: "TEAMOTHER1"),
                                              clock: harness.clock.function).token(for: .sandbox)
        var statuses: [Int] = []
        for token in [first, second, first, second, first, second] {
            statuses.append(try await harness.transport.send(harness.deviceRequest(token: token)).status)
        }
        try await harness.stop()
        #expect(statuses == Array(repeating: 200, count: 6), "\(harness.fake.requests.map { "\($0.connection): \($0.status) \($0.reason ?? "")" })")
        let connections = harness.fake.requests.map(\.connection)
        #expect(Set(connections).count == 2, "\(connections)")
    }

    /// A server shares one transport between its sends. One send's reconnect (after
    /// `IdleTimeout`, `Shutdown`, …) opens a new connection for the requests after it, and lets
    /// the requests still on the old one finish there rather than cancelling them.
    @Test func aReconnectLetsTheSendsInFlightFinish() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        // A first push opens the connection.
        #expect(await sender.send(Harness.update()).delivered)
        harness.fake.delayAnswers(by: .milliseconds(400))
        let inFlight = Task { await sender.send(Harness.update()) }
        // Once the fake has the request, its answer is on the way: reconnect meanwhile.
        while harness.fake.requests.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        await harness.transport.reconnect()
        let outcome = await inFlight.value
        harness.fake.delayAnswers(by: .zero)
        #expect(outcome.delivered, "\(outcome)")
        // Taken by APNs once: not cancelled, and so not sent again.
        #expect(outcome.attempts == 1)
        #expect(await sender.send(Harness.update()).delivered)
        try await harness.stop()
        #expect(harness.fake.requests.count == 3)
        #expect(harness.fake.connectionCount == 2)
    }

    /// A send that must reconnect (`IdleTimeout` here) drops its own connection, not the ones
    /// other provider tokens use on the same transport: dropping them all reopened every
    /// connection of a server's shared transport at each failure.
    @Test func aReconnectDropsOnlyTheConnectionItsRequestWentOn() async throws {
        let other = P256.Signing.PrivateKey()
        let harness = try await Harness.start(configure: {
            $0.keys.append(FakeAPNs.Key(keyID: "OTHER12345", teamID: "TEAMOTHER1", publicKey: other.publicKey))
        })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let first = try harness.sender()
        let second = try harness.sender(tokens: ProviderTokenCache(key: ProviderKey(privateKey: other, keyID: "OTHER12345", teamID: "TEAMOTHER1")))
        #expect(await first.send(Harness.update()).delivered)
        #expect(await second.send(Harness.update()).delivered)
        harness.fake.answerNext(status: 400, reason: "IdleTimeout")
        let reconnected = await first.send(Harness.update())
        #expect(reconnected.delivered && reconnected.attempts == 2, "\(reconnected.summary)")
        #expect(await second.send(Harness.update()).delivered)
        try await harness.stop()
        let connections = harness.fake.requests.map(\.connection)
        // The first sender's retry goes on a new connection; the second keeps its own.
        #expect(connections[3] != connections[0] && connections[4] == connections[1], "\(connections)")
        #expect(harness.fake.connectionCount == 3)
    }

    /// A harness with its device registered, and the request to that device stamped with a
    /// given timestamp, all under one provider token (one connection's key).
    static func requestsOfOneToken() async throws -> (harness: Harness, request: @Sendable (Int) -> APNsRequest) {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let token = await harness.tokens().token(for: .sandbox)
        return (harness, { harness.deviceRequest(token: token, timestamp: $0) })
    }

    /// Many requests fail on one connection; the first reconnect after them replaces it, and
    /// the reconnects after the others, which went on the replaced one, leave the new one in
    /// place (each opened another connection).
    @Test func aLateReconnectAfterAReplacedConnectionKeepsTheNewOne() async throws {
        let (harness, request) = try await Self.requestsOfOneToken()
        let transport = harness.transport
        harness.fake.answerNext(status: 400, reason: "IdleTimeout")
        #expect(try await transport.send(request(1)).status == 400)
        harness.fake.answerNext(status: 400, reason: "IdleTimeout")
        #expect(try await transport.send(request(2)).status == 400)
        await transport.reconnect(after: request(1))
        #expect(try await transport.send(request(3)).status == 200)
        // The second request went on the connection the first reconnect replaced.
        await transport.reconnect(after: request(2))
        #expect(try await transport.send(request(4)).status == 200)
        // A request that failed on the current connection still replaces it.
        harness.fake.answerNext(status: 400, reason: "IdleTimeout")
        #expect(try await transport.send(request(5)).status == 400)
        await transport.reconnect(after: request(5))
        #expect(try await transport.send(request(6)).status == 200)
        try await harness.stop()
        let connections = harness.fake.requests.map(\.connection)
        #expect(connections[0] == connections[1] && connections[2] != connections[0], "\(connections)")
        #expect(connections[3] == connections[2] && connections[4] == connections[2], "\(connections)")
        #expect(connections[5] != connections[4], "\(connections)")
        #expect(harness.fake.connectionCount == 3)
    }

    /// The failures remembered are capped; past the cap the newest are kept. Here two are kept
    /// a generation: the third failure starts a new one, and the reconnects after the first two
    /// still find the connection they went on (clearing every failure at the cap forgot them,
    /// and each late reconnect replaced the new connection again: three connections, not two).
    @Test func theNewestFailuresAreKeptPastTheCap() async throws {
        let (harness, request) = try await Self.requestsOfOneToken()
        let transport = harness.transport
        await transport.keepFailures(2)
        for timestamp in 1...3 {
            harness.fake.answerNext(status: 400, reason: "IdleTimeout")
            #expect(try await transport.send(request(timestamp)).status == 400)
        }
        await transport.reconnect(after: request(1))
        #expect(try await transport.send(request(4)).status == 200)
        await transport.reconnect(after: request(2))
        await transport.reconnect(after: request(3))
        #expect(try await transport.send(request(5)).status == 200)
        try await harness.stop()
        let connections = harness.fake.requests.map(\.connection)
        #expect(connections[3] != connections[0] && connections[4] == connections[3], "\(connections)")
        #expect(harness.fake.connectionCount == 2)
    }

    @Test func broadcastsGoToTheChannelWithoutTopicAndNeverStart() async throws {
        let harness = try await Harness.start()
        let channels = try harness.channels()
        let channel = try await channels.create(.noMessageStored)
        let sender = try harness.sender()
        let state = Value.object([.init("title", .string("Kick-off")), .init("progress", .double(0))])
        let push = LiveActivityPush(target: .broadcast(channelID: channel), content: .state(state, envelope: .init(timestamp: 0)),
                                    headers: .init(priority: 1, expiration: 0))
        let outcome = await sender.send(push)
        var start = push
        start.content = .state(state, envelope: .init(event: .start, timestamp: 0, alert: .object([.init("title", .string("a")), .init("body", .string("b"))]),
                                                    attributes: .object([.init("totalAmount", .string("1")), .init("orderId", .string("2"))])))
        let refused = await sender.send(start)
        var noExpiration = push
        noExpiration.headers.expiration = nil
        let missing = await sender.send(noExpiration)
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.response?.requestID != nil)
        let request = try #require(harness.fake.requests.last { $0.path.hasPrefix("/4/") })
        #expect(request.path == "/4/broadcasts/apps/com.example.delivery")
        #expect(request.header("apns-channel-id") == channel)
        #expect(request.header("apns-topic") == nil)
        #expect(refused.refused && refused.diagnostics.contains { $0.code == DiagnosticCode.broadcastStart })
        // The channel was sent an update a moment before: the cadence is a channel's too.
        #expect(missing.refused && missing.diagnostics.map(\.code)
            == [DiagnosticCode.broadcastPriorityOne, DiagnosticCode.missingExpiration, DiagnosticCode.updateCadence])
        #expect(outcome.diagnostics.map(\.code) == [DiagnosticCode.broadcastPriorityOne], "priority 1 is sent, with its warning")
        #expect(harness.fake.requests.filter { $0.path.hasPrefix("/4/") }.count == 1)
    }

    @Test func channelsAreCreatedListedReadAndDeletedWithTheIdInAHeader() async throws {
        let harness = try await Harness.start()
        let channels = try harness.channels()
        let kept = try await channels.create(.mostRecentMessageStored)
        let dropped = try await channels.create(.noMessageStored)
        #expect(Set(try await channels.list()) == [kept, dropped])
        let read = try await channels.read(kept)
        #expect(read.storagePolicy == .mostRecentMessageStored)
        #expect(read.pushType == "LiveActivity")
        try await channels.delete(dropped)
        #expect(try await channels.list() == [kept])
        await #expect(throws: ChannelError.self) { try await channels.read("not base64!") }
        let countBefore = harness.fake.requests.count
        do {
            _ = try await channels.read(dropped)
            Issue.record("a deleted channel reads")
        } catch {
            #expect(error.response?.reason == .channelNotRegistered)
        }
        try await harness.stop()
        #expect(harness.fake.requests.count == countBefore + 1, "a malformed id is refused before sending")
        #expect(harness.fake.requests.allSatisfy { !$0.path.contains(kept) && !$0.path.contains(dropped) }, "the id goes in apns-channel-id, not the path")
    }
}


/// A transport that answers every request with `answer` (an answer, or an error), and counts them.
final class CountingTransport: APNsTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent = 0
    private let answer: @Sendable () async throws -> APNsResponse
    var requests: Int { lock.withLock { sent } }

    init(_ answer: @escaping @Sendable () async throws -> APNsResponse) { self.answer = answer }

    /// Fails every request with `error`.
    static func failing(_ error: any Error & Sendable) -> CountingTransport { CountingTransport { throw error } }

    /// Answers every request 429 `TooManyRequests`.
    static func throttling() -> CountingTransport { CountingTransport { APNsResponse(status: 429, reason: .tooManyRequests) } }

    /// Never answers: each request waits until its task is cancelled.
    static func hanging() -> CountingTransport {
        CountingTransport {
            try await Task.sleep(for: .seconds(600))
            throw ConnectionReset()
        }
    }

    func send(_ request: APNsRequest) async throws -> APNsResponse {
        lock.withLock { sent += 1 }
        return try await answer()
    }

    func reconnect() async {}
}

struct ConnectionReset: Error {}

/// A transport that loses the answer (after the request went out) or answers 200, in turn as
/// scripted, and keeps each request's `aps.timestamp`.
final class ScriptedTransport: APNsTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [Bool]
    private var stamps: [Int?] = []
    var timestamps: [Int?] { lock.withLock { stamps } }

    /// - Parameter script: For each request, whether it is answered 200 (or its answer lost).
    init(_ script: [Bool]) { self.script = script }

    func send(_ request: APNsRequest) async throws -> APNsResponse {
        let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        let stamp = ((object?["aps"] as? [String: Any])?["timestamp"] as? NSNumber)?.intValue
        let answers = lock.withLock {
            stamps.append(stamp)
            return script.isEmpty ? true : script.removeFirst()
        }
        guard answers else { throw ConnectionReset() }
        return APNsResponse(status: 200, body: [])
    }

    func reconnect() async {}
}



extension LiveActivityPush {
    var isStart: Bool {
        if case .state(_, let envelope) = content { envelope.event == .start } else { false }
    }
}

/// What a sender does when no answer comes.
@Suite struct SenderNoAnswerTests {
    static func sender(_ transport: any APNsTransport) throws -> LiveActivitySender {
        let key = ProviderKey(privateKey: .init(), keyID: Harness.keyID, teamID: Harness.teamID)
        return try LiveActivitySender(
            schema: Harness.schema, versions: [2, 3], tokens: ProviderTokenCache(key: key),
            configuration: .init(bundleID: Harness.bundleID, environment: .sandbox), transport: transport, sleep: { _ in })
    }

    /// A start that may have reached APNs is sent once: each start APNs takes shows another
    /// activity, and three were sent when the answer was lost.
    @Test func aStartThatMayHaveArrivedIsNotSentAgain() async throws {
        let transport = CountingTransport.failing(ConnectionReset())
        let outcome = try await Self.sender(transport).send(PushHistoryTests.start("A1"))
        #expect(transport.requests == 1)
        #expect(outcome.remedy == .retryLater)
        // Not the advice of a lost update, "send the current state again": a second start is a second activity.
        #expect(outcome.advice.hasPrefix("no answer came to this start, which may have reached APNs: do not send it again"), "\(outcome.advice)")
        #expect(!outcome.summary.contains("send the current state again"), "\(outcome.summary)")
        let unconfirmed = try #require(outcome.diagnostics.first { $0.code == DiagnosticCode.startUnconfirmed })
        #expect(unconfirmed.severity == .warning)
        #expect(unconfirmed.message.hasPrefix("no answer came to this start (ConnectionReset()) after the request may have reached APNs"))
    }

    /// The same start again, after one whose answer was lost, is warned of as a possible second
    /// activity (it was sent without a word), and another start is not.
    @Test func theSameStartAfterOneUnansweredIsWarnedOf() async throws {
        let transport = CountingTransport.failing(ConnectionReset())
        let sender = try Self.sender(transport)
        _ = await sender.send(PushHistoryTests.start("A1"))
        let again = await sender.send(PushHistoryTests.start("A1"))
        let another = await sender.send(PushHistoryTests.start("B2"))
        let duplicate = try #require(again.diagnostics.first { $0.code == DiagnosticCode.duplicateStart }, "\(again.diagnostics)")
        #expect(duplicate.severity == .warning)
        #expect(duplicate.message.hasPrefix("a start with the same attributes went to this push-to-start token 0 s ago and no answer came"),
                "\(duplicate.message)")
        #expect(!another.diagnostics.contains { $0.code == DiagnosticCode.duplicateStart })
        #expect(transport.requests == 3, "a warning does not stop it")

        // One APNs accepted stands when the same start's answer is then lost: the warning after
        // both says what APNs accepted.
        let answered = try Self.sender(ScriptedTransport([true, false, true]))
        for _ in 0..<2 { _ = await answered.send(PushHistoryTests.start("A1")) }
        let third = await answered.send(PushHistoryTests.start("A1"))
        #expect(third.diagnostics.first { $0.code == DiagnosticCode.duplicateStart }?.message
                    .hasPrefix("the last start APNs accepted for this push-to-start token") == true, "\(third.diagnostics)")
    }

    /// The hold after `TooManyRequests` doubles while the refusals come in a row, and starts
    /// over once the token has gone unrefused as long as its last hold.
    @Test func aTokensHoldStartsOverAfterAQuietSpell() async {
        let backoff = TokenBackoff()
        let delay: @Sendable (Int) -> Duration = { RetryPolicy().delay(after: $0) }
        var holds: [TimeInterval] = []
        var now: TimeInterval = 1_000
        for _ in 0..<3 {
            let hold = await backoff.throttled("t", now: now, delay: delay)
            holds.append(hold)
            #expect(await backoff.remainder(of: "t", now: now + hold / 2) == hold / 2)
            now += hold
            #expect(await backoff.remainder(of: "t", now: now) == nil)
        }
        // Quiet for longer than the last hold (4 s): the next refusal is held 1 s again.
        now += 5
        holds.append(await backoff.throttled("t", now: now, delay: delay))
        #expect(holds == [1, 2, 4, 1])
    }

    /// A hold after `TooManyRequests` lasts its length however the wall clock is set meanwhile:
    /// measured on it, a hold of 1 s became one of half an hour when the clock was set back half
    /// an hour (past `maxDelay`, so the send gave up), and none when set forward.
    @Test func settingTheWallClockNeitherLengthensNorEndsAHold() async throws {
        for step in [-30.0, 30] {
            let harness = try await Harness.start()
            harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
            harness.fake.answerNext(status: 429, reason: "TooManyRequests")
            let sleeps = Sleeps()
            let sender = try harness.sender(retry: RetryPolicy(maxAttempts: 1), sleeps: sleeps)
            let first = await sender.send(Harness.update())
            #expect(first.remedy == .backOffToken && first.retryAfter == harness.clock.now.addingTimeInterval(1), "\(first.summary)")
            harness.clock.stepWall(minutes: step)
            let second = await sender.send(Harness.update())
            try await harness.stop()
            #expect(sleeps.all == [.seconds(1)], "wall clock set by \(step) minutes: \(sleeps.all)")
            #expect(second.delivered, "\(second.summary)")
        }
    }

    /// A send cancelled while it waits out a token's back-off sends nothing more (the wait's
    /// cancellation was swallowed, and the push went out).
    @Test func aSendCancelledDuringItsBackOffIsNotSentAgain() async throws {
        let transport = CountingTransport.throttling()
        let key = ProviderKey(privateKey: .init(), keyID: Harness.keyID, teamID: Harness.teamID)
        let sender = try LiveActivitySender(
            schema: Harness.schema, versions: [2, 3], tokens: ProviderTokenCache(key: key),
            configuration: .init(bundleID: Harness.bundleID, environment: .sandbox), transport: transport)
        let task = Task { await sender.send(Harness.update()) }
        while transport.requests < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let outcome = await task.value
        #expect(transport.requests == 1, "sent again after the cancelled wait")
        #expect(outcome.remedy == .backOffToken && outcome.attempts == 1, "\(outcome.summary)")
    }

    /// A caller that cancels its send stops it: not sent at all when cancelled before its turn,
    /// and not sent again when cancelled while the request was out (a cancelled wait was taken
    /// for no answer, and the push went out again on a new connection, twice more).
    @Test func aCancelledSendIsNotSentAgain() async throws {
        let early = CountingTransport.failing(ConnectionReset())
        let sender = try Self.sender(early)
        let before = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await sender.send(Harness.update())
        }
        let notSent = await before.value
        #expect(early.requests == 0)
        #expect(notSent.attempts == 0 && !notSent.delivered)
        #expect(notSent.advice == "the send was cancelled before its request was sent", "\(notSent.advice)")

        let hanging = CountingTransport.hanging()
        let during = try Self.sender(hanging)
        for push in [Harness.update(), PushHistoryTests.start("A1")] {
            let task = Task { await during.send(push) }
            while hanging.requests < (push.isStart ? 2 : 1) { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            let outcome = await task.value
            #expect(hanging.requests == (push.isStart ? 2 : 1), "not sent again")
            #expect(outcome.attempts == 1 && !outcome.delivered)
            #expect(outcome.transportError == "the send was cancelled")
            #expect(outcome.advice.hasPrefix(push.isStart ? "no answer came to this start" : "the send was cancelled after its request may have reached APNs"),
                    "\(outcome.advice)")
        }
    }

    /// An update whose answer was lost may have reached the device: what is stamped next for
    /// the activity is later, in the retry and in the next send. Both were stamped the same,
    /// which the device may ignore while the sender reports it delivered.
    @Test func anUpdateThatMayHaveArrivedIsStampedPast() async throws {
        let transport = ScriptedTransport([false, true, false, true])
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let key = ProviderKey(privateKey: .init(), keyID: Harness.keyID, teamID: Harness.teamID)
        let sender = try LiveActivitySender(
            schema: Harness.schema, versions: [2, 3], tokens: ProviderTokenCache(key: key, clock: { now }),
            configuration: .init(bundleID: Harness.bundleID, environment: .sandbox, retry: RetryPolicy(maxAttempts: 2)),
            transport: transport, clock: { now }, sleep: { _ in })
        let retried = await sender.send(Harness.update())
        #expect(retried.delivered && retried.attempts == 2)
        let never = try LiveActivitySender(
            schema: Harness.schema, versions: [2, 3], tokens: ProviderTokenCache(key: key, clock: { now }),
            configuration: .init(bundleID: Harness.bundleID, environment: .sandbox, retry: .never),
            transport: transport, clock: { now }, sleep: { _ in })
        let lost = await never.send(Harness.update())
        let next = await never.send(Harness.update())
        #expect(!lost.delivered && next.delivered)
        // The second sender has its own history: its first push is stamped by the clock.
        #expect(transport.timestamps == [1_795_000_000, 1_795_000_001, 1_795_000_000, 1_795_000_001], "\(transport.timestamps)")
    }

    /// One whose connection was never made is sent again, as an update whose answer was lost is.
    @Test func aStartThatNeverLeftAndAnUpdateAreSentAgain() async throws {
        let refused = CountingTransport.failing(APNsConnectionError(underlying: ConnectionReset()))
        _ = try await Self.sender(refused).send(PushHistoryTests.start("A1"))
        #expect(refused.requests == 3)
        let lost = CountingTransport.failing(ConnectionReset())
        let outcome = try await Self.sender(lost).send(Harness.update())
        #expect(lost.requests == 3)
        #expect(!outcome.diagnostics.contains { $0.code == DiagnosticCode.startUnconfirmed })
    }

    /// A whole body's retry is never stamped older than the body was: a stamp ahead of the
    /// clock (a counter's) stays, and one behind it is renewed.
    @Test func aWholeBodyRetryIsNeverStampedOlder() {
        let ahead = Array(#"{"aps":{"timestamp":2000000000,"event":"update","content-state":{}}}"#.utf8)
        #expect(LiveActivitySender.restamped(ahead, timestamp: 1_795_000_000) == ahead)
        let behind = Array(#"{"aps":{"timestamp":1000,"event":"update","content-state":{}}}"#.utf8)
        #expect(String(decoding: LiveActivitySender.restamped(behind, timestamp: 1_795_000_000), as: UTF8.self).contains(#""timestamp":1795000000"#))
    }

    /// Advice that names what the reason says: the other environment, the clock, and for a
    /// broadcast's `BadExpirationDate` the channel's storage policy.
    @Test func adviceNamesWhatTheReasonSays() {
        let expiration = SendRemedy.fixRequest.advice(for: .badExpirationDate, broadcast: true)
        #expect(expiration.hasPrefix("a channel created with storage policy none"), "\(expiration)")
        #expect(expiration.contains("accepts only apns-expiration 0 (--expiration 0)"))
        #expect(SendRemedy.fixRequest.advice(for: .badExpirationDate) == SendRemedy.fixRequest.advice, "a device push has no channel")
        #expect(SendRemedy.tokenDead.advice(for: .badDeviceToken).contains("try it there once"))
        #expect(SendRemedy.tokenDead.advice(for: .unregistered) == SendRemedy.tokenDead.advice)
        #expect(SendRemedy.fixCredentials.advice(for: .expiredProviderToken).contains("clock is behind"))
        #expect(!SendRemedy.fixCredentials.advice(for: .expiredProviderToken).contains("--key"))
    }
}

/// The first of two results, handed to whoever waits for it.
final class FirstResult<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T?, Never>?
    var waiter: CheckedContinuation<T?, Never>? {
        get { lock.withLock { continuation } }
        set { lock.withLock { continuation = newValue } }
    }

    func finish(_ value: T?) {
        let waiting: CheckedContinuation<T?, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}

/// A transport that answers every request with one answer.
final class CannedTransport: APNsTransport, @unchecked Sendable {
    let response: APNsResponse
    init(_ response: APNsResponse) { self.response = response }
    func send(_ request: APNsRequest) async throws -> APNsResponse { response }
    func reconnect() async {}
}

/// Channel answers that are not what APNs sends are refused, and error advice speaks of channels.
@Suite struct ChannelAnswerTests {
    static func channels(_ response: APNsResponse) throws -> BroadcastChannels {
        let key = ProviderKey(privateKey: .init(), keyID: Harness.keyID, teamID: Harness.teamID)
        return try BroadcastChannels(bundleID: Harness.bundleID, environment: .sandbox, tokens: ProviderTokenCache(key: key),
                                     transport: CannedTransport(response))
    }

    static func message(_ operation: (BroadcastChannels) async throws -> Void, answer: APNsResponse) async throws -> String? {
        let channels = try channels(answer)
        do {
            try await operation(channels)
            return nil
        } catch let error as ChannelError {
            return error.message
        }
    }

    @Test func answersThatAreNotAPNssAreRefused() async throws {
        let notJSON = try await Self.message({ _ = try await $0.read("YWJj") }, answer: APNsResponse(status: 200, body: Array("<html>".utf8)))
        #expect(notJSON == "APNs answered the channel read without its settings (a JSON object)")
        let badID = try await Self.message({ _ = try await $0.list() },
                                           answer: APNsResponse(status: 200, body: Array(#"{"channels":["YWJj","a\nb"]}"#.utf8)))
        #expect(badID?.hasSuffix("which is not a channel id") == true, "\(badID ?? "")")
        let created = try await Self.message({ _ = try await $0.create(.noMessageStored) }, answer: APNsResponse(status: 201, channelID: "zz zz"))
        #expect(created?.hasPrefix("the apns-channel-id of the answer is not a channel id") == true, "\(created ?? "")")
    }

    @Test func errorAdviceSpeaksOfChannels() async throws {
        let throttled = try await Self.message({ _ = try await $0.list() }, answer: APNsResponse(status: 429, reason: .tooManyRequests))
        #expect(throttled == "status 429, reason TooManyRequests\nback-off-token: too many channel requests: wait before the next")
        let gone = try await Self.message({ try await $0.delete("YWJj") }, answer: APNsResponse(status: 410, reason: .unregistered))
        #expect(gone?.hasSuffix("the channel is no longer there: stop using it") == true, "\(gone ?? "")")
    }
}

/// Which TLS errors leave the request unwritten: a start after them may be sent again.
@Suite struct SenderHandshakeTests {
    @Test func onlyAHandshakesErrorsAreAConnections() async throws {
        // An unclean shutdown may end a connection that carried the request.
        #expect(!APNsConnectionError.isConnecting(NIOSSLError.uncleanShutdown))
        #expect(APNsConnectionError.isConnecting(NIOSSLError.unableToValidateCertificate))
        let handshake = CountingTransport.failing(APNsConnectionError(underlying: NIOSSLError.unableToValidateCertificate))
        let outcome = try await SenderNoAnswerTests.sender(handshake).send(PushHistoryTests.start("A1"))
        #expect(handshake.requests == 3)
        #expect(outcome.summary.contains("no answer came: check the network, the host and any proxy"), "\(outcome.summary)")
    }
}

/// `HTTPClientTransport`'s rules against a peer that is not APNs, staged by the fake: one that
/// speaks only HTTP/1.1, one that redirects, one that stalls its answer's body.
@Suite(.serialized) struct TransportRuleTests {
    @Test func aPeerThatSpeaksOnlyHTTP1IsNoAnswer() async throws {
        let harness = try await Harness.start(configure: { $0.offersHTTP2 = false })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        // Not sent again: an answer came, and a proxy that speaks HTTP/1.1 may have forwarded it.
        let outcome = try await harness.sender().send(Harness.update())
        try await harness.stop()
        #expect(outcome.attempts == 1 && harness.fake.requests.count == 1, "\(outcome.summary)")
        #expect(!outcome.delivered)
        #expect(outcome.response == nil, "\(outcome.summary)")
        #expect(outcome.transportError?.contains("APNs speaks HTTP/2 only") == true, "\(outcome.summary)")
    }

    /// TLS 1.1 and older were accepted, and their 200 reported as delivered: APNs asks for 1.2
    /// or later, and the handshake with such a peer fails before a push is sent.
    @Test func aPeerOfferingOnlyTLS11IsNoAnswer() async throws {
        let harness = try await Harness.start(configure: { $0.offersOnlyTLS11 = true })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let outcome = try await harness.sender(retry: .never).send(Harness.update())
        try await harness.stop()
        #expect(!outcome.delivered)
        #expect(outcome.response == nil, "\(outcome.summary)")
        #expect(outcome.transportError != nil, "\(outcome.summary)")
        #expect(harness.fake.requests.isEmpty)
    }

    /// A redirect was followed: the push, with its provider token, went to another device
    /// token's path, and its 200 was reported.
    @Test func aRedirectIsNotFollowed() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let other = String(repeating: "ab", count: 32)
        harness.fake.register(deviceToken: other, bundleID: Harness.bundleID)
        harness.fake.redirectNext(to: "/3/device/" + other)
        let outcome = try await harness.sender(retry: .never).send(Harness.update())
        try await harness.stop()
        #expect(outcome.response?.status == 307)
        #expect(!outcome.delivered)
        #expect(harness.fake.requests.map(\.path) == ["/3/device/" + Harness.deviceToken])
    }

    /// A peer that completes TLS with ALPN `h2` and then sends nothing (no SETTINGS), as a
    /// TLS-terminating proxy whose backend is down does, held a send for ever: the client's
    /// shutdown after the failed attempt waited on that connection. Each attempt ends at the
    /// transport's own deadline, and neither a reconnection nor the shutdown waits on it.
    @Test func aPeerSilentAfterTheHandshakeEndsAtTheDeadline() async throws {
        let harness = try await Harness.start(configure: { $0.silentAfterHandshake = true })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        // The connection's own time-out is past the attempt's deadline (1 s), which ends it first
        // however loaded the machine is (with both at 1 s, either could).
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM, timeout: .seconds(1), connectTimeout: .seconds(5))
        let sender = try harness.sender(retry: RetryPolicy(maxAttempts: 2), transport: transport)
        let outcome = await Self.ending(within: 20) {
            let outcome = await sender.send(Harness.update())
            // A start that never left is sent again too: no second activity can come of it.
            let start = await sender.send(PushHistoryTests.start("A1"))
            try? await transport.shutdown()
            return (outcome, start)
        }
        try await harness.stop()
        let (ended, start) = try #require(outcome, "the send, or the shutdown after it, did not end")
        #expect(start.attempts == 2 && !start.diagnostics.contains { $0.code == DiagnosticCode.startUnconfirmed }, "\(start.diagnostics)")
        #expect(ended.attempts == 2)
        #expect(ended.response == nil)
        // It waited for a connection that never became ready: nothing of it left.
        #expect(ended.transportError == "no connection was ready within 1 s, so the request was not sent", "\(ended.summary)")
        #expect(harness.fake.requests.isEmpty)
    }

    /// A transport shut down sends nothing more: a request its shutdown cut off was retried on
    /// a client that `reconnect()` made after the shutdown, and later sends went out too.
    @Test func aTransportShutDownSendsNothingMore() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.delayAnswers(by: .seconds(5))
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM)
        let sender = try harness.sender(transport: transport)
        let inFlight = Task { await sender.send(Harness.update()) }
        while harness.fake.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try await transport.shutdown()
        let cut = await inFlight.value
        let later = await sender.send(Harness.update())
        try await harness.stop()
        #expect(harness.fake.requests.count == 1, "neither sent again nor sent after the shutdown")
        #expect(!cut.delivered && cut.attempts == 1, "\(cut.summary)")
        // What cut the first attempt off, not the shutdown's refusal of a second.
        #expect(cut.transportError != nil && cut.transportError != "the transport was shut down, so the request was not sent", "\(cut.summary)")
        #expect(later.attempts == 0 && !later.delivered)
        #expect(later.transportError == "the transport was shut down, so the request was not sent")
    }

    /// A send cancelled while its request waits for the answer ends then, over the HTTP client
    /// too, and is not sent again.
    @Test func aCancelledSendEndsAtOnce() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.delayAnswers(by: .seconds(20))
        let sender = try harness.sender()
        let started = ContinuousClock.now
        let task = Task { await sender.send(Harness.update()) }
        while harness.fake.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let outcome = await task.value
        let took = ContinuousClock.now - started
        try await harness.stop()
        #expect(took < .seconds(10), "it waited for the answer: \(took)")
        #expect(!outcome.delivered && outcome.attempts == 1 && outcome.transportError == "the send was cancelled", "\(outcome.summary)")
        #expect(harness.fake.requests.count == 1)
    }

    /// A send cancelled while its request waits for a connection (one that never becomes ready)
    /// was not sent, and says so.
    @Test func aSendCancelledBeforeItsRequestWasWrittenSaysItWasNotSent() async throws {
        let harness = try await Harness.start(configure: { $0.silentAfterHandshake = true })
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM, timeout: .seconds(20))
        let sender = try harness.sender(transport: transport)
        let task = Task { await sender.send(PushHistoryTests.start("A1")) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let outcome = await task.value
        try? await transport.shutdown()
        try await harness.stop()
        #expect(outcome.attempts == 0 && outcome.advice == "the send was cancelled before its request was sent", "\(outcome.summary)")
        #expect(!outcome.diagnostics.contains { $0.code == DiagnosticCode.startUnconfirmed }, "it never left")
    }

    /// An answer that came before the deadline is the answer, however late the task that reads
    /// it runs. In a process whose threads are all busy (a server's, or a loaded test run), the
    /// head was raced against a sleeping task; when the busy spell ended, both were ready and
    /// the sleep could win: the answer was taken for none and the push sent again (seen in full
    /// test runs, as a fifth request to the fake). Here the sender's tasks run on one thread
    /// that runs ready jobs newest first, kept busy from when the fake reads the request until
    /// after the deadline, with the answer sent in between.
    @Test func anAnswerThatCameInTimeIsTakenHoweverLateItIsRead() async throws {
        guard #available(macOS 15, *) else { return }
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.delayAnswers(by: .milliseconds(200))
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM, timeout: .seconds(1))
        let sender = try harness.sender(retry: RetryPolicy(maxAttempts: 2), transport: transport)
        let executor = NewestFirstExecutor()
        let fake = harness.fake
        // Each request read keeps the thread busy past the deadline.
        let watcher = Thread {
            for count in 1...2 {
                while fake.requests.count < count { usleep(200) }
                executor.keepBusy(for: 1.5)
            }
        }
        watcher.start()
        let outcome = await withTaskExecutorPreference(executor) { await sender.send(Harness.update()) }
        // An answer's body, come with its head, is read too: the reason of a refusal is kept.
        let unknown = String(repeating: "7a", count: 32)
        let refused = await withTaskExecutorPreference(executor) { await sender.send(Harness.update(token: unknown)) }
        try await transport.shutdown()
        try await harness.stop()
        #expect(executor.busySpells == 2, "the thread was kept busy after each request came")
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.attempts == 1)
        #expect(refused.response?.status == 400 && refused.response?.reason == .badDeviceToken, "\(refused.summary)")
        #expect(refused.response?.truncation == nil)
        #expect(harness.fake.requests.count == 2, "neither sent again")
    }

    /// What `operation` returns, or `nil` when it has not ended after `seconds`: a hang fails
    /// the test at once instead of holding the test run (the operation is left running).
    static func ending<T: Sendable>(within seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> T? {
        let result = FirstResult<T>()
        return await withCheckedContinuation { continuation in
            result.waiter = continuation
            Task { result.finish(await operation()) }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                result.finish(nil)
            }
        }
    }

    /// A stream APNs reset with `REFUSED_STREAM` was not processed (RFC 9113 §8.7): a start
    /// on it was reported `start-unconfirmed` and not sent again. It is sent again, and the
    /// error is said in words, not as NIO's debug text.
    @Test func aRefusedStreamIsSentAgainEvenForAStart() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.refuseNextStreams(1)
        let outcome = try await harness.sender().send(PushHistoryTests.start("A1"))
        harness.fake.refuseNextStreams(1)
        let thrown = await #expect(throws: APNsRefusedStreamError.self) {
            try await harness.transport.send(#require(outcome.request))
        }
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.attempts == 2)
        #expect(!outcome.diagnostics.contains { $0.code == DiagnosticCode.startUnconfirmed })
        #expect(harness.fake.refusedStreams == 2)
        #expect(harness.fake.requests.map(\.status) == [200], "the refused request was never processed")
        #expect(thrown?.description == "APNs refused the stream before processing it (REFUSED_STREAM)")
    }

    /// A stream refused at every attempt was answered, by a refusal: its advice is not that no
    /// answer came. A broadcast already sent with `apns-expiration: 0` and answered
    /// `BadExpirationDate` is not told to send 0.
    @Test func adviceFollowsWhatTheLastAttemptGot() throws {
        let request = APNsRequest(method: "POST", host: "h", port: 443, path: "/4/broadcasts/apps/com.example",
                                  headers: [.init("apns-expiration", "0")])
        var refused = SendOutcome(remedy: .retryLater, refused: false, diagnostics: [], request: request, attempts: 3,
                                  environment: .sandbox, transportError: "\(APNsRefusedStreamError())")
        #expect(refused.advice.hasPrefix("APNs refused the stream each time before processing it"), "\(refused.advice)")
        refused.transportError = "connection refused"
        #expect(refused.advice.hasPrefix("no answer came"))
        let expired = SendOutcome(remedy: .fixRequest, refused: false, diagnostics: [], request: request,
                                  response: APNsResponse(status: 400, reason: .badExpirationDate), attempts: 1, environment: .sandbox)
        #expect(expired.advice.hasPrefix("APNs refused apns-expiration 0"), "\(expired.advice)")
    }

    /// What a dry run prints as `:authority` is what goes out: the client leaves HTTPS's own
    /// port out, and the printed `api.sandbox.push.apple.com:443` was not what APNs saw.
    @Test func theAuthorityPrintedIsTheOneSent() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let sender = try harness.sender()
        let request = try #require(await sender.prepare(Harness.update()).request)
        _ = await sender.send(Harness.update())
        let port = harness.fake.pushPort
        try await harness.stop()
        #expect(request.rendered.contains("\n:authority: localhost:\(port)\n"))
        #expect(harness.fake.requests.map(\.authority) == [request.authority])
        let apple = APNsEndpoints.apple(.sandbox)
        #expect(APNsRequest(method: "POST", host: apple.pushHost, port: apple.pushPort, path: "/", headers: []).authority
                == "api.sandbox.push.apple.com")
        #expect(APNsRequest(method: "GET", host: apple.manageHost, port: apple.managePort, path: "/", headers: []).authority
                == "api-manage-broadcast.sandbox.push.apple.com:2195")
    }

    /// Any other reset is said by its code's name, not as NIO's debug text and source location.
    @Test func anotherResetIsSaidByItsCodesName() {
        #expect("\(HTTPClientTransport.StreamReset(code: .cancel))" == "the stream was reset (CANCEL) before the answer came")
        #expect("\(HTTPClientTransport.StreamReset(code: HTTP2ErrorCode(networkCode: 0x42)))"
                == "the stream was reset (error code 66) before the answer came")
    }

    /// The deadline covers the body: an answer whose body never ends held the send for ever.
    /// Its status is still the answer: a 200 whose body stalls is delivered (it was taken for
    /// no answer, and the update sent three times).
    @Test(.timeLimit(.minutes(1))) func aStalledBodyEndsAtTheDeadlineAndItsStatusStands() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        harness.fake.stallAnswers()
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM, timeout: .seconds(1))
        let outcome = try await harness.sender(transport: transport).send(Harness.update())
        try await transport.shutdown()
        try await harness.stop()
        #expect(outcome.delivered, "\(outcome.summary)")
        #expect(outcome.attempts == 1)
        #expect(outcome.response?.truncation == .stalled)
        #expect(outcome.summary.contains(", the body did not end in time, sandbox"), "\(outcome.summary)")
    }

    /// A `400 BadDeviceToken` whose body stalled, or ran past 1 MiB, was taken for no answer and
    /// sent twice more: the status and the reason its first bytes hold are the answer.
    @Test(.timeLimit(.minutes(1))) func anErrorWhoseBodyIsCutShortKeepsItsStatusAndReason() async throws {
        let harness = try await Harness.start()
        harness.fake.register(deviceToken: Harness.deviceToken, bundleID: Harness.bundleID)
        let padding = String(repeating: "x", count: 2_000_000)
        harness.fake.answerNext(status: 400, body: Array(#"{"reason":"BadDeviceToken","padding":"\#(padding)"}"#.utf8))
        let large = try await harness.sender().send(Harness.update())
        harness.fake.answerNext(status: 400, reason: "BadDeviceToken")
        harness.fake.stallAnswers()
        let transport = try HTTPClientTransport(trustRootsPEM: harness.fake.certificatePEM, timeout: .seconds(1))
        let stalled = try await harness.sender(transport: transport).send(Harness.update())
        try await transport.shutdown()
        try await harness.stop()
        for (outcome, truncation) in [(large, APNsResponse.Truncation.tooLarge(limit: 1 << 20)), (stalled, .stalled)] {
            #expect(outcome.response?.status == 400, "\(outcome.summary)")
            #expect(outcome.response?.reason == .badDeviceToken)
            #expect(outcome.response?.truncation == truncation)
            #expect(outcome.remedy == .tokenDead)
            #expect(outcome.attempts == 1, "never sent again")
        }
        #expect(large.response?.body.count == 1 << 20)
        #expect(large.summary.hasPrefix("status 400, reason BadDeviceToken, the body was cut at 1 MiB, sandbox\n"), "\(large.summary)")
        #expect(harness.fake.requests.count == 2)
    }

    /// The reason of a body cut short is read when its string is whole, and only then.
    @Test func theReasonOfABodyCutShortIsReadWhenWhole() {
        func reason(_ text: String) -> String? { APNsResponse.leadingReason(Array(text.utf8)) }
        #expect(reason(#"{"reason":"BadDeviceToken","padding":"xx"#) == "BadDeviceToken")
        #expect(reason(#" { "reason" : "Shutdown""#) == "Shutdown")
        #expect(reason(#"{"reason":"Bad"#) == nil)
        #expect(reason(#"{"reason":"Bad\"#) == nil)
        #expect(reason(#"{"padding":"x","reason":"BadDeviceToken"}"#) == nil)
        #expect(reason("") == nil)
    }
}

/// A task executor on one thread that runs the ready jobs newest first, as a busy pool may run
/// them in any order, and that a test can keep busy (`keepBusy(for:)`).
@available(macOS 15, *)
final class NewestFirstExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var spells = 0

    init() {
        // The thread holds the executor for good: a test's executor lives as long as the test run.
        let thread = Thread { self.run() }
        thread.start()
    }

    /// How many times the thread was kept busy.
    var busySpells: Int { condition.withLock { spells } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        push { job.runSynchronously(on: executor) }
    }

    /// Keeps the thread from every job for `seconds`, from now (or once the job it runs ends).
    func keepBusy(for seconds: Double) {
        condition.withLock { spells += 1 }
        push { Thread.sleep(forTimeInterval: seconds) }
    }

    private func push(_ work: @escaping () -> Void) {
        condition.withLock {
            jobs.append(work)
            condition.signal()
        }
    }

    private func run() {
        while true {
            let work: () -> Void = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeLast()
            }
            work()
        }
    }
}
