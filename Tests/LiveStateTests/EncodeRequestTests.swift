import Foundation
import Testing
import LiveState

/// `ContentStateEncoder.Request`: the envelope rules `encode`, `send` and the sidecar share.
@Suite struct EncodeRequestTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anEmptyRequestIsAnUpdateStampedNow() throws {
        let envelope = try #require(ContentStateEncoder.Request().envelope(now: now).envelope)
        #expect(envelope.event == .update)
        #expect(envelope.timestamp == 1_800_000_000)
    }

    @Test func eventAndTimestampAreReadFromTheirText() throws {
        var request = ContentStateEncoder.Request()
        request.event = "end"
        request.timestamp = "1795000000"
        request.dismissalDate = 1_795_000_600
        let envelope = try #require(request.envelope(now: now).envelope)
        #expect(envelope.event == .end)
        #expect(envelope.timestamp == 1_795_000_000)
        #expect(envelope.dismissalDate == 1_795_000_600)
        request.timestamp = "now"
        #expect(request.envelope(now: now).envelope?.timestamp == 1_800_000_000)
    }

    @Test(arguments: [
        ("events", nil, false, "event must be start, update or end, not 'events'"),
        (nil, "-1", false, "timestamp must be now or a number of UNIX seconds, 0 or more, not '-1'"),
        (nil, "1.5", false, "timestamp must be now or a number of UNIX seconds, 0 or more, not '1.5'"),
        ("update", nil, true, "the bare content-state takes no envelope parameters (given: event)"),
        ("update", "now", true, "the bare content-state takes no envelope parameters (given: event, timestamp)"),
    ] as [(String?, String?, Bool, String)])
    func problemsAreWordedWithTheParametersNames(event: String?, timestamp: String?, bare: Bool, message: String) {
        var request = ContentStateEncoder.Request()
        request.event = event
        request.timestamp = timestamp
        request.contentStateOnly = bare
        let (envelope, problem) = request.envelope(now: now)
        #expect(envelope == nil)
        #expect(problem?.hasPrefix(message) == true, "\(problem ?? "")")
    }

    /// JSON has no NaN or infinity (Swift parses "nan" and "inf" as a `Double`): a relevance
    /// score that is not finite is the request's problem, not a body the validator refuses.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aRelevanceScoreThatIsNotFiniteIsAProblem(_ score: Double) {
        var request = ContentStateEncoder.Request()
        request.relevanceScore = score
        let (envelope, problem) = request.envelope(now: now)
        #expect(envelope == nil)
        let why = score.isInfinite ? " (a number past Double's range, such as 1e400, reads as infinity)" : ""
        #expect(problem == "relevance-score must be a finite number, not \(score)\(why)")
    }

    @Test func aBareStateWithoutEnvelopeParametersPasses() {
        var request = ContentStateEncoder.Request()
        request.contentStateOnly = true
        #expect(request.envelope(now: now).problem == nil)
    }

    /// A start says how the activity it creates is reached later: by an update token
    /// (`input-push-token`, which iOS 18 sends only when asked) or a broadcast channel, one of
    /// the two; no other event creates an activity.
    @Test func howAStartedActivityIsReachedIsAStartsAndOneOfTwo() throws {
        var request = ContentStateEncoder.Request()
        request.event = "start"
        request.inputPushToken = true
        let envelope = try #require(request.envelope(now: now).envelope)
        #expect(envelope.inputPushToken && envelope.inputPushChannel == nil)
        request.inputPushChannel = "dGVzdA=="
        #expect(request.envelope(now: now).problem == "input-push-token and input-push-channel ask for two ways to reach the activity; give one: "
            + "input-push-token for an update token, input-push-channel for a broadcast channel")
        request.inputPushToken = false
        #expect(request.envelope(now: now).envelope?.inputPushChannel == "dGVzdA==")
        // Envelopes that write the same keys are equal, however their options were set.
        var set = ContentStateEncoder.Envelope(event: .start, timestamp: 1)
        set.inputPushToken = true
        set.inputPushToken = false
        #expect(set == ContentStateEncoder.Envelope(event: .start, timestamp: 1))
        set.inputPushChannel = "c"
        #expect(set == ContentStateEncoder.Envelope(event: .start, timestamp: 1, inputPushChannel: "c") && set.hashValue == ContentStateEncoder.Envelope(event: .start, timestamp: 1, inputPushChannel: "c").hashValue)
        request.event = nil
        #expect(request.envelope(now: now).problem == "input-push-channel is for event start: it says how the activity a start creates is "
            + "reached later, and an update (event update, the default) creates none")
        request.event = "end"
        #expect(request.envelope(now: now).problem?.hasSuffix("and an end (event end) creates none") == true)
        request.contentStateOnly = true
        #expect(request.envelopeParameters == ["event", "input-push-channel"])
    }

    /// The written start carries them after its attributes, as Apple's example does; `lint`
    /// reads the body clean.
    @Test func aStartIsWrittenWithItsInputPush() throws {
        let schema = Schema(
            activity: "a", attributesType: "AAttributes",
            versions: [SchemaVersion(version: 1, contentState: [Field(name: "n", type: .int)], attributes: [])])
        let encoder = try ContentStateEncoder(schema: schema)
        let alert = Value.object([.init("title", .string("t")), .init("body", .string("b")), .init("sound", .string("default"))])
        let token = encoder.encodePayload(.object([.init("n", .int(1))]),
                                          envelope: .init(event: .start, timestamp: 1_795_000_000, alert: alert, attributes: .object([]), inputPushToken: true))
        #expect(token.succeeded, "\(token.diagnostics)")
        #expect(String(decoding: token.bytes, as: UTF8.self) == #"{"aps":{"timestamp":1795000000,"event":"start","attributes-type":"AAttributes","attributes":{},"input-push-token":1,"alert":{"title":"t","body":"b","sound":"default"},"content-state":{"n":1}}}"#)
        let channel = encoder.encodePayload(.object([.init("n", .int(1))]),
                                            envelope: .init(event: .start, timestamp: 1_795_000_000, alert: alert, attributes: .object([]), inputPushChannel: "dGVzdA=="))
        #expect(channel.succeeded, "\(channel.diagnostics)")
        #expect(String(decoding: channel.bytes, as: UTF8.self).contains(#""attributes":{},"input-push-channel":"dGVzdA==","alert""#))
        // A channel id that is not base64 is the body's finding, as in any start.
        let bad = encoder.encodePayload(.object([.init("n", .int(1))]),
                                        envelope: .init(event: .start, timestamp: 1_795_000_000, alert: alert, attributes: .object([]), inputPushChannel: "%%"))
        #expect(bad.diagnostics.contains { $0.code == "invalid-input-push" })
    }
}
