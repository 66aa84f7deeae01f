import Foundation
import LiveState

/// How a send ended: delivered, refused before sending, or answered with an error.
public struct SendOutcome: Sendable {
    /// What to do next; `.delivered` on 200.
    public var remedy: SendRemedy
    /// Whether nothing was sent because the checks found an error (`diagnostics` says which).
    public var refused: Bool
    /// The findings of the checks: the errors that refused it, or the warnings it was sent with.
    public var diagnostics: [Diagnostic]
    /// The last request sent, or the one refused.
    public var request: APNsRequest?
    /// The last answer.
    public var response: APNsResponse?
    /// The answer of the environment tried first, when the token was then tried in the other
    /// one (`retryOtherEnvironment`): the `BadDeviceToken` that moved it. `environment` is the
    /// other one's.
    public var firstEnvironmentResponse: APNsResponse?
    /// Requests sent (retries included).
    public var attempts: Int
    /// The environment of the last request (the other one after a `BadDeviceToken` retry).
    public var environment: APNsEnvironment
    /// Why no answer came, when none did (connection refused, TLS, time-out).
    public var transportError: String?
    /// When sending to this token (or minting) may resume, after a throttle.
    public var retryAfter: Date?

    /// Creates an outcome (a sender makes them; this is for code that reports its own refusals
    /// the same way, and for tests).
    /// - Parameters:
    ///   - remedy: What to do next.
    ///   - refused: Whether nothing was sent because of the checks.
    ///   - diagnostics: The checks' findings.
    ///   - request: The last request.
    ///   - response: The last answer.
    ///   - attempts: Requests sent.
    ///   - environment: The environment of the last request.
    ///   - transportError: Why no answer came.
    ///   - retryAfter: When sending may resume.
    ///   - firstEnvironmentResponse: The first environment's answer, when the other was tried after it.
    public init(remedy: SendRemedy, refused: Bool, diagnostics: [Diagnostic], request: APNsRequest? = nil, response: APNsResponse? = nil,
                attempts: Int, environment: APNsEnvironment, transportError: String? = nil, retryAfter: Date? = nil,
                firstEnvironmentResponse: APNsResponse? = nil) {
        self.remedy = remedy
        self.refused = refused
        self.diagnostics = diagnostics
        self.request = request
        self.response = response
        self.attempts = attempts
        self.environment = environment
        self.transportError = transportError
        self.retryAfter = retryAfter
        self.firstEnvironmentResponse = firstEnvironmentResponse
    }

    /// `transportError` of a send its caller cancelled.
    static let cancelled = "the send was cancelled"

    /// Whether APNs took it (200).
    public var delivered: Bool { remedy == .delivered }

    /// What to do next, in a sentence: the remedy's advice for the answer's reason, or what
    /// no answer calls for, or what two environments' answers say together.
    public var advice: String {
        // No answer is no word from APNs: the network, the host or a proxy may be at fault.
        if response == nil, let transportError {
            // Not sent again, so not "send the current state again": a second start shows a second activity.
            if diagnostics.contains(where: { $0.code == DiagnosticCode.startUnconfirmed }) {
                return "no answer came to this start, which may have reached APNs: do not send it again until the device "
                    + "shows no activity from it (or no update token came from the app), since each start APNs takes shows another activity"
            }
            if transportError == Self.cancelled {
                return "the send was cancelled" + (attempts > 0 ? " after its request may have reached APNs: send the current state again if it is still wanted" : " before its request was sent")
            }
            // A stream APNs refused was answered, by a refusal, after every attempt.
            if transportError == APNsRefusedStreamError.message {
                return "APNs refused the stream each time before processing it (busy, or closing the connection): "
                    + "send the current state again later"
            }
            return "no answer came: check the network, the host and any proxy, then send the current state again"
        }
        if let first = firstEnvironmentResponse, let reason = response?.reason,
           reason == .badEnvironmentKeyInToken || reason == .badEnvironmentKeyIdInToken {
            return "this key is not allowed in \(environment) (\(reason)), so the token could not be tried there, and "
                + "\(environment.other) answered \(first.reason.map { "\($0)" } ?? "status \(first.status)"): try the token in "
                + "\(environment) with a key allowed there, or stop sending to it"
        }
        let broadcast = request?.path.hasPrefix("/4/broadcasts/") ?? false
        if broadcast, response?.reason == .badExpirationDate, request?.headers.first(where: { $0.name == "apns-expiration" })?.value == "0" {
            // The storage policy's advice is to send 0, which this request did.
            return "APNs refused apns-expiration 0, the value a channel with storage policy none takes: check the channel's id, "
                + "environment and storage policy (`livestate channels read ID`)"
        }
        return remedy.advice(for: response?.reason, broadcast: broadcast)
    }

    /// One line per fact: status, ids, reason and remedy.
    public var summary: String {
        if refused {
            // The most severe findings refused it: errors, or warnings (infos) when the caller
            // refuses those too, as `--fail-on warning` does.
            let worst = diagnostics.map(\.severity).max() ?? .error
            let count = diagnostics.filter { $0.severity == worst }.count
            return "refused before sending: \(count) " + (worst == .info ? "info finding(s)" : "\(worst.rawValue)(s)")
        }
        var parts: [String] = []
        if let response {
            parts += response.facts
        } else if let transportError {
            let host = request.map { " from \($0.host):\($0.port)" } ?? ""
            parts.append("no answer\(host): \(transportError)")
        }
        parts.append("\(environment)")
        if attempts > 1 { parts.append("\(attempts) attempts") }
        var line = parts.joined(separator: ", ")
        if let first = firstEnvironmentResponse {
            line += "\n\(environment.other) answered first: " + first.facts.joined(separator: ", ")
        }
        if !delivered {
            line += "\n" + remedy.rawValue + ": " + advice
        }
        if let retryAfter { line += " (not before \(Int(retryAfter.timeIntervalSince1970)))" }
        return line
    }
}

/// How often and how long a sender retries what may pass later: `TooManyRequests`, 5xx (after
/// `serverErrorDelay`, 15 minutes by default), `Shutdown`, `IdleTimeout` and connection failures. Each retry re-renders the state with a
/// fresh `timestamp`; what cannot pass later (a payload or credential problem) is never retried.
public struct RetryPolicy: Sendable, Hashable {
    /// Requests at most, the first included.
    public var maxAttempts: Int
    /// The wait before the first retry; it doubles for each one after.
    public var initialDelay: Duration
    /// The longest wait.
    public var maxDelay: Duration
    /// The wait before a push APNs answered with a 5xx (`InternalServerError`,
    /// `ServiceUnavailable`) is sent again; it doubles for each one after. Apple's guidance is 15
    /// minutes, with back-off: more than `maxDelay`, so by default such a push is not retried
    /// within the send, and the outcome's `retryAfter` says when it may be.
    public var serverErrorDelay: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: Requests at most, the first included.
    ///   - initialDelay: The wait before the first retry.
    ///   - maxDelay: The longest wait.
    ///   - serverErrorDelay: The wait after a 5xx answer.
    public init(maxAttempts: Int = 3, initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30),
                serverErrorDelay: Duration = .seconds(15 * 60)) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.serverErrorDelay = serverErrorDelay
    }

    /// No retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait after attempt `attempt` (1-based) failed: from `initialDelay`, or from
    /// `serverErrorDelay` after a 5xx answer, doubling.
    func delay(after attempt: Int, serverError: Bool = false) -> Duration {
        if serverError {
            var delay = serverErrorDelay
            for _ in 1..<max(1, attempt) where delay < .seconds(24 * 3600) { delay *= 2 }
            return delay
        }
        var delay = initialDelay
        for _ in 1..<max(1, attempt) where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay)
    }
}
