import Crypto
import FakeAPNs
import Foundation
import LiveState
import LiveStateYAML
@testable import LiveStateAPNs

/// A started fake APNs, a key it knows, and a sender wired to it.
struct Harness {
    static let bundleID = "com.example.delivery"
    static let keyID = "ABC123DEFG"
    static let teamID = "TEAM123456"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schema: Schema = try! SchemaLoader().load(contentsOf: packageRoot.appendingPathComponent("schemas/delivery.yaml").path)

    let fake: FakeAPNs
    let key: P256.Signing.PrivateKey
    let clock: TestClock
    let transport: HTTPClientTransport

    /// Starts a fake playing `environment` that knows one key.
    static func start(_ environment: FakeAPNs.Environment = .sandbox, key: P256.Signing.PrivateKey = .init(),
                      clock: TestClock = TestClock(Date()), configure: (inout FakeAPNs.Configuration) -> Void = { _ in }) async throws -> Harness {
        var configuration = FakeAPNs.Configuration(
            environment: environment, bundleIDs: [bundleID],
            keys: [FakeAPNs.Key(keyID: keyID, teamID: teamID, publicKey: key.publicKey)], now: clock.function)
        configure(&configuration)
        let fake = try await FakeAPNs.start(configuration)
        return Harness(fake: fake, key: key, clock: clock, transport: try HTTPClientTransport(trustRootsPEM: fake.certificatePEM))
    }

    var endpoints: APNsEndpoints {
        APNsEndpoints(pushHost: "localhost", pushPort: fake.pushPort, manageHost: "localhost", managePort: fake.managePort)
    }

    /// An update request to the registered device, signed with `token`, built by hand (for the
    /// transport alone).
    func deviceRequest(token: String, timestamp: Int = 1) -> APNsRequest {
        APNsRequest(method: "POST", host: endpoints.pushHost, port: endpoints.pushPort, path: "/3/device/" + Self.deviceToken,
                    headers: [.init("authorization", "bearer " + token), .init("apns-push-type", "liveactivity"),
                              .init("apns-topic", Self.bundleID + ".push-type.liveactivity")],
                    body: Array(#"{"aps":{"timestamp":\#(timestamp),"event":"update","content-state":{}}}"#.utf8))
    }

    func tokens() -> ProviderTokenCache {
        ProviderTokenCache(key: ProviderKey(privateKey: key, keyID: Self.keyID, teamID: Self.teamID), clock: clock.sendClock)
    }

    /// A sender to this fake; `sleeps` collects the waits, which move the clock instead of waiting.
    func sender(versions: [Int]? = [2, 3], tokens: ProviderTokenCache? = nil, retry: RetryPolicy = .init(),
                otherEnvironment: Harness? = nil, environment: APNsEnvironment = .sandbox, validates: Bool = true,
                sleeps: Sleeps = Sleeps(), transport: HTTPClientTransport? = nil) throws -> LiveActivitySender {
        var endpoints: [APNsEnvironment: APNsEndpoints] = [environment: self.endpoints]
        if let otherEnvironment { endpoints[environment.other] = otherEnvironment.endpoints }
        let clock = self.clock
        return try LiveActivitySender(
            schema: Self.schema, versions: versions, tokens: tokens ?? self.tokens(),
            configuration: .init(bundleID: Self.bundleID, environment: environment, endpoints: endpoints,
                                 retryOtherEnvironment: otherEnvironment != nil, retry: retry, validates: validates),
            transport: transport ?? self.transport, clock: clock.sendClock,
            sleep: { duration in
                sleeps.append(duration)
                clock.advance(minutes: duration.seconds / 60)
            })
    }

    func channels(tokens: ProviderTokenCache? = nil) throws -> BroadcastChannels {
        try BroadcastChannels(bundleID: Self.bundleID, environment: .sandbox, endpoints: endpoints, tokens: tokens ?? self.tokens(), transport: transport)
    }

    func stop() async throws {
        try await transport.shutdown()
        try await fake.shutdown()
    }

    static let deviceToken = String(repeating: "5e", count: 32)

    static func update(_ state: Value = .object([.init("title", .string("On its way")), .init("progress", .double(0.5))]),
                       event: ActivityEvent = .update, token: String = deviceToken, headers: PushHeaders = .init()) -> LiveActivityPush {
        LiveActivityPush(target: .device(token: token), content: .state(state, envelope: .init(event: event, timestamp: 0)), headers: headers)
    }
}

/// The waits a sender asked for.
final class Sleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Duration] = []
    func append(_ duration: Duration) { lock.withLock { list.append(duration) } }
    var all: [Duration] { lock.withLock { list } }
}

extension FakeAPNs.Request {
    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// `aps.timestamp` of the body.
    var timestamp: Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let aps = object["aps"] as? [String: Any] else { return nil }
        return (aps["timestamp"] as? NSNumber)?.intValue
    }
}
