import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The shared core of a fake: its configuration and its mutable state behind one lock.
final class FakeCore: Sendable {
    let configuration: FakeAPNs.Configuration
    let state: NIOLockedValueBox<FakeState>

    init(configuration: FakeAPNs.Configuration) {
        self.configuration = configuration
        self.state = NIOLockedValueBox(FakeState())
    }

    /// Numbers a newly accepted TCP connection.
    func openConnection() -> Int {
        state.withLockedValue { state in
            let number = state.connectionCount
            state.connectionCount += 1
            state.connections[number] = ConnectionAuthentication()
            return number
        }
    }

    /// Forgets a closed connection's provider-token state.
    func closeConnection(_ number: Int) {
        state.withLockedValue { _ = $0.connections.removeValue(forKey: number) }
    }

    /// Whether the stream whose request headers just came is one to refuse; counts it if so.
    func takeStreamToRefuse() -> Bool {
        state.withLockedValue { state in
            guard state.streamsToRefuse > 0 else { return false }
            state.streamsToRefuse -= 1
            state.refusedStreams += 1
            return true
        }
    }

    /// Applies the rules to one request, records it with its answer, and returns the answer.
    func answer(_ request: IncomingRequest, role: ListenerRole) -> Answer {
        let now = configuration.now()
        return state.withLockedValue { state in
            // The state moves into the rules and back, never copied: a copy would make every
            // collection in it copy itself on its next change (one request's cost would grow
            // with the number of requests before it).
            var rules = RequestRules(configuration: configuration, now: now, state: FakeState())
            swap(&rules.state, &state)
            let answer = rules.answer(request, role: role)
            swap(&rules.state, &state)
            guard configuration.recordsRequests else { return answer }
            state.requests.append(
                FakeAPNs.Request(
                    connection: request.connection,
                    method: request.method,
                    path: request.path,
                    headers: request.headers,
                    body: request.body,
                    status: answer.status,
                    reason: answer.reason,
                    isHTTP2: request.isHTTP2,
                    authority: request.authority
                )
            )
            return answer
        }
    }
}

/// Everything a fake remembers between requests.
struct FakeState {
    var connectionCount = 0
    var connections: [Int: ConnectionAuthentication] = [:]
    /// Device tokens by lowercased hex.
    var tokens: [String: DeviceTokenRecord] = [:]
    /// When each device token's accepted pushes arrived, for the rate limit.
    var pushTimes: [String: [Date]] = [:]
    var channels: [ChannelRecord] = []
    var scriptedAnswers: [ScriptedAnswer] = []
    /// How long each answer waits before it is written (``FakeAPNs/delayAnswers(by:)``).
    var answerDelay: TimeAmount = .zero
    /// Whether answers stop after their head and first bytes (``FakeAPNs/stallAnswers()``).
    var stallsAnswers = false
    /// Streams still to reset with `REFUSED_STREAM` (``FakeAPNs/refuseNextStreams(_:)``), and
    /// those reset so far.
    var streamsToRefuse = 0
    var refusedStreams = 0
    var requests: [FakeAPNs.Request] = []
    var tokensSeen: Set<String> = []
    /// Provider tokens whose signature was verified, by their text: a token is verified once,
    /// and its age checked on every request.
    var verifiedTokens: [String: ProviderToken] = [:]
}

/// What a connection's provider tokens have bound it to. APNs measures these per connection.
struct ConnectionAuthentication {
    /// The key identifier of the first accepted token; later tokens must use the same key.
    var boundKeyID: String?
    /// The last distinct token accepted on the connection, and when it was first used on it.
    var currentToken: String?
    var currentTokenSince: Date?
}

/// A device token the fake was told about.
struct DeviceTokenRecord {
    enum Status {
        case active
        case unregistered(Date)
        case expired(Date)
    }

    /// The app the token belongs to, or `nil` when only its end was given.
    var bundleID: String?
    var status: Status
}

/// A broadcast channel.
struct ChannelRecord {
    var bundleID: String
    var id: String
    var messageStoragePolicy: Int
}

/// An answer given instead of processing a request (``FakeAPNs/answerNext(_:status:reason:)``).
struct ScriptedAnswer {
    var status: Int
    var reason: String
    /// A redirect's `location` (``FakeAPNs/redirectNext(status:to:)``); `nil` for a refusal.
    var location: String? = nil
    /// The exact body (``FakeAPNs/answerNext(_:status:body:)``), instead of `{"reason": reason}`.
    var body: [UInt8]? = nil
}
