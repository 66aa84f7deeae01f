import Foundation
@_spi(Scanner) import LiveState
import LiveStateTooling

/// Sends Live Activity pushes that every targeted app version decodes, and only those.
///
/// Each attempt encodes the state for the newest targeted version, checks the whole body against
/// every targeted version (the content-state, the `aps` envelope, the event's rules, the byte
/// budget as sent and as the device re-encodes it), the request's path and headers, and the
/// pushes APNs accepted from this sender before (a whole body stamped before the last one for
/// its activity, updates closer than 5 seconds, a start repeated with the same attributes). An
/// error refuses the push before a connection is made. Then it sends with the shared provider token
/// and classifies the answer (`SendRemedy`): a token that is dead, a request to fix,
/// credentials, a throttle, or a problem on Apple's side, retried per `RetryPolicy` with the
/// state re-rendered and a fresh `timestamp`.
public final class LiveActivitySender: Sendable {
    /// What the sender needs besides the schema, the key and the transport.
    public struct Configuration: Sendable {
        /// The app's bundle id (the topic's suffix is added).
        public var bundleID: String
        /// The environment pushes go to first.
        public var environment: APNsEnvironment
        /// The hosts per environment (Apple's by default).
        public var endpoints: [APNsEnvironment: APNsEndpoints]
        /// After `BadDeviceToken`, try the token once in the other environment (a sandbox token
        /// sent to production, or the reverse, is answered that way).
        public var retryOtherEnvironment: Bool
        /// Retries of what may pass later.
        public var retry: RetryPolicy
        /// Whether pushes are checked before sending. Off only to measure what the checks cost;
        /// each update is still stamped newer than the last one APNs accepted for its activity.
        public var validates: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - bundleID: The app's bundle id.
        ///   - environment: The environment.
        ///   - endpoints: Hosts per environment; missing ones are Apple's.
        ///   - retryOtherEnvironment: Whether to retry a `BadDeviceToken` in the other environment.
        ///   - retry: The retry policy.
        ///   - validates: Whether pushes are checked.
        public init(bundleID: String, environment: APNsEnvironment, endpoints: [APNsEnvironment: APNsEndpoints] = [:],
                    retryOtherEnvironment: Bool = false, retry: RetryPolicy = .init(), validates: Bool = true) {
            self.bundleID = bundleID
            self.environment = environment
            self.endpoints = endpoints
            self.retryOtherEnvironment = retryOtherEnvironment
            self.retry = retry
            self.validates = validates
        }

        func endpoints(_ environment: APNsEnvironment) -> APNsEndpoints {
            endpoints[environment] ?? .apple(environment)
        }
    }

    /// A request ready to send, or the findings that stop it.
    public struct Prepared: Sendable {
        /// The request, when nothing stops it.
        public var request: APNsRequest?
        /// Every finding: errors (then `request` is `nil`) and warnings.
        public var diagnostics: [Diagnostic]
        /// The JWT the request carries.
        var token: String
        /// The push as the history records it once APNs accepts it.
        var push: PushHistory.Push
    }

    /// The schema.
    public let schema: Schema
    /// The app versions a push must reach, oldest first.
    public let versions: [Int]
    /// The configuration.
    public let configuration: Configuration
    /// The shared provider tokens.
    public let tokens: ProviderTokenCache
    let transport: any APNsTransport
    let bundleID: String
    /// Writes the newest targeted version, for devices (`[0]`) and broadcasts (`[1]`).
    let encoders: [ContentStateEncoder]
    /// One per targeted version, for devices (`[0]`) and broadcasts (`[1]`).
    let validators: [[PayloadValidator]]
    let clock: PushClock
    let sleep: @Sendable (Duration) async throws -> Void
    let backoff = TokenBackoff()
    let history = PushHistory()

    /// Creates a sender.
    /// - Parameters:
    ///   - schema: The activity's schema.
    ///   - versions: The app versions a push must reach; `nil` means every live version.
    ///   - tokens: The provider tokens (share one cache per key among senders).
    ///   - configuration: Bundle id, environment, hosts, retries.
    ///   - transport: What carries requests (`HTTPClientTransport`).
    ///   - clock: The wall clock, by which ages and holds are measured too (tests move it).
    ///     `nil`, the default, reads the system's wall clock for timestamps and measures holds
    ///     after `TooManyRequests` on a clock that does not step.
    ///   - sleep: How the sender waits before a retry (tests skip it).
    /// - Throws: `SenderSetupError` when the bundle id or a version is wrong.
    public convenience init(schema: Schema, versions: [Int]? = nil, tokens: ProviderTokenCache, configuration: Configuration,
                            transport: any APNsTransport, clock: (@Sendable () -> Date)? = nil,
                            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) throws(SenderSetupError) {
        try self.init(schema: schema, versions: versions, tokens: tokens, configuration: configuration, transport: transport,
                      clock: PushClock(clock), sleep: sleep)
    }

    init(schema: Schema, versions: [Int]?, tokens: ProviderTokenCache, configuration: Configuration,
         transport: any APNsTransport, clock: PushClock, sleep: @escaping @Sendable (Duration) async throws -> Void) throws(SenderSetupError) {
        let bundle = try PushRequestRules.requireBundleID(from: configuration.bundleID)
        let live = schema.liveVersions.map(\.version)
        let targets = (versions ?? live).sorted()
        guard let newest = targets.last else { throw SenderSetupError(code: "unknown-version", message: "the schema has no live version to send to") }
        // The encoders and validators refuse a version the schema does not have.
        do throws(Diagnostic) {
            // The sender checks each body against every live version itself (`prepare`).
            encoders = try [false, true].map { broadcast throws(Diagnostic) in
                var encoder = try ContentStateEncoder(schema: schema, version: newest, checkingBodiesWith: nil)
                encoder.broadcast = broadcast
                return encoder
            }
            validators = try [false, true].map { broadcast throws(Diagnostic) in
                try targets.map { version throws(Diagnostic) in
                    try PayloadValidator(schema: schema, version: version, options: .init(broadcast: broadcast))
                }
            }
        } catch {
            throw SenderSetupError(code: error.code, message: error.message)
        }
        self.schema = schema
        self.versions = targets
        self.configuration = configuration
        self.tokens = tokens
        self.transport = transport
        self.bundleID = bundle
        self.clock = clock
        self.sleep = sleep
    }

    // MARK: - Preparing

    /// Builds the request a push would be sent as now, after every check: what `--dry-run` prints.
    /// - Parameters:
    ///   - push: The push.
    ///   - environment: The environment (default: the configuration's).
    /// - Returns: The request, or the findings that stop it.
    public func prepare(_ push: LiveActivityPush, environment: APNsEnvironment? = nil) async -> Prepared {
        await prepare(push, environment: environment ?? configuration.environment, attempt: 1)
    }

    func prepare(_ push: LiveActivityPush, environment: APNsEnvironment, attempt: Int) async -> Prepared {
        let broadcast = push.target.isBroadcast ? 1 : 0
        var diagnostics: [Diagnostic] = []
        let now = Int(clock.now().timeIntervalSince1970)
        // The history's windows are measured on the clock that does not step.
        let elapsed = clock.elapsed()
        let target = push.target.historyTarget
        let entry = await history.entry(for: target, at: elapsed)
        // Each update or end written here is newer than the last one APNs accepted for the activity.
        let stamp = PushHistory.stamp(now: now, after: entry)
        var made = PushHistory.Push(target: target)
        let body: [UInt8]
        switch push.content {
        case .state(let state, var envelope):
            envelope.timestamp = stamp
            made = PushHistory.Push(target: target, envelope: envelope)
            (body, diagnostics) = encode(state, envelope, broadcast: broadcast, file: push.file)
        case .latest(let render, var envelope):
            envelope.timestamp = stamp
            made = PushHistory.Push(target: target, envelope: envelope)
            (body, diagnostics) = encode(await render(), envelope, broadcast: broadcast, file: push.file)
        case .payload(let bytes):
            body = attempt == 1 ? bytes : Self.restamped(bytes, timestamp: stamp)
        }
        // A body given whole keeps its own timestamp on the first attempt.
        let givenWhole = if case .payload = push.content, attempt == 1 { true } else { false }
        if configuration.validates && !body.isEmpty {
            let validation = PayloadValidator.validateAllVersions(validators[broadcast], body, file: push.file)
            var findings = validation.diagnostics
            if case .payload = push.content {
                // What the history needs of a body written elsewhere is what the validator read.
                if let result = validation.results.first?.result {
                    made.event = result.event
                    made.timestamp = givenWhole ? result.timestamp : stamp
                    if result.event == .start { made.attributes = PushHistory.attributesHash(ofBody: body) }
                    if givenWhole {
                        PushHistory.holdToClock(result, now: now, sentNow: true, file: push.file, in: body, findings: &findings)
                    }
                }
            } else {
                // The body was written here: a line and column in it are nowhere in the state
                // file. The finding keeps the file and its JSON Pointer.
                for index in findings.indices { findings[index].position = nil }
            }
            diagnostics += findings
            diagnostics += PushRequestRules.check(push.target, push.headers)
            diagnostics += PushHistory.findings(made, entry, stampedHere: !givenWhole, now: elapsed, source: .sender, file: push.file)
        }
        let token = await tokens.token(for: environment)
        guard !body.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) else {
            return Prepared(request: nil, diagnostics: diagnostics, token: token, push: made)
        }
        return Prepared(request: request(push, body: body, token: token, environment: environment), diagnostics: diagnostics,
                        token: token, push: made)
    }

    private func encode(_ state: Value, _ envelope: ContentStateEncoder.Envelope, broadcast: Int, file: String?) -> ([UInt8], [Diagnostic]) {
        let result = encoders[broadcast].encodePayload(state, envelope: envelope)
        let diagnostics = result.diagnostics.map { diagnostic in
            var located = diagnostic
            located.file = located.file ?? file
            return located
        }
        return (result.succeeded ? result.bytes : [], diagnostics)
    }

    /// A whole body with `aps.timestamp` set anew, for a retry; the body as it was when it is not
    /// an object with an `aps` object (the checks then report it), or when its own timestamp is
    /// not older than `timestamp`: a stamp ahead of the clock (a counter's) stays, since a
    /// retry stamped older than what the device holds is ignored.
    static func restamped(_ bytes: [UInt8], timestamp: Int) -> [UInt8] {
        guard case .object(var members)? = try? Value.parse(json: bytes),
              let index = members.firstIndex(where: { $0.name == "aps" }),
              case .object(var aps) = members[index].value else { return bytes }
        if let stamp = aps.firstIndex(where: { $0.name == "timestamp" }) {
            if let given = aps[stamp].value.number, given >= Double(timestamp) { return bytes }
            aps[stamp].value = .int(timestamp)
        } else {
            aps.append(.init("timestamp", .int(timestamp)))
        }
        members[index].value = .object(aps)
        var writer = JSONWriter(capacity: bytes.count)
        writer.write(.object(members))
        return writer.bytes
    }

    private func request(_ push: LiveActivityPush, body: [UInt8], token: String, environment: APNsEnvironment) -> APNsRequest {
        let endpoints = configuration.endpoints(environment)
        var headers = [APNsRequest.Header("authorization", "bearer \(token)"), .init("apns-push-type", "liveactivity")]
        let path: String
        switch push.target {
        case .device(let deviceToken):
            path = "/3/device/\(deviceToken)"
            headers.append(.init("apns-topic", bundleID + PushRequestRules.topicSuffix))
            if let id = push.headers.apnsID { headers.append(.init("apns-id", id)) }
            if let id = push.headers.collapseID { headers.append(.init("apns-collapse-id", id)) }
        case .broadcast(let channel):
            // No apns-topic: the bundle is in the path.
            path = "/4/broadcasts/apps/\(bundleID)"
            headers.append(.init("apns-channel-id", channel))
            if let id = push.headers.requestID { headers.append(.init("apns-request-id", id)) }
        }
        if let priority = push.headers.priority { headers.append(.init("apns-priority", String(priority))) }
        if let expiration = push.headers.expiration { headers.append(.init("apns-expiration", String(expiration))) }
        return APNsRequest(method: "POST", host: endpoints.pushHost, port: endpoints.pushPort, path: path, headers: headers, body: body)
    }

    /// Reads a content-state given as JSON the way the encoder does (missing fields take
    /// defaults; anything the newest targeted version does not have is an error), with positions
    /// in `bytes`: for a state file before it becomes a push's `.state` content.
    /// - Parameters:
    ///   - bytes: The JSON text of a content-state object.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The complete state, or `nil`, and the problems found.
    public func readState(_ bytes: some ContiguousBytes, file: String? = nil) -> (state: Value?, diagnostics: [Diagnostic]) {
        encoders[0].readState(bytes, file: file)
    }

    // MARK: - Sending

    /// Checks and sends a push, retrying what may pass later.
    ///
    /// Pushes to one activity (device token or channel) are sent one after the other, each
    /// checked against and stamped after the one before it: two sent at once would both be
    /// checked against the push before them (two starts that both show an activity, two
    /// updates stamped the same). Pushes to other activities do not wait.
    /// - Parameter push: The push.
    /// - Returns: How it ended.
    public func send(_ push: LiveActivityPush) async -> SendOutcome {
        let target = push.target.historyTarget
        _ = await history.reserve(target, at: clock.elapsed)
        let outcome = await sendAlone(push)
        await history.release(target, accepting: nil, at: clock.elapsed())
        return outcome
    }

    /// `send`, once no other push to the activity is under way.
    private func sendAlone(_ push: LiveActivityPush) async -> SendOutcome {
        var environment = configuration.environment
        var triedOtherEnvironment = false
        var renewedToken = false
        var reconnected = false
        var attempt = 0
        var outcome = SendOutcome(remedy: .unknown, refused: false, diagnostics: [], attempts: 0, environment: environment)
        // Held back by the token as the history names it: its hex digits in either case are one token.
        let deviceToken: String? = push.target.isBroadcast ? nil : push.target.historyTarget.id
        while true {
            attempt += 1
            // A caller that cancelled the send (before its turn, or during a wait) sends nothing
            // more; asked again before the request goes, after the back-off's wait and `prepare`.
            if Task.isCancelled { return Self.cancelled(outcome) }
            // What the last attempt sent left, for a shutdown that refuses this one.
            let previous = outcome
            if let deviceToken, let wait = await backoff.remainder(of: deviceToken, now: clock.elapsed()) {
                guard outcome.attempts < configuration.retry.maxAttempts, wait <= configuration.retry.maxDelay.seconds else {
                    outcome.remedy = .backOffToken
                    outcome.retryAfter = clock.now().addingTimeInterval(wait)
                    return outcome
                }
                try? await sleep(.milliseconds(Int(wait * 1000)))
            }
            let prepared = await prepare(push, environment: environment, attempt: attempt)
            outcome.diagnostics = prepared.diagnostics
            outcome.environment = environment
            guard let request = prepared.request else {
                outcome.refused = true
                outcome.remedy = .fixRequest
                return outcome
            }
            if Task.isCancelled { return Self.cancelled(outcome) }
            outcome.request = request
            outcome.attempts += 1
            let response: APNsResponse
            do {
                response = try await transport.send(request)
            } catch {
                // Cancelled by the caller: the request may have reached APNs, and is not sent again.
                let cancelled = Task.isCancelled || error is CancellationError
                // Not sent: the transport was shut down before it. What an attempt before it met stands.
                if error is APNsTransportShutDownError {
                    if previous.attempts > 0 { return previous }
                    outcome.attempts -= 1
                }
                // Cancelled before any of it was written: not sent, as the advice then says.
                if cancelled, error is APNsConnectionError { outcome.attempts -= 1 }
                // One that may have reached the device: what is stamped next is later.
                let mayHaveReached = !(error is any APNsUnprocessedRequestError)
                if mayHaveReached { await history.mayHaveReached(prepared.push, at: clock.elapsed()) }
                outcome.transportError = cancelled ? SendOutcome.cancelled : "\(error)"
                outcome.response = nil
                outcome.remedy = .retryLater
                // A start that may have reached APNs is not sent again: each one APNs takes shows
                // another activity. One APNs did not process (no connection, a refused stream) is.
                if prepared.push.event == .start, mayHaveReached {
                    outcome.diagnostics.append(PushRequestRules.startUnconfirmed(outcome.transportError ?? "", file: push.file))
                    return outcome
                }
                // A transport shut down sends nothing more; nor does an answer from a host that is
                // not APNs (a proxy that speaks HTTP/1.1 may have forwarded the push to APNs).
                guard !cancelled, !(error is APNsTransportShutDownError), !(error is HTTPClientTransport.NotHTTP2),
                      outcome.attempts < configuration.retry.maxAttempts else {
                    return outcome
                }
                await transport.reconnect(after: request)
                try? await sleep(configuration.retry.delay(after: outcome.attempts))
                continue
            }
            outcome.response = response
            outcome.transportError = nil
            outcome.remedy = SendRemedy(status: response.status, reason: response.reason)
            outcome.retryAfter = nil
            let canRetry = outcome.attempts < configuration.retry.maxAttempts
            switch (outcome.remedy, response.reason) {
            case (.delivered, _):
                await history.accepted(prepared.push, at: clock.elapsed())
                if let deviceToken { await backoff.delivered(deviceToken) }
                return outcome
            case (_, .expiredProviderToken?) where !renewedToken:
                // Retried once with a new token, if the rejected one is old enough to renew.
                renewedToken = true
                guard await tokens.renew(after: prepared.token, for: environment) else {
                    if let problem = await clockProblem(rejected: prepared.token, environment: environment) {
                        outcome.diagnostics.append(problem)
                    }
                    return outcome
                }
                await transport.reconnect(after: request)
            case (_, .badDeviceToken?) where configuration.retryOtherEnvironment && !triedOtherEnvironment:
                triedOtherEnvironment = true
                outcome.firstEnvironmentResponse = response
                environment = environment.other
            case (.stopMinting, _):
                outcome.retryAfter = await tokens.suspendMinting(for: environment)
                await transport.reconnect(after: request)
                return outcome
            case (.backOffToken, _):
                let retry = configuration.retry
                if let deviceToken {
                    let hold = await backoff.throttled(deviceToken, now: clock.elapsed()) { retry.delay(after: $0) }
                    outcome.retryAfter = clock.now().addingTimeInterval(hold)
                    guard canRetry else { return outcome }
                } else {
                    let delay = retry.delay(after: outcome.attempts)
                    outcome.retryAfter = clock.now().addingTimeInterval(delay.seconds)
                    guard canRetry else { return outcome }
                    try? await sleep(delay)
                }
            case (.reconnect, _):
                // IdleTimeout, Shutdown, UnrelatedKeyIdInToken: a new connection, once without waiting.
                await transport.reconnect(after: request)
                guard canRetry else { return outcome }
                if reconnected { try? await sleep(configuration.retry.delay(after: outcome.attempts)) }
                reconnected = true
            case (.retryLater, _):
                // Apple: retry a 5xx after 15 minutes, with back-off; a wait past `maxDelay` is
                // the caller's to make, at `retryAfter`.
                let delay = configuration.retry.delay(after: outcome.attempts, serverError: true)
                outcome.retryAfter = clock.now().addingTimeInterval(delay.seconds)
                guard canRetry, delay <= configuration.retry.maxDelay else { return outcome }
                try? await sleep(delay)
            default:
                return outcome
            }
        }
    }

    /// `outcome` of a send its caller cancelled: said so when nothing was sent.
    private static func cancelled(_ outcome: SendOutcome) -> SendOutcome {
        var cancelled = outcome
        if cancelled.attempts == 0 {
            cancelled.transportError = SendOutcome.cancelled
            cancelled.remedy = .retryLater
        }
        return cancelled
    }

    /// After `ExpiredProviderToken` that no new token can cure: why, when the clock is to blame.
    private func clockProblem(rejected token: String, environment: APNsEnvironment) async -> Diagnostic? {
        guard let minted = await tokens.minted(token, for: environment) else { return nil }
        return PushRequestRules.clockProblem(tokenIssuedAt: minted.issuedAt, age: minted.age, minimumLifetime: tokens.minimumLifetime)
    }
}

/// A sender or channel client that cannot be made: the bundle id or a version is wrong.
public struct SenderSetupError: Error, Sendable, CustomStringConvertible {
    /// The diagnostic code: `bad-topic` or `unknown-version`.
    public var code: DiagnosticCode
    /// What is wrong.
    public var message: String
    /// `message [code]`.
    public var description: String { "\(message) [\(code)]" }
}

/// Per device token: no push before this time, after `TooManyRequests`. The hold grows with
/// each `TooManyRequests` in a row to the token, across sends, until APNs takes a push to it or
/// the token has gone unrefused as long as its last hold: begun anew at each send, a throttled
/// token was held back a few seconds at most, and APNs's throttle kept up.
///
/// Times are `PushClock.elapsed`: a hold measured on the wall clock ended early when the
/// clock was set forward, and lasted an hour longer when it was set back an hour.
actor TokenBackoff {
    private var holds: [String: (until: TimeInterval, length: TimeInterval, count: Int)] = [:]

    /// How long `token` is still held back, if it is.
    func remainder(of token: String, now: TimeInterval) -> TimeInterval? {
        holds[token].flatMap { $0.until > now ? $0.until - now : nil }
    }

    /// Holds `token` back after its next `TooManyRequests` in a row.
    /// - Parameters:
    ///   - token: The device token.
    ///   - now: The sender's `PushClock.elapsed`.
    ///   - delay: The wait after the given count of refusals in a row.
    /// - Returns: How long a push to it is held back.
    func throttled(_ token: String, now: TimeInterval, delay: @Sendable (Int) -> Duration) -> TimeInterval {
        let previous = holds[token]
        let count = previous.map { now - $0.until <= $0.length ? $0.count + 1 : 1 } ?? 1
        let length = delay(count).seconds
        holds[token] = (now + length, length, count)
        if holds.count > 10_000 {
            // A hold that has ended is forgotten only when a push went since (`delivered`), or here.
            holds = holds.filter { $0.value.until > now }
        }
        return length
    }

    /// Ends the hold of `token`: APNs took a push to it.
    func delivered(_ token: String) {
        holds[token] = nil
    }
}
