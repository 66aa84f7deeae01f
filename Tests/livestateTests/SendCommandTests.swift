import Crypto
import FakeAPNs
import Foundation
import Glibc
import LiveStateTestSupport
import Testing

/// `livestate send` and `livestate channels` as processes, against a loopback fake APNs.
@Suite(.serialized) struct SendCommandTests {
    // MARK: - Delivered pushes

    @Test func updateIsSentWithTheLiveActivityTopicAndAFreshTimestamp() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state])
            let now = Date().timeIntervalSince1970
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("status 200"), "\(result.stdout)")
            #expect(result.stdout.contains("apns-id "))
            #expect(result.stdout.contains("apns-unique-id "))
            let requests = setup.fake.requests
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/3/device/\(Setup.deviceToken)")
            #expect(request.status == 200)
            #expect(request.header("apns-topic") == "com.example.delivery.push-type.liveactivity")
            #expect(request.header("apns-push-type") == "liveactivity")
            let aps = try Setup.aps(of: request)
            #expect(aps["event"] as? String == "update")
            let timestamp = try #require((aps["timestamp"] as? NSNumber)?.doubleValue)
            #expect(abs(timestamp - now) < 10, "timestamp \(timestamp), now \(now)")
            let content = try #require(aps["content-state"] as? [String: Any])
            #expect(content["title"] as? String == "On its way")
            #expect(content["progress"] as? Double == 0.5)
        }
    }

    @Test func aStateFromStandardInputIsSent() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "-"], stdin: Data(Setup.state.utf8))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(setup.fake.requests.map(\.status) == [200])
        }
    }

    @Test func aWholeBodyIsSentAsWrittenWithItsWarnings() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let path = try setup.exampleStampedNow("v3-update.json")
            // Version 2 only: the warnings of an older targeted version are not printed, only its errors.
            let result = try setup.send(["--version", "2", "--token", Setup.deviceToken, path])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("warning: app version 2: unknown key 'delayMinutes' is ignored by app version 2"), "\(result.stderr)")
            let request = try #require(setup.fake.requests.first)
            #expect(request.body == Array(try Data(contentsOf: URL(fileURLWithPath: path))), "sent byte for byte")
        }
    }

    /// A whole body stamped far past this machine's clock is sent as written (APNs takes it),
    /// with a warning at the value: the device would ignore every update after it; one stamped now
    /// says nothing.
    @Test func aWholeBodyStampedFarAheadIsWarnedAbout() async throws {
        try await Setup.with { setup in
            let now = Int(Date().timeIntervalSince1970)
            func body(_ timestamp: Int) -> String {
                #"{"aps":{"timestamp":"# + String(timestamp) + #","event":"update","content-state":"# + Setup.state + "}}"
            }
            let ahead = try setup.write("ahead.json", body(now + 30 * 86_400 + 3600))
            let result = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", ahead])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("ahead.json:1:21: warning: timestamp \(now + 30 * 86_400 + 3600) is 30 days after this machine's clock"),
                    "\(result.stderr)")
            #expect(result.stderr.contains("(at /aps/timestamp) [timestamp-in-future]"), "\(result.stderr)")
            let current = try setup.write("current.json", body(now))
            let fine = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", current])
            #expect(fine.status == 0, "\(fine.stderr)")
            #expect(!fine.stderr.contains("timestamp-in-future"), "\(fine.stderr)")
        }
    }

    /// A whole update stamped more than 8 hours before this machine's clock (a constant copied
    /// from a sample, as in Apple forum thread 776165) is refused: an activity takes updates for
    /// at most 8 hours, so the device ignores it. One 7 hours old is sent, and so is an end
    /// stamped long before (an end with an old timestamp was reported to end the activity).
    @Test func aWholeUpdateStampedHoursBeforeTheClockIsRefused() async throws {
        try await Setup.with { setup in
            let now = Int(Date().timeIntervalSince1970)
            func body(_ timestamp: Int, event: String = "update") -> String {
                #"{"aps":{"timestamp":"# + String(timestamp) + #","event":""# + event + #"","content-state":"# + Setup.state + "}}"
            }
            let stale = try setup.write("stale.json", body(1_685_952_000))
            let refused = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", stale])
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stdout == "refused before sending: 1 error(s)\n", "\(refused.stdout)")
            #expect(refused.stderr.contains("stale.json:1:21: error: timestamp 1685952000 is "), "\(refused.stderr)")
            #expect(refused.stderr.contains("an activity takes updates for at most 8 hours, and the device ignores an update older than "
                + "the content it shows, so it ignores this one (unless a push-to-start stamped earlier still started the activity)"),
                    "\(refused.stderr)")
            #expect(refused.stderr.contains("(at /aps/timestamp) [timestamp-in-past]"), "\(refused.stderr)")
            let recent = try setup.write("recent.json", body(now - 7 * 3600))
            let sent = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", recent])
            #expect(sent.status == 0 && !sent.stderr.contains("timestamp-in-past"), "\(sent.stderr)")
            let end = try setup.write("end.json", body(1_685_952_000, event: "end"))
            let ended = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", end])
            #expect(ended.status == 0 && !ended.stderr.contains("timestamp-in-past"), "\(ended.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// A whole body cut short is refused as a body, its syntax error in the envelope as lint
    /// puts it: it was read as a state, the error's scope `content-state` at `/aps/event` (the
    /// ugly-input audit's L6).
    @Test func aBodyThatIsNotJSONIsRefusedAsABody() async throws {
        try await Setup.with { setup in
            let cut = try setup.write("cut.json", #"{"aps":{"timestamp":1795000600,"event":"upd"#)
            let result = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", "--format", "json", cut])
            #expect(result.status == 1, "\(result.stderr)")
            let diagnostics = try #require(try CLI.json(result.stdout)["diagnostics"] as? [[String: Any]], "\(result.stdout)")
            let syntax = try #require(diagnostics.first { $0["code"] as? String == "json-syntax" }, "\(diagnostics)")
            #expect(syntax["scope"] as? String == "envelope" && syntax["pointer"] as? String == "/aps/event", "\(syntax)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func startCarriesTheAttributesTypeTheAttributesAndTheAlert() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", Setup.attributes)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "start",
                                         "--alert-title", "T", "--alert-body", "B", "--attributes", attributes, state])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("status 200"))
            let request = try #require(setup.fake.requests.first)
            #expect(request.status == 200)
            let aps = try Setup.aps(of: request)
            #expect(aps["event"] as? String == "start")
            #expect(aps["attributes-type"] as? String == "DeliveryAttributes")
            let sent = try #require(aps["attributes"] as? [String: Any])
            #expect(sent["totalAmount"] as? String == "$12.50")
            #expect(sent["orderId"] as? String == "A-1001")
            let alert = try #require(aps["alert"] as? [String: Any])
            #expect(alert["title"] as? String == "T")
            #expect(alert["body"] as? String == "B")
        }
    }

    /// A start whose stream APNs refused (`REFUSED_STREAM`) was not processed, so it is sent
    /// again: it was reported `start-unconfirmed`, with NIO's debug text cut mid-word.
    @Test func aStartWhoseStreamWasRefusedIsSentAgain() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            setup.fake.refuseNextStreams(1)
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", Setup.attributes)
            let result = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--event", "start",
                                         "--alert-title", "T", "--alert-body", "B", "--attributes", attributes, state])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.hasPrefix("status 200, "), "\(result.stdout)")
            #expect(result.stdout.contains(", sandbox, 2 attempts"), "\(result.stdout)")
            #expect(!result.stderr.contains("start-unconfirmed"), "\(result.stderr)")
            #expect(setup.fake.refusedStreams == 1)
            #expect(setup.fake.requests.map(\.status) == [200])
            // Refused every time: reported in words.
            setup.fake.refuseNextStreams(3)
            let refused = try setup.send(["--version", "3", "--token", Setup.deviceToken, state])
            #expect(refused.status == 1)
            #expect(refused.stdout.hasPrefix("no answer from localhost:\(setup.fake.pushPort): APNs refused the stream before "
                                             + "processing it (REFUSED_STREAM), sandbox, 3 attempts\n"), "\(refused.stdout)")
        }
    }

    @Test func startWithoutAnAlertIsRefusedAndNothingIsSent() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", Setup.attributes)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "start",
                                         "--attributes", attributes, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("refused before sending"), "\(result.stdout)")
            #expect(result.stderr.contains("a start needs aps.alert with title and body"), "\(result.stderr)")
            #expect(result.stderr.contains("[missing-aps-key]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// A finding about the static attributes is placed in the --attributes file, or names the
    /// option when none was given, never in the state file, which does not hold them.
    @Test func findingsAboutTheAttributesArePlacedInTheAttributesFile() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", #"{"totalAmount":"$12.50"}"#)
            let start = ["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "start",
                         "--alert-title", "T", "--alert-body", "B", "--dry-run"]
            let partial = try setup.send(start + ["--attributes", attributes, state])
            #expect(partial.status == 1)
            #expect(partial.stderr.contains("\(attributes):1:1: error: app version 3: required key 'orderId' is missing; the activity does not start (at /orderId in attributes) [missing-required-key]"),
                    "\(partial.stderr)")
            #expect(!partial.stderr.contains("\(state): error"), "\(partial.stderr)")
            let none = try setup.send(start + [state])
            #expect(none.status == 1)
            #expect(none.stderr.contains("--attributes: error: app version 3: required key 'totalAmount' is missing"), "\(none.stderr)")
            #expect(!none.stderr.contains("\(state): error"), "\(none.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func endWithADismissalDateIsDelivered() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let dismissal = Int(Date().timeIntervalSince1970) + 3600
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "end",
                                         "--dismissal-date", String(dismissal), state])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("status 200"))
            let request = try #require(setup.fake.requests.first)
            let aps = try Setup.aps(of: request)
            #expect(aps["event"] as? String == "end")
            #expect((aps["dismissal-date"] as? NSNumber)?.intValue == dismissal)
        }
    }

    @Test func productionAnswersCarryNoUniqueID() async throws {
        try await Setup.with(.production) { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("status 200"))
            #expect(result.stdout.contains("production"))
            #expect(!result.stdout.contains("apns-unique-id"), "only the sandbox answers apns-unique-id")
        }
    }

    // MARK: - Broadcast

    @Test func broadcastGoesToTheAppsBroadcastPathWithTheChannelHeaderAndNoTopic() async throws {
        try await Setup.with { setup in
            let created = try setup.channels(["create", "--storage-policy", "none"])
            #expect(created.status == 0, "\(created.stderr)")
            let channel = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(setup.fake.channelIDs(bundleID: Setup.bundleID) == [channel])
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--broadcast", "--channel-id", channel,
                                         "--expiration", "0", "--priority", "1", state])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("status 200"), "\(result.stdout)")
            let requests = setup.fake.requests
            #expect(requests.count == 2, "the channel creation, then the broadcast")
            let broadcast = try #require(requests.last)
            #expect(broadcast.method == "POST")
            #expect(broadcast.path == "/4/broadcasts/apps/com.example.delivery")
            #expect(broadcast.status == 200)
            #expect(broadcast.header("apns-topic") == nil)
            #expect(broadcast.header("apns-channel-id") == channel)
            #expect(broadcast.header("apns-push-type") == "liveactivity")
            #expect(broadcast.header("apns-expiration") == "0")
            #expect(broadcast.header("apns-priority") == "1")
            #expect(try Setup.aps(of: broadcast)["event"] as? String == "update")
            #expect(result.stderr.contains("<request>: warning: apns-priority 1 is in Apple's broadcast document"), "\(result.stderr)")
            #expect(result.stderr.contains("[broadcast-priority-one]"), "\(result.stderr)")
        }
    }

    /// A broadcast at priority 1 prints a warning on a dry run and is not refused for it, unless
    /// `--fail-on warning` asks for that; at 5 there is nothing to say.
    @Test func aBroadcastAtPriorityOneIsWarnedAbout() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let broadcast = ["--version", "2", "--version", "3", "--broadcast", "--channel-id", Setup.someChannel, "--expiration", "0", "--dry-run"]
            let one = try setup.send(broadcast + ["--priority", "1", state])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stdout.contains("apns-priority: 1"), "\(one.stdout)")
            #expect(one.stderr.contains("warning: apns-priority 1 is in Apple's broadcast document, but its ActivityKit push article names only 5 and 10"),
                    "\(one.stderr)")
            #expect(one.stderr.contains("[broadcast-priority-one]"))
            let strict = try setup.send(broadcast + ["--priority", "1", "--fail-on", "warning", state])
            #expect(strict.status == 1)
            #expect(strict.stdout == "refused before sending: 1 warning(s)\n", "\(strict.stdout)")
            let five = try setup.send(broadcast + ["--priority", "5", state])
            #expect(five.status == 0)
            #expect(!five.stderr.contains("broadcast-priority-one"), "\(five.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// A broadcast with a later expiration to a channel that stores nothing (the default of
    /// `channels create`) is answered `BadExpirationDate`: the advice was the generic "the
    /// request is wrong"; it names the storage policy and `--expiration 0`.
    @Test func aBroadcastsBadExpirationDateNamesTheChannelsStoragePolicy() async throws {
        try await Setup.with { setup in
            let created = try setup.channels(["create"])
            let channel = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let state = try setup.write("state.json", Setup.state)
            let later = String(Int(Date().timeIntervalSince1970) + 3600)
            let result = try setup.send(["--version", "3", "--broadcast", "--channel-id", channel, "--expiration", later,
                                         "--priority", "5", state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("reason BadExpirationDate"), "\(result.stdout)")
            #expect(result.stdout.contains("\nfix-request: a channel created with storage policy none (message-storage-policy 0, "
                                           + "the default of `livestate channels create`) accepts only apns-expiration 0 (--expiration 0)"),
                    "\(result.stdout)")
        }
    }

    @Test func broadcastStartIsRefusedAndNothingIsSent() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", Setup.attributes)
            let result = try setup.send(["--version", "2", "--version", "3", "--broadcast", "--channel-id", Setup.someChannel,
                                         "--expiration", "0", "--event", "start", "--alert-title", "T", "--alert-body", "B",
                                         "--attributes", attributes, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("refused before sending"))
            #expect(result.stderr.contains("a broadcast push can update and end a Live Activity, never start one"), "\(result.stderr)")
            #expect(result.stderr.contains("[broadcast-start]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func broadcastWithoutExpirationIsRefusedAndNothingIsSent() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--broadcast", "--channel-id", Setup.someChannel, state])
            #expect(result.status == 1)
            // And apns-priority, which Apple's broadcast document requires as well.
            #expect(result.stdout.contains("refused before sending: 2 error(s)"), "\(result.stdout)")
            #expect(result.stderr.contains("<request>: error: a broadcast needs apns-expiration"), "\(result.stderr)")
            #expect(result.stderr.contains("[missing-expiration]"))
            #expect(result.stderr.contains("<request>: error: a broadcast needs apns-priority: 10 (immediate; counts against the budget), 5 or 1 [bad-priority]"), "\(result.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    // MARK: - Channels

    @Test func channelsAreCreatedListedReadAndDeleted() async throws {
        try await Setup.with { setup in
            let none = try setup.channels(["create", "--storage-policy", "none"])
            let latest = try setup.channels(["create", "--storage-policy", "latest"])
            #expect(none.status == 0 && latest.status == 0, "\(none.stderr)\(latest.stderr)")
            let noneID = none.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let latestID = latest.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(none.stdout == noneID + "\n", "the id alone")
            #expect(setup.fake.channelIDs(bundleID: Setup.bundleID) == [noneID, latestID])

            let list = try setup.channels(["list"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout == "\(noneID)\n\(latestID)\n")

            let read = try setup.channels(["read", latestID])
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.stdout.contains("storage-policy: latest"), "\(read.stdout)")
            #expect(read.stdout.contains("push-type: LiveActivity"))
            let readNone = try setup.channels(["read", noneID])
            #expect(readNone.stdout.contains("storage-policy: none"), "\(readNone.stdout)")

            let delete = try setup.channels(["delete", noneID])
            #expect(delete.status == 0, "\(delete.stderr)")
            #expect(delete.stdout == "deleted \(noneID)\n")
            #expect(setup.fake.channelIDs(bundleID: Setup.bundleID) == [latestID])

            let after = try setup.channels(["list"])
            #expect(after.status == 0)
            #expect(after.stdout == "\(latestID)\n")

            let requests = setup.fake.requests
            #expect(requests.map(\.method) == ["POST", "POST", "GET", "GET", "GET", "DELETE", "GET"])
            #expect(requests.allSatisfy { $0.status < 300 }, "\(requests.map(\.status))")
            // Read and delete name the channel in a header, never in the path.
            #expect(requests[3].path == "/1/apps/com.example.delivery/channels")
            #expect(requests[3].header("apns-channel-id") == latestID)
        }
    }

    @Test func readingADeletedChannelSaysChannelNotRegistered() async throws {
        try await Setup.with { setup in
            let id = try setup.channels(["create"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try setup.channels(["delete", id]).status == 0)
            let read = try setup.channels(["read", id])
            #expect(read.status == 1)
            #expect(read.stderr.contains("ChannelNotRegistered"), "\(read.stderr)")
            #expect(read.stderr.contains("stop-using-channel"))
            #expect(setup.fake.requests.last?.status == 400)
        }
    }

    @Test func readingAMalformedChannelIDIsRefusedBeforeSending() async throws {
        try await Setup.with { setup in
            let read = try setup.channels(["read", "not-base64!"])
            #expect(read.status == 1)
            #expect(read.stderr.contains("[bad-channel-id]"), "\(read.stderr)")
            let dryRun = try setup.channels(["delete", "not-base64!", "--dry-run"])
            #expect(dryRun.status == 1, "a dry run refuses what a real request would")
            #expect(dryRun.stdout.isEmpty)
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func channelsListDryRunPrintsTheRequestAndSendsNothing() async throws {
        try await Setup.with { setup in
            let result = try setup.channels(["list", "--dry-run"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == ":method: GET")
            #expect(lines.contains(":path: /1/apps/com.example.delivery/all-channels"))
            #expect(lines.contains(":authority: localhost:\(setup.fake.managePort)"))
            #expect(lines.contains { $0.hasPrefix("authorization: bearer ") && $0.hasSuffix(".SIGNATURE-WITHHELD") }, "\(result.stdout)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    // MARK: - Refusals

    /// One push the checks refuse: the flags, the state file's text, and the code on stderr.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var code: String
        var arguments: [String]
        var state: String = Setup.state
        var message: String
        var testDescription: String { code }
    }

    static let refusals: [Refusal] = [
        Refusal(code: "bad-device-token", arguments: ["--token", "abc"],
                message: "<request>: error: the device token has an odd number of hex digits (3): a digit is missing"),
        Refusal(code: "bad-device-token", arguments: ["--token", "<5e5e5e5e 5e5e5e5e>"],
                message: "<request>: error: the device token must be hex digits only; '<5e5e5e5e 5e5e5e5e>' has spaces or angle brackets, which come from printing Data's description: remove them"),
        Refusal(code: "bad-priority", arguments: ["--token", Setup.deviceToken, "--priority", "7"],
                message: "<request>: error: apns-priority must be 5 or 10, not 7"),
        Refusal(code: "bad-expiration", arguments: ["--token", Setup.deviceToken, "--expiration", "1800000000000"],
                message: "<request>: error: apns-expiration 1800000000000 is in milliseconds; APNs takes UNIX seconds"),
        Refusal(code: "bad-apns-id", arguments: ["--token", Setup.deviceToken, "--apns-id", "123E4567-E89B-12D3-A456-426614174000"],
                message: "<request>: error: apns-id must be a lower-case UUID"),
        Refusal(code: "bad-collapse-id", arguments: ["--token", Setup.deviceToken, "--collapse-id", String(repeating: "c", count: 65)],
                message: "<request>: error: apns-collapse-id is 65 bytes; APNs takes at most 64"),
        Refusal(code: "bad-collapse-id", arguments: ["--token", Setup.deviceToken, "--collapse-id", "a\r\nx-evil: 1"],
                // The text line writes the value's control characters escaped, once (the message
                // quoted it escaped, and the line doubled the escapes' backslashes).
                message: #"<request>: error: apns-collapse-id holds CR (byte 2 is 0x0D): a header value may not hold control characters, and a CR or LF would end the header and start another; 'a\u{D}\u{A}x-evil: 1' is not one"#),
        Refusal(code: "bad-collapse-id", arguments: ["--token", Setup.deviceToken, "--collapse-id", ""],
                message: "<request>: error: apns-collapse-id is empty; leave the header out to send none"),
        Refusal(code: "unknown-key", arguments: ["--token", Setup.deviceToken], state: #"{"title":"On its way","bogus":1}"#,
                message: "state.json:1:23: error: version 3 has no field 'bogus' (at /bogus)"),
        Refusal(code: "json-syntax", arguments: ["--token", Setup.deviceToken], state: "{\n  \"title\": \"On its way\",\n  \"progress\": }",
                message: "state.json:3:15: error: expected a value, found '}'"),
    ]

    @Test(arguments: refusals)
    func aPushTheChecksRefuseExitsOneAndSendsNothing(_ refusal: Refusal) async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", refusal.state)
            let result = try setup.send(["--version", "2", "--version", "3"] + refusal.arguments + [state])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("[\(refusal.code)]"), "\(result.stderr)")
            #expect(result.stderr.contains(refusal.message), "\(result.stderr)")
            #expect(setup.fake.requests.isEmpty, "nothing is sent")
        }
    }

    /// A dry run refuses a collapse id that would split the header, as a send does, and prints
    /// no request.
    @Test func aDryRunRefusesACollapseIDThatWouldSplitTheHeader() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken,
                                         "--collapse-id", "a\r\nx-evil: 1", "--dry-run", state])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("x-evil"), "\(result.stdout)")
            #expect(result.stderr.contains("[bad-collapse-id]"), "\(result.stderr)")
        }
    }

    @Test func aStateVersionOneDropsIsRefusedWhenEveryVersionIsTargeted() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            // No --version: every live version, and strict version 1 needs subTitle.
            let result = try setup.send(["--token", Setup.deviceToken, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("refused before sending: 2 error(s)"), "\(result.stdout)")
            #expect(result.stderr.contains("error: app version 1: the app drops this update; first error: missing-required-key at /subTitle"), "\(result.stderr)")
            #expect(result.stderr.contains("[dropped-by-version]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func aTopicNamingAnotherPushTypeIsASetupError() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state],
                                        topic: "com.example.delivery.push-type.voip")
            // The sender cannot be made: a usage error (2), before any check of the push.
            #expect(result.status == 2)
            #expect(result.stderr.contains("error: the topic names push type 'voip'; Live Activities use 'push-type.liveactivity'"), "\(result.stderr)")
            // At `<request>`, with its own code alone (it said `[bad-topic] [usage]`).
            #expect(result.stderr.hasPrefix("<request>: error: the topic names push type 'voip'"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("[bad-topic]\n"), "\(result.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// An unknown `--event` is a usage error, even when the state is broken too, and nothing is sent.
    @Test func anUnknownEventIsAUsageError() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let broken = try setup.write("broken.json", #"{"title": "#)
            for file in [state, broken] {
                let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "events", file])
                #expect(result.status == 2, "\(result.stderr)")
                #expect(result.stderr.contains("event must be start, update or end, not 'events'"), "\(result.stderr)")
            }
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// `--attributes` is for a start: with the default event (update) or `--event end` it is a
    /// usage error naming the option, not attributes left out without a word.
    @Test func attributesWithoutAStartAreAUsageError() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let attributes = try setup.write("attrs.json", Setup.attributes)
            for event in [[], ["--event", "update"], ["--event", "end"]] {
                let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--dry-run", "--attributes", attributes]
                                            + event + [state])
                #expect(result.status == 2, "\(event): \(result.stdout)\(result.stderr)")
                #expect(result.stdout.isEmpty, "\(result.stdout)")
                #expect(result.stderr.contains("error: --attributes is for --event start: the static attributes go only in a start"), "\(result.stderr)")
                #expect(result.stderr.contains("[usage]"))
            }
            let defaulted = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--dry-run", "--attributes", attributes, state])
            #expect(defaulted.stderr.contains("an update (--event update, the default) would leave them out"), "\(defaulted.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// The environment is one choice of two flags: without either, the error says so and the
    /// usage line shows the choice, not `--sandbox <sandbox>` and two flags both required; both
    /// at once are refused. `channels` shares the options and the line.
    @Test func theEnvironmentIsOneChoiceOfTwoFlags() throws {
        let credentials = ["--key", "AuthKey.p8", "--key-id", "ABC123DEFG", "--team-id", "TEAM123456", "--topic", "com.example.app"]
        let neither = try CLI.run(["send"] + credentials + ["--schema", "schemas/delivery.yaml", "--token", "abcd", "state.json"])
        #expect(neither.status == 2, "\(neither.stderr)")
        #expect(neither.stderr.contains("Error: give the environment: --sandbox for Xcode builds, or --production for TestFlight and the App Store"),
                "\(neither.stderr)")
        #expect(!neither.stderr.contains("<sandbox>"), "\(neither.stderr)")
        #expect(neither.stderr.contains("(--sandbox | --production)"), "\(neither.stderr)")
        #expect(!neither.stderr.contains("--sandbox --production"), "\(neither.stderr)")
        let both = try CLI.run(["send"] + credentials + ["--sandbox", "--production", "--schema", "schemas/delivery.yaml", "--token", "abcd", "state.json"])
        #expect(both.status == 2, "\(both.stderr)")
        #expect(both.stderr.contains("--production") && both.stderr.contains("--sandbox"), "\(both.stderr)")
        let help = try CLI.run(["send", "--help"])
        #expect(help.stdout.contains("USAGE: livestate send --schema <schema> --key <key> --key-id <key-id> --team-id <team-id> --topic <topic> (--sandbox | --production) (--token <token> | --broadcast"),
                "\(help.stdout)")
        #expect(help.stdout.contains("--sandbox/--production"), "\(help.stdout)")
        for subcommand in ["create", "list", "read", "delete"] {
            let channels = try CLI.run(["channels", subcommand, "--help"])
            #expect(channels.stdout.contains("USAGE: livestate channels \(subcommand) --key <key> --key-id <key-id> --team-id <team-id> --topic <topic> (--sandbox | --production)"),
                    "\(channels.stdout)")
        }
        let list = try CLI.run(["channels", "list"] + credentials)
        #expect(list.status == 2)
        #expect(list.stderr.contains("Error: give the environment: --sandbox"), "\(list.stderr)")
        #expect(!list.stderr.contains("<sandbox>"), "\(list.stderr)")
    }

    @Test func aWholeBodyWithEnvelopeFlagsIsAUsageError() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let path = CLI.packageRoot.appendingPathComponent("schemas/examples/delivery/v3-update.json").path
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--event", "update", path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("the file is a whole APNs body; its aps object says the event"), "\(result.stderr)")
            #expect(result.stderr.contains("[usage]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    // MARK: - Dry run

    @Test func dryRunPrintsTheExactRequestAndSendsNothing() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--dry-run", state])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix(":method: POST\n"), "\(result.stdout)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.contains(":path: /3/device/\(Setup.deviceToken)"))
            #expect(lines.contains(":authority: localhost:\(setup.fake.pushPort)"))
            #expect(lines.contains("apns-push-type: liveactivity"))
            #expect(lines.contains("apns-topic: com.example.delivery.push-type.liveactivity"))
            let authorization = try #require(lines.first { $0.hasPrefix("authorization: bearer ") })
            let jwt = authorization.dropFirst("authorization: bearer ".count)
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty }, "\(jwt)")
            let header = try #require(parts.first.flatMap { Setup.base64URLDecoded(String($0)) })
            #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
            // The claims stay readable; the signature is withheld, so the printed token cannot be sent.
            let claims = try #require(parts.dropFirst().first.flatMap { Setup.base64URLDecoded(String($0)) })
            #expect(String(decoding: claims, as: UTF8.self).contains(#""iss":"TEAM123456""#), "\(jwt)")
            #expect(parts.last == "SIGNATURE-WITHHELD", "\(jwt)")
            // Headers, a blank line, then the body.
            let blank = try #require(lines.firstIndex(of: ""))
            #expect(blank + 1 < lines.count)
            let body = lines[(blank + 1)...].joined(separator: "\n").trimmingCharacters(in: .newlines)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let aps = try #require(object["aps"] as? [String: Any])
            #expect(aps["event"] as? String == "update")
            #expect(setup.fake.requests.isEmpty, "a dry run sends nothing")
        }
    }

    /// Apple's hosts are printed as the request carries them: `:authority` without HTTPS's own
    /// port 443 for a push, with the management port for a channel request.
    @Test func dryRunPrintsTheAuthorityAsSent() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let key = ["--key", setup.keyPath, "--key-id", Setup.keyID, "--team-id", Setup.teamID, "--topic", Setup.bundleID, "--sandbox"]
            let push = try CLI.run(["send"] + key + ["--schema", Setup.schema, "--version", "3", "--token", Setup.deviceToken, "--dry-run", state])
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stdout.contains("\n:authority: api.sandbox.push.apple.com\n"), "\(push.stdout)")
            let json = try CLI.run(["send"] + key + ["--schema", Setup.schema, "--version", "3", "--token", Setup.deviceToken,
                                                     "--dry-run", "--format", "json", state])
            let request = try #require(try CLI.json(json.stdout)["request"] as? [String: Any])
            #expect(request["authority"] as? String == "api.sandbox.push.apple.com")
            let list = try CLI.run(["channels", "list"] + key + ["--dry-run"])
            #expect(list.stdout.contains("\n:authority: api-manage-broadcast.sandbox.push.apple.com:2195\n"), "\(list.stdout)")
        }
    }

    /// `channels` prints its errors escaped, as every other line: a topic with a line feed
    /// printed a second line that read as another error.
    @Test func channelsErrorsCannotForgeALine() async throws {
        try await Setup.with { setup in
            let key = ["--key", setup.keyPath, "--key-id", Setup.keyID, "--team-id", Setup.teamID, "--sandbox"]
            let list = try CLI.run(["channels", "list"] + key + ["--topic", "com.example.app\nlivestate: error: FORGED"])
            #expect(list.status != 0)
            #expect(!list.stderr.split(separator: "\n").contains { $0.hasPrefix("livestate: error: FORGED") }, "\(list.stderr)")
            #expect(list.stderr.contains(#"com.example.app\u{A}livestate: error: FORGED"#), "\(list.stderr)")
        }
    }

    @Test func dryRunAsJSONIsOneDocumentWithTheRequestAndDiagnostics() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--dry-run", "--format", "json", state])
            #expect(result.status == 0, "\(result.stderr)")
            let document = try CLI.json(result.stdout)
            #expect(Set(document.keys) == ["request", "diagnostics"])
            let request = try #require(document["request"] as? [String: Any])
            #expect(request["method"] as? String == "POST")
            #expect(request["path"] as? String == "/3/device/\(Setup.deviceToken)")
            let headers = try #require(request["headers"] as? [[String]])
            #expect(headers.contains(["apns-topic", "com.example.delivery.push-type.liveactivity"]))
            #expect(headers.contains(["apns-push-type", "liveactivity"]))
            let authorization = try #require(headers.first { $0.first == "authorization" }?.last)
            #expect(authorization.hasPrefix("bearer ey") && authorization.hasSuffix(".SIGNATURE-WITHHELD"), "\(authorization)")
            let body = try #require(request["body"] as? [String: Any])
            #expect((body["aps"] as? [String: Any])?["event"] as? String == "update")
            // And the exact text sent, which `body` as JSON does not keep.
            let text = try #require(request["bodyText"] as? String)
            #expect(text.hasPrefix(#"{"aps":{"timestamp":"#), "\(text)")
            #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
            #expect(setup.fake.requests.isEmpty)
        }
    }

    // MARK: - APNs's error answers

    @Test func anUnregisteredTokenIsReportedDeadWithItsTimestamp() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            setup.fake.unregister(deviceToken: Setup.deviceToken, at: Date(timeIntervalSince1970: 1_790_000_000))
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("status 410"), "\(result.stdout)")
            #expect(result.stdout.contains("reason Unregistered"))
            #expect(result.stdout.contains("invalid since 1790000000000 ms"))
            #expect(result.stdout.contains("token-dead"))
            #expect(setup.fake.requests.map(\.status) == [410], "not retried")
        }
    }

    /// A 201 is not APNs's success for a push: it exited 0 as delivered.
    @Test func a201IsNotDelivered() async throws {
        try await Setup.with { setup in
            setup.fake.answerNext(status: 201, body: [])
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--format", "json", state])
            #expect(result.status == 1)
            let outcome = try #require(try CLI.json(result.stdout)["outcome"] as? [String: Any])
            #expect(outcome["status"] as? Int == 201)
            #expect(outcome["delivered"] as? Bool == false)
            #expect(outcome["remedy"] as? String == "unknown")
        }
    }

    /// A proxy's HTML error page was reported `unknown`, its text nowhere: the status class
    /// gives the remedy and the page's start is shown.
    @Test func anErrorPageWithoutAReasonIsShown() async throws {
        try await Setup.with { setup in
            setup.fake.answerNext(2, status: 400, body: Array("<html>Bad gateway</html>".utf8))
            let state = try setup.write("state.json", Setup.state)
            let text = try setup.send(["--version", "3", "--token", Setup.deviceToken, state])
            #expect(text.status == 1)
            #expect(text.stdout.hasPrefix(#"status 400, body "<html>Bad gateway</html>", sandbox"# + "\nfix-request: "), "\(text.stdout)")
            let json = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--format", "json", state])
            let outcome = try #require(try CLI.json(json.stdout)["outcome"] as? [String: Any])
            #expect(outcome["unexplained-body"] as? String == "<html>Bad gateway</html>")
            #expect(outcome["remedy"] as? String == "fix-request")
            #expect(setup.fake.requests.count == 2, "not sent again")
        }
    }

    @Test func anUnknownTokenIsBadDeviceToken() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("status 400"), "\(result.stdout)")
            #expect(result.stdout.contains("reason BadDeviceToken"))
            #expect(result.stdout.contains("token-dead"))
            #expect(setup.fake.requests.map(\.status) == [400])
        }
    }

    @Test func jsonOutcomeSaysStatusRemedyAndDelivery() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let delivered = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--format", "json", state])
            setup.fake.unregister(deviceToken: Setup.deviceToken, at: Date(timeIntervalSince1970: 1_790_000_000))
            let dead = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--format", "json", state])

            #expect(delivered.status == 0, "\(delivered.stdout)\(delivered.stderr)")
            let good = try #require(try CLI.json(delivered.stdout)["outcome"] as? [String: Any])
            #expect(good["status"] as? Int == 200)
            #expect(good["remedy"] as? String == "delivered")
            #expect(good["delivered"] as? Bool == true)
            #expect(good["refused"] as? Bool == false)
            #expect(good["environment"] as? String == "sandbox")
            #expect(good["apns-unique-id"] is String)

            #expect(dead.status == 1)
            let bad = try #require(try CLI.json(dead.stdout)["outcome"] as? [String: Any])
            #expect(bad["status"] as? Int == 410)
            #expect(bad["remedy"] as? String == "token-dead")
            #expect(bad["delivered"] as? Bool == false)
            #expect(bad["reason"] as? String == "Unregistered")
            #expect(bad["timestamp"] as? Int == 1_790_000_000_000)
        }
    }

    /// A `400 BadDeviceToken` whose body ran past 1 MiB was taken for no answer and sent again:
    /// its status and reason stand, and the cut is said.
    @Test func anErrorWithABodyOverAMegabyteKeepsItsStatusAndReason() async throws {
        try await Setup.with { setup in
            let padding = String(repeating: "x", count: 2_000_000)
            setup.fake.answerNext(status: 400, body: Array(#"{"reason":"BadDeviceToken","padding":"\#(padding)"}"#.utf8))
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--format", "json", state])
            #expect(result.status == 1)
            let outcome = try #require(try CLI.json(result.stdout)["outcome"] as? [String: Any])
            #expect(outcome["status"] as? Int == 400)
            #expect(outcome["reason"] as? String == "BadDeviceToken")
            #expect(outcome["remedy"] as? String == "token-dead")
            #expect(outcome["body-cut-short"] as? String == "the body was cut at 1 MiB")
            #expect(outcome["attempts"] as? Int == 1)
            #expect(setup.fake.requests.count == 1)
        }
    }

    // MARK: - No answer

    /// A host that takes connections and closes them is tried once per attempt of the retry
    /// policy (3), then reported: the HTTP client does not also keep reconnecting behind each
    /// attempt, which made a send to a host that refuses take half a minute.
    @Test func aHostThatClosesEveryConnectionIsTriedOncePerAttemptThenReported() async throws {
        try await Setup.with { setup in
            let server = try ClosingServer()
            defer { server.stop() }
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken,
                                         "--apns-host", "localhost:\(server.port)", state])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("no answer from localhost:\(server.port): "), "\(result.stdout)")
            #expect(result.stdout.contains("3 attempts"))
            #expect(result.stdout.contains("retry-later: "))
            #expect(server.connections == 3, "one connection per attempt, not reconnections behind each")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// `--timeout` bounds each attempt's wait for an answer: a host that takes the request and
    /// answers late is reported after the policy's three attempts, not after three times 30 s.
    @Test func aTimeoutBoundsEachAttemptsWait() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            setup.fake.delayAnswers(by: .seconds(20))
            let state = try setup.write("state.json", Setup.state)
            let started = Date()
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, "--timeout", "1", state])
            setup.fake.delayAnswers(by: .zero)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("no answer from localhost:\(setup.fake.pushPort): "), "\(result.stdout)")
            #expect(result.stdout.contains("3 attempts"))
            #expect(setup.fake.requests.count == 3)
            // Three attempts of 1 s and the waits of 1 s and 2 s between them.
            #expect(Date().timeIntervalSince(started) < 15)
            let invalid = try setup.send(["--version", "3", "--token", Setup.deviceToken, "--timeout", "0", state])
            #expect(invalid.status == 2)
            #expect(invalid.stderr.contains("--timeout must be a whole number of seconds from 1 to 300, not 0"), "\(invalid.stderr)")
        }
    }

    /// A peer that completes TLS with ALPN `h2` and then says nothing held `send` for ever, and
    /// `channels` after printing its error: each attempt ends at `--timeout`, and the exit does
    /// not wait on that connection.
    @Test func aPeerSilentAfterTheHandshakeEndsEachCommand() async throws {
        try await Setup.with(configure: { $0.silentAfterHandshake = true }) { setup in
            let state = try setup.write("state.json", Setup.state)
            let started = Date()
            let send = try LivestateBinary.run(["send"] + setup.apnsArguments() + ["--schema", Setup.schema, "--version", "3",
                                                "--token", Setup.deviceToken, "--timeout", "1", state], timeout: 30)
            #expect(send.status == 1, "\(send.stdout)\(send.stderr)")
            #expect(send.stdout.hasPrefix("no answer from localhost:\(setup.fake.pushPort): no connection was ready within 1 s, so the request was not sent, "
                                          + "sandbox, 3 attempts\n"), "\(send.stdout)")
            // Three attempts of 1 s, the waits of 1 s and 2 s, and at most 2 s closing.
            #expect(Date().timeIntervalSince(started) < 15)
            let list = try LivestateBinary.run(["channels", "list"] + setup.apnsArguments() + ["--timeout", "1"], timeout: 30)
            #expect(list.status == 1)
            #expect(list.stderr == "error: no answer from localhost:\(setup.fake.managePort): no connection was ready within 1 s, so the request was not sent\n",
                    "\(list.stderr)")
        }
    }

    // MARK: - Keys

    @Test func aMissingKeyFileExitsTwoAndSendsNothing() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let missing = setup.folder.appendingPathComponent("AuthKey_NOPE.p8").path
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state], key: missing)
            #expect(result.status == 2)
            #expect(result.stderr.contains("\(missing): error: no such file [bad-provider-key]"), "\(result.stderr)")
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func aCertificateInsteadOfAKeyExitsTwo() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            // The fake's own certificate: PEM, but no private key.
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state], key: setup.certificatePath)
            #expect(result.status == 2)
            #expect(result.stderr.contains("not a .p8 key: it holds a certificate (certificate-based connections)"), "\(result.stderr)")
            #expect(result.stderr.contains("[bad-provider-key]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func aShortKeyIDExitsTwo() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state], keyID: "short")
            #expect(result.status == 2)
            #expect(result.stderr.contains("--key-id must be the 10-character id from the developer account (10 upper-case letters and digits, "
                + "as ABC123DEFG), not 'short': it has lower-case letters"), "\(result.stderr)")
            #expect(result.stderr.contains("[bad-provider-key]"))
            #expect(setup.fake.requests.isEmpty)
        }
    }

    @Test func aKeyTheServerDoesNotKnowIsInvalidProviderToken() async throws {
        try await Setup.with { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let other = try setup.write("AuthKey_OTHER.p8", P256.Signing.PrivateKey().pemRepresentation)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state], key: other)
            #expect(result.status == 1)
            #expect(result.stdout.contains("status 403"), "\(result.stdout)")
            #expect(result.stdout.contains("reason InvalidProviderToken"))
            #expect(result.stdout.contains("fix-credentials"))
            #expect(setup.fake.requests.map(\.status) == [403], "credentials are not retried")
        }
    }

    /// A clock more than an hour behind APNs's makes every new token expired on arrival: the
    /// send says the clock is at fault, not the key, and does not mint again.
    @Test func anExpiredProviderTokenJustMintedBlamesTheClock() async throws {
        try await Setup.with(configure: { $0.now = { Date().addingTimeInterval(2 * 3600) } }) { setup in
            setup.fake.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--version", "2", "--version", "3", "--token", Setup.deviceToken, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("reason ExpiredProviderToken"), "\(result.stdout)")
            #expect(result.stderr.contains("<request>: error: APNs answered ExpiredProviderToken to a provider token issued "), "\(result.stderr)")
            #expect(result.stderr.contains("this machine's clock is behind by more than an hour: set it right (NTP)"))
            #expect(result.stderr.contains("[clock-behind]"))
            #expect(setup.fake.requests.map(\.reason) == ["ExpiredProviderToken"], "a new token would be just as old")
        }
    }

    /// A production token sent to the sandbox is answered `BadDeviceToken`; with
    /// `--retry-other-environment` it is tried once in production, where it is delivered.
    @Test func retryOtherEnvironmentDeliversAProductionTokenSentToTheSandbox() async throws {
        try await Setup.with { setup in
            let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: setup.keyPath, encoding: .utf8))
            let production = try await FakeAPNs.start(FakeAPNs.Configuration(
                environment: .production, bundleIDs: [Setup.bundleID],
                keys: [FakeAPNs.Key(keyID: Setup.keyID, teamID: Setup.teamID, publicKey: key.publicKey)]))
            production.register(deviceToken: Setup.deviceToken, bundleID: Setup.bundleID)
            let roots = try setup.write("roots.pem", setup.fake.certificatePEM + "\n" + production.certificatePEM)
            let state = try setup.write("state.json", Setup.state)
            let base = ["send"] + setup.apnsArguments() + ["--apns-host", "production=localhost:\(production.pushPort)", "--trust-root", roots,
                                                           "--schema", Setup.schema, "--version", "2", "--version", "3", "--token", Setup.deviceToken]
            let retried = try CLI.run(base + ["--retry-other-environment", state])
            let plain = try CLI.run(base + [state])
            let json = try CLI.run(base + ["--retry-other-environment", "--format", "json", state])
            let productionRequests = production.requests
            try await production.shutdown()
            #expect(retried.status == 0, "\(retried.stdout)\(retried.stderr)")
            #expect(retried.stdout.contains("status 200"))
            #expect(retried.stdout.contains("production, 2 attempts"), "\(retried.stdout)")
            // The sandbox's answer is said too.
            #expect(retried.stdout.contains("\nsandbox answered first: status 400, "), "\(retried.stdout)")
            #expect(retried.stdout.contains(", reason BadDeviceToken\n"), "\(retried.stdout)")
            let first = try #require((try CLI.json(json.stdout)["outcome"] as? [String: Any])?["first-answer"] as? [String: Any])
            #expect(first["environment"] as? String == "sandbox")
            #expect(first["status"] as? Int == 400)
            #expect(first["reason"] as? String == "BadDeviceToken")
            #expect(plain.status == 1)
            #expect(plain.stdout.contains("reason BadDeviceToken"))
            #expect(plain.stdout.contains("token-dead"))
            #expect(setup.fake.requests.map(\.reason) == ["BadDeviceToken", "BadDeviceToken", "BadDeviceToken"])
            #expect(productionRequests.map(\.status) == [200, 200])
        }
    }

    // MARK: - Positions and --fail-on

    /// Findings about the body written from a content-state file carry the file and a JSON
    /// Pointer, never a line and column of the written body (which are nowhere in the file).
    @Test func findingsAboutAStateFileArePlacedInThatFile() async throws {
        try await Setup.with { setup in
            let state = try setup.write("state.json", Setup.state)
            let result = try setup.send(["--token", Setup.deviceToken, state])
            #expect(result.status == 1)
            #expect(result.stdout.contains("refused before sending"), "\(result.stdout)")
            #expect(result.stderr.contains("\(state): error: app version 1: required key 'subTitle' is missing"), "\(result.stderr)")
            for line in result.stderr.split(separator: "\n") where line.hasPrefix("\(state):1:") {
                let column = Int(line.dropFirst("\(state):1:".count).prefix { $0.isNumber }) ?? 0
                #expect(column <= Setup.state.utf8.count + 1, "\(line)")
            }
            #expect(setup.fake.requests.isEmpty)
        }
    }

    /// `--fail-on warning` refuses a push with warnings: nothing is printed as a request or sent.
    @Test func failOnWarningMakesWarningsExitOne() async throws {
        try await Setup.with { setup in
            let path = try setup.exampleStampedNow("v3-update.json")
            let result = try setup.send(["--version", "2", "--token", Setup.deviceToken, "--dry-run", "--fail-on", "warning", path])
            #expect(result.stderr.contains("warning:"), "\(result.stderr)")
            #expect(result.status == 1)
            #expect(!result.stdout.contains(":method:"))
            #expect(result.stdout == "refused before sending: 2 warning(s)\n", "the findings that refused it, not 0 errors")
            let sent = try setup.send(["--version", "2", "--token", Setup.deviceToken, "--fail-on", "warning", path])
            #expect(sent.status == 1)
            #expect(setup.fake.requests.isEmpty)
        }
    }
}

/// A temporary folder with a provider key, and a started fake APNs that knows the key.
private struct Setup {
    static let bundleID = "com.example.delivery"
    static let keyID = "ABC123DEFG"
    static let teamID = "TEAM123456"
    static let deviceToken = String(repeating: "5e", count: 32)
    /// A content-state versions 2 and 3 decode; version 1 drops it (no subTitle).
    static let state = #"{"title":"On its way","progress":0.5}"#
    static let attributes = #"{"totalAmount":"$12.50","orderId":"A-1001"}"#
    /// A well-formed channel id the fake does not have.
    static let someChannel = "dGVzdC1jaGFubmVsLWlk"
    static let schema = CLI.packageRoot.appendingPathComponent("schemas/delivery.yaml").path

    let folder: URL
    let fake: FakeAPNs
    let environment: FakeAPNs.Environment
    let keyPath: String
    let certificatePath: String

    /// Runs `body` with a fresh setup, and shuts the fake down and removes the folder after it,
    /// whether it returns or throws.
    static func with(_ environment: FakeAPNs.Environment = .sandbox, configure: (inout FakeAPNs.Configuration) -> Void = { _ in },
                     _ body: (Setup) async throws -> Void) async throws {
        let setup = try await start(environment, configure: configure)
        do {
            try await body(setup)
        } catch {
            await setup.stop()
            throw error
        }
        await setup.stop()
    }

    /// A copy of the delivery example `name`, a whole body, stamped with the current time (its
    /// other dates moved as far): sent as written, a stored example's stamp is hours old, and
    /// `send` refuses such an update.
    func exampleStampedNow(_ name: String) throws -> String {
        let example = try String(contentsOf: CLI.packageRoot.appendingPathComponent("schemas/examples/delivery/\(name)"), encoding: .utf8)
        let stamp = try #require(example.firstMatch(of: /"timestamp": ([0-9]+)/).flatMap { Int($0.1) })
        let shift = Int(Date().timeIntervalSince1970) - stamp
        let stamped = example.replacing(/"(timestamp|stale-date|dismissal-date)": ([0-9]+)/) { date in
            #""\#(date.1)": \#(Int(date.2)! + shift)"#
        }
        return try write(name, stamped)
    }

    static func start(_ environment: FakeAPNs.Environment, configure: (inout FakeAPNs.Configuration) -> Void) async throws -> Setup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let keyPath = folder.appendingPathComponent("AuthKey_\(keyID).p8").path
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        var configuration = FakeAPNs.Configuration(
            environment: environment, bundleIDs: [bundleID],
            keys: [FakeAPNs.Key(keyID: keyID, teamID: teamID, publicKey: key.publicKey)])
        configure(&configuration)
        let fake = try await FakeAPNs.start(configuration)
        let certificatePath = folder.appendingPathComponent("fake-apns.pem").path
        do {
            try fake.certificatePEM.write(toFile: certificatePath, atomically: true, encoding: .utf8)
        } catch {
            try? await fake.shutdown()
            throw error
        }
        return Setup(folder: folder, fake: fake, environment: environment, keyPath: keyPath, certificatePath: certificatePath)
    }

    func stop() async {
        try? await fake.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes a file in the folder and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The key, environment and host flags `send` and `channels` share.
    func apnsArguments(key: String? = nil, keyID: String = Setup.keyID, topic: String = Setup.bundleID) -> [String] {
        return ["--key", key ?? keyPath, "--key-id", keyID, "--team-id", Self.teamID, "--topic", topic, environment == .production ? "--production" : "--sandbox",
                "--apns-host", "localhost:\(fake.pushPort)", "--manage-host", "localhost:\(fake.managePort)",
                "--trust-root", certificatePath]
    }

    /// `livestate send` with the shared flags and the delivery schema.
    func send(_ arguments: [String], stdin: Data? = nil, key: String? = nil, keyID: String = Setup.keyID,
              topic: String = Setup.bundleID) throws -> CLI.Result {
        try CLI.run(["send"] + apnsArguments(key: key, keyID: keyID, topic: topic) + ["--schema", Self.schema] + arguments, stdin: stdin)
    }

    /// `livestate channels <subcommand>` with the shared flags.
    func channels(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["channels", arguments[0]] + apnsArguments() + arguments.dropFirst())
    }

    /// The `aps` object of a request's body.
    static func aps(of request: FakeAPNs.Request) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        return try #require(object["aps"] as? [String: Any])
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while !base64.count.isMultiple(of: 4) { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

/// A loopback TCP server that accepts connections and closes each at once, without a TLS
/// handshake: a host that is there but never answers a request. It counts the connections.
private final class ClosingServer: @unchecked Sendable {
    private let socket: Int32
    private let lock = NSLock()
    private var accepted = 0
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 64) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            while true {
                let connection = accept(self.socket, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { accepted += 1 }
                close(connection)
            }
        }
        thread.start()
    }

    /// The connections accepted so far.
    var connections: Int { lock.withLock { accepted } }

    /// Stops accepting.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
