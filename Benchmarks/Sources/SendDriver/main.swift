// Pushes per second on one HTTP/2 connection to the loopback fake APNs, with the sender's
// checks on and off, side by side in one run:
//
//     swift build -c release --product SendDriver
//     .build/release/SendDriver [SECONDS (60)] [IN-FLIGHT (100)]
//
// The state is cs600 (the shared 604-byte content-state) as app version 3 decodes it, sent as an
// update that versions 2 and 3 must both decode, to 100,000 device tokens in turn, as a server
// fans one state out: each activity then gets an update every 10 seconds or more, not several a
// second (which the sender would warn of, as iOS 18 is reported to apply at most one per 5 s). The run alternates 5-second rounds of each
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
let inFlightTokens = 1_000
let deviceTokens = (0..<inFlight * inFlightTokens).map { String(repeating: "0", count: 56) + String(format: "%08x", $0) }

let privateKey = P256.Signing.PrivateKey()
var configuration = FakeAPNs.Configuration(
    bundleIDs: [bundleID], keys: [FakeAPNs.Key(keyID: "ABC123DEFG", teamID: "TEAM123456", publicKey: privateKey.publicKey)])
configuration.recordsRequests = false
let fake = try await FakeAPNs.start(configuration)
for token in deviceTokens { fake.register(deviceToken: token, bundleID: bundleID) }
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
func push(to token: String) -> LiveActivityPush {
    LiveActivityPush(target: .device(token: token), content: .state(state, envelope: .init(event: .update, timestamp: 0)), headers: .init(priority: 5))
}
let checked = try sender(validates: true)
let unchecked = try sender(validates: false)

/// Each task's next token, per sender: a round goes on where the sender's last one stopped.
var cursors: [ObjectIdentifier: [Int]] = [:]

/// Sends with `inFlight` concurrent pushes for `duration` seconds, each task to its own tokens in
/// turn; returns (sent, not delivered, with a finding).
@MainActor func round(_ sender: LiveActivitySender, _ duration: Double) async -> (sent: Int, failed: Int, found: Int) {
    let deadline = ContinuousClock.now + .milliseconds(Int(duration * 1000))
    let starts = cursors[ObjectIdentifier(sender)] ?? Array(repeating: 0, count: inFlight)
    let ends = await withTaskGroup(of: (task: Int, next: Int, sent: Int, failed: Int, found: Int).self) { group in
        for task in 0..<inFlight {
            group.addTask {
                let pushes = deviceTokens[task * inFlightTokens ..< (task + 1) * inFlightTokens].map(push(to:))
                var next = starts[task]
                var sent = 0
                var failed = 0
                var found = 0
                while ContinuousClock.now < deadline {
                    let outcome = await sender.send(pushes[next])
                    next = (next + 1) % inFlightTokens
                    sent += 1
                    if !outcome.delivered { failed += 1 }
                    if !outcome.diagnostics.isEmpty { found += 1 }
                }
                return (task, next, sent, failed, found)
            }
        }
        var ends: [(task: Int, next: Int, sent: Int, failed: Int, found: Int)] = []
        for await end in group { ends.append(end) }
        return ends
    }
    cursors[ObjectIdentifier(sender)] = ends.sorted { $0.task < $1.task }.map(\.next)
    return ends.reduce((0, 0, 0)) { ($0.0 + $1.sent, $0.1 + $1.failed, $0.2 + $1.found) }
}

_ = await round(checked, 1)
_ = await round(unchecked, 1)
var totals: [Bool: (sent: Int, failed: Int, seconds: Double)] = [true: (0, 0, 0), false: (0, 0, 0)]
var found = 0
let roundLength = min(5, seconds / 2)
var elapsed = 0.0
while elapsed < seconds {
    for validates in [true, false] {
        let start = ContinuousClock.now
        let (sent, failed, withFindings) = await round(validates ? checked : unchecked, roundLength)
        found += withFindings
        let took = (ContinuousClock.now - start) / .seconds(1)
        totals[validates]!.sent += sent
        totals[validates]!.failed += failed
        totals[validates]!.seconds += took
        elapsed += took
    }
}

let on = Double(totals[true]!.sent) / totals[true]!.seconds
let off = Double(totals[false]!.sent) / totals[false]!.seconds

// The checks alone, on one core: encode for version 3 and validate for versions 2 and 3, for a
// token no round sent to.
let checkCount = 20_000
let fresh = push(to: String(repeating: "5e", count: 32))
let clock = ContinuousClock()
let checkTime = await clock.measure {
    for _ in 0..<checkCount { _ = await checked.prepare(fresh) }
}
let uncheckedTime = await clock.measure {
    for _ in 0..<checkCount { _ = await unchecked.prepare(fresh) }
}
let perCheck = (checkTime - uncheckedTime) / checkCount

print(String(format: "send, checks on:  %8.0f pushes/s  (%d sent, %d not delivered, %.1f s)", on, totals[true]!.sent, totals[true]!.failed, totals[true]!.seconds))
print(String(format: "send, checks off: %8.0f pushes/s  (%d sent, %d not delivered, %.1f s)", off, totals[false]!.sent, totals[false]!.failed, totals[false]!.seconds))
print(String(format: "the checks cost %.1f%% of the send path's throughput", (1 - on / off) * 100))
print("pushes with a finding: \(found) (an activity sent updates closer than 5 s apart is warned of)")
print(String(format: "the checks alone: %.2f µs per push on one core (prepare with checks minus without, %d pushes)",
             Double(perCheck.components.attoseconds) / 1e12 + Double(perCheck.components.seconds) * 1e6, checkCount))
print("provider tokens minted: \(await tokens.mintedCount); distinct tokens the fake saw: \(fake.tokensSeen); connections: \(fake.connectionCount)")
try await transport.shutdown()
try await fake.shutdown()
