// Pushes per second on one HTTP/2 connection to the loopback fake APNs, with the sender's
// checks on and off, side by side in one run:
//
//     swift build -c release --product SendDriver
//     .build/release/SendDriver [SECONDS (60)] [IN-FLIGHT (100)]
//
// The state is cs600 (the shared 604-byte content-state) as app version 3 decodes it, sent as an
// update that versions 2 and 3 must both decode. The run alternates 5-second rounds of each
// mode after a 2-second warm-up, so that both see the same machine; it prints pushes/s per
// mode, what the checks cost, and how many provider tokens were minted and seen (one is right:
// one JWT per key, shared by every send, over the whole run).
import BenchmarkFixtures
import Crypto
import FakeAPNs
import Foundation
import LiveState
import LiveStateAPNs

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.first.flatMap(Double.init) ?? 60
let inFlight = arguments.dropFirst().first.flatMap(Int.init) ?? 100
let bundleID = "com.example.delivery"
let deviceToken = String(repeating: "5e", count: 32)

let privateKey = P256.Signing.PrivateKey()
var configuration = FakeAPNs.Configuration(
    bundleIDs: [bundleID], keys: [FakeAPNs.Key(keyID: "ABC123DEFG", teamID: "TEAM123456", publicKey: privateKey.publicKey)])
configuration.recordsRequests = false
let fake = try await FakeAPNs.start(configuration)
fake.register(deviceToken: deviceToken, bundleID: bundleID)
let transport = try HTTPClientTransport(trustRootsPEM: fake.certificatePEM)
let tokens = ProviderTokenCache(key: ProviderKey(privateKey: privateKey, keyID: "ABC123DEFG", teamID: "TEAM123456"))
let endpoints = APNsEndpoints(pushHost: "localhost", pushPort: fake.pushPort, manageHost: "localhost", managePort: fake.managePort)

func sender(validates: Bool) throws -> LiveActivitySender {
    try LiveActivitySender(
        schema: DeliverySchema.schema, versions: [2, 3], tokens: tokens,
        configuration: .init(bundleID: bundleID, environment: .sandbox, endpoints: [.sandbox: endpoints], retry: .never, validates: validates),
        transport: transport)
}

guard let state = DeliverySchema.decoder().decode(contentState: Payloads.bytes("cs600")).state else {
    fatalError("cs600 does not decode")
}
let push = LiveActivityPush(target: .device(token: deviceToken), content: .state(state, envelope: .init(event: .update, timestamp: 0)),
                            headers: .init(priority: 5))
let checked = try sender(validates: true)
let unchecked = try sender(validates: false)

/// Sends with `inFlight` concurrent pushes for `duration` seconds; returns (sent, not delivered).
func round(_ sender: LiveActivitySender, _ duration: Double) async -> (sent: Int, failed: Int) {
    let deadline = ContinuousClock.now + .milliseconds(Int(duration * 1000))
    return await withTaskGroup(of: (Int, Int).self) { group in
        for _ in 0..<inFlight {
            group.addTask {
                var sent = 0
                var failed = 0
                while ContinuousClock.now < deadline {
                    let outcome = await sender.send(push)
                    sent += 1
                    if !outcome.delivered { failed += 1 }
                }
                return (sent, failed)
            }
        }
        return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
}

_ = await round(checked, 1)
_ = await round(unchecked, 1)
var totals: [Bool: (sent: Int, failed: Int, seconds: Double)] = [true: (0, 0, 0), false: (0, 0, 0)]
let roundLength = min(5, seconds / 2)
var elapsed = 0.0
while elapsed < seconds {
    for validates in [true, false] {
        let start = ContinuousClock.now
        let (sent, failed) = await round(validates ? checked : unchecked, roundLength)
        let took = (ContinuousClock.now - start) / .seconds(1)
        totals[validates]!.sent += sent
        totals[validates]!.failed += failed
        totals[validates]!.seconds += took
        elapsed += took
    }
}

let on = Double(totals[true]!.sent) / totals[true]!.seconds
let off = Double(totals[false]!.sent) / totals[false]!.seconds

// The checks alone, on one core: encode for version 3 and validate for versions 2 and 3.
let checkCount = 20_000
let clock = ContinuousClock()
let checkTime = await clock.measure {
    for _ in 0..<checkCount { _ = await checked.prepare(push) }
}
let uncheckedTime = await clock.measure {
    for _ in 0..<checkCount { _ = await unchecked.prepare(push) }
}
let perCheck = (checkTime - uncheckedTime) / checkCount

print(String(format: "send, checks on:  %8.0f pushes/s  (%d sent, %d not delivered, %.1f s)", on, totals[true]!.sent, totals[true]!.failed, totals[true]!.seconds))
print(String(format: "send, checks off: %8.0f pushes/s  (%d sent, %d not delivered, %.1f s)", off, totals[false]!.sent, totals[false]!.failed, totals[false]!.seconds))
print(String(format: "the checks cost %.1f%% of the send path's throughput", (1 - on / off) * 100))
print(String(format: "the checks alone: %.2f µs per push on one core (prepare with checks minus without, %d pushes)",
             Double(perCheck.components.attoseconds) / 1e12 + Double(perCheck.components.seconds) * 1e6, checkCount))
print("provider tokens minted: \(await tokens.mintedCount); distinct tokens the fake saw: \(fake.tokensSeen); connections: \(fake.connectionCount)")
try await transport.shutdown()
try await fake.shutdown()
