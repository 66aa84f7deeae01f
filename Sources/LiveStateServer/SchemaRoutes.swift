import Dispatch
import Foundation
import Hummingbird
@_spi(Scanner) import LiveState
import LiveStateTooling

/// The endpoints of `livestate serve`. Every body in and out is JSON; every diagnostic is the
/// CLI's `{code, severity, message, file, line, column, scope, pointer}` object.
///
/// A request takes the store's snapshot once, checks its query (400) and schema id (404) before
/// it reads any body, then reads at most `maxBodyBytes` (413 past that, refused from the
/// `Content-Length` alone when there is one). Validation and encoding are synchronous work on a
/// bounded body, done inline; a batch's lines are validated on a Dispatch thread, off the event
/// loop.
///
/// The handlers are written here, not generated from `openapi.yaml` by swift-openapi-generator:
/// its server code decodes an `application/json` body with `JSONDecoder` before a handler sees
/// it, so a payload that is not JSON would be refused by the runtime with its own error, not
/// answered with LiveState's `json-syntax` finding and its line, column and pointer, and a
/// valid one would reach LiveState re-read (its duplicate keys gone, `-0` and long numbers
/// changed, its byte count lost for the budget). The contract stays the YAML's:
/// `scripts/contract.py` and schemathesis hold every response to it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct SchemaRoutes: Sendable {
    let store: SchemaStore
    let maxBodyBytes: Int
    /// The largest `validate-batch` body.
    var maxBatchBytes = 4 << 20
    /// The most lines a `validate-batch` body may hold.
    static let maxBatchLines = 10_000
    /// Where requests, bodies and validations are counted.
    var metrics: SidecarMetrics?
    /// The bodies answered `ok` per device token or channel, for the checks against the pushes before.
    let history: PushHistory
    /// The time, for those checks (tests move it).
    var clock = PushClock.system

    /// Registers every route on `router`.
    func register(on router: Router<SidecarRequestContext>) {
        typealias Context = SidecarRequestContext
        router.add(middleware: RequestLogMiddleware<Context>(metrics: metrics))
        router.add(middleware: APIErrorMiddleware<Context>())
        // Every GET answers HEAD too: the same status and headers, no body.
        func get(_ path: RouterPath, _ handler: @escaping @Sendable (Request, Context) throws -> Response) {
            router.get(path) { request, context in try handler(request, context) }
            router.head(path) { request, context in Self.head(try handler(request, context)) }
        }
        get("/health") { _, _ in health() }
        get("/ready") { _, _ in ready() }
        get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics?.exposition(store: store) ?? [])))
        }
        get("/openapi.json") { _, _ in JSONResponse.make(bytes: OpenAPIDocument.bytes) }
        get("/v1/schemas") { request, _ in try listSchemas(request) }
        get("/v1/schemas/:id/diff") { request, context in try diff(request, id: try schemaID(context)) }
        get("/v1/schemas/:id/json-schema") { request, context in try jsonSchema(request, id: try schemaID(context)) }
        router.post("/v1/schemas/:id/validate") { request, context in try await validate(request, context, id: try schemaID(context)) }
        router.post("/v1/schemas/:id/encode") { request, context in try await encode(request, context, id: try schemaID(context)) }
        router.post("/v1/schemas/:id/encode-content-state") { request, context in
            try await encode(request, context, id: try schemaID(context), contentStateOnly: true)
        }
        router.post("/v1/schemas/:id/validate-batch") { request, context in
            try await validateBatch(request, context, id: try schemaID(context))
        }
    }

    /// Registers `POST /echo`: the body back, as read with the same limit. For load tests only.
    func registerEcho(on router: Router<SidecarRequestContext>) {
        router.post("/echo") { request, context in
            let body = try await collectBody(request, context)
            return Response(status: .ok, headers: JSONResponse.headers, body: ResponseBody(byteBuffer: body))
        }
    }

    // MARK: - GET /health

    /// Liveness: the process answers. Also says how the last reload went, so that a schema
    /// file that stopped loading is seen (the loaded set is kept and still served).
    func health() -> Response {
        let snapshot = store.snapshot
        var members: [Value.Member] = [
            .init("status", .string("ok")),
            .init("generation", .int(snapshot.generation)),
            .init("schemas", .int(snapshot.ids.count)),
        ]
        if let reload = store.lastReload {
            members.append(.init("lastReload", .object([
                .init("ok", .bool(reload.succeeded)),
                .init("generation", .int(reload.generation)),
                .init("at", .string(reload.at.formatted(.iso8601))),
                .init("diagnostics", .array(reload.errors.listed.map(\.jsonValue))),
            ])))
        }
        return JSONResponse.make(.object(members), capacity: 64)
    }

    // MARK: - GET /ready

    /// Readiness: 200 while a schema set is loaded, 503 while none is.
    func ready() -> Response {
        let snapshot = store.snapshot
        let ready = !snapshot.ids.isEmpty
        return JSONResponse.make(.object([
            .init("ready", .bool(ready)),
            .init("generation", .int(snapshot.generation)),
            .init("schemas", .int(snapshot.ids.count)),
        ]), status: ready ? .ok : .serviceUnavailable, capacity: 64)
    }

    // MARK: - GET /v1/schemas

    func listSchemas(_ request: Request) throws(APIError) -> Response {
        _ = try QueryParameters(request, allowed: Self.listParameters)
        let snapshot = store.snapshot
        let schemas: [Value] = snapshot.ids.compactMap { id in
            guard let schema = snapshot.entry(for: id)?.schema else { return nil }
            return .object([
                .init("id", .string(id)),
                .init("attributesType", schema.attributesType.map(Value.string) ?? .null),
                .init("compatibility", .string(schema.compatibility.rawValue)),
                .init("versions", .array(schema.versions.map { .int($0.version) })),
                .init("latest", schema.latest.map { .int($0.version) } ?? .null),
                .init("strictClients", .array(schema.strictClients.map(Value.int))),
                .init("file", schema.file.map(Value.string) ?? .null),
            ])
        }
        return JSONResponse.make(.object([
            .init("generation", .int(snapshot.generation)),
            .init("schemas", .array(schemas)),
            .init("diagnostics", .array(snapshot.warnings.listed.map(\.jsonValue))),
        ]))
    }

    // MARK: - GET /v1/schemas/{id}/diff

    func diff(_ request: Request, id: String) throws(APIError) -> Response {
        let query = try QueryParameters(request, allowed: Self.diffParameters)
        let mode = try query.choice("mode", as: CompatibilityMode.self)
        let from = try query.positiveInteger("from")
        let to = try query.positiveInteger("to")
        let failOn = try query.choice("fail-on", as: Severity.self) ?? .error
        let elision = try query.flag("assume-default-elision")

        let entry = try schemaEntry(id)
        let checker = CompatibilityChecker(options: .init(assumeDefaultElision: elision))
        let report: CompatibilityReport
        if let pair = CompatibilityChecker.pair(in: entry.schema, from: from, to: to) {
            for version in [pair.from, pair.to] where !entry.versions.contains(version) {
                throw .unknownVersion(version, available: entry.versions)
            }
            if let problem = CompatibilityChecker.emptyPairProblem(
                pair, from: from, to: to, spelling: { name, value in name + (value.map { "=\($0)" } ?? "") }) {
                throw .badQuery(problem)
            }
            report = checker.check(entry.schema, from: pair.from, to: pair.to, mode: mode)
        } else {
            report = checker.check(entry.schema, mode: mode)
        }
        var document = report.jsonValue
        if case .object(var members) = document {
            members.removeAll { $0.name == "passes" }
            members.insert(.init("passes", .bool(report.passes(failOn: failOn))), at: min(3, members.count))
            members.insert(.init("failOn", .string(failOn.rawValue)), at: min(4, members.count))
            document = .object(members)
        }
        return JSONResponse.make(document, capacity: 4096)
    }

    // MARK: - GET /v1/schemas/{id}/json-schema

    /// The JSON Schema of one version, or of every version (`livestate codegen json-schema`):
    /// what a server in another language makes its types or its own checks from.
    func jsonSchema(_ request: Request, id: String) throws(APIError) -> Response {
        let query = try QueryParameters(request, allowed: Self.jsonSchemaParameters)
        let version = try query.positiveInteger("version")
        let entry = try schemaEntry(id)
        if let version, !entry.versions.contains(version) { throw .unknownVersion(version, available: entry.versions) }
        do {
            return JSONResponse.makeSchema(try JSONSchemaGenerator().document(entry.schema, version: version))
        } catch {
            // A loaded schema passed the validator the generator asks, and the version is known.
            throw APIError(.internalServerError, code: error.code.rawValue, message: error.message)
        }
    }

    // MARK: - POST /v1/schemas/{id}/validate

    /// Validates the body of `request` against schema `id` and answers.
    func validate(_ request: Request, _ context: SidecarRequestContext, id: String) async throws -> Response {
        // Everything but reading the body is synchronous: one suspension, as in `POST /echo`.
        let validation = try validation(request, id: id, allowed: Self.validateParameters + ["token", "channel-id"])
        let body = Array(try await collectBody(request, context).readableBytesView)
        guard let activity = validation.activity else { return respond(to: validation, body: body).response }
        // With a token or channel: checked against the last body answered `ok` for that
        // activity, and remembered when this one is; one check of an activity at a time, so that
        // of two bodies sent at once, the second is checked against the first.
        let entry = await history.reserve(activity, at: clock.elapsed)
        let now = clock.elapsed()
        var checked: PushHistory.Push?
        let (response, ok) = respond(to: validation, body: body) { bytes, result in
            var push = PushHistory.Push(target: activity, event: result.event, timestamp: result.timestamp)
            if result.event == .start { push.attributes = PushHistory.attributesHash(ofBody: bytes) }
            checked = push
            return PushHistory.findings(push, entry, stampedHere: false, now: now, source: .sidecar, file: nil)
        }
        await history.release(activity, accepting: ok ? checked : nil, at: now)
        return response
    }

    /// What a validation will run, settled from the query and the path before the body is read.
    struct Validation: Sendable {
        let id: String
        /// One validator, or one per version, oldest first, for `version=all`.
        let validators: [PayloadValidator]
        let allVersions: Bool
        /// Devices per version, with the gate's threshold, when the schema has a fleet file.
        var fleet: (fleet: Fleet, maxDrop: FleetThreshold)?
        /// The device token or broadcast channel the body goes to (`token`, `channel-id`), when given.
        var activity: PushHistory.Target?
    }

    /// Checks the query (400), the schema id (404), `max-drop` without `version=all`, `token` or
    /// `channel-id` against `broadcast` (400), the version (404) and, for `max-drop`, the fleet
    /// (409) of a validation.
    /// - Parameter allowed: The query parameters the route takes.
    func validation(_ request: Request, id: String, allowed: [String] = Self.validateParameters) throws(APIError) -> Validation {
        let query = try QueryParameters(request, allowed: allowed)
        let broadcast = try query.flag("broadcast")
        // The activity the body goes to, as `livestate send` names it: a device's token, or a
        // broadcast's channel. A device token is hex and a channel id base64: printable ASCII.
        // (Which of them goes with `broadcast` is checked once the schema is found, as `max-drop`'s
        // rule is: an unknown schema is a 404 first.)
        var activity: PushHistory.Target?
        for (name, isChannel) in [("token", false), ("channel-id", true)] {
            guard let id = query.string(name) else { continue }
            guard !id.isEmpty, id.utf8.count <= Self.maxActivityBytes, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw APIError.badQuery("\(name) must be 1 to \(Self.maxActivityBytes) printable ASCII characters without spaces, "
                    + "not '\(ValueText.clipped(id))'")
            }
            activity = PushHistory.Target(id: id, isBroadcast: isChannel)
        }
        var all = query.has("version", equalTo: "all")
        // `max-drop` is a query matter before the fleet is looked for: malformed, or without
        // `version=all` (the gate weighs every version's verdict), it is a bad query whether or
        // not the schema has a fleet.
        var maxDrop: FleetThreshold?
        if let text = query.string("max-drop") {
            guard let threshold = FleetThreshold(text) else {
                throw APIError.badQuery("max-drop must be \(FleetThreshold.form), not '\(text)'")
            }
            maxDrop = threshold
        }
        let entry = try schemaEntry(id)
        if maxDrop != nil, !all {
            let given = query.string("version").map { "version=\($0)" } ?? "no version (the newest)"
            throw APIError.badQuery("max-drop applies only with version=all, where the fleet weighs every version's verdict; "
                + "this request has \(given): give version=all, or leave max-drop out")
        }
        if query.string("token") != nil && query.string("channel-id") != nil {
            throw APIError.badQuery("token and channel-id exclude each other: a push goes to a device or a channel")
        }
        if let activity, activity.isBroadcast != broadcast {
            throw APIError.badQuery(broadcast ? "token names a device; a broadcast goes to a channel-id" : "channel-id goes with broadcast=true")
        }
        // What `livestate send` refuses as `bad-device-token` or `bad-channel-id`.
        if let activity, let problem = activity.isBroadcast
            ? PushHistory.Target.problem(withChannel: activity.id) : PushHistory.Target.problem(withToken: activity.id) {
            throw APIError.badQuery("\(activity.isBroadcast ? "channel-id" : "token"): \(problem)")
        }
        // Every version still in the field: a retired one drops nothing.
        var validators = entry.validators.filter { !$0.decoder.version.isRetired }
        if !all {
            let version = try versionNumber(query, orAll: true)
            if let validator = entry.validator(for: version) {
                validators = [validator]
            } else if let version {
                throw .unknownVersion(version, available: entry.versions)
            } else {
                // No validator for the newest version: answer as for `version=all`.
                all = true
            }
        }
        if broadcast {
            for index in validators.indices { validators[index].options.broadcast = true }
        }
        var fleet: (Fleet, FleetThreshold)?
        if let known = entry.fleet {
            fleet = (known, maxDrop ?? .noDrop)
        } else if maxDrop != nil {
            throw APIError.noFleet(id)
        }
        return Validation(id: id, validators: validators, allVersions: all, fleet: fleet, activity: activity)
    }

    /// Validates `body` and writes the response: `{"ok", "schema", "version", "decodes",
    /// "diagnostics", "budget"}`, straight from the results, with no `Value` tree per diagnostic.
    /// `more`, as in `write`, also gets the body's bytes.
    /// - Returns: The response, and whether it says `ok`.
    func respond(
        to validation: Validation, body: [UInt8], more: (([UInt8], ValidationResult) -> [Diagnostic])? = nil
    ) -> (response: Response, ok: Bool) {
        var writer = JSONWriter(capacity: 2048)
        let now = Int(clock.now().timeIntervalSince1970)
        let ok = Self.write(validation, body, line: nil, now: now, to: &writer, metrics: metrics, more: more.map { more in { more(body, $0) } })
        return (JSONResponse.make(bytes: writer.bytes), ok)
    }

    /// Writes one validation's answer; `line` (a batch's line number) comes first when given.
    /// `more` gives the findings of the pushes before (`token`, `channel-id`), from the newest version's
    /// result: they count as the others do. `now` (UNIX seconds) is the clock a `timestamp` is
    /// held to (`timestamp-in-future`, as `lint` and `send` hold it; and with `more`, a push the
    /// server is sending now, `timestamp-in-past`, as `send` holds it).
    /// - Returns: Whether the answer is `ok`.
    @discardableResult
    static func write(
        _ validation: Validation, _ body: some ContiguousBytes, line: Int?, now: Int, to writer: inout JSONWriter,
        metrics: SidecarMetrics?, more: ((ValidationResult) -> [Diagnostic])? = nil
    ) -> Bool {
        let ok: Bool
        if let line {
            writer.append(#"{"line":"#)
            writer.writeInt(line)
            writer.append(",")
        } else {
            writer.append("{")
        }
        if !validation.allVersions, let validator = validation.validators.first {
            var result = validator.validate(body)
            PushHistory.holdToClock(result, now: now, sentNow: more != nil, file: nil, in: body, findings: &result.diagnostics)
            if let more { result.diagnostics += more(result) }
            let version = validator.decoder.version.version
            ok = !result.hasErrors
            metrics?.validation(schema: validation.id, version: String(version), ok: ok, diagnostics: result.diagnostics)
            writer.append(ok ? #""ok":true,"schema":"# : #""ok":false,"schema":"#)
            writer.writeString(validation.id)
            writer.append(#","version":"#)
            writer.writeInt(version)
            writer.append(#","decodes":{""#)
            writer.writeInt(version)
            writer.append(result.appDecodes ? #"":true},"diagnostics":"# : #"":false},"diagnostics":"#)
            result.diagnostics.write(to: &writer)
            writer.append(#","budget":"#)
            result.budget.write(to: &writer)
        } else {
            var (results, all) = PayloadValidator.validateAllVersions(validation.validators, body, fleet: validation.fleet?.fleet,
                                                                     maxDrop: validation.fleet?.maxDrop)
            var impact: FleetImpact?
            if let (fleet, maxDrop) = validation.fleet {
                (all, impact) = PayloadValidator.weigh((results, all), by: fleet, maxDrop: maxDrop, spelling: .queryParameter)
            }
            PushHistory.holdToClock(results.last?.result, now: now, sentNow: more != nil, file: nil, in: body, findings: &all)
            if let more, let newest = results.last?.result { all += more(newest) }
            ok = !all.contains { $0.severity == .error }
            metrics?.validation(schema: validation.id, version: "all", ok: ok, diagnostics: all)
            writer.append(ok ? #""ok":true,"schema":"# : #""ok":false,"schema":"#)
            writer.writeString(validation.id)
            writer.append(#","version":"all","decodes":{"#)
            for (index, (version, result)) in results.enumerated() {
                if index > 0 { writer.append(",") }
                // A version is digits: quoted, it needs no escaping.
                writer.append("\"")
                writer.writeInt(version)
                writer.append(result.appDecodes ? #"":true"# : #"":false"#)
            }
            writer.append(#"},"diagnostics":"#)
            all.write(to: &writer)
            writer.append(#","budget":"#)
            if let budget = results.last?.result.budget { budget.write(to: &writer) } else { writer.append("null") }
            if let impact {
                writer.append(#","fleet":"#)
                writer.write(impact.jsonValue)
            }
        }
        writer.append("}")
        return ok
    }

    // MARK: - POST /v1/schemas/{id}/validate-batch

    /// Validates every line of an NDJSON body (one APNs payload per line) and streams one result
    /// per line back, in order, each with its `line` number: as `validate` answers it. A line
    /// that is not JSON gets its own `json-syntax` result; the rest go on. At least one line
    /// (`empty-batch`), at most `maxBatchLines` lines and `maxBatchBytes` bytes.
    func validateBatch(_ request: Request, _ context: SidecarRequestContext, id: String) async throws -> Response {
        let validation = try validation(request, id: id)
        let body = Array(try await collectBody(
            request, context, limit: maxBatchBytes, accepting: Self.isNDJSON, expecting: "NDJSON (Content-Type application/x-ndjson), JSON, or none"
        ).readableBytesView)
        let lines = Self.lineRanges(body)
        guard !lines.isEmpty else {
            // An answer of no lines would read as a batch that passed: the body was most likely lost.
            throw APIError(.badRequest, code: "empty-batch", message: "the batch has no lines; send one APNs body per line")
        }
        guard lines.count <= Self.maxBatchLines else {
            throw APIError(.contentTooLarge, code: "too-many-lines",
                           message: "the batch has \(lines.count) lines, over the limit of \(Self.maxBatchLines)")
        }
        let metrics = metrics
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody { writer in
            // Results go out 32 KiB at a time, as they are made.
            var next = 0
            while next < lines.count {
                let (out, end) = await Self.results(validation, body, lines, from: next, now: Int(clock.now().timeIntervalSince1970), metrics: metrics)
                try await writer.write(ByteBuffer(bytes: out))
                next = end
            }
            try await writer.finish(nil)
        })
    }

    /// Validates the lines of `body` from line index `start` on a Dispatch thread, until their
    /// results pass 32 KiB or the lines run out.
    ///
    /// A batch is seconds of work. Under `livestate serve` tasks run on NIO's event loops, and a
    /// loop runs its tasks until none is left before it reads its sockets again: validating
    /// inline, even with `Task.yield()`, would leave every other connection on that loop
    /// unanswered (`/health` included) until the batch ends.
    /// - Parameter now: The clock, in UNIX seconds, that `timestamp`s are held to.
    /// - Returns: The results, one line each, and the index of the first line not validated.
    static func results(
        _ validation: Validation, _ body: [UInt8], _ lines: [Range<Int>], from start: Int, now: Int, metrics: SidecarMetrics?
    ) async -> (bytes: [UInt8], end: Int) {
        await withCheckedContinuation { (done: CheckedContinuation<([UInt8], Int), Never>) in
            DispatchQueue.global().async {
                var out = JSONWriter(capacity: 40 * 1024)
                var index = start
                while index < lines.count && out.bytes.count < 32 * 1024 {
                    Self.write(validation, body[lines[index]], line: index + 1, now: now, to: &out, metrics: metrics)
                    out.append("\n")
                    index += 1
                }
                done.resume(returning: (out.bytes, index))
            }
        }
    }

    /// Each line's bytes, without its `\n` or `\r\n`; an empty last line (after a final
    /// newline) is not a line.
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let end = index > start && bytes[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
            ranges.append(start..<end)
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// Whether a `Content-Type` names NDJSON (`application/x-ndjson`, `application/ndjson`,
    /// `application/jsonl`, `application/x-jsonlines`) or JSON, as `isJSON` reads it.
    static func isNDJSON(_ contentType: String) -> Bool {
        ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"].contains(mediaType(contentType))
            || isJSON(contentType)
    }

    /// A `Content-Type`'s media type, lower-cased, without parameters.
    static func mediaType(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// Whether a `Content-Type` leaves the charset UTF-8: it names none, or `utf-8` (any case,
    /// quoted or not). JSON text is UTF-8 (RFC 8259), and the body is read as such: a client that
    /// says `charset=latin1` sent bytes that read as something else.
    static func isUTF8(_ contentType: String) -> Bool {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            return value == "utf-8" || value == "utf8"
        }
        return true
    }

    // MARK: - POST /v1/schemas/{id}/encode and /encode-content-state

    /// Writes a whole body, or (`contentStateOnly`, or the older `encode?content-state=true`)
    /// the bare content-state, which takes no envelope parameters.
    func encode(_ request: Request, _ context: SidecarRequestContext, id: String, contentStateOnly: Bool = false) async throws -> Response {
        let query = try QueryParameters(request, allowed: contentStateOnly ? Self.contentStateParameters : Self.encodeParameters)
        let (elideDefaults, fit, broadcast) = (try query.flag("elide-defaults"), try query.flag("fit"), try query.flag("broadcast"))
        let bare = try contentStateOnly || query.flag("content-state")
        if bare && !contentStateOnly {
            // As `/encode-content-state` answers: the bare content-state has no envelope.
            let given = Self.envelopeParameters.filter { query.string($0) != nil }
            if !given.isEmpty {
                let taken = (Self.contentStateParameters + ["content-state"]).sorted().joined(separator: ", ")
                throw APIError.badQuery(
                    "content-state=true writes the bare content-state, which takes no envelope parameters (\(given.joined(separator: ", "))); it takes \(taken)")
            }
        }
        if query.string("event") == ActivityEvent.start.rawValue {
            throw APIError.badQuery("event=start needs the static attributes, which this endpoint does not take; write start pushes with livestate encode --attributes")
        }
        // The rules `livestate encode` applies to the same parameters.
        var encodeRequest = ContentStateEncoder.Request()
        encodeRequest.contentStateOnly = bare
        encodeRequest.event = query.string("event")
        encodeRequest.timestamp = query.string("timestamp")
        encodeRequest.staleDate = try query.integer("stale-date")
        encodeRequest.dismissalDate = try query.integer("dismissal-date")
        encodeRequest.relevanceScore = try query.number("relevance-score")
        let (envelope, problem) = encodeRequest.envelope(now: Date())
        guard let envelope else { throw APIError.badQuery(problem ?? "bad envelope parameters") }
        let entry = try schemaEntry(id)
        let version = try versionNumber(query, orAll: false)
        guard var encoder = entry.encoder(for: version) else {
            throw APIError.unknownVersion(version ?? 0, available: entry.versions)
        }
        (encoder.elideDefaults, encoder.fit, encoder.broadcast) = (elideDefaults, fit, broadcast)
        let body = Array(try await collectBody(request, context).readableBytesView)

        let result = encoder.encode(stateJSON: body, envelope: bare ? nil : envelope)
        let diagnostics = result.diagnostics
        let ok = !result.bytes.isEmpty && !diagnostics.contains { $0.severity == .error }

        var writer = JSONWriter(capacity: result.bytes.count + 1024)
        writer.append(#"{"ok":"#)
        writer.append(ok ? "true" : "false")
        writer.append(#","schema":"#)
        writer.writeString(id)
        writer.append(#","version":"#)
        writer.append(String(encoder.version.version))
        writer.append(#","payload":"#)
        // The encoder's own bytes, verbatim: exactly what the caller should send.
        writer.append(result.bytes.isEmpty ? "null" : String(decoding: result.bytes, as: UTF8.self))
        writer.append(#","diagnostics":"#)
        writer.write(.array(diagnostics.listed.map(\.jsonValue)))
        writer.append(#","budget":"#)
        writer.write(result.budgetWithFields(bare: bare)?.jsonValue ?? .null)
        writer.append("}")
        return JSONResponse.make(bytes: writer.bytes)
    }

    // MARK: - Shared steps

    /// The query parameters each endpoint takes; anything else is a 400.
    static let listParameters: [String] = []
    static let diffParameters = ["mode", "from", "to", "fail-on", "assume-default-elision"]
    static let jsonSchemaParameters = ["version"]
    static let validateParameters = ["version", "broadcast", "max-drop"]
    /// The longest `token` or `channel-id`, as the sender takes them.
    static let maxActivityBytes = PushHistory.Target.maxIDBytes
    static let encodeParameters = [
        "version", "event", "timestamp", "stale-date", "dismissal-date", "relevance-score",
        "fit", "elide-defaults", "broadcast", "content-state",
    ]
    static let contentStateParameters = ["version", "fit", "elide-defaults"]
    /// The parameters of `encode` that shape the APNs body around the content-state.
    static let envelopeParameters = ["event", "timestamp", "stale-date", "dismissal-date", "relevance-score", "broadcast"]

    /// The schema id of the path, percent-decoded: `/v1/schemas/caf%C3%A9/validate` names `café`.
    private func schemaID(_ context: some RequestContext) throws(APIError) -> String {
        guard let id = context.parameters.get("id") else { throw .badQuery("the path names no schema") }
        return id.removingPercentEncoding ?? id
    }

    private func schemaEntry(_ id: String) throws(APIError) -> SchemaSnapshot.Entry {
        let snapshot = store.snapshot
        guard let entry = snapshot.entry(for: id) else { throw .unknownSchema(id, known: snapshot.ids) }
        return entry
    }

    /// `version=N`, or `nil` for the newest.
    private func versionNumber(_ query: QueryParameters, orAll: Bool) throws(APIError) -> Int? {
        try query.positiveInteger("version", or: orAll ? "all" : nil)
    }

    /// Reads the whole body, refusing more than `maxBodyBytes`: from `Content-Length` before
    /// reading anything, otherwise as soon as the bytes read pass the limit. A type `accepting`
    /// refuses (the message says the route takes `expecting`) and a `Content-Encoding` other than
    /// `identity` are 415; a transfer coding other than `chunked` is 501. A request that waits
    /// for `100 Continue` gets it once none of these refuses it, just before the body is read; one
    /// refused is answered at once, and its connection closed (`HTTP1ExchangeHandler`).
    func collectBody(
        _ request: Request, _ context: SidecarRequestContext, limit: Int? = nil, accepting: (String) -> Bool = SchemaRoutes.isJSON,
        expecting: String = "JSON (Content-Type application/json, or none)"
    ) async throws -> ByteBuffer {
        let limit = limit ?? maxBodyBytes
        try Self.refuseUnread(request, limit: limit, accepting: accepting, expecting: expecting)
        context.continueIfExpected()
        do {
            let body = try await request.body.collect(upTo: limit)
            metrics?.body(route: Self.routePattern(path: request.uri.path), bytes: body.readableBytes)
            return body
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: limit)
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as HTTP1ExchangeHandler.RequestTimedOut {
            throw APIError.requestTimeout(error)
        } catch {
            // NIO's parser refused the body (a bad chunk size, a truncated chunk): the client's fault.
            throw APIError.badRequestBody(error)
        }
    }

    /// What `collectBody` refuses before it reads anything.
    private static func refuseUnread(
        _ request: Request, limit: Int, accepting: (String) -> Bool, expecting: String
    ) throws(APIError) {
        if let type = request.headers[.contentType], !accepting(type) {
            throw APIError.unsupportedMediaType(type, expecting: expecting)
        }
        if let type = request.headers[.contentType], !isUTF8(type) {
            throw APIError.unsupportedMediaType(type, expecting: "UTF-8 text, as JSON is (charset=utf-8, or none)")
        }
        // Every coding but `identity` (`gzip`, `br`, `gzip, identity`) changes the bytes.
        if let encoding = request.headers[.contentEncoding],
           encoding.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() != "identity" }) {
            throw APIError.unsupportedContentEncoding(encoding)
        }
        // The parser undoes `chunked` alone: `gzip, chunked` would be read as gzip's bytes.
        if let coding = request.headers[.transferEncoding],
           coding.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() != "chunked" }) {
            throw APIError.unsupportedTransferEncoding(coding)
        }
        if let declared = request.headers[.contentLength], let length = Int(declared), length > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
    }

    /// Whether a `Content-Type` names JSON: `application/json` or `application/…+json`, any
    /// parameters, any case.
    static func isJSON(_ contentType: String) -> Bool {
        let type = mediaType(contentType)
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// The routes and the methods each answers, for 405's `Allow`; `:id` matches one segment.
    static let routeMethods: [(segments: [Substring], allow: String)] = [
        ("/health", "GET, HEAD"), ("/ready", "GET, HEAD"), ("/metrics", "GET, HEAD"), ("/openapi.json", "GET, HEAD"), ("/v1/schemas", "GET, HEAD"),
        ("/v1/schemas/:id/diff", "GET, HEAD"), ("/v1/schemas/:id/json-schema", "GET, HEAD"), ("/v1/schemas/:id/validate", "POST"), ("/v1/schemas/:id/encode", "POST"),
        ("/v1/schemas/:id/encode-content-state", "POST"),
        ("/v1/schemas/:id/validate-batch", "POST"),
    ].map { ($0.0.split(separator: "/"), $0.1) }

    /// The methods `path` answers, or `nil` when no route has that path.
    static func allowedMethods(path: String) -> String? {
        route(path)?.allow
    }

    /// The route `path` takes, as the OpenAPI document spells it (`/v1/schemas/{id}/validate`),
    /// or `unmatched`: a metric label with a bounded set of values.
    static func routePattern(path: String) -> String {
        guard let route = route(path) else { return "unmatched" }
        return "/" + route.segments.map { $0 == ":id" ? "{id}" : String($0) }.joined(separator: "/")
    }

    private static func route(_ path: String) -> (segments: [Substring], allow: String)? {
        let segments = path.split(separator: "/")
        return routeMethods.first { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0 == ":id" || $0 == $1 }
        }
    }

    /// A GET's answer for HEAD: its status and headers, `Content-Length` included, no body.
    static func head(_ response: Response) -> Response {
        var headers = response.headers
        if headers[.contentLength] == nil, let length = response.body.contentLength {
            headers[.contentLength] = String(length)
        }
        return Response(status: response.status, headers: headers, body: ResponseBody())
    }
}
