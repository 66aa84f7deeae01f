import Foundation
import Hummingbird
import HummingbirdTesting
@_spi(Scanner) import LiveState
@testable import LiveStateServer
import LiveStateTooling
import LiveStateYAML
import Testing

/// Every endpoint through Hummingbird's router test framework: no sockets, real handlers.
@Suite struct ServerEndpointTests {
    let server: LiveStateServer

    init() throws {
        server = try ServerFixtures.server()
    }

    // MARK: - GET

    @Test func healthReportsLoadedSchemas() async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let body = try json(response)
            #expect(body["status"]?.string == "ok")
            #expect(body["schemas"]?.int == 5)
            #expect(body["generation"]?.int == 1)
        }
    }

    @Test func listsSchemaIdsAndVersions() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(uri: "/v1/schemas", method: .get))
            let schemas = try #require(body["schemas"]?.array)
            #expect(schemas.compactMap { $0["id"]?.string } == ["delivery", "flash-sale", "grocery", "match-score", "pizza"])
            let delivery = try #require(schemas.first)
            #expect(delivery["versions"] == .array([.int(1), .int(2), .int(3)]))
            #expect(delivery["latest"]?.int == 3)
            #expect(delivery["attributesType"]?.string == "DeliveryAttributes")
            #expect(delivery["strictClients"] == .array([.int(1)]))
            #expect(body["diagnostics"] == .array([]))
        }
    }

    @Test func servesTheOpenAPIDocument() async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(response.status == .ok)
            let document = try json(response)
            #expect(document["openapi"]?.string == "3.1.0")
            #expect(document["paths"]?.keys == [
                "/health", "/ready", "/metrics", "/openapi.json", "/v1/schemas", "/v1/schemas/{id}/diff",
                "/v1/schemas/{id}/json-schema", "/v1/schemas/{id}/validate", "/v1/schemas/{id}/validate-batch", "/v1/schemas/{id}/encode",
                "/v1/schemas/{id}/encode-content-state",
            ])
            // Every documented route is one the server answers (and the other way round: 405's
            // `Allow` comes from the same list).
            let routes = SchemaRoutes.routeMethods.map { "/" + $0.segments.map { $0 == ":id" ? "{id}" : String($0) }.joined(separator: "/") }
            #expect(Set(routes) == Set(document["paths"]?.keys ?? []))
            // Every scope a diagnostic can have (a failed reload's `fleet` on /health among them).
            let scopes = document["components"]?["schemas"]?["Diagnostic"]?["properties"]?["scope"]?["enum"]?.array ?? []
            #expect(Set(scopes) == Set(DiagnosticScope.allCases.map { Value.string($0.rawValue) } + [.null]))
        }
    }

    @Test func jsonSchemaIsWhatCodegenWritesForOneVersionOrEvery() async throws {
        try await server.application().test(.router) { client in
            let one = try await client.execute(uri: "/v1/schemas/pizza/json-schema?version=2", method: .get)
            #expect(one.status == .ok)
            #expect(one.headers[.contentType] == "application/schema+json")
            let schema = try SchemaLoader().load(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/pizza.yaml").path)
            var writer = JSONWriter(capacity: 4096)
            writer.write(try JSONSchemaGenerator().document(schema, version: 2))
            #expect(Array(one.body.readableBytesView) == writer.bytes, "the codegen document, byte for byte")
            let every = try json(try await client.execute(uri: "/v1/schemas/pizza/json-schema", method: .get))
            #expect(every["$ref"]?.string == "#/$defs/v2")
            #expect(every["$defs"]?["v1"]?["$defs"]?["attributes"] != nil)
            let unknown = try await client.execute(uri: "/v1/schemas/pizza/json-schema?version=9", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try json(unknown).errorCode == "unknown-version")
            let head = try await client.execute(uri: "/v1/schemas/pizza/json-schema", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
        }
    }

    @Test func diffReportsTheSchemasOwnGate() async throws {
        try await server.application().test(.router) { client in
            // delivery's forward-transitive gate fails on purpose: strict app version 1.
            let body = try json(try await client.execute(uri: "/v1/schemas/delivery/diff", method: .get))
            #expect(body["activity"]?.string == "delivery")
            #expect(body["mode"]?.string == "forward-transitive")
            #expect(body["passes"]?.bool == false)
            #expect(body["failOn"]?.string == "error")
            #expect(body["pairs"]?.array?.isEmpty == false)
            let diagnostics = try #require(body["diagnostics"]?.array)
            #expect(diagnostics.first?.keys == ["code", "severity", "message", "file", "line", "column", "scope", "pointer"])
        }
    }

    @Test func diffChecksOnePairInTheDirectionsAModeReads() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(uri: "/v1/schemas/delivery/diff?from=2&to=3&mode=backward", method: .get))
            let pairs = try #require(body["pairs"]?.array)
            #expect(pairs.count == 1)
            #expect(pairs.first?["readerVersion"]?.int == 3)
            #expect(pairs.first?["writerVersion"]?.int == 2)
            #expect(body["mode"]?.string == "backward")
        }
    }

    /// One pair without `mode` is read both ways, whatever the schema's gate (delivery's is
    /// forward-transitive): the answer's `mode` is `full`, as openapi.yaml says.
    @Test func onePairWithoutAModeIsReadBothWays() async throws {
        try await server.application().test(.router) { client in
            for query in ["from=1", "to=2", "from=1&to=3"] {
                let body = try json(try await client.execute(uri: "/v1/schemas/delivery/diff?\(query)", method: .get))
                #expect(body["mode"]?.string == "full", "\(query)")
                let pairs = try #require(body["pairs"]?.array, "\(query)")
                #expect(pairs.count == 2, "\(query): both directions")
            }
        }
    }

    /// One end alone that names the version its missing other end stands for leaves no pair:
    /// 400, as `livestate diff --from 3` exits 2, rather than 200 with `passes` and no pairs.
    @Test func oneEndAloneThatLeavesNoPairIsRefused() async throws {
        try await server.application().test(.router) { client in
            let cases = [
                ("from=3", "from=3 is the newest live version, which a missing to stands for: there is no pair to check; name to, or leave out from to check every pair"),
                ("to=1", "to=1 is the oldest live version, which a missing from stands for: there is no pair to check; name from, or leave out to to check every pair"),
            ]
            for (query, message) in cases {
                let response = try await client.execute(uri: "/v1/schemas/delivery/diff?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try json(response)["error"]?["message"]?.string == message, "\(query)")
            }
            // Both ends named, the same version: asked for, and answered (nothing to find).
            #expect(try await client.execute(uri: "/v1/schemas/delivery/diff?from=3&to=3", method: .get).status == .ok)
        }
    }

    @Test func diffFailOnWarningTurnsWarningsIntoAFailedGate() async throws {
        try await server.application().test(.router) { client in
            let lenient = try json(try await client.execute(uri: "/v1/schemas/pizza/diff?fail-on=error", method: .get))
            let strict = try json(try await client.execute(uri: "/v1/schemas/pizza/diff?fail-on=warning", method: .get))
            let severities = lenient["findings"]?.array?.compactMap { $0["severity"]?.string } ?? []
            #expect(strict["failOn"]?.string == "warning")
            #expect(strict["passes"]?.bool == !severities.contains { $0 == "warning" || $0 == "error" })
            #expect(lenient["passes"]?.bool == !severities.contains("error"))
        }
    }

    // MARK: - POST validate

    @Test func validateAnswersAValidPayloadWithItsBudget() async throws {
        let payload = try ServerFixtures.bytes("update-600.json")
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ByteBuffer(bytes: payload))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body.keys == ["ok", "schema", "version", "decodes", "diagnostics", "budget"])
            #expect(body["ok"]?.bool == true)
            #expect(body["version"]?.int == 3)
            #expect(body["decodes"] == .object([.init("3", .bool(true))]))
            // The benchmark state has one key version 3 does not know, and leaves two out.
            let unknown = body["diagnostics"]?.array?.filter { $0["code"]?.string == "unknown-key" }
            #expect(unknown?.compactMap { $0["pointer"]?.string } == ["/extra"])
            #expect(body.diagnosticCodes.filter { $0 == "defaulted" }.count == 2)
            #expect(body["budget"]?["body"]?.int == payload.count)
            #expect(body["budget"]?["limit"]?.int == 4096)
            #expect(body["budget"]?["fields"]?["note"]?.int != nil)
        }
    }

    @Test(arguments: ["version=3", "version=3&", "version=%33", "version=3&broadcast=", "broadcast=0&version=%33", "%76ersion=3", "v%65rsion=%33"])
    func validateReadsQueriesAsHummingbirdSplitsThem(_ query: String) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?\(query)", method: .post, body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == .ok)
            #expect(try json(response)["version"]?.int == 3)
        }
    }

    @Test func validateDefaultsToTheNewestVersion() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate", method: .post, body: try ServerFixtures.file("update-600.json")))
            #expect(body["version"]?.int == 3)
        }
    }

    @Test func validateAllVersionsSaysWhichAppVersionsDropTheUpdate() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=all", method: .post, body: try ServerFixtures.file("update-600.json")))
            #expect(body["version"]?.string == "all")
            // Strict app version 1 drops a payload without subTitle; 2 and 3 decode it.
            #expect(body["decodes"] == .object([.init("1", .bool(false)), .init("2", .bool(true)), .init("3", .bool(true))]))
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.contains("dropped-by-version"))
        }
    }

    @Test func validateReportsAnInvalidPayloadWith200() async throws {
        let payload = #"{"aps":{"timestamp":1795000000000,"event":"updte","content-state":{"title":"x","progress":2}}}"#
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text(payload))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.contains("date-in-milliseconds"))
            #expect(body.diagnosticCodes.contains("invalid-event"))
            let timestamp = body["diagnostics"]?.array?.first { $0["code"]?.string == "date-in-milliseconds" }
            #expect(timestamp?["pointer"]?.string == "/aps/timestamp")
            #expect(timestamp?["scope"]?.string == "envelope")
            #expect(timestamp?["line"]?.int == 1)
            #expect(timestamp?["file"] == .null)
        }
    }

    /// A key given 9,000 times made 8,999 `duplicate-key` findings, a 1.6 MB answer to a 63 KB
    /// body, in every version of `version=all`. The answer lists 100 of a code and counts
    /// the rest, as the CLI does.
    @Test(arguments: ["version=3", "version=all"])
    func manyFindingsOfOneCodeAreCounted(_ query: String) async throws {
        let repeated = (0..<9_000).map { _ in #""zz":1"# }.joined(separator: ",")
        let payload = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"title":"x","progress":0.5,"# + repeated + "}}}"
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?\(query)", method: .post, body: ServerFixtures.text(payload))
            #expect(response.status == .ok)
            #expect(response.body.readableBytes < 40_000)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.contains("over-budget"))
            let repeats = body["diagnostics"]?.array?.filter { $0["code"]?.string == "duplicate-key" } ?? []
            #expect(repeats.count == 101)
            #expect(repeats.last?["message"]?.string?.hasSuffix("more duplicate-key findings are not listed; the first 100 are") == true)
        }
    }

    /// A 60 KB schema id in the path was echoed whole in the 404's message.
    @Test func aLongUnknownIdIsNotEchoedWhole() async throws {
        let id = String(repeating: "x", count: 60_000)
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/\(id)/diff", method: .get)
            #expect(response.status == .notFound)
            let message = try json(response)["error"]?["message"]?.string ?? ""
            #expect(message.utf8.count < 1_000 && message.hasPrefix("no schema 'xxx") && message.contains("bytes left out"), "\(message.prefix(300))")
        }
    }

    /// A stale-date in milliseconds fails the check, but the device applies the update (it just
    /// never goes stale): `ok` is false, `decodes` true.
    @Test func aDateInMillisecondsIsNotOkButApplies() async throws {
        let payload = #"{"aps":{"timestamp":1795000000,"stale-date":1795000900000,"event":"update","content-state":{"title":"x","progress":0.5}}}"#
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text(payload))
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.filter { $0 != "defaulted" } == ["date-in-milliseconds"])
            #expect(body["decodes"] == .object([.init("3", .bool(true))]))
        }
    }

    @Test(arguments: ["{\"aps\":", "not json", "", "{\"aps\":{\"timestamp\":1,}}", "\u{FF}\u{FE}"])
    func malformedJSONGets200WithJSONSyntax(_ text: String) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text(text))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.contains("json-syntax"))
            #expect(body["decodes"] == .object([.init("3", .bool(false))]))
        }
    }

    @Test func broadcastRaisesTheBodyLimit() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate?broadcast=true", method: .post, body: try ServerFixtures.file("update-600.json")))
            #expect(body["budget"]?["limit"]?.int == 5120)
        }
    }

    // MARK: - POST encode

    @Test func encodeWritesTheWholePayload() async throws {
        let state = #"{"title":"On the way","progress":0.5,"status":"delivering"}"#
        try await server.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/encode?version=3&timestamp=1795000000&event=update",
                method: .post, body: ServerFixtures.text(state))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body.keys == ["ok", "schema", "version", "payload", "diagnostics", "budget"])
            #expect(body["ok"]?.bool == true)
            let aps = try #require(body["payload"]?["aps"])
            #expect(aps["timestamp"]?.int == 1_795_000_000)
            #expect(aps["event"]?.string == "update")
            #expect(aps["content-state"]?["title"]?.string == "On the way")
            #expect(aps["content-state"]?["status"]?.string == "delivering")
            #expect(body["budget"]?["body"]?.int != nil)

            // The payload it wrote validates, with the same budget, fields and all.
            let payload = String(decoding: response.body.readableBytesView, as: UTF8.self)
                .components(separatedBy: #""payload":"#)[1].components(separatedBy: #","diagnostics""#)[0]
            let check = try json(try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text(payload)))
            #expect(check["ok"]?.bool == true)
            #expect(body["budget"]?["fields"]?["title"]?.int == 21)
            #expect(body["budget"]?["fields"] == check["budget"]?["fields"])
        }
    }

    /// `timestamp=now`, which the document allows, stamps the time (it was refused as "not a
    /// non-negative integer"); the envelope's rules are `livestate encode`'s.
    @Test func encodeTakesTimestampNowAndTheCLIsEnvelopeRules() async throws {
        let state = #"{"title":"On the way"}"#
        try await server.application().test(.router) { client in
            let before = Int(Date().timeIntervalSince1970)
            let stamped = try json(try await client.execute(
                uri: "/v1/schemas/delivery/encode?version=3&timestamp=now&event=end", method: .post, body: ServerFixtures.text(state)))
            #expect(stamped["ok"]?.bool == true)
            let timestamp = try #require(stamped["payload"]?["aps"]?["timestamp"]?.int)
            #expect(timestamp >= before && timestamp <= before + 5)
            #expect(stamped["payload"]?["aps"]?["event"]?.string == "end")
            for (query, message) in [
                ("timestamp=yesterday", "timestamp must be now or a number of UNIX seconds, 0 or more, not 'yesterday'"),
                ("event=events", "event must be start, update or end, not 'events'"),
                ("content-state=true&timestamp=now",
                 "content-state=true writes the bare content-state, which takes no envelope parameters (timestamp); it takes content-state, elide-defaults, fit, version"),
            ] {
                let response = try await client.execute(uri: "/v1/schemas/delivery/encode?version=3&\(query)", method: .post, body: ServerFixtures.text(state))
                #expect(response.status == .badRequest, "\(query)")
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self).contains(message), "\(query)")
            }
        }
    }

    /// Small query rules, as the document words them: `from` and `to` are versions (1 or more),
    /// `encode?content-state=true` refuses what `/encode-content-state` refuses (`broadcast`
    /// among them), and a 415 says what the route takes.
    @Test func queryRulesMatchTheDocument() async throws {
        let state = #"{"title":"On the way"}"#
        try await server.application().test(.router) { client in
            for query in ["from=0", "to=0&from=1"] {
                let response = try await client.execute(uri: "/v1/schemas/delivery/diff?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try json(response)["error"]?["message"]?.string?.hasSuffix("must be a positive integer, not '0'") == true, "\(query)")
            }
            // Digits only: `Int` reads `+1` too, which the document does not allow.
            for query in ["from=%2B1&to=2", "from=1&to=+2"] {
                let response = try await client.execute(uri: "/v1/schemas/delivery/diff?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
            }
            let broadcast = try await client.execute(
                uri: "/v1/schemas/delivery/encode?content-state=true&broadcast=true", method: .post, body: ServerFixtures.text(state))
            #expect(broadcast.status == .badRequest)
            #expect(try json(broadcast)["error"]?["message"]?.string
                == "content-state=true writes the bare content-state, which takes no envelope parameters (broadcast); it takes content-state, elide-defaults, fit, version")
            let alone = try await client.execute(
                uri: "/v1/schemas/delivery/encode-content-state?broadcast=true", method: .post, body: ServerFixtures.text(state))
            #expect(alone.status == .badRequest)
            let batch = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch", method: .post, headers: [.contentType: "text/csv"], body: ServerFixtures.text("{}"))
            #expect(try json(batch)["error"]?["message"]?.string == "the body must be NDJSON (Content-Type application/x-ndjson), JSON, or none, not text/csv")
            let single = try await client.execute(
                uri: "/v1/schemas/delivery/validate", method: .post, headers: [.contentType: "text/csv"], body: ServerFixtures.text("{}"))
            #expect(try json(single)["error"]?["message"]?.string == "the body must be JSON (Content-Type application/json, or none), not text/csv")
        }
    }

    /// A date in UNIX seconds is said once, at its place in the state, by both encode routes.
    @Test(arguments: ["encode-content-state", "encode"])
    func encodeSaysAUnixDateOnce(_ route: String) async throws {
        let state = #"{"title":"x","eta":1795000000}"#
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(uri: "/v1/schemas/delivery/\(route)", method: .post, body: ServerFixtures.text(state)))
            #expect(body["ok"]?.bool == true)
            let unix = body["diagnostics"]?.array?.filter { $0["code"]?.string == "unix-date-in-date-field" } ?? []
            #expect(unix.count == 1)
            #expect(unix.first?["pointer"]?.string == "/eta")
            #expect(unix.first?["column"]?.int == 20)
        }
    }

    /// The bare content-state's own route, and the older spelling on `encode`.
    @Test(arguments: [
        "/v1/schemas/delivery/encode-content-state?elide-defaults=true",
        "/v1/schemas/delivery/encode?elide-defaults=true&content-state=true",
    ])
    func encodeElidesDefaultsAndWritesTheBareState(_ uri: String) async throws {
        let state = #"{"title":"On the way","logo":"","status":"pending"}"#
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(uri: uri, method: .post, body: ServerFixtures.text(state)))
            #expect(body["ok"]?.bool == true)
            let payload = try #require(body["payload"])
            #expect(payload["aps"] == nil)
            #expect(payload["title"]?.string == "On the way")
            #expect(body.diagnosticCodes.contains("elided-default"))
        }
    }

    @Test func encodeFitDropsAndShortensFieldsToTheBudget() async throws {
        // 30 items of 60 quotes each: every quote is two bytes as JSON, so the body is over 4096.
        let items = (0..<30).map { "\"\(String(repeating: #"\""#, count: 60))\($0)\"" }.joined(separator: ",")
        let state = #"{"title":"On the way","note":"\#(String(repeating: "n", count: 200))","badge":"\#(String(repeating: "gold", count: 16))","items":[\#(items)]}"#
        try await server.application().test(.router) { client in
            let unfitted = try json(try await client.execute(
                uri: "/v1/schemas/delivery/encode?version=2&timestamp=1795000000", method: .post, body: ServerFixtures.text(state)))
            #expect(unfitted["ok"]?.bool == false)
            #expect(unfitted.diagnosticCodes == ["over-budget"])
            #expect((unfitted["budget"]?["headroom"]?.int ?? 0) < 0)

            let fitted = try json(try await client.execute(
                uri: "/v1/schemas/delivery/encode?version=2&timestamp=1795000000&fit=true", method: .post, body: ServerFixtures.text(state)))
            #expect(fitted["ok"]?.bool == true)
            // App version 1 needs `subTitle`, which version 2 writes as `subtitle`.
            #expect(fitted.diagnosticCodes == ["dropped-to-fit", "truncated-to-fit", "dropped-by-version"])
            #expect(fitted["budget"]?["body"]?.int ?? .max <= 4096)
            #expect(fitted["payload"]?["aps"]?["content-state"]?["badge"] == nil)
        }
    }

    @Test func encodeReportsAStateThatDoesNotFitTheVersion() async throws {
        try await server.application().test(.router) { client in
            let body = try json(try await client.execute(
                uri: "/v1/schemas/delivery/encode?version=3", method: .post, body: ServerFixtures.text(#"{"progress":"far","nope":1}"#)))
            #expect(body["ok"]?.bool == false)
            #expect(body["payload"] == .null)
            #expect(body["budget"] == .null)
            #expect(!body.diagnosticCodes.isEmpty)
            #expect(body["diagnostics"]?.array?.allSatisfy { $0["severity"]?.string != nil } == true)
        }
    }

    @Test func encodeReportsMalformedJSON() async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/delivery/encode", method: .post, body: ServerFixtures.text("{\"title\":"))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body.diagnosticCodes.contains("json-syntax"))
        }
    }

    // MARK: - Refusals

    @Test(arguments: [
        "/v1/schemas/nope/validate", "/v1/schemas/nope/encode",
    ])
    func unknownSchemaIs404(_ uri: String) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: uri, method: .post, body: ServerFixtures.text("{}"))
            #expect(response.status == .notFound)
            let body = try json(response)
            #expect(body.errorCode == "unknown-schema")
            #expect(body["error"]?["status"]?.int == 404)
            #expect(body["error"]?["message"]?.string?.contains("delivery") == true)
        }
    }

    @Test(arguments: [
        ("/v1/schemas/delivery/validate", HTTPResponse.Status.ok, nil),
        ("/v1//schemas/delivery/validate", .ok, nil),
        ("/v1/schemas/delivery/validate/", .ok, nil),
        ("/v1/schemas/del%69very/validate", .ok, nil),
        ("/v1/schemas/d%C3%A9livery/validate", .notFound, "unknown-schema"),
        ("/v1/schemas/d\u{E9}livery/validate", .notFound, "unknown-schema"),
        ("/v1/schemas//validate", .notFound, "not-found"),
        ("/v1/schemas/a/b/validate", .notFound, "not-found"),
        ("/V1/schemas/delivery/validate", .notFound, "not-found"),
    ] as [(String, HTTPResponse.Status, String?)])
    func validatePathsAnswerAsTheRouterRoutesThem(_ uri: String, _ status: HTTPResponse.Status, _ code: String?) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: uri, method: .post, body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == status)
            let body = try json(response)
            if let code { #expect(body.errorCode == code) } else { #expect(body["schema"]?.string == "delivery") }
        }
    }

    /// Path ids and parameter names are percent-decoded, as values are: a schema whose id is
    /// not ASCII can be called, and `%6Dode` is `mode`.
    @Test func pathIdsAndParameterNamesArePercentDecoded() async throws {
        let folder = try ServerFixtures.scratchSchemas([])
        defer { try? FileManager.default.removeItem(at: folder) }
        let pizza = try String(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/pizza.yaml"), encoding: .utf8)
        try pizza.replacingOccurrences(of: "activity: pizza", with: "activity: café")
            .write(to: folder.appendingPathComponent("café.yaml"), atomically: true, encoding: .utf8)
        let cafe = try ServerFixtures.server(paths: [folder.path])
        #expect(cafe.store.snapshot.ids == ["café"])
        try await cafe.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/caf%C3%A9/diff?%6Dode=full", method: .get)
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["activity"]?.string == "café")
            #expect(body["mode"]?.string == "full")
            let unknown = try await client.execute(uri: "/v1/schemas/caf%C3%A9/diff?m%6Fde=full&%78=1", method: .get)
            #expect(try json(unknown)["error"]?["message"]?.string?.hasPrefix("unknown query parameter 'x';") == true)
        }
    }

    /// The server reads bodies as sent: a compressed one is refused, not read as garbage.
    @Test(arguments: ["gzip", "br", "deflate", "gzip, identity"])
    func aCompressedBodyIs415(_ encoding: String) async throws {
        try await server.application().test(.router) { client in
            for uri in ["/v1/schemas/delivery/validate", "/v1/schemas/delivery/encode", "/v1/schemas/delivery/validate-batch"] {
                let response = try await client.execute(
                    uri: uri, method: .post, headers: [.contentEncoding: encoding], body: try ServerFixtures.file("update-600.json"))
                #expect(response.status == .unsupportedMediaType, "\(uri)")
                let body = try json(response)
                #expect(body.errorCode == "unsupported-content-encoding", "\(uri)")
                #expect(body["error"]?["message"]?.string?.hasSuffix("not Content-Encoding \(encoding)") == true, "\(uri)")
            }
            let plain = try await client.execute(
                uri: "/v1/schemas/delivery/validate", method: .post, headers: [.contentEncoding: "Identity"], body: try ServerFixtures.file("update-600.json"))
            #expect(plain.status == .ok)
        }
    }

    /// A transfer coding the parser does not undo (`gzip, chunked`) was read as the body's
    /// bytes, and a valid payload was answered `json-syntax`; RFC 9112 asks for 501.
    @Test func aTransferCodingOtherThanChunkedIs501() async throws {
        try await server.application().test(.router) { client in
            for coding in ["gzip, chunked", "br"] {
                let response = try await client.execute(
                    uri: "/v1/schemas/delivery/validate", method: .post, headers: [.transferEncoding: coding],
                    body: try ServerFixtures.file("update-600.json"))
                #expect(response.status == .notImplemented, "\(coding)")
                #expect(try json(response).errorCode == "unsupported-transfer-encoding")
            }
            let chunked = try await client.execute(
                uri: "/v1/schemas/delivery/validate", method: .post, headers: [.transferEncoding: "Chunked"],
                body: try ServerFixtures.file("update-600.json"))
            #expect(chunked.status == .ok)
        }
    }

    @Test func unknownSchemaDiffIs404() async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/nope/diff", method: .get)
            #expect(response.status == .notFound)
            #expect(try json(response).errorCode == "unknown-schema")
        }
    }

    @Test func unknownRouteIs404WithAJSONBody() async throws {
        try await server.application().test(.router) { client in
            // A known path with another method is 405 (ServerHTTPStatusTests).
            for (uri, method) in [("/v2/nothing", HTTPRequest.Method.get), ("/v1/schemas/delivery/nothing", .post), ("/health/x", .get)] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .notFound)
                #expect(try json(response).errorCode == "not-found")
            }
        }
    }

    @Test(arguments: [
        ("/v1/schemas/delivery/validate?version=abc", "bad-query"),
        ("/v1/schemas/delivery/validate?version=0", "bad-query"),
        ("/v1/schemas/delivery/validate?versoin=2", "bad-query"),
        ("/v1/schemas/delivery/validate?version=2&version=3", "bad-query"),
        ("/v1/schemas/delivery/validate?broadcast=maybe", "bad-query"),
        ("/v1/schemas/delivery/validate?&version=3", "bad-query"),
        ("/v1/schemas/delivery/validate?version=3&&broadcast=true", "bad-query"),
        ("/v1/schemas/delivery/validate?version", "bad-query"),
        ("/v1/schemas/delivery/validate?version=3=3", "bad-query"),
        ("/v1/schemas/delivery/validate?version=%33&version=3", "bad-query"),
        ("/v1/schemas/delivery/encode?version=all", "bad-query"),
        ("/v1/schemas/delivery/encode?event=start", "bad-query"),
        ("/v1/schemas/delivery/encode?event=finish", "bad-query"),
        ("/v1/schemas/delivery/encode?timestamp=-5", "bad-query"),
        ("/v1/schemas/delivery/encode?timestamp=soon", "bad-query"),
        ("/v1/schemas/delivery/encode?fit=yes", "bad-query"),
        ("/v1/schemas/delivery/encode?content-state=true&event=end", "bad-query"),
        ("/v1/schemas/delivery/encode?relevance-score=high", "bad-query"),
        ("/v1/schemas/delivery/encode-content-state?event=end", "bad-query"),
        ("/v1/schemas/delivery/encode-content-state?timestamp=now", "bad-query"),
    ])
    func badQueryIs400(_ uri: String, _ code: String) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: uri, method: .post, body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == .badRequest)
            let body = try json(response)
            #expect(body.errorCode == code)
            #expect(body["error"]?["status"]?.int == 400)
        }
    }

    @Test(arguments: [
        ("/v1/schemas/delivery/validate?version=9", HTTPRequest.Method.post),
        ("/v1/schemas/delivery/encode?version=7", .post),
        ("/v1/schemas/delivery/encode-content-state?version=7", .post),
        ("/v1/schemas/delivery/diff?from=1&to=9", .get),
        ("/v1/schemas/delivery/diff?to=9", .get),
    ])
    func unknownVersionIs404(_ uri: String, _ method: HTTPRequest.Method) async throws {
        // A well-formed request for a version the schema does not hold: a missing resource,
        // like an unknown schema id.
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: uri, method: method, body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == .notFound)
            #expect(try json(response).errorCode == "unknown-version")
            #expect(try json(response)["error"]?["status"]?.int == 404)
        }
    }

    @Test func diffTakesEitherEndOfThePairAlone() async throws {
        try await server.application().test(.router) { client in
            func pairs(_ uri: String) async throws -> [[Int]] {
                let body = try json(try await client.execute(uri: uri, method: .get))
                return body["pairs"]?.array?.compactMap { pair in
                    guard let reader = pair["readerVersion"]?.int, let writer = pair["writerVersion"]?.int else { return nil }
                    return [reader, writer]
                } ?? []
            }
            // delivery has versions 1, 2 and 3: a missing `to` is the newest, a missing `from` the oldest.
            #expect(try await pairs("/v1/schemas/delivery/diff?from=1") == [[1, 3], [3, 1]])
            #expect(try await pairs("/v1/schemas/delivery/diff?to=2") == [[1, 2], [2, 1]])
            let same = try json(try await client.execute(uri: "/v1/schemas/delivery/diff?from=2&to=2", method: .get))
            #expect(same["passes"]?.bool == true)
            #expect(same["findings"]?.array?.isEmpty == true)
        }
    }

    @Test(arguments: [
        "/v1/schemas/delivery/diff?mode=sideways", "/v1/schemas/delivery/diff?from=one",
        "/v1/schemas/delivery/diff?fail-on=never", "/v1/schemas?x=1",
    ])
    func badDiffOrListQueryIs400(_ uri: String) async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest)
            #expect(try json(response)["error"]?["code"]?.string != nil)
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        let big = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1)
        try await server.application().test(.router) { client in
            for uri in ["/v1/schemas/delivery/validate", "/v1/schemas/delivery/encode"] {
                let response = try await client.execute(uri: uri, method: .post, body: big)
                #expect(response.status == .contentTooLarge)
                let body = try json(response)
                #expect(body.errorCode == "payload-too-large")
                #expect(body["error"]?["status"]?.int == 413)
            }
            // Exactly at the limit is read and validated.
            let atLimit = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
            let response = try await client.execute(uri: "/v1/schemas/delivery/validate", method: .post, body: atLimit)
            #expect(response.status == .ok)
        }
    }

    @Test func echoRouteIsOffUnlessConfigured() async throws {
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/echo", method: .post, body: ServerFixtures.text("{}"))
            #expect(response.status == .notFound)
        }
        let echoing = LiveStateServer(store: server.store, configuration: .init(port: 0, echoRoute: true))
        let payload = try ServerFixtures.file("update-600.json")
        try await echoing.application().test(.router) { client in
            let response = try await client.execute(uri: "/echo", method: .post, body: payload)
            #expect(response.status == .ok)
            #expect(response.body == payload)
            let big = ByteBuffer(repeating: 0x20, count: 64 * 1024 + 1)
            #expect(try await client.execute(uri: "/echo", method: .post, body: big).status == .contentTooLarge)
        }
    }

    @Test func deeplyNestedBodyIsAnsweredNotCrashedOn() async throws {
        let deep = String(repeating: "[", count: 60_000)
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/delivery/validate", method: .post, body: ServerFixtures.text(deep))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            let state = try json(try await client.execute(
                uri: "/v1/schemas/delivery/encode", method: .post, body: ServerFixtures.text(String(repeating: "{\"a\":", count: 12_000))))
            #expect(state["ok"]?.bool == false)
        }
    }
}

/// The sidecar gives `lint`'s verdict: every payload of the field corpus
/// (`Tests/LiveStateYAMLTests/Fixtures/field`) through `POST /validate` and through
/// `PayloadValidator`, the validator `lint` runs.
@Suite struct SidecarVerdictTests {
    static let folder = ServerFixtures.packageRoot.appendingPathComponent("Tests/LiveStateYAMLTests/Fixtures/field")

    static let entries: [String] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expectations.json")),
              let list = try? Value.parse(json: data).array else { return [] }
        return list.compactMap { entry in
            guard entry["allVersions"]?.bool != true, entry["broadcast"]?.bool != true, entry["version"] == .null,
                  let file = entry["file"]?.string, let schema = entry["schema"]?.string else { return nil }
            return "\(schema)/\(file)"
        }
    }()

    @Test(arguments: entries)
    func sidecarAndLintAgree(entry: String) async throws {
        let (schemaID, file) = (String(entry.prefix { $0 != "/" }), String(entry.drop { $0 != "/" }.dropFirst()))
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        let schema = try SchemaLoader().load(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/\(schemaID).yaml").path)
        let lint = try PayloadValidator(schema: schema).validate(bytes)
        let server = try ServerFixtures.server()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/\(schemaID)/validate", method: .post, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .ok)
            let body = try json(response)
            let newest = String(schema.latest?.version ?? 0)
            #expect(body["decodes"]?[newest]?.bool == lint.appDecodes)
            let served = (body["diagnostics"]?.array ?? []).map {
                "\($0["code"]?.string ?? "") \($0["severity"]?.string ?? "") \($0["pointer"]?.string ?? "-") \($0["line"]?.int ?? 0):\($0["column"]?.int ?? 0)"
            }
            let linted = lint.diagnostics.map {
                "\($0.code) \($0.severity.rawValue) \($0.pointer ?? "-") \($0.position?.line ?? 0):\($0.position?.column ?? 0)"
            }
            #expect(served == linted)
        }
    }
}

/// The sidecar reads every URL of the table (`Tests/LiveStateTests/Fixtures/urls.json`) as
/// `lint` does: flash-sale's `deepLink`, for an app on iOS 16.1 and later.
@Suite struct SidecarURLTests {
    static let strings: [String] = {
        let url = ServerFixtures.packageRoot.appendingPathComponent("Tests/LiveStateTests/Fixtures/urls.json")
        guard let data = try? Data(contentsOf: url),
              let rows = try? Value.parse(json: data)["urls"]?.array else { return [] }
        return rows.compactMap { $0["string"]?.string }
    }()

    @Test func theTableIsThere() {
        #expect(Self.strings.count >= 40)
    }

    @Test(arguments: strings)
    func sidecarAndLintAgreeOnAURL(_ string: String) async throws {
        var writer = JSONWriter()
        writer.write(.string(string))
        let body = Array((#"{"aps":{"timestamp":1795000600,"event":"update","content-state":{"isSeckill":true,"deepLink":"#
            + String(decoding: writer.bytes, as: UTF8.self) + "}}}").utf8)
        let schema = try SchemaLoader().load(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/flash-sale.yaml").path)
        let lint = try PayloadValidator(schema: schema).validate(body)
        let server = try ServerFixtures.server()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/flash-sale/validate", method: .post, body: ByteBuffer(bytes: body))
            let served = try json(response)
            #expect(served["decodes"]?["2"]?.bool == lint.appDecodes)
            #expect((served["diagnostics"]?.array ?? []).map { "\($0["code"]?.string ?? "") \($0["message"]?.string ?? "")" }
                == lint.diagnostics.map { "\($0.code) \($0.message)" })
        }
    }
}

/// `serve --fleet`: `version=all` answers give the shares of devices, and `max-drop` gates.
@Suite struct SidecarFleetTests {
    static let fleets = ServerFixtures.packageRoot.appendingPathComponent("schemas/fleet").path

    static func server() throws -> LiveStateServer {
        LiveStateServer(store: try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: fleets),
                        configuration: .init(host: "127.0.0.1", port: 0))
    }

    static let update = try! Data(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/examples/delivery/v3-update.json"))

    @Test func allVersionsAnswersCarryTheShares() async throws {
        try await Self.server().application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/delivery/validate?version=all", method: .post, body: ByteBuffer(bytes: Self.update))
            #expect(response.status == .ok)
            let body = try json(response)
            #expect(body["ok"]?.bool == false)
            #expect(body["fleet"]?["total"]?.int == 10_000)
            #expect(body["fleet"]?["dropping"]?["devices"]?.int == 310)
            #expect(body["fleet"]?["accepted"]?.bool == false)
            let dropped = body["diagnostics"]?.array?.first { $0["code"]?.string == "dropped-by-version" }
            #expect(dropped?["message"]?.string?.contains("for 3.1% of devices (310 of 10,000)") == true)
        }
    }

    @Test func maxDropAcceptsASmallDrop() async throws {
        try await Self.server().application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/schemas/delivery/validate?version=all&max-drop=5%25", method: .post, body: ByteBuffer(bytes: Self.update))
            let body = try json(response)
            #expect(body["ok"]?.bool == true)
            #expect(body["fleet"]?["accepted"]?.bool == true)
            #expect(body["diagnostics"]?.array?.contains { $0["severity"]?.string == "error" } == false)
            // The note names the threshold as this request gave it, a query parameter.
            let messages = body["diagnostics"]?.array?.compactMap { $0["message"]?.string } ?? []
            #expect(messages.contains { $0.contains("(accepted by max-drop=5%: 3.1% of devices drop it)") }, "\(messages)")
            #expect(!messages.contains { $0.contains("--max-drop") }, "\(messages)")
        }
    }

    /// `max-drop` applies with `version=all`: with one version, or none, it is a bad query (400)
    /// rather than ignored; so is a malformed value, before the schema's fleet is looked for
    /// (409 is for a well-formed request the server cannot answer). `validate-batch` answers
    /// the same.
    @Test func maxDropWithoutAllVersionsOrMalformedIsABadQuery() async throws {
        try await Self.server().application().test(.router) { client in
            for path in ["validate", "validate-batch"] {
                for query in ["version=3&max-drop=5", "max-drop=5", "version=1&max-drop=5%25"] {
                    let response = try await client.execute(
                        uri: "/v1/schemas/delivery/\(path)?\(query)", method: .post, body: ByteBuffer(bytes: Self.update))
                    #expect(response.status == .badRequest, "\(path)?\(query)")
                    let body = try json(response)
                    #expect(body.errorCode == "bad-query", "\(path)?\(query)")
                    #expect(body["error"]?["message"]?.string?.hasPrefix("max-drop applies only with version=all") == true, "\(body)")
                }
            }
            let one = try await client.execute(uri: "/v1/schemas/delivery/validate?version=3&max-drop=5", method: .post, body: ByteBuffer(bytes: Self.update))
            #expect(try json(one)["error"]?["message"]?.string
                    == "max-drop applies only with version=all, where the fleet weighs every version's verdict; this request has version=3: give version=all, or leave max-drop out")
            // Malformed on a schema without a fleet: the query is wrong first.
            let malformed = try await client.execute(
                uri: "/v1/schemas/pizza/validate?version=all&max-drop=abc", method: .post, body: ByteBuffer(bytes: Self.update))
            #expect(malformed.status == .badRequest)
            #expect(try json(malformed).errorCode == "bad-query")
            let withoutAll = try await client.execute(
                uri: "/v1/schemas/pizza/validate?version=2&max-drop=1", method: .post, body: ByteBuffer(bytes: Self.update))
            #expect(withoutAll.status == .badRequest)
            // A schema served without a fleet file: a valid request the server cannot answer.
            let wellFormed = try await client.execute(
                uri: "/v1/schemas/pizza/validate?version=all&max-drop=1", method: .post, body: ByteBuffer(bytes: Self.update))
            #expect(wellFormed.status == .conflict)
            #expect(try json(wellFormed).errorCode == "no-fleet")
        }
    }

    /// A `--fleet` path that does not exist is a file that cannot be read, not a schema id.
    @Test func aMissingFleetPathCannotBeRead() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-no-fleet-\(UUID().uuidString)").path
        do {
            _ = try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: missing)
            Issue.record("the load should fail")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["\(missing): error: cannot read: no such file or directory [fleet-io]"])
        }
    }

    /// `delivery.csv` and `delivery.yaml` in one folder: which holds the right counts is not
    /// the server's to guess. Starting fails, and a reload keeps the loaded set.
    @Test func twoFleetFilesForOneSchemaFailTheLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "version,count\n1,5\n".write(to: folder.appendingPathComponent("delivery.csv"), atomically: true, encoding: .utf8)
        let store = try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: folder.path)
        try "- { version: 1, count: 7 }\n".write(to: folder.appendingPathComponent("delivery.yaml"), atomically: true, encoding: .utf8)
        guard case .kept(_, let errors) = store.reload() else {
            Issue.record("a reload with two fleet files for delivery was loaded")
            return
        }
        #expect(errors.map(\.code) == ["fleet-duplicate-schema"])
        #expect(errors.first?.file == folder.path + "/delivery.yaml")
        #expect(errors.first?.message == "gives the fleet of schema 'delivery', as \(folder.path)/delivery.csv does; keep one of the two files")
        #expect(store.snapshot.entry(for: "delivery")?.fleet?.total == 5)
        #expect(throws: SchemaLoadError.self) { try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: folder.path) }
    }

    /// A fleet's warnings are the loaded set's, as the schemas' are (they were dropped: a live
    /// version with no row weighed nothing, and nothing said so).
    @Test func aFleetsWarningsAreTheSets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "version,count\n2,5\n3,5\n".write(to: folder.appendingPathComponent("delivery.csv"), atomically: true, encoding: .utf8)
        let store = try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: folder.path)
        let warning = try #require(store.snapshot.warnings.first { $0.code == "fleet-missing-version" }, "\(store.snapshot.warnings)")
        #expect(warning.file == folder.path + "/delivery.csv")
        guard case .reloaded(let again) = store.reload() else {
            Issue.record("the reload kept the set")
            return
        }
        #expect(again.warnings.contains { $0.code == "fleet-missing-version" })
    }

    @Test func aBadFleetFileFailsTheLoadWithItsPosition() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "version,count\n1,5\n9,5\n".write(to: folder.appendingPathComponent("delivery.csv"), atomically: true, encoding: .utf8)
        try "version,count\n1,5\n".write(to: folder.appendingPathComponent("nosuch.csv"), atomically: true, encoding: .utf8)
        do {
            _ = try SchemaStore(paths: [ServerFixtures.schemas], fleetPath: folder.path)
            Issue.record("the load should fail")
        } catch {
            #expect(error.diagnostics.map(\.code.rawValue).sorted() == ["fleet-unknown-schema", "fleet-unknown-version"])
            #expect(error.diagnostics.contains {
                $0.message == "is named for schema 'nosuch', which is not loaded (loaded: delivery, flash-sale, grocery, match-score, pizza)"
            })
            #expect(error.diagnostics.contains { $0.position?.line == 3 && $0.file?.hasSuffix("delivery.csv") == true })
        }
    }
}

/// The sidecar finds fleet files by their extension as the loader reads them: in any case.
@Suite struct SidecarFleetFileTests {
    @Test func extensionsAreMatchedInAnyCase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleetcase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["delivery.CSV", "pizza.Json", "notes.txt"] {
            try Data("version,count\n1,1\n".utf8).write(to: folder.appendingPathComponent(name))
        }
        let found = SchemaSnapshot.fleetFiles(at: folder.path).map(\.id).sorted()
        #expect(found == ["delivery", "pizza"])
    }
}
