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
}
