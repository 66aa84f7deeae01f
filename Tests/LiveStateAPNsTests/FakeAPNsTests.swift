import AsyncHTTPClient
import Crypto
import FakeAPNs
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// Checks the fake APNs itself with a neutral client (AsyncHTTPClient and hand-minted JWTs), so
/// that the client tests can trust it.
@Suite struct FakeAPNsTests {
    // MARK: - Device pushes

    @Test func validPushGetsStatus200WithIDs() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt())
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
            let apnsID = try #require(reply.header("apns-id"))
            #expect(isLowercaseUUID(apnsID))
            let uniqueID = try #require(reply.header("apns-unique-id"))
            #expect(isLowercaseUUID(uniqueID))

            let sentID = "123E4567-E89B-12D3-A456-426614174000"
            let echoed = try await pushUpdate(client, fake, jwt: signer.jwt(), extra: [("apns-id", sentID)])
            #expect(echoed.status == 200)
            #expect(echoed.header("apns-id") == sentID)

            let requests = fake.requests
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.isHTTP2 && $0.status == 200 && $0.reason == nil })
            #expect(requests[0].method == "POST")
            #expect(requests[0].path == "/3/device/\(fixtureDeviceToken)")
            #expect(requests[0].header("apns-topic") == fixtureTopic)
            #expect(requests[0].headers.allSatisfy { $0.name == $0.name.lowercased() && !$0.name.hasPrefix(":") })
            #expect(requests[0].body == Array(fixtureUpdatePayload.utf8))
            #expect(fake.tokensSeen == 1)
            // Both pushes went on one HTTP/2 connection. (Not `connectionCount == 1`: under load
            // the client once opened a second connection that carried no request.)
            #expect(requests[1].connection == requests[0].connection)
        }
    }

    @Test func productionAnswersWithoutUniqueID() async throws {
        let signer = Signer()
        try await withFake(signer: signer, configure: { $0.environment = .production }) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt())
            #expect(reply.status == 200)
            #expect(reply.header("apns-id") != nil)
            #expect(reply.header("apns-unique-id") == nil)
        }
    }

    @Test func wrongMethodAndUnknownPathsAreRefused() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let get = try await send(
                client,
                url: pushURL(fake, "/3/device/\(fixtureDeviceToken)"),
                method: .GET,
                headers: pushHeaders(jwt: signer.jwt()),
                body: nil
            )
            #expect(get.status == 405)
            #expect(get.reason == "MethodNotAllowed")

            let unknown = try await send(
                client,
                url: pushURL(fake, "/2/device/\(fixtureDeviceToken)"),
                headers: pushHeaders(jwt: signer.jwt()),
                body: Array(fixtureUpdatePayload.utf8)
            )
            #expect(unknown.status == 404)
            #expect(unknown.reason == "BadPath")
        }
    }

    @Test func duplicateHeaderIsRefused() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt(), extra: [("apns-priority", "5")])
            #expect(reply.status == 400)
            #expect(reply.reason == "DuplicateHeaders")
        }
    }

    // MARK: - Provider tokens

    @Test func missingOrMalformedAuthorizationIsMissingProviderToken() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            var headers = pushHeaders(jwt: signer.jwt())
            headers.removeAll { $0.name == "authorization" }
            let missing = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
            #expect(missing.status == 403)
            #expect(missing.reason == "MissingProviderToken")

            headers.append(("authorization", "Basic abc"))
            let basic = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
            #expect(basic.status == 403)
            #expect(basic.reason == "MissingProviderToken")
        }
    }

    @Test func badSignatureIsInvalidProviderToken() async throws {
        let signer = Signer()
        let impostor = Signer(privateKey: P256.Signing.PrivateKey())
        try await withFake(signer: signer) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: impostor.jwt())
            #expect(reply.status == 403)
            #expect(reply.reason == "InvalidProviderToken")
        }
    }

    @Test func stringIssuedAtIsInvalidProviderToken() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt(issuedAt: Date(), iatAsString: true))
            #expect(reply.status == 403)
            #expect(reply.reason == "InvalidProviderToken")
        }
    }

    @Test func unknownKeyOrWrongTeamIsInvalidProviderToken() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let unknownKey = Signer(privateKey: signer.privateKey, keyID: "ZZZZZZZZZZ")
            let reply = try await pushUpdate(client, fake, jwt: unknownKey.jwt())
            #expect(reply.status == 403)
            #expect(reply.reason == "InvalidProviderToken")

            let wrongTeam = Signer(privateKey: signer.privateKey, teamID: "OTHERTEAM1")
            let other = try await pushUpdate(client, fake, jwt: wrongTeam.jwt())
            #expect(other.status == 403)
            #expect(other.reason == "InvalidProviderToken")
        }
    }

    @Test func tokenOlderThanAnHourIsExpired() async throws {
        let signer = Signer()
        let clock = ManualClock()
        try await withFake(signer: signer, clock: clock) { fake, client in
            let jwt = signer.jwt(issuedAt: clock.now)
            clock.advance(by: 3599)
            #expect(try await pushUpdate(client, fake, jwt: jwt).status == 200)
            clock.advance(by: 2)
            let reply = try await pushUpdate(client, fake, jwt: jwt)
            #expect(reply.status == 403)
            #expect(reply.reason == "ExpiredProviderToken")
        }
    }

    @Test func keyRestrictedToOtherEnvironmentIsRefused() async throws {
        let signer = Signer()
        let key = signer.key(environments: [.production])
        try await withFake(keys: [key]) { fake, client in
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt())
            #expect(reply.status == 403)
            #expect(reply.reason == "BadEnvironmentKeyInToken")
        }
    }

    @Test func secondKeyOnOneConnectionIsUnrelated() async throws {
        let first = Signer()
        let second = Signer(privateKey: P256.Signing.PrivateKey(), keyID: "KEY7654321")
        try await withFake(keys: [first.key(), second.key()]) { fake, client in
            #expect(try await pushUpdate(client, fake, jwt: first.jwt()).status == 200)
            let reply = try await pushUpdate(client, fake, jwt: second.jwt())
            #expect(reply.status == 403)
            #expect(reply.reason == "UnrelatedKeyIdInToken")
            #expect(Set(fake.requests.map(\.connection)) == [0])

            // A new connection may use the other key.
            let otherClient = try makeClient(fake)
            let fresh = try await pushUpdate(otherClient, fake, jwt: second.jwt())
            try await otherClient.shutdown()
            #expect(fresh.status == 200)
            #expect(fake.requests.last?.connection == 1)
        }
    }

    @Test func newTokenWithinTwentyMinutesOnOneConnectionIsTooManyUpdates() async throws {
        let signer = Signer()
        let clock = ManualClock()
        try await withFake(signer: signer, clock: clock) { fake, client in
            let firstToken = signer.jwt(issuedAt: clock.now)
            #expect(try await pushUpdate(client, fake, jwt: firstToken).status == 200)

            clock.advance(by: 60)
            let secondToken = signer.jwt(issuedAt: clock.now)
            let refused = try await pushUpdate(client, fake, jwt: secondToken)
            #expect(refused.status == 429)
            #expect(refused.reason == "TooManyProviderTokenUpdates")
            // The connection keeps its first token.
            #expect(try await pushUpdate(client, fake, jwt: firstToken).status == 200)

            // Another connection accepts the new token.
            let otherClient = try makeClient(fake)
            let accepted = try await pushUpdate(otherClient, fake, jwt: secondToken)
            try await otherClient.shutdown()
            #expect(accepted.status == 200)

            // After 20 minutes the first connection accepts it too.
            clock.advance(by: 20 * 60)
            #expect(try await pushUpdate(client, fake, jwt: secondToken).status == 200)
            #expect(fake.tokensSeen == 2)
        }
    }

    // MARK: - Headers

    @Test func pushTypeMustBeLiveActivity() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            var headers = pushHeaders(jwt: signer.jwt())
            headers.removeAll { $0.name == "apns-push-type" }
            let missing = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
            #expect(missing.status == 400)
            #expect(missing.reason == "InvalidPushType")

            headers.append(("apns-push-type", "alert"))
            let alert = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
            #expect(alert.status == 400)
            #expect(alert.reason == "InvalidPushType")
        }
    }

    @Test func topicMustBeTheLiveActivityTopicOfATeamApp() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let cases: [(topic: String?, reason: String)] = [
                (nil, "MissingTopic"),
                (fixtureBundleID, "BadTopic"),
                (fixtureBundleID + ".push-type.alert", "BadTopic"),
                ("com.other.app.push-type.liveactivity", "TopicDisallowed"),
            ]
            for (topicValue, reason) in cases {
                var headers = pushHeaders(jwt: signer.jwt())
                headers.removeAll { $0.name == "apns-topic" }
                if let topicValue { headers.append(("apns-topic", topicValue)) }
                let reply = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
                #expect(reply.status == 400, "\(topicValue ?? "no topic")")
                #expect(reply.reason == reason, "\(topicValue ?? "no topic")")
            }
        }
    }

    @Test func optionalHeadersAreChecked() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let cases: [(name: String, value: String, reason: String)] = [
                ("apns-priority", "7", "BadPriority"),
                ("apns-id", "not-a-uuid", "BadMessageId"),
                ("apns-id", "123e4567e89b12d3a456426614174000", "BadMessageId"),
                ("apns-collapse-id", String(repeating: "c", count: 65), "BadCollapseId"),
                ("apns-expiration", "soon", "BadExpirationDate"),
                ("apns-expiration", "-1", "BadExpirationDate"),
            ]
            for (name, value, reason) in cases {
                var headers = pushHeaders(jwt: signer.jwt())
                headers.removeAll { $0.name == name }
                headers.append((name, value))
                let reply = try await send(client, url: deviceURL(fake), headers: headers, body: Array(fixtureUpdatePayload.utf8))
                #expect(reply.status == 400, "\(name): \(value)")
                #expect(reply.reason == reason, "\(name): \(value)")
            }
            let accepted = try await pushUpdate(
                client,
                fake,
                jwt: signer.jwt(),
                extra: [("apns-collapse-id", String(repeating: "c", count: 64)), ("apns-expiration", "0")]
            )
            #expect(accepted.status == 200)
        }
    }

    // MARK: - Device tokens

    @Test func deviceTokenRules() async throws {
        let signer = Signer()
        try await withFake(signer: signer, configure: { $0.bundleIDs.insert(fixtureOtherBundleID) }) { fake, client in
            let cases: [(token: String, status: Int, reason: String)] = [
                ("", 400, "MissingDeviceToken"),
                ("abc", 400, "BadDeviceToken"),
                ("zz" + String(fixtureDeviceToken.dropFirst(2)), 400, "BadDeviceToken"),
                (String(repeating: "0", count: 64), 400, "BadDeviceToken"),
            ]
            for (token, status, reason) in cases {
                let reply = try await pushUpdate(client, fake, jwt: signer.jwt(), token: token)
                #expect(reply.status == status, "\(token)")
                #expect(reply.reason == reason, "\(token)")
            }

            // Upper-case hex is the same token.
            #expect(try await pushUpdate(client, fake, jwt: signer.jwt(), token: fixtureDeviceToken.uppercased()).status == 200)

            let otherAppsToken = String(repeating: "cd", count: 32)
            fake.register(deviceToken: otherAppsToken, bundleID: fixtureOtherBundleID)
            let notForTopic = try await pushUpdate(client, fake, jwt: signer.jwt(), token: otherAppsToken)
            #expect(notForTopic.status == 400)
            #expect(notForTopic.reason == "DeviceTokenNotForTopic")
        }
    }

    @Test func endedTokensAnswer410WithTimestamp() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let unregisteredAt = Date(timeIntervalSince1970: 1_700_000_000.5)
            fake.unregister(deviceToken: fixtureDeviceToken, at: unregisteredAt)
            let gone = try await pushUpdate(client, fake, jwt: signer.jwt())
            #expect(gone.status == 410)
            #expect(gone.reason == "Unregistered")
            #expect((gone.json?["timestamp"] as? NSNumber)?.int64Value == 1_700_000_000_500)

            let expiredToken = String(repeating: "ef", count: 32)
            fake.register(deviceToken: expiredToken, bundleID: fixtureBundleID)
            fake.expire(deviceToken: expiredToken, at: Date(timeIntervalSince1970: 1_600_000_000))
            let expired = try await pushUpdate(client, fake, jwt: signer.jwt(), token: expiredToken)
            #expect(expired.status == 410)
            #expect(expired.reason == "ExpiredToken")
            #expect((expired.json?["timestamp"] as? NSNumber)?.int64Value == 1_600_000_000_000)

            // Other refusals carry no timestamp.
            let bad = try await pushUpdate(client, fake, jwt: signer.jwt(), token: "abc")
            #expect(bad.json?["timestamp"] == nil)
        }
    }

    // MARK: - Body and rate

    @Test func payloadSizeLimits() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let empty = try await send(client, url: deviceURL(fake), headers: pushHeaders(jwt: signer.jwt()), body: [])
            #expect(empty.status == 400)
            #expect(empty.reason == "PayloadEmpty")

            let tooLarge = try await send(
                client,
                url: deviceURL(fake),
                headers: pushHeaders(jwt: signer.jwt()),
                body: paddedPayload(size: 4097)
            )
            #expect(tooLarge.status == 413)
            #expect(tooLarge.reason == "PayloadTooLarge")

            let largest = try await send(
                client,
                url: deviceURL(fake),
                headers: pushHeaders(jwt: signer.jwt()),
                body: paddedPayload(size: 4096)
            )
            #expect(largest.status == 200)
        }
    }

    @Test func tokenRateLimitAnswersTooManyRequests() async throws {
        let signer = Signer()
        let clock = ManualClock()
        let limit: (inout FakeAPNs.Configuration) -> Void = { $0.tokenRateLimit = (count: 2, seconds: 10) }
        try await withFake(signer: signer, clock: clock, configure: limit) { fake, client in
            let jwt = signer.jwt(issuedAt: clock.now)
            #expect(try await pushUpdate(client, fake, jwt: jwt).status == 200)
            #expect(try await pushUpdate(client, fake, jwt: jwt).status == 200)
            let third = try await pushUpdate(client, fake, jwt: jwt)
            #expect(third.status == 429)
            #expect(third.reason == "TooManyRequests")
            clock.advance(by: 11)
            #expect(try await pushUpdate(client, fake, jwt: jwt).status == 200)
        }
    }

    @Test func answerNextReplacesProcessing() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            fake.answerNext(status: 503, reason: "ServiceUnavailable")
            let unavailable = try await pushUpdate(client, fake, jwt: signer.jwt())
            #expect(unavailable.status == 503)
            #expect(unavailable.reason == "ServiceUnavailable")
            #expect(try await pushUpdate(client, fake, jwt: signer.jwt()).status == 200)
            #expect(fake.requests.map(\.status) == [503, 200])
            #expect(fake.requests.first?.reason == "ServiceUnavailable")
        }
    }

    @Test func http1ClientIsRefused() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, _ in
            let client = try makeClient(fake, http1Only: true)
            let reply = try await pushUpdate(client, fake, jwt: signer.jwt())
            try await client.shutdown()
            #expect(reply.status == 505)
            #expect(fake.requests.count == 1)
            #expect(fake.requests.first?.isHTTP2 == false)
        }
    }

    // MARK: - Channels and broadcasts

    @Test func channelRoundTripOnManagePort() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let jwt = signer.jwt()
            let created = try await createChannel(client, fake, jwt: jwt, policy: 1)
            #expect(created.status == 201)
            let channelID = try #require(created.header("apns-channel-id"))
            #expect(Data(base64Encoded: channelID) != nil)
            #expect(created.header("apns-request-id") != nil)
            #expect(fake.channelIDs(bundleID: fixtureBundleID) == [channelID])

            let read = try await send(
                client,
                url: manageURL(fake, "channels"),
                method: .GET,
                headers: [("authorization", "bearer \(jwt)"), ("apns-channel-id", channelID)],
                body: nil
            )
            #expect(read.status == 200)
            #expect((read.json?["message-storage-policy"] as? NSNumber)?.intValue == 1)
            #expect(read.json?["push-type"] as? String == "LiveActivity")

            let list = try await send(
                client,
                url: manageURL(fake, "all-channels"),
                method: .GET,
                headers: [("authorization", "bearer \(jwt)")],
                body: nil
            )
            #expect(list.status == 200)
            #expect(list.json?["channels"] as? [String] == [channelID])

            let deleted = try await send(
                client,
                url: manageURL(fake, "channels"),
                method: .DELETE,
                headers: [("authorization", "bearer \(jwt)"), ("apns-channel-id", channelID)],
                body: nil
            )
            #expect(deleted.status == 204)
            #expect(fake.channelIDs(bundleID: fixtureBundleID).isEmpty)

            let gone = try await send(
                client,
                url: manageURL(fake, "channels"),
                method: .GET,
                headers: [("authorization", "bearer \(jwt)"), ("apns-channel-id", channelID)],
                body: nil
            )
            #expect(gone.status == 400)
            #expect(gone.reason == "ChannelNotRegistered")
        }
    }

    @Test func channelManagementRefusals() async throws {
        let signer = Signer()
        try await withFake(signer: signer, configure: { $0.channelLimit = 1 }) { fake, client in
            let jwt = signer.jwt()
            let auth = ("authorization", "bearer \(jwt)")
            let missingID = try await send(client, url: manageURL(fake, "channels"), method: .GET, headers: [auth], body: nil)
            #expect(missingID.reason == "MissingChannelId")
            let badID = try await send(
                client,
                url: manageURL(fake, "channels"),
                method: .GET,
                headers: [auth, ("apns-channel-id", "not base64!")],
                body: nil
            )
            #expect(badID.reason == "BadChannelId")
            let badBody = try await send(
                client,
                url: manageURL(fake, "channels"),
                headers: [auth],
                body: Array(#"{"message-storage-policy": 2, "push-type": "LiveActivity"}"#.utf8)
            )
            #expect(badBody.reason == "BadRequestPayload")
            #expect(try await createChannel(client, fake, jwt: jwt, policy: 0).status == 201)
            let overLimit = try await createChannel(client, fake, jwt: jwt, policy: 0)
            #expect(overLimit.status == 400)
            #expect(overLimit.reason == "CannotCreateChannelConfig")
            let otherApp = try await send(
                client,
                url: "https://localhost:\(fake.managePort)/1/apps/com.other.app/all-channels",
                method: .GET,
                headers: [auth],
                body: nil
            )
            #expect(otherApp.status == 403)
            #expect(otherApp.reason == "TopicMismatch")
            let put = try await send(client, url: manageURL(fake, "channels"), method: .PUT, headers: [auth], body: nil)
            #expect(put.status == 405)
            let noToken = try await send(client, url: manageURL(fake, "all-channels"), method: .GET, headers: [], body: nil)
            #expect(noToken.status == 403)
            #expect(noToken.reason == "MissingProviderToken")
        }
    }

    @Test func broadcastCapabilityOffIsFeatureNotEnabled() async throws {
        let signer = Signer()
        try await withFake(signer: signer, configure: { $0.broadcastEnabled = false }) { fake, client in
            let reply = try await createChannel(client, fake, jwt: signer.jwt(), policy: 1)
            #expect(reply.status == 400)
            #expect(reply.reason == "FeatureNotEnabled")
        }
    }

    @Test func managePathOnPushPortIsBadPath() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let reply = try await send(
                client,
                url: pushURL(fake, "/1/apps/\(fixtureBundleID)/all-channels"),
                method: .GET,
                headers: [("authorization", "bearer \(signer.jwt())")],
                body: nil
            )
            #expect(reply.status == 404)
            #expect(reply.reason == "BadPath")
        }
    }

    @Test func broadcastIsAccepted() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let jwt = signer.jwt()
            let channelID = try #require(try await createChannel(client, fake, jwt: jwt, policy: 1).header("apns-channel-id"))
            let requestID = "0f0e0d0c-0b0a-0908-0706-050403020100"
            let reply = try await broadcast(
                client,
                fake,
                headers: broadcastHeaders(jwt: jwt, channelID: channelID) + [("apns-request-id", requestID)]
            )
            #expect(reply.status == 200)
            #expect(reply.header("apns-request-id") == requestID)
            #expect(reply.header("apns-unique-id") != nil)

            let fresh = try await broadcast(client, fake, headers: broadcastHeaders(jwt: jwt, channelID: channelID))
            #expect(fresh.status == 200)
            #expect(fresh.header("apns-request-id").map(isLowercaseUUID) == true)
        }
    }

    @Test func broadcastRefusals() async throws {
        let signer = Signer()
        try await withFake(signer: signer) { fake, client in
            let jwt = signer.jwt()
            let stored = try #require(try await createChannel(client, fake, jwt: jwt, policy: 1).header("apns-channel-id"))
            let unstored = try #require(try await createChannel(client, fake, jwt: jwt, policy: 0).header("apns-channel-id"))

            var noChannel = broadcastHeaders(jwt: jwt, channelID: stored)
            noChannel.removeAll { $0.name == "apns-channel-id" }
            let missingChannel = try await broadcast(client, fake, headers: noChannel)
            #expect(missingChannel.status == 400)
            #expect(missingChannel.reason == "MissingChannelId")

            var noExpiration = broadcastHeaders(jwt: jwt, channelID: stored)
            noExpiration.removeAll { $0.name == "apns-expiration" }
            let missingExpiration = try await broadcast(client, fake, headers: noExpiration)
            #expect(missingExpiration.status == 400)
            #expect(missingExpiration.reason == "BadExpirationDate")

            var storing = broadcastHeaders(jwt: jwt, channelID: unstored)
            storing.removeAll { $0.name == "apns-expiration" }
            storing.append(("apns-expiration", "1700000000"))
            let policyZero = try await broadcast(client, fake, headers: storing)
            #expect(policyZero.status == 400)
            #expect(policyZero.reason == "BadExpirationDate")
            #expect(try await broadcast(client, fake, headers: broadcastHeaders(jwt: jwt, channelID: unstored)).status == 200)

            let start = try await broadcast(
                client,
                fake,
                headers: broadcastHeaders(jwt: jwt, channelID: stored),
                body: #"{"aps":{"timestamp":1700000000,"event":"start","content-state":{}}}"#
            )
            #expect(start.status == 400)
            #expect(start.reason == "BadRequestPayload")

            let unknownChannel = try await broadcast(
                client,
                fake,
                headers: broadcastHeaders(jwt: jwt, channelID: Data(repeating: 7, count: 16).base64EncodedString())
            )
            #expect(unknownChannel.reason == "ChannelNotRegistered")

            var lowPriority = broadcastHeaders(jwt: jwt, channelID: stored)
            lowPriority.removeAll { $0.name == "apns-priority" }
            #expect(try await broadcast(client, fake, headers: lowPriority + [("apns-priority", "1")]).status == 200)
            let badPriority = try await broadcast(client, fake, headers: lowPriority + [("apns-priority", "7")])
            #expect(badPriority.reason == "BadPriority")

            let tooLarge = try await broadcast(
                client,
                fake,
                headers: broadcastHeaders(jwt: jwt, channelID: stored),
                body: String(decoding: paddedPayload(size: 5121), as: UTF8.self)
            )
            #expect(tooLarge.status == 413)
        }
    }
}

// MARK: - Fixtures

private let fixtureTeamID = "TEAM123456"
private let fixtureKeyID = "KEY1234567"
private let fixtureBundleID = "com.example.pizza"
private let fixtureOtherBundleID = "com.example.tacos"
private let fixtureTopic = fixtureBundleID + ".push-type.liveactivity"
private let fixtureDeviceToken = String(repeating: "ab", count: 32)
private let fixtureUpdatePayload = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"eta":5}}}"#

extension FakeAPNsTests {
    /// A clock the tests move by hand.
    fileprivate final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date()

        var now: Date {
            lock.lock()
            defer { lock.unlock() }
            return date
        }

        func advance(by seconds: TimeInterval) {
            lock.lock()
            date += seconds
            lock.unlock()
        }
    }

    /// A provider key and the ES256 JWTs it signs, minted by hand.
    ///
    /// ES256 signatures are randomized, so every minting gives a new JWT string; ``token`` is the
    /// one minted at creation, which a test reuses as a well-behaved client would.
    fileprivate struct Signer {
        let privateKey: P256.Signing.PrivateKey
        let keyID: String
        let teamID: String
        /// The token minted when the signer was made, issued now.
        let token: String

        init(
            privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
            keyID: String = fixtureKeyID,
            teamID: String = fixtureTeamID
        ) {
            self.privateKey = privateKey
            self.keyID = keyID
            self.teamID = teamID
            self.token = Self.mint(privateKey: privateKey, keyID: keyID, teamID: teamID, issuedAt: Date(), iatAsString: false)
        }

        func key(environments: Set<FakeAPNs.Environment> = [.sandbox, .production]) -> FakeAPNs.Key {
            FakeAPNs.Key(keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey, environments: environments)
        }

        /// The signer's standing token.
        func jwt() -> String { token }

        /// A newly minted token.
        func jwt(issuedAt: Date, iatAsString: Bool = false) -> String {
            Self.mint(privateKey: privateKey, keyID: keyID, teamID: teamID, issuedAt: issuedAt, iatAsString: iatAsString)
        }

        private static func mint(
            privateKey: P256.Signing.PrivateKey,
            keyID: String,
            teamID: String,
            issuedAt: Date,
            iatAsString: Bool
        ) -> String {
            let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
            let seconds = Int(issuedAt.timeIntervalSince1970)
            let iat = iatAsString ? "\"\(seconds)\"" : String(seconds)
            let claims = #"{"iss":"\#(teamID)","iat":\#(iat)}"#
            let signingInput = FakeAPNsTests.base64URL(Data(header.utf8)) + "." + FakeAPNsTests.base64URL(Data(claims.utf8))
            // Signing with a freshly made P-256 key cannot fail.
            let signature = try! privateKey.signature(for: Data(signingInput.utf8))
            return signingInput + "." + FakeAPNsTests.base64URL(signature.rawRepresentation)
        }
    }

    fileprivate static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    fileprivate func isLowercaseUUID(_ text: String) -> Bool {
        text.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", options: .regularExpression) != nil
    }

    /// A device-push body of exactly `size` bytes.
    fileprivate func paddedPayload(size: Int) -> [UInt8] {
        let prefix = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"pad":""#
        let suffix = #""}}}"#
        let padding = String(repeating: "x", count: size - prefix.utf8.count - suffix.utf8.count)
        return Array((prefix + padding + suffix).utf8)
    }

    // MARK: - Harness

    /// Starts a fake and a client, runs `body`, and shuts both down.
    fileprivate func withFake(
        signer: Signer? = nil,
        keys: [FakeAPNs.Key]? = nil,
        clock: ManualClock? = nil,
        configure: (inout FakeAPNs.Configuration) -> Void = { _ in },
        _ body: (FakeAPNs, HTTPClient) async throws -> Void
    ) async throws {
        let now: @Sendable () -> Date
        if let clock {
            now = { clock.now }
        } else {
            now = { Date() }
        }
        var configuration = FakeAPNs.Configuration(
            bundleIDs: [fixtureBundleID],
            keys: keys ?? [signer?.key()].compactMap { $0 },
            now: now
        )
        configure(&configuration)
        let fake = try await FakeAPNs.start(configuration)
        fake.register(deviceToken: fixtureDeviceToken, bundleID: fixtureBundleID)
        let client: HTTPClient
        do {
            client = try makeClient(fake)
        } catch {
            try await fake.shutdown()
            throw error
        }
        do {
            try await body(fake, client)
        } catch {
            try? await client.shutdown()
            try? await fake.shutdown()
            throw error
        }
        try await client.shutdown()
        try await fake.shutdown()
    }

    fileprivate func makeClient(_ fake: FakeAPNs, http1Only: Bool = false) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(fake.certificatePEM.utf8), format: .pem)])
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = http1Only ? .http1Only : .automatic
        // The tests count connections: on a loaded machine a minute may pass between two
        // requests, which the pool's default idle timeout would end the connection over.
        configuration.connectionPool = .init(idleTimeout: .minutes(10))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    fileprivate struct Reply {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }?.value
        }

        var json: [String: Any]? {
            guard !body.isEmpty else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        }

        var reason: String? { json?["reason"] as? String }
    }

    fileprivate func pushURL(_ fake: FakeAPNs, _ path: String) -> String {
        "https://localhost:\(fake.pushPort)\(path)"
    }

    fileprivate func deviceURL(_ fake: FakeAPNs, token: String = fixtureDeviceToken) -> String {
        pushURL(fake, "/3/device/\(token)")
    }

    fileprivate func manageURL(_ fake: FakeAPNs, _ last: String) -> String {
        "https://localhost:\(fake.managePort)/1/apps/\(fixtureBundleID)/\(last)"
    }

    fileprivate func pushHeaders(jwt: String) -> [(name: String, value: String)] {
        [
            ("authorization", "bearer \(jwt)"),
            ("apns-push-type", "liveactivity"),
            ("apns-topic", fixtureTopic),
            ("apns-priority", "10"),
        ]
    }

    fileprivate func broadcastHeaders(jwt: String, channelID: String) -> [(name: String, value: String)] {
        [
            ("authorization", "bearer \(jwt)"),
            ("apns-push-type", "LiveActivity"),
            ("apns-channel-id", channelID),
            ("apns-expiration", "0"),
            ("apns-priority", "10"),
        ]
    }

    fileprivate func send(
        _ client: HTTPClient,
        url: String,
        method: HTTPMethod = .POST,
        headers: [(name: String, value: String)],
        body: [UInt8]?
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for header in headers {
            request.headers.add(name: header.name, value: header.value)
        }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(10))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return Reply(
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: Array(buffer.readableBytesView)
        )
    }

    fileprivate func pushUpdate(
        _ client: HTTPClient,
        _ fake: FakeAPNs,
        jwt: String,
        token: String = fixtureDeviceToken,
        extra: [(name: String, value: String)] = []
    ) async throws -> Reply {
        try await send(
            client,
            url: deviceURL(fake, token: token),
            headers: pushHeaders(jwt: jwt) + extra,
            body: Array(fixtureUpdatePayload.utf8)
        )
    }

    fileprivate func createChannel(_ client: HTTPClient, _ fake: FakeAPNs, jwt: String, policy: Int) async throws -> Reply {
        try await send(
            client,
            url: manageURL(fake, "channels"),
            headers: [("authorization", "bearer \(jwt)")],
            body: Array(#"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"#.utf8)
        )
    }

    fileprivate func broadcast(
        _ client: HTTPClient,
        _ fake: FakeAPNs,
        headers: [(name: String, value: String)],
        body: String = fixtureUpdatePayload
    ) async throws -> Reply {
        try await send(
            client,
            url: pushURL(fake, "/4/broadcasts/apps/\(fixtureBundleID)"),
            headers: headers,
            body: Array(body.utf8)
        )
    }
}
