import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateTooling
@testable import LiveStateServer
import Testing

/// `validate` with `token` or `channel-id`: each body checked against the last one the sidecar
/// answered `ok` to for that activity.
@Suite struct ServerHistoryTests {
    /// The sidecar's clock, moved by the test.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: 1_795_000_000)
        func advance(seconds: Double) { lock.withLock { now = now.addingTimeInterval(seconds) } }
        var function: @Sendable () -> Date { { [self] in lock.withLock { now } } }
    }

    static let token = String(repeating: "5e", count: 32)

    static func update(_ timestamp: Int, event: String = "update") -> ByteBuffer {
        ServerFixtures.text(#"{"aps":{"timestamp":\#(timestamp),"event":"\#(event)","content-state":{"title":"On the way","progress":0.5}}}"#)
    }

    static func start(_ timestamp: Int, order: String) -> ByteBuffer {
        ServerFixtures.text(#"{"aps":{"timestamp":\#(timestamp),"event":"start","input-push-token":1,"attributes-type":"DeliveryAttributes","#
            + #""attributes":{"totalAmount":"$12","orderId":"\#(order)"},"alert":{"title":"Order","body":"On its way"},"#
            + #""content-state":{"title":"On the way","progress":0}}}"#)
    }

    /// The errors' and warnings' codes of an answer (a body's missing keys are infos).
    static func findings(_ body: Value) -> [String] {
        body["diagnostics"]?.array?.filter { $0["severity"]?.string != "info" }.compactMap { $0["code"]?.string } ?? []
    }

    func server(_ clock: Clock) throws -> LiveStateServer {
        var server = try ServerFixtures.server()
        server.clock = PushClock(clock.function)
        return server
    }

    @Test func aBodyStampedBeforeTheLastOneAnsweredOKIsRefused() async throws {
        let clock = Clock()
        try await server(clock).application().test(.router) { client in
            let uri = "/v1/schemas/delivery/validate?token=\(Self.token)"
            let first = try json(try await client.execute(uri: uri, method: .post, body: Self.update(1_795_000_000)))
            #expect(first["ok"]?.bool == true && Self.findings(first).isEmpty, "\(first)")
            clock.advance(seconds: 60)
            let older = try json(try await client.execute(uri: uri, method: .post, body: Self.update(1_794_999_940)))
            #expect(older["ok"]?.bool == false)
            #expect(Self.findings(older) == ["older-timestamp"])
            let finding = try #require(older["diagnostics"]?.array?.first { $0["code"]?.string == "older-timestamp" })
            #expect(finding["pointer"]?.string == "/aps/timestamp")
            #expect(finding["message"]?.string?.hasPrefix("timestamp 1794999940 is older than 1795000000, that of the last body this sidecar answered ok to for this activity, 60 s ago") == true, "\(finding)")
            // A refused body is not remembered: the next in order is checked against the first.
            let same = try json(try await client.execute(uri: uri, method: .post, body: Self.update(1_795_000_000)))
            #expect(same["ok"]?.bool == true)
            #expect(Self.findings(same) == ["repeated-timestamp"])
            // Another device's activity has its own order; a body without a token is not checked.
            let otherToken = "/v1/schemas/delivery/validate?token=\(String(repeating: "7a", count: 32))"
            let other = try json(try await client.execute(uri: otherToken, method: .post, body: Self.update(1_794_990_000)))
            #expect(other["ok"]?.bool == true && Self.findings(other).isEmpty)
            let none = try json(try await client.execute(uri: "/v1/schemas/delivery/validate", method: .post, body: Self.update(1_794_000_000)))
            #expect(none["ok"]?.bool == true && Self.findings(none).isEmpty)
            // With a token the server sends the push now: an update stamped more than 8 hours
            // before the clock is ignored by any activity that still takes updates. Without one,
            // the body may be sent at another time (above).
            let thirdToken = "/v1/schemas/delivery/validate?token=\(String(repeating: "3c", count: 32))"
            let stale = try json(try await client.execute(uri: thirdToken, method: .post, body: Self.update(1_794_000_000)))
            #expect(stale["ok"]?.bool == false)
            #expect(Self.findings(stale) == ["timestamp-in-past"], "\(stale)")
            let past = try #require(stale["diagnostics"]?.array?.first)
            #expect(past["pointer"]?.string == "/aps/timestamp" && past["severity"]?.string == "error", "\(past)")
            #expect(past["message"]?.string?.hasPrefix("timestamp 1794000000 is 11 days before this machine's clock (1795000060)") == true, "\(past)")
        }
    }

    /// A body stamped more than 8 hours past the sidecar's clock (a "never" sentinel) is the
    /// warning `lint` and `send` give, at the value, with or without a token, one version or
    /// all, alone or in a batch; the body is still `ok`.
    @Test func aBodyStampedFarPastTheClockIsWarnedOf() async throws {
        let clock = Clock()
        try await server(clock).application().test(.router) { client in
            for uri in ["/v1/schemas/delivery/validate", "/v1/schemas/delivery/validate?version=all",
                        "/v1/schemas/delivery/validate?token=\(Self.token)"] {
                let ahead = try json(try await client.execute(uri: uri, method: .post, body: Self.update(9_999_999_999)))
                // (Version 1, a strict client, drops this body for its own reasons.)
                let others = uri.hasSuffix("version=all") ? ["missing-required-key", "missing-required-key", "dropped-by-version"] : []
                #expect(Self.findings(ahead) == ["timestamp-in-future"] + others, "\(uri): \(ahead)")
                #expect(ahead["ok"]?.bool == others.isEmpty, "\(uri): \(ahead)")
                let finding = try #require(ahead["diagnostics"]?.array?.first { $0["code"]?.string == "timestamp-in-future" })
                #expect(finding["severity"]?.string == "warning")
                #expect(finding["pointer"]?.string == "/aps/timestamp")
                #expect(finding["line"]?.int == 1 && finding["column"]?.int == 21, "\(finding)")
                #expect(finding["message"]?.string?.hasPrefix("timestamp 9999999999 is 94965 days after this machine's clock (1795000000)") == true,
                        "\(finding)")
                // Eight hours ahead is a clock a little behind: nothing.
                let near = try json(try await client.execute(uri: uri, method: .post, body: Self.update(1_795_000_000 + 8 * 3600)))
                #expect(!Self.findings(near).contains("timestamp-in-future"), "\(uri): \(near)")
            }
            let batch = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch", method: .post,
                body: ServerFixtures.text(String(buffer: Self.update(1_795_000_000)) + "\n" + String(buffer: Self.update(9_999_999_999))))
            let lines = String(buffer: batch.body).split(separator: "\n").map { line in try? Value.parse(json: Array(line.utf8)) }
            #expect(lines.map { $0.map(Self.findings) } == [[], ["timestamp-in-future"]], "\(lines)")
        }
    }

    @Test func updatesCloserThanFiveSecondsAreWarnedOfPerActivity() async throws {
        let clock = Clock()
        try await server(clock).application().test(.router) { client in
            let three = "/v1/schemas/delivery/validate?token=\(Self.token)&version=3"
            _ = try await client.execute(uri: three, method: .post, body: Self.update(1_795_000_000))
            clock.advance(seconds: 2)
            let all = "/v1/schemas/delivery/validate?token=\(Self.token)&version=all"
            let soon = try json(try await client.execute(uri: all, method: .post, body: Self.update(1_795_000_002)))
            // Version 1 drops this body (it lacks subTitle): the warning is given beside its
            // errors, and an answer that is not ok is not remembered.
            #expect(soon["ok"]?.bool == false)
            #expect(Self.findings(soon).contains("update-cadence"), "\(soon)")
            clock.advance(seconds: 2)
            let ok = try json(try await client.execute(uri: three, method: .post, body: Self.update(1_795_000_004)))
            #expect(Self.findings(ok) == ["update-cadence"])
            #expect(try #require(ok["diagnostics"]?.array?.first { $0["code"]?.string == "update-cadence" })["message"]?.string?
                .hasPrefix("the last update this sidecar answered ok to for this activity was 4 s ago") == true)
            clock.advance(seconds: 6)
            let later = try json(try await client.execute(uri: three, method: .post, body: Self.update(1_795_000_010)))
            #expect(later["ok"]?.bool == true && Self.findings(later).isEmpty, "\(later)")
            // A broadcast channel is an activity too.
            let channel = "/v1/schemas/delivery/validate?broadcast=true&channel-id=YWJjZA%3D%3D"
            _ = try await client.execute(uri: channel, method: .post, body: Self.update(1_795_000_010))
            let again = try json(try await client.execute(uri: channel, method: .post, body: Self.update(1_795_000_011)))
            #expect(Self.findings(again) == ["update-cadence"])
        }
    }

    @Test func aSecondStartWithTheSameAttributesIsWarnedOf() async throws {
        let clock = Clock()
        try await server(clock).application().test(.router) { client in
            let uri = "/v1/schemas/delivery/validate?token=\(Self.token)"
            let first = try json(try await client.execute(uri: uri, method: .post, body: Self.start(1_795_000_000, order: "A-1")))
            #expect(first["ok"]?.bool == true && Self.findings(first).isEmpty, "\(first)")
            clock.advance(seconds: 30)
            let again = try json(try await client.execute(uri: uri, method: .post, body: Self.start(1_795_000_030, order: "A-1")))
            #expect(Self.findings(again) == ["duplicate-start"])
            let other = try json(try await client.execute(uri: uri, method: .post, body: Self.start(1_795_000_031, order: "B-2")))
            #expect(Self.findings(other).isEmpty)
        }
    }

    /// Bodies for one activity sent at once are checked one after the other: of 16 identical
    /// starts, one is clean and 15 are duplicates; of 16 updates stamped the same, one is clean.
    @Test func bodiesForOneActivitySentAtOnceAreCheckedOneAfterTheOther() async throws {
        let clock = Clock()
        try await server(clock).application().test(.live) { client in
            let port = try #require(client.port)
            for body in [Self.start(1_795_000_000, order: "A-1"), Self.update(1_795_000_001)] {
                let bytes = Array(body.readableBytesView)
                let head = "POST /v1/schemas/delivery/validate?token=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
                // Each on its own connection and thread, as 16 push workers would send them.
                let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            let answer = try await RawHTTPClient.exchange(port: port, chunks: [Array(head.utf8) + bytes])
                            return Self.findings(try Value.parse(json: Array(RawHTTPClient.body(answer).utf8)))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter(\.isEmpty).count == 1, "\(answers)")
                #expect(answers.count == 16)
            }
        }
    }

    /// A token's hex digits in either case are one activity, as APNs reads them.
    @Test func aTokenInUpperCaseIsTheSameActivity() async throws {
        let clock = Clock()
        try await server(clock).application().test(.router) { client in
            let lower = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate?token=\(Self.token)", method: .post, body: Self.update(1_795_000_000)))
            #expect(lower["ok"]?.bool == true)
            clock.advance(seconds: 60)
            let upper = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate?token=\(Self.token.uppercased())", method: .post, body: Self.update(1_794_999_990)))
            #expect(Self.findings(upper) == ["older-timestamp"])
        }
    }

    @Test(arguments: [
        ("token=5e&broadcast=true", "token names a device; a broadcast goes to a channel-id"),
        ("channel-id=YWJj", "channel-id goes with broadcast=true"),
        ("token=5e&channel-id=YWJj&broadcast=true", "token and channel-id exclude each other: a push goes to a device or a channel"),
        ("token=5e&channel-id=YWJj", "token and channel-id exclude each other: a push goes to a device or a channel"),
        ("token=", "token must be 1 to 512 printable ASCII characters without spaces, not ''"),
        ("token=5e%205e", "token must be 1 to 512 printable ASCII characters without spaces, not '5e 5e'"),
        // What `livestate send` refuses as `bad-device-token` and `bad-channel-id`.
        ("token=zz-not-hex", "token: the device token must be hex digits, as the app received it; 'zz-not-hex' is not"),
        ("token=abc", "token: the device token has an odd number of hex digits (3): a digit is missing"),
        ("token=%3Cabcd%3E", "token: the device token must be hex digits only; '<abcd>' has spaces or angle brackets, which come from "
            + "printing Data's description: remove them (in the app, make the token with token.map { String(format: \"%02x\", $0) }.joined())"),
        ("channel-id=not-base64!&broadcast=true",
         "channel-id: the channel id must be the base64 id APNs gave when the channel was created, not 'not-base64!'"),
    ])
    func aTokenOrChannelItCannotBeIsABadQuery(_ query: String, _ message: String) async throws {
        try await ServerFixtures.server().application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/delivery/validate?\(query)", method: .post, body: Self.update(1))
            #expect(response.status == .badRequest)
            #expect(try json(response)["error"]?["message"]?.string == message)
        }
    }

    @Test func aBatchTakesNoToken() async throws {
        try await ServerFixtures.server().application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch?token=5e", method: .post,
                headers: [.contentType: "application/x-ndjson"], body: Self.update(1))
            #expect(response.status == .badRequest)
            #expect(try json(response)["error"]?["message"]?.string == "unknown query parameter 'token'; this endpoint takes broadcast, max-drop, version")
        }
    }
}
