import Foundation
import LiveState
import LiveStateTooling

/// Creates, reads, lists and deletes the broadcast channels of one app in one environment.
///
/// Channel requests go to the management host (`api-manage-broadcast(.sandbox).push.apple.com`,
/// port 2195 sandbox, 2196 production). Read and delete name the channel in the
/// `apns-channel-id` header, never in the path.
public struct BroadcastChannels: Sendable {
    /// Whether APNs keeps a channel's latest message for devices that are offline.
    public enum StoragePolicy: Int, Sendable, Hashable, CaseIterable {
        /// Nothing is stored; broadcasts must carry `apns-expiration: 0`.
        case noMessageStored = 0
        /// The most recent message is stored.
        case mostRecentMessageStored = 1
    }

    /// A channel as APNs describes it.
    public struct Channel: Sendable, Hashable {
        /// The base64 channel id.
        public var id: String
        /// Its storage policy, when APNs said.
        public var storagePolicy: StoragePolicy?
        /// Its push type (`LiveActivity`), when APNs said.
        public var pushType: String?
    }

    /// The app's bundle id.
    public let bundleID: String
    /// The environment.
    public let environment: APNsEnvironment
    let endpoints: APNsEndpoints
    let tokens: ProviderTokenCache
    let transport: any APNsTransport

    /// Creates a channel client.
    /// - Parameters:
    ///   - bundleID: The app's bundle id (a `.push-type.liveactivity` suffix is taken off).
    ///   - environment: The environment (channels do not cross environments).
    ///   - endpoints: The hosts (Apple's by default).
    ///   - tokens: The provider tokens.
    ///   - transport: What carries requests.
    /// - Throws: `SenderSetupError` when the bundle id is not one.
    public init(bundleID: String, environment: APNsEnvironment, endpoints: APNsEndpoints? = nil,
                tokens: ProviderTokenCache, transport: any APNsTransport) throws(SenderSetupError) {
        self.bundleID = try PushRequestRules.requireBundleID(from: bundleID)
        self.environment = environment
        self.endpoints = endpoints ?? .apple(environment)
        self.tokens = tokens
        self.transport = transport
    }

    /// The request that creates a channel.
    /// - Parameter policy: Its storage policy.
    public func createRequest(_ policy: StoragePolicy) async -> APNsRequest {
        let body = #"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#
        return await request("POST", "channels", channel: nil, body: Array(body.utf8))
    }

    /// The request that lists every channel.
    public func listRequest() async -> APNsRequest { await request("GET", "all-channels", channel: nil) }

    /// The request that reads (`GET`) or deletes (`DELETE`) a channel.
    /// - Parameters:
    ///   - method: `GET` or `DELETE`.
    ///   - id: The channel id.
    public func channelRequest(_ method: String, _ id: String) async -> APNsRequest {
        await request(method, "channels", channel: id)
    }

    /// Creates a channel.
    /// - Parameter policy: Its storage policy.
    /// - Returns: The new channel's id.
    /// - Throws: `ChannelError` with APNs's answer.
    public func create(_ policy: StoragePolicy) async throws(ChannelError) -> String {
        let response = try await send(await createRequest(policy), expecting: 201)
        guard let id = response.channelID else {
            throw ChannelError(message: "APNs created a channel but sent no apns-channel-id", response: response)
        }
        if let problem = Self.problem(withChannelID: id) {
            throw ChannelError(message: "the apns-channel-id of the answer is not a channel id: \(problem.message)", response: response)
        }
        return id
    }

    /// Reads a channel's settings.
    /// - Parameter id: The channel id.
    /// - Returns: The channel.
    /// - Throws: `ChannelError` for a malformed id or APNs's error answer.
    public func read(_ id: String) async throws(ChannelError) -> Channel {
        try check(id)
        let response = try await send(await channelRequest("GET", id), expecting: 200)
        guard let settings = try? Value.parse(json: response.body),
              case .object = settings else {
            throw ChannelError(message: "APNs answered the channel read without its settings (a JSON object)" + Self.cut(response),
                               response: response)
        }
        var channel = Channel(id: id)
        if case .int(let policy)? = settings["message-storage-policy"] { channel.storagePolicy = StoragePolicy(rawValue: policy) }
        if case .string(let type)? = settings["push-type"] { channel.pushType = type }
        return channel
    }

    /// Lists the app's channels in this environment.
    /// - Returns: Their ids.
    /// - Throws: `ChannelError` with APNs's answer.
    public func list() async throws(ChannelError) -> [String] {
        let response = try await send(await listRequest(), expecting: 200)
        guard let list = try? Value.parse(json: response.body),
              case .array(let items)? = list["channels"] else {
            throw ChannelError(message: "APNs answered the channel list without a \"channels\" array" + Self.cut(response),
                               response: response)
        }
        // An id goes on a line of its own, and into the next request's header: one that is not
        // base64 is not printed as one.
        var ids: [String] = []
        for item in items {
            guard case .string(let id) = item, Self.problem(withChannelID: id) == nil else {
                throw ChannelError(message: "APNs listed \(ValueText.render(item).prefix(80)), which is not a channel id", response: response)
            }
            ids.append(id)
        }
        return ids
    }

    /// Deletes a channel; stored messages may still be delivered afterwards.
    /// - Parameter id: The channel id.
    /// - Throws: `ChannelError` for a malformed id or APNs's error answer.
    public func delete(_ id: String) async throws(ChannelError) {
        try check(id)
        _ = try await send(await channelRequest("DELETE", id), expecting: 204)
    }

    /// Why a channel id cannot be one (a `bad-channel-id` error), or `nil`: what `read` and
    /// `delete` check before sending.
    /// - Parameter id: The channel id.
    public static func problem(withChannelID id: String) -> Diagnostic? {
        PushHistory.Target.problem(withChannel: id).map { PushRequestRules.finding(.badChannelID, $0) }
    }

    private func check(_ id: String) throws(ChannelError) {
        if let problem = Self.problem(withChannelID: id) {
            throw ChannelError(message: "\(problem.message) [\(problem.code)]", response: nil)
        }
    }

    private func request(_ method: String, _ resource: String, channel: String?, body: [UInt8] = []) async -> APNsRequest {
        var headers = [APNsRequest.Header("authorization", "bearer \(await tokens.token(for: environment))")]
        if let channel { headers.append(.init("apns-channel-id", channel)) }
        return APNsRequest(method: method, host: endpoints.manageHost, port: endpoints.managePort,
                           path: "/1/apps/\(bundleID)/\(resource)", headers: headers, body: body)
    }

    /// What to do after a channel request's error answer: the remedy's advice, but where it
    /// speaks of a device token or of a state to send, what it means for a channel request.
    static func advice(_ remedy: SendRemedy, reason: APNsReason?) -> String {
        switch remedy {
        case .backOffToken: "too many channel requests: wait before the next"
        case .retryLater, .reconnect: "APNs had a problem: send the request again later, with back-off"
        case .tokenDead: "the channel is no longer there: stop using it"
        default: remedy.advice(for: reason)
        }
    }

    /// ` (the body did not end in time)`, or nothing when the body came whole.
    private static func cut(_ response: APNsResponse) -> String {
        response.truncation.map { " (\($0))" } ?? ""
    }

    private func send(_ request: APNsRequest, expecting status: Int) async throws(ChannelError) -> APNsResponse {
        let response: APNsResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw ChannelError(message: "no answer from \(request.host):\(request.port): \(error)", response: nil)
        }
        guard response.status == status || (200..<300).contains(response.status) else {
            let remedy = SendRemedy(status: response.status, reason: response.reason)
            throw ChannelError(message: response.facts.joined(separator: ", ")
                               + "\n\(remedy.rawValue): \(Self.advice(remedy, reason: response.reason))", response: response)
        }
        return response
    }
}

/// A channel request that failed: why, and APNs's answer when there was one.
public struct ChannelError: Error, Sendable, CustomStringConvertible {
    /// What happened.
    public var message: String
    /// APNs's answer.
    public var response: APNsResponse?
    public var description: String { message }
}
