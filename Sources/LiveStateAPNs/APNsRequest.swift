import Foundation
import LiveState

/// One HTTP/2 request to APNs, exactly as it is sent: what `--dry-run` prints.
public struct APNsRequest: Sendable, Hashable {
    /// One header.
    public struct Header: Sendable, Hashable {
        /// The lower-case name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a header.
        /// - Parameters:
        ///   - name: The lower-case name.
        ///   - value: The value.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `POST`, `GET` or `DELETE`.
    public var method: String
    /// The host.
    public var host: String
    /// The port.
    public var port: Int
    /// The `:path`.
    public var path: String
    /// The headers, in the order sent.
    public var headers: [Header]
    /// The body (empty for `GET` and `DELETE`).
    public var body: [UInt8]

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - host: The host.
    ///   - port: The port.
    ///   - path: The path.
    ///   - headers: The headers.
    ///   - body: The body.
    public init(method: String, host: String, port: Int, path: String, headers: [Header], body: [UInt8] = []) {
        self.method = method
        self.host = host
        self.port = port
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The `:authority` as sent: the host, and its port unless it is HTTPS's own, 443 (the
    /// HTTP client leaves that one out).
    public var authority: String { port == 443 ? host : "\(host):\(port)" }

    /// The value of a header, by lower-case name.
    /// - Parameter name: The name.
    public subscript(header name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// This request with the provider token's signature withheld: what `--dry-run` prints.
    ///
    /// A signed token is a credential for every push to the team's apps for up to an hour, and a
    /// dry run's output often lands in a CI log. The token's header and claims stay readable
    /// (`kid`, `iss`, `iat`, to check which key and team sign), its signature becomes
    /// ``withheldSignature``, so that the printed token cannot be sent.
    public var withholdingCredentials: APNsRequest {
        var copy = self
        copy.headers = headers.map { header in
            guard header.name == "authorization" else { return header }
            let scheme = "bearer "
            guard header.value.hasPrefix(scheme) else { return Header(header.name, Self.withheldSignature) }
            let parts = header.value.dropFirst(scheme.count).split(separator: ".", omittingEmptySubsequences: false)
            let kept = parts.count == 3 ? parts[0] + "." + parts[1] + "." : ""
            return Header(header.name, scheme + kept + Self.withheldSignature)
        }
        return copy
    }

    /// What stands for a withheld signature or credential.
    public static let withheldSignature = "SIGNATURE-WITHHELD"

    /// The request as text: pseudo-headers, headers, a blank line and the body.
    ///
    /// ```
    /// :method: POST
    /// :scheme: https
    /// :authority: api.sandbox.push.apple.com
    /// :path: /3/device/0f1e…
    /// authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6…
    /// apns-push-type: liveactivity
    /// …
    ///
    /// {"aps":{…}}
    /// ```
    public var rendered: String {
        var lines = [":method: \(method)", ":scheme: https", ":authority: \(authority)", ":path: \(path)"]
        lines += headers.map { "\($0.name): \($0.value)" }
        // A blank line and the body, when there is one (`GET` and `DELETE` have none).
        if !body.isEmpty {
            lines.append("")
            lines.append(String(decoding: body, as: UTF8.self))
        }
        return lines.joined(separator: "\n")
    }
}

/// What APNs answered.
public struct APNsResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// `apns-id`: the request's, or the one APNs made.
    public var apnsID: String?
    /// `apns-unique-id`: development only; look it up in the Push Notifications Console.
    public var uniqueID: String?
    /// `apns-request-id` (broadcast and channel requests).
    public var requestID: String?
    /// `apns-channel-id` (a created channel).
    public var channelID: String?
    /// The error's `reason`, when not 200.
    public var reason: APNsReason?
    /// On 410: when the token stopped being valid.
    public var timestamp: Date?
    /// The body (a channel's or the channel list's JSON), or what came of it.
    public var body: [UInt8]
    /// Why `body` is not all of the body, when it is not. The status still stands: an answer is
    /// never taken for no answer because of its body.
    public var truncation: Truncation?

    /// The start of a body that says no `reason` (a proxy's HTML page, a text error), printable
    /// and at most 80 characters: what there is to read of an answer APNs did not explain;
    /// `nil` on 200, when there is a reason, or no body.
    public var unexplainedBody: String? {
        guard status != 200, reason == nil, !body.isEmpty else { return nil }
        return Diagnostic.printable(Diagnostic.quoted(String(decoding: body.prefix(320), as: UTF8.self)))
    }

    /// The answer's facts, as a summary lists them: `status 400`, its ids, `reason …`, when the
    /// token died, why the body is cut short, and the start of a body that says no reason.
    var facts: [String] {
        var facts = ["status \(status)"]
        if let apnsID { facts.append("apns-id \(apnsID)") }
        if let uniqueID { facts.append("apns-unique-id \(uniqueID)") }
        if let requestID { facts.append("apns-request-id \(requestID)") }
        // As sent: a reason is APNs's word, but a proxy or a test server may write anything.
        if let reason { facts.append("reason \(Diagnostic.printable("\(reason)"))") }
        if let timestamp { facts.append("invalid since \(Int(timestamp.timeIntervalSince1970 * 1000)) ms") }
        if let truncation { facts.append("\(truncation)") }
        if let unexplainedBody { facts.append("body \"\(unexplainedBody)\"") }
        return facts
    }

    /// How a body came to be cut short.
    public enum Truncation: Sendable, Hashable, CustomStringConvertible {
        /// It was longer than `limit` bytes: the first `limit` are kept.
        case tooLarge(limit: Int)
        /// It did not end by the deadline: what came is kept.
        case stalled
        /// Its stream broke off, for the reason given: what came is kept.
        case brokenOff(String)

        /// `the body was cut at 1 MiB`, `the body did not end in time`, `the body broke off (…)`.
        public var description: String {
            switch self {
            case .tooLarge(let limit):
                "the body was cut at " + (limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
            case .stalled: "the body did not end in time"
            case .brokenOff(let reason): "the body broke off (\(reason))"
            }
        }
    }

    /// Creates a response.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - apnsID: `apns-id`.
    ///   - uniqueID: `apns-unique-id`.
    ///   - requestID: `apns-request-id`.
    ///   - channelID: `apns-channel-id`.
    ///   - reason: The error's reason.
    ///   - timestamp: The 410 timestamp.
    ///   - body: The body.
    ///   - truncation: Why `body` is not all of it, when it is not.
    public init(status: Int, apnsID: String? = nil, uniqueID: String? = nil, requestID: String? = nil, channelID: String? = nil,
                reason: APNsReason? = nil, timestamp: Date? = nil, body: [UInt8] = [], truncation: Truncation? = nil) {
        self.status = status
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.requestID = requestID
        self.channelID = channelID
        self.reason = reason
        self.timestamp = timestamp
        self.body = body
        self.truncation = truncation
    }
}
