import Foundation

/// Which listener a request arrived on.
enum ListenerRole: Sendable {
    /// Device pushes and broadcasts (`api(.sandbox).push.apple.com`).
    case push
    /// Channel management (`api-manage-broadcast(.sandbox).push.apple.com`).
    case manage
}

/// A complete request as the server handlers collected it.
struct IncomingRequest: Sendable {
    var connection: Int
    var method: String
    var path: String
    /// Lowercased names, in order, pseudo-headers excluded.
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var isHTTP2: Bool
    /// `:authority` (HTTP/2), or `host` (HTTP/1.1).
    var authority: String? = nil

    /// The first value of a header (names are lowercased already).
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}

/// What the fake answers to one request.
struct Answer: Sendable {
    var status: Int
    /// The `reason` of a refusal; `nil` on success.
    var reason: String?
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    /// A success with these headers and body.
    static func success(
        _ status: Int,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) -> Answer {
        Answer(status: status, reason: nil, headers: headers, body: body)
    }

    /// A refusal: JSON `{"reason": ...}`, plus `timestamp` (milliseconds since 1970) when given.
    static func refusal(_ refusal: Refusal) -> Answer {
        var json = #"{"reason":"# + JSONText.string(refusal.reason)
        if let timestamp = refusal.timestamp {
            json += #","timestamp":"# + String(timestamp)
        }
        json += "}"
        return Answer(status: refusal.status, reason: refusal.reason, body: Array(json.utf8))
    }
}

/// A refused request: its status, `reason` and, on 410 only, `timestamp`.
struct Refusal: Error {
    var status: Int
    var reason: String
    var timestamp: Int64? = nil

    init(_ status: Int, _ reason: String, timestamp: Int64? = nil) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
    }
}

/// Apple's documented rules for device pushes, broadcasts and channel management, applied to
/// one request against the fake's state.
struct RequestRules {
    let configuration: FakeAPNs.Configuration
    let now: Date
    var state: FakeState

    /// The largest device push body: 4096 bytes.
    static let maximumPushPayload = 4096
    /// The largest broadcast body: 5120 bytes.
    static let maximumBroadcastPayload = 5120
    /// How long a connection must keep a provider token before it may use a new one: 20 minutes.
    static let tokenRefreshInterval: TimeInterval = 20 * 60

    /// Decides the answer to one request, updating the state.
    mutating func answer(_ request: IncomingRequest, role: ListenerRole) -> Answer {
        // A token is "seen" whatever happens next.
        if let jwt = ProviderToken.jwt(fromAuthorization: request.header("authorization")) {
            state.tokensSeen.insert(jwt)
        }
        guard request.isHTTP2 else {
            // APNs speaks only HTTP/2; the fake refuses HTTP/1.1 plainly so a test can see why.
            return .refusal(Refusal(505, "HTTPVersionNotSupported"))
        }
        if role == .push, !state.scriptedAnswers.isEmpty {
            let scripted = state.scriptedAnswers.removeFirst()
            if let location = scripted.location { return Answer(status: scripted.status, reason: nil, headers: [("location", location)]) }
            if let body = scripted.body { return Answer(status: scripted.status, reason: nil, body: body) }
            return .refusal(Refusal(scripted.status, scripted.reason))
        }
        do {
            switch role {
            case .push: return try answerPush(request)
            case .manage: return try answerManage(request)
            }
        } catch {
            return .refusal(error)
        }
    }

    // MARK: - Push port

    private mutating func answerPush(_ request: IncomingRequest) throws(Refusal) -> Answer {
        let path = Self.pathWithoutQuery(request.path)
        if path == "/3/device" || path.hasPrefix("/3/device/") {
            try requireMethod("POST", of: request)
            let token = path.hasPrefix("/3/device/") ? path.dropFirst("/3/device/".count) : ""
            return try answerDevicePush(request, token: String(token))
        }
        let broadcastPrefix = "/4/broadcasts/apps/"
        if path.hasPrefix(broadcastPrefix) {
            let bundleID = String(path.dropFirst(broadcastPrefix.count))
            if !bundleID.isEmpty, !bundleID.contains("/") {
                try requireMethod("POST", of: request)
                return try answerBroadcast(request, bundleID: bundleID)
            }
        }
        throw Refusal(404, "BadPath")
    }

    /// `POST /3/device/<token>`, rules in the order the fake checks them.
    private mutating func answerDevicePush(_ request: IncomingRequest, token: String) throws(Refusal) -> Answer {
        try rejectDuplicateHeaders(request)
        try authenticate(request)

        // Push type: Apple documents InvalidPushType; the fake answers it for a missing one too.
        guard request.header("apns-push-type") == "liveactivity" else {
            throw Refusal(400, "InvalidPushType")
        }

        // Topic: <bundle ID>.push-type.liveactivity for one of the team's apps.
        guard let topic = request.header("apns-topic") else { throw Refusal(400, "MissingTopic") }
        let topicBundleID = try bundleID(ofTopic: topic)

        if let id = request.header("apns-id"), !Self.isCanonicalUUID(id) {
            throw Refusal(400, "BadMessageId")
        }
        if let collapseID = request.header("apns-collapse-id"), collapseID.utf8.count > 64 {
            throw Refusal(400, "BadCollapseId")
        }
        if let priority = request.header("apns-priority"), priority != "5", priority != "10" {
            throw Refusal(400, "BadPriority")
        }
        if let expiration = request.header("apns-expiration"), !Self.isNonNegativeInteger(expiration) {
            throw Refusal(400, "BadExpirationDate")
        }

        // Device token.
        guard !token.isEmpty else { throw Refusal(400, "MissingDeviceToken") }
        guard token.utf8.count % 2 == 0, token.utf8.allSatisfy(\.isHexDigit) else {
            throw Refusal(400, "BadDeviceToken")
        }
        let tokenKey = token.lowercased()
        guard let record = state.tokens[tokenKey] else { throw Refusal(400, "BadDeviceToken") }
        if let owner = record.bundleID, owner != topicBundleID {
            throw Refusal(400, "DeviceTokenNotForTopic")
        }
        switch record.status {
        case .active: break
        case .unregistered(let date):
            throw Refusal(410, "Unregistered", timestamp: Self.milliseconds(date))
        case .expired(let date):
            throw Refusal(410, "ExpiredToken", timestamp: Self.milliseconds(date))
        }

        // Body.
        guard !request.body.isEmpty else { throw Refusal(400, "PayloadEmpty") }
        guard request.body.count <= Self.maximumPushPayload else { throw Refusal(413, "PayloadTooLarge") }

        // Per-token rate.
        if let limit = configuration.tokenRateLimit {
            let windowStart = now.addingTimeInterval(-limit.seconds)
            var times = state.pushTimes[tokenKey, default: []].filter { $0 > windowStart }
            guard times.count < limit.count else {
                state.pushTimes[tokenKey] = times
                throw Refusal(429, "TooManyRequests")
            }
            times.append(now)
            state.pushTimes[tokenKey] = times
        }

        var headers: [(name: String, value: String)] = [
            ("apns-id", request.header("apns-id") ?? Self.newUUID())
        ]
        if configuration.environment == .sandbox {
            headers.append(("apns-unique-id", Self.newUUID()))
        }
        return .success(200, headers: headers)
    }

    /// The bundle ID a device-push topic names, or the refusal APNs gives for the topic.
    private func bundleID(ofTopic topic: String) throws(Refusal) -> String {
        let suffix = ".push-type.liveactivity"
        let owner = configuration.bundleIDs
            .filter { topic == $0 || topic.hasPrefix($0 + ".") }
            .max { $0.count < $1.count }
        guard let owner else { throw Refusal(400, "TopicDisallowed") }
        guard topic == owner + suffix else {
            // A longer team bundle may be the real owner (com.a and com.a.widget).
            if topic.hasSuffix(suffix) {
                let named = String(topic.dropLast(suffix.count))
                if configuration.bundleIDs.contains(named) { return named }
                throw Refusal(400, "TopicDisallowed")
            }
            throw Refusal(400, "BadTopic")
        }
        return owner
    }

    /// `POST /4/broadcasts/apps/<bundle ID>`.
    private mutating func answerBroadcast(_ request: IncomingRequest, bundleID: String) throws(Refusal) -> Answer {
        try rejectDuplicateHeaders(request)
        try authenticate(request)
        try requireBroadcastApp(bundleID)

        // Apple's broadcast doc lists no apns-topic; one sent anyway is ignored.
        guard let pushType = request.header("apns-push-type") else { throw Refusal(400, "MissingPushType") }
        guard pushType.lowercased() == "liveactivity" else { throw Refusal(400, "InvalidPushType") }

        let channel = try existingChannel(request, bundleID: bundleID)

        guard let expiration = request.header("apns-expiration"), Self.isNonNegativeInteger(expiration) else {
            throw Refusal(400, "BadExpirationDate")
        }
        if channel.messageStoragePolicy == 0, expiration.contains(where: { $0 != "0" }) {
            throw Refusal(400, "BadExpirationDate")
        }
        if let priority = request.header("apns-priority"), !["1", "5", "10"].contains(priority) {
            throw Refusal(400, "BadPriority")
        }

        guard !request.body.isEmpty else { throw Refusal(400, "PayloadEmpty") }
        guard request.body.count <= Self.maximumBroadcastPayload else { throw Refusal(413, "PayloadTooLarge") }
        guard let payload = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
            throw Refusal(400, "BadRequestPayload")
        }
        // A broadcast updates or ends activities; it cannot start one.
        if let aps = payload["aps"] as? [String: Any], let event = aps["event"] as? String, event == "start" {
            throw Refusal(400, "BadRequestPayload")
        }

        return .success(
            200,
            headers: [
                ("apns-request-id", request.header("apns-request-id") ?? Self.newUUID()),
                ("apns-unique-id", Self.newUUID()),
            ]
        )
    }

    // MARK: - Manage port

    private mutating func answerManage(_ request: IncomingRequest) throws(Refusal) -> Answer {
        let path = Self.pathWithoutQuery(request.path)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "1", "apps", <bundle ID>, "channels" | "all-channels"
        guard segments.count == 5, segments[0].isEmpty, segments[1] == "1", segments[2] == "apps",
            !segments[3].isEmpty
        else { throw Refusal(404, "BadPath") }
        let bundleID = String(segments[3])
        switch segments[4] {
        case "channels":
            guard ["POST", "GET", "DELETE"].contains(request.method) else {
                throw Refusal(405, "MethodNotAllowed")
            }
        case "all-channels":
            try requireMethod("GET", of: request)
        default:
            throw Refusal(404, "BadPath")
        }

        try rejectDuplicateHeaders(request)
        try authenticate(request)
        try requireBroadcastApp(bundleID)

        let requestID = ("apns-request-id", request.header("apns-request-id") ?? Self.newUUID())
        if segments[4] == "all-channels" {
            let ids = state.channels.filter { $0.bundleID == bundleID }.map(\.id)
            let json = #"{"channels":["# + ids.map(JSONText.string).joined(separator: ",") + "]}"
            return .success(200, headers: [requestID], body: Array(json.utf8))
        }

        switch request.method {
        case "POST":
            let policy = try channelConfiguration(request.body)
            guard state.channels.count(where: { $0.bundleID == bundleID }) < configuration.channelLimit else {
                throw Refusal(400, "CannotCreateChannelConfig")
            }
            var random = SystemRandomNumberGenerator()
            let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            let id = Data(bytes).base64EncodedString()
            state.channels.append(ChannelRecord(bundleID: bundleID, id: id, messageStoragePolicy: policy))
            return .success(201, headers: [("apns-channel-id", id), requestID])
        case "GET":
            let channel = try existingChannel(request, bundleID: bundleID)
            let json = #"{"message-storage-policy":\#(channel.messageStoragePolicy),"push-type":"LiveActivity"}"#
            return .success(200, headers: [requestID], body: Array(json.utf8))
        default:  // DELETE
            let channel = try existingChannel(request, bundleID: bundleID)
            state.channels.removeAll { $0.bundleID == bundleID && $0.id == channel.id }
            return .success(204, headers: [requestID])
        }
    }

    /// The body of a channel creation: `{"message-storage-policy": 0 or 1, "push-type": "LiveActivity"}`.
    private func channelConfiguration(_ body: [UInt8]) throws(Refusal) -> Int {
        struct ChannelConfiguration: Decodable {
            var messageStoragePolicy: Int
            var pushType: String
            enum CodingKeys: String, CodingKey {
                case messageStoragePolicy = "message-storage-policy"
                case pushType = "push-type"
            }
        }
        guard let decoded = try? JSONDecoder().decode(ChannelConfiguration.self, from: Data(body)),
            decoded.messageStoragePolicy == 0 || decoded.messageStoragePolicy == 1,
            decoded.pushType == "LiveActivity"
        else { throw Refusal(400, "BadRequestPayload") }
        return decoded.messageStoragePolicy
    }

    // MARK: - Shared rules

    private func requireMethod(_ method: String, of request: IncomingRequest) throws(Refusal) {
        guard request.method == method else { throw Refusal(405, "MethodNotAllowed") }
    }

    private func rejectDuplicateHeaders(_ request: IncomingRequest) throws(Refusal) {
        var names: Set<String> = []
        for header in request.headers where !names.insert(header.name).inserted {
            throw Refusal(400, "DuplicateHeaders")
        }
    }

    /// The bundle in a broadcast or channel path must be one of the team's apps, with the
    /// Broadcast capability on.
    private func requireBroadcastApp(_ bundleID: String) throws(Refusal) {
        guard configuration.bundleIDs.contains(bundleID) else { throw Refusal(403, "TopicMismatch") }
        guard configuration.broadcastEnabled else { throw Refusal(400, "FeatureNotEnabled") }
    }

    /// The channel named by the `apns-channel-id` header, which must exist for this app.
    private func existingChannel(_ request: IncomingRequest, bundleID: String) throws(Refusal) -> ChannelRecord {
        guard let id = request.header("apns-channel-id") else { throw Refusal(400, "MissingChannelId") }
        guard !id.isEmpty, let decoded = Data(base64Encoded: id), !decoded.isEmpty else {
            throw Refusal(400, "BadChannelId")
        }
        guard let channel = state.channels.first(where: { $0.bundleID == bundleID && $0.id == id }) else {
            throw Refusal(400, "ChannelNotRegistered")
        }
        return channel
    }

    /// The provider token rules, including the per-connection ones.
    private mutating func authenticate(_ request: IncomingRequest) throws(Refusal) {
        guard let jwt = ProviderToken.jwt(fromAuthorization: request.header("authorization")) else {
            throw Refusal(403, ProviderToken.Refusal.missing.rawValue)
        }
        let token: ProviderToken
        if let verified = state.verifiedTokens[jwt] {
            if now.timeIntervalSince(verified.issuedAt) > ProviderToken.maximumAge {
                throw Refusal(403, ProviderToken.Refusal.expired.rawValue)
            }
            token = verified
        } else {
            do {
                token = try ProviderToken.verify(
                    jwt,
                    keys: configuration.keys,
                    environment: configuration.environment,
                    now: now
                )
            } catch {
                throw Refusal(403, error.rawValue)
            }
            state.verifiedTokens[jwt] = token
        }

        var connection = state.connections[request.connection] ?? ConnectionAuthentication()
        defer { state.connections[request.connection] = connection }
        if let bound = connection.boundKeyID, bound != token.keyID {
            throw Refusal(403, "UnrelatedKeyIdInToken")
        }
        connection.boundKeyID = token.keyID
        if let current = connection.currentToken, current != jwt, let since = connection.currentTokenSince,
            now.timeIntervalSince(since) < Self.tokenRefreshInterval
        {
            throw Refusal(429, "TooManyProviderTokenUpdates")
        }
        if connection.currentToken != jwt {
            connection.currentToken = jwt
            connection.currentTokenSince = now
        }
    }

    // MARK: - Formats

    /// 8-4-4-4-12 hexadecimal digits, either case.
    static func isCanonicalUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.utf8.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.utf8.allSatisfy(\.isHexDigit) }
    }

    static func isNonNegativeInteger(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    static func newUUID() -> String {
        UUID().uuidString.lowercased()
    }

    static func pathWithoutQuery(_ path: String) -> Substring {
        path.prefix { $0 != "?" }
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

/// Writes JSON text by hand, for the fake's few small answers.
enum JSONText {
    /// A JSON string literal.
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
