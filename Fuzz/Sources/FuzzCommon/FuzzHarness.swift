import Foundation
@_spi(Scanner) @_spi(Testing) import LiveState
@_spi(Testing) import LiveStateTooling
import LiveStateYAML

/// What each fuzz target checks on one input.
///
/// Every check returns `nil` when the invariants hold, or a sentence saying what broke. A trap
/// inside the library is a finding by itself: the fuzzer reports it, and `run.sh`'s replay of
/// `FailCases/` stops on it.
public enum FuzzHarness {
    /// A schema version to read as: the first byte of a FuzzDecode or FuzzEnvelope input picks one.
    public struct Target: Sendable {
        /// The schema.
        public let schema: Schema
        /// One of its versions.
        public let version: Int

        /// Creates a target.
        /// - Parameters:
        ///   - schema: The schema.
        ///   - version: One of its versions.
        public init(schema: Schema, version: Int) {
            self.schema = schema
            self.version = version
        }
    }

    /// Every version of every schema, schemas in the given order, versions oldest first.
    /// - Parameter schemas: The schemas, sorted by file name.
    /// - Returns: The targets the selector byte indexes.
    public static func targets(_ schemas: [Schema]) -> [Target] {
        schemas.flatMap { schema in schema.versions.map { Target(schema: schema, version: $0.version) } }
    }

    // MARK: - FuzzJSON

    /// The scanner: `validate`, `skipValue` and `Value.parse` agree; an accepted document survives
    /// `JSONWriter`; accept/reject agrees with Foundation's `JSONSerialization` but for the
    /// documented differences, each checked where it applies.
    /// - Parameter bytes: Any bytes.
    /// - Returns: What broke, or `nil`.
    public static func json(_ bytes: UnsafeRawBufferPointer) -> String? {
        let error = validationError(bytes, JSONScanOptions())
        let skip = skipError(bytes)
        guard skip == error else {
            return "skipValue() says \(describe(skip)) but validate() says \(describe(error))"
        }
        if let failure = checkDuplicatePolicies(bytes, accepted: error == nil) { return failure }
        let parseResult = parse(bytes)
        let parsed = try? parseResult.get()
        let parseError: JSONError? = if case .failure(let error) = parseResult { error } else { nil }
        guard parseError == error else {
            return "Value.parse says \(describe(parseError)) but validate() says \(describe(error))"
        }
        if let parsed {
            var writer = JSONWriter()
            writer.write(parsed)
            let written = writer.bytes
            let again: Value
            switch written.withUnsafeBytes({ parse($0) }) {
            case .success(let value): again = value
            case .failure(let error): return "JSONWriter wrote \(text(written)), which does not parse: \(error)"
            }
            guard equivalent(parsed, again) else {
                return "JSONWriter wrote \(text(written)), which parses to \(again), not \(parsed)"
            }
        }
        if let failure = fleetFile(bytes) { return failure }
        return compareWithFoundation(Array(bytes), depth: 64, repairs: 0)
    }

    /// The fleet file readers, on the same bytes as JSON and as CSV: a fleet they accept counts
    /// some device and no negative one; every problem has a position inside the input.
    static func fleetFile(_ bytes: UnsafeRawBufferPointer) -> String? {
        let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        for (format, (fleet, problems)) in [
            ("JSON", Fleet.parse(json: Array(bytes), file: nil)),
            ("CSV", Fleet.parse(csv: String(decoding: bytes, as: UTF8.self), file: nil)),
        ] {
            if let fleet, fleet.total <= 0 || fleet.devices.values.contains(where: { $0 < 0 }) {
                return "the \(format) fleet reader accepted \(fleet.devices)"
            }
            if fleet == nil, problems.isEmpty { return "the \(format) fleet reader refused without a problem" }
            for problem in problems {
                guard let position = problem.position, position.line >= 1, position.line <= lines, position.column >= 1 else {
                    return "the \(format) fleet reader put \(problem) outside the input"
                }
            }
        }
        return nil
    }

    /// `.reject` throws at the first duplicate `.report` returns, `.ignore` accepts what `.report` accepts.
    static func checkDuplicatePolicies(_ bytes: UnsafeRawBufferPointer, accepted: Bool) -> String? {
        guard accepted else { return nil }
        let reported: [JSONDuplicateKey]
        do throws(JSONError) {
            reported = try JSONValidator.validate(bytes)
        } catch {
            return "validate(.report) threw \(error) after accepting the same bytes"
        }
        let rejected = validationError(bytes, JSONScanOptions(duplicateKeys: .reject))
        let ignored = validationError(bytes, JSONScanOptions(duplicateKeys: .ignore))
        if let ignored { return ".ignore rejects what .report accepts: \(ignored)" }
        switch (reported.first, rejected) {
        case (nil, nil): return nil
        case (let first?, let error?) where first.position == error.position: return nil
        default: return ".report found \(reported.first.map { "\($0.pointer) at \($0.position)" } ?? "no duplicate"), .reject says \(describe(rejected))"
        }
    }

    /// Documents on which Foundation and this scanner may disagree, and why.
    public enum FoundationDifference: String, CaseIterable, Sendable {
        /// Foundation accepts `[1,]` and `{"a":0,}`.
        case trailingComma = "Foundation accepts a trailing comma"
        /// Foundation skips EF BB BF when the input has at least 4 bytes.
        case byteOrderMark = "Foundation skips a UTF-8 byte order mark"
        /// Foundation guesses UTF-16/32 from a BOM or from NUL bytes among the first 4 bytes
        /// (among the first 2 of a 2- or 3-byte input), so it accepts some short inputs with NULs.
        case otherEncoding = "Foundation detects UTF-16 and UTF-32"
        /// Foundation's nesting limit is 512; ours is 64.
        case nestingLimit = "Foundation's nesting limit is 512, ours is 64"
        /// Foundation rejects a number beyond Double's range; we read it as infinity.
        case numberOverflow = "Foundation rejects 1e400; we read it as infinity"
    }

    /// Compares accept/reject with Foundation. A disagreement passes only when a documented
    /// difference explains it, checked by undoing the difference and comparing again.
    static func compareWithFoundation(_ bytes: [UInt8], depth: Int, repairs: Int) -> String? {
        let ours = bytes.withUnsafeBytes { validationError($0, JSONScanOptions(maxDepth: depth)) }
        let foundation = foundationAccepts(bytes)
        switch foundationEncoding(bytes) {
        case .other:
            // We read UTF-8 only, and every such input has a NUL or an invalid UTF-8 byte.
            return ours == nil ? "accepted an input Foundation reads as UTF-16/32 (\(FoundationDifference.otherEncoding))" : nil
        case .utf8WithBOM:
            guard let ours, ours.position.offset == 0 else {
                return "did not reject a leading byte order mark: \(describe(ours))"
            }
            return compareWithFoundation(Array(bytes.dropFirst(3)), depth: depth, repairs: repairs + 1)
        case .utf8:
            break
        }
        switch (ours, foundation) {
        case (nil, true):
            return nil
        case (.some, false):
            return nil
        case (nil, false):
            let value = bytes.withUnsafeBytes { try? Value.parse(json: $0, options: JSONScanOptions(maxDepth: depth)) }
            if let value, hasNonFinite(value) { return nil }  // FoundationDifference.numberOverflow
            return "accepted a document Foundation rejects"
        case (.some(let error), true):
            if error.code == .jsonLimit, error.message.hasPrefix("nesting deeper than"), depth < 512 {
                return compareWithFoundation(bytes, depth: 512, repairs: repairs)  // .nestingLimit
            }
            if error.message.hasPrefix("trailing comma"), repairs < 64 {
                // The error is at the closing bracket; the comma is the last byte before it but white space.
                var comma = error.position.offset - 1
                while comma >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[comma]) { comma -= 1 }
                guard comma >= 0, bytes[comma] == UInt8(ascii: ",") else {
                    return "a trailing-comma error without a comma before it: \(error)"
                }
                var repaired = bytes
                repaired.remove(at: comma)
                return compareWithFoundation(repaired, depth: depth, repairs: repairs + 1)  // .trailingComma
            }
            return "rejected a document Foundation accepts: \(error)"
        }
    }

    /// The encoding Foundation's `JSONSerialization` reads an input in.
    enum GuessedEncoding { case utf8, utf8WithBOM, other }

    /// Foundation's guess: a BOM when there are 4 bytes or more, else NUL patterns in the
    /// first 4 bytes (the first 2 of a shorter input).
    static func foundationEncoding(_ bytes: [UInt8]) -> GuessedEncoding {
        if bytes.count >= 4 {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8WithBOM }
            if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return .other }
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0, 0, 0, _), (_, 0, 0, 0), (0, _, 0, _), (_, 0, _, 0): return .other
            default: return .utf8
            }
        }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return .other }
        return .utf8
    }

    static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    static func validationError(_ bytes: UnsafeRawBufferPointer, _ options: JSONScanOptions) -> JSONError? {
        do throws(JSONError) {
            _ = try JSONValidator.validate(bytes, options: options)
            return nil
        } catch {
            return error
        }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<Value, JSONError> {
        Result { () throws(JSONError) in try Value.parse(json: bytes) }
    }

    static func skipError(_ bytes: UnsafeRawBufferPointer) -> JSONError? {
        do throws(JSONError) {
            var reader = try JSONReader(bytes: bytes)
            _ = try reader.peek()
            try reader.skipValue()
            try reader.finish()
            return nil
        } catch {
            return error
        }
    }

    /// Whether two untyped values are the same JSON: numbers compared as doubles (the writer
    /// writes `2.0` as `2`), infinity as the `null` the writer writes for it.
    static func equivalent(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .null) where !x.isFinite: return true
        case (.int(let x), .int(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.double(let x), .double(let y)): return x == y
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.name == $1.name && equivalent($0.value, $1.value) }
        default: return a == b
        }
    }

    static func hasNonFinite(_ value: Value) -> Bool {
        switch value {
        case .double(let x), .date(let x): return !x.isFinite
        case .dateRange(let lower, let upper): return !lower.isFinite || !upper.isFinite
        case .array(let elements): return elements.contains(where: hasNonFinite)
        case .object(let members): return members.contains { hasNonFinite($0.value) }
        default: return false
        }
    }

    // MARK: - FuzzDecode

    /// A decode result's node read through its public accessors alone, and checked on the way: every
    /// accessor of another kind is empty, reads out of range or of another kind of container
    /// find nothing, and `value` is the tree read. A check that fails puts
    /// `.string("node check: …")` in place of the node, so the tree read differs from the state.
    static func walk(_ node: DecodeResult.Node) -> Value {
        let kind = node.kind
        guard (node.bool != nil) == (kind == .bool), (node.int != nil) == (kind == .int),
              (node.double != nil) == (kind == .double), (node.string != nil) == (kind == .string),
              (node.date != nil) == (kind == .date), (node.dateRange != nil) == (kind == .dateRange),
              node.isNull == (kind == .null) else { return .string("node check: an accessor of another kind answers") }
        guard kind == .array || node[0] == nil, kind == .object || (node.names.isEmpty && node["title"] == nil),
              kind == .array || kind == .object || node.count == 0
        else { return .string("node check: a \(kind) answers as a container") }
        let value: Value
        switch kind {
        case .null: value = .null
        case .bool: value = node.bool.map(Value.bool) ?? .null
        case .int: value = node.int.map(Value.int) ?? node.uint64.map(Value.uint) ?? .null
        case .double: value = node.double.map(Value.double) ?? .null
        case .string: value = node.string.map(Value.string) ?? .null
        case .date: value = node.date.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null
        case .dateRange:
            guard let range = node.dateRange else { return .null }
            value = .dateRange(lower: range.lowerBound.timeIntervalSinceReferenceDate, upper: range.upperBound.timeIntervalSinceReferenceDate)
        case .array:
            guard node[-1] == nil, node[node.count] == nil else { return .string("node check: an element out of range") }
            value = .array((0..<node.count).map { node[$0].map(walk) ?? .string("node check: a missing element") })
        case .object:
            guard node.count == node.names.count, node["no such field"] == nil
            else { return .string("node check: a member count or name that is not there") }
            value = .object(node.names.map { Value.Member($0, node[$0].map(walk) ?? .string("node check: a missing member")) })
        }
        return node.value == value ? value : .string("node check: value is not the tree read")
    }

    /// The tolerant decoder on a bare content-state (and the same bytes as a whole body, through
    /// the decoder, the validator and the budget): no trap, positions that match the bytes, and
    /// a decoded state that `JSONWriter` writes and the decoder reads back as the same state.
    /// - Parameters:
    ///   - bytes: A selector byte, then the JSON.
    ///   - targets: `targets(_:)` of the bundled schemas.
    /// - Returns: What broke, or `nil`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, targets: [Target]) -> String? {
        guard let selector = bytes.first, !targets.isEmpty else { return nil }
        let target = targets[Int(selector) % targets.count]
        let body = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        guard let decoder = try? ContentStateDecoder(schema: target.schema, version: target.version),
              let validator = try? PayloadValidator(schema: target.schema, version: target.version)
        else { return "no decoder for \(target.schema.activity) v\(target.version)" }
        let bare = decoder.decode(contentState: body)
        if let failure = checkPositions(bare.diagnostics, body) ?? roundTrip(bare.state, decoder) {
            return "content-state, \(target.schema.activity) v\(target.version): \(failure)"
        }
        // The one-pass read (the tape) and the full decode agree on everything: what they
        // say, and whether the app version applies the payload.
        var full = decoder
        full.readsInOnePass = false
        let reference = full.decode(contentState: body)
        if bare != reference || bare.appDecodes != reference.appDecodes {
            return "content-state, \(target.schema.activity) v\(target.version): read in one pass \(bare), in full \(reference)"
        }
        // The result's nodes, visited one accessor at a time and made whole, give the state too.
        if bare.root.map(walk) != reference.state || bare.root?.value != reference.state {
            return "nodes, \(target.schema.activity) v\(target.version): \(String(describing: bare.root.map(walk))), in full \(String(describing: reference.state))"
        }
        // A Decodable type read on the tape sees what it sees through ValueDecoder on the full
        // decode's tree: values and errors.
        let probedOnTape = String(describing: Result { try bare.decode(DecodeProbe.self) })
        let probedInFull = String(describing: Result { try reference.decode(DecodeProbe.self) })
        if probedOnTape != probedInFull {
            return "Decodable, \(target.schema.activity) v\(target.version): on the tape \(probedOnTape), in full \(probedInFull)"
        }
        if let failure = encodes(reference.state, target, decoder: decoder) {
            return "encoder, \(target.schema.activity) v\(target.version): \(failure)"
        }
        let payload = decoder.decode(payload: body)
        if let failure = checkPositions(payload.diagnostics, body) ?? roundTrip(payload.state, decoder) {
            return "payload, \(target.schema.activity) v\(target.version): \(failure)"
        }
        let fullPayload = full.decode(payload: body)
        if payload != fullPayload || payload.appDecodes != fullPayload.appDecodes {
            return "payload, \(target.schema.activity) v\(target.version): read in one pass \(payload), in full \(fullPayload)"
        }
        let validation = validator.validate(body)
        if let failure = checkPositions(validation.diagnostics, body) ?? roundTrip(validation.state, decoder) {
            return "validator, \(target.schema.activity) v\(target.version): \(failure)"
        }
        var fullValidator = validator
        fullValidator.readsInOnePass = false
        let fullValidation = fullValidator.validate(body)
        if validation != fullValidation {
            return "validator, \(target.schema.activity) v\(target.version): read in one pass \(validation), in full \(fullValidation)"
        }
        // One reading of the body's parts: both find the same content-state, or neither does.
        if payload.state != validation.state {
            return "the validator decodes \(String(describing: validation.state)) where decode(payload:) decodes \(String(describing: payload.state))"
        }
        _ = try? ByteBudget.measure(body: body)
        return nil
    }

    /// What a version decodes keeps the rules its encoder checks by (`FieldPlan.walk`): the
    /// encoder takes the state with no `invalid-state` error, and what it writes decodes to the
    /// same state, read by `decoder` (the version's). A state over the byte budget is still
    /// written, with an error of its own.
    static func encodes(_ state: Value?, _ target: Target, decoder: ContentStateDecoder) -> String? {
        guard let state, target.schema.version(target.version)?.isRetired == false,
              let encoder = try? ContentStateEncoder(schema: target.schema, version: target.version)
        else { return nil }
        let encoded = encoder.encode(state)
        if let refused = encoded.diagnostics.first(where: { $0.code == DiagnosticCode.invalidState }) {
            return "the decoded state \(state) is refused: \(refused.message)"
        }
        guard !encoded.bytes.isEmpty else {
            return "the decoded state \(state) is not written: \(encoded.diagnostics.map(\.description))"
        }
        let again = decoder.decode(contentState: encoded.bytes)
        guard again.state == state else {
            return "\(state) is written as \(text(encoded.bytes)), which decodes to \(again.state.map { "\($0)" } ?? "nil")"
        }
        return nil
    }

    /// Writes a decoded state with `JSONWriter` and decodes it again: the same state.
    static func roundTrip(_ state: Value?, _ decoder: ContentStateDecoder) -> String? {
        guard let state else { return nil }
        var writer = JSONWriter()
        writer.write(state)
        let again = decoder.decode(contentState: writer.bytes)
        guard again.state == state else {
            let errors = again.diagnostics.filter { $0.severity == .error }.map(\.description)
            return "round trip: \(state) was written as \(text(writer.bytes)), which decodes to "
                + "\(again.state.map { "\($0)" } ?? "nil") \(errors)"
        }
        // The state has every field, each valid: reading it back finds nothing, strict or not.
        if let finding = again.allDiagnostics.first {
            return "round trip: \(text(writer.bytes)) decodes to the same state but with \(finding)"
        }
        return nil
    }

    /// The line and column of `offset` in a YAML text, counted apart from the loader: a line
    /// ends at LF, at CR not followed by LF, at NEL (C2 85), LS (E2 80 A8) and PS (E2 80 A9);
    /// columns count bytes, line 1's from after a UTF-8 byte order mark.
    static func yamlPosition(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var lineStart = bom
        var index = bom
        while index < offset {
            var breakLength = 0
            switch bytes[index] {
            case 0x0A: breakLength = 1
            case 0x0D: breakLength = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 0 : 1
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: breakLength = 2
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                breakLength = 3
            default: break
            }
            if breakLength > 0, index + breakLength <= offset {
                line += 1
                lineStart = index + breakLength
                index += breakLength
            } else {
                index += 1
            }
        }
        return SourcePosition(offset: offset, line: line, column: max(offset - lineStart, 0) + 1)
    }

    /// Every diagnostic's position lies in the input and has the line and column of its offset:
    /// JSON's lines end at LF; a YAML file's (`yaml`) where libyaml ends them, and its line 1
    /// starts after a byte order mark (`yamlPosition`).
    static func checkPositions(_ diagnostics: [Diagnostic], _ bytes: UnsafeRawBufferPointer, yaml: Bool = false) -> String? {
        for diagnostic in diagnostics {
            guard let position = diagnostic.position else { continue }
            guard position.offset >= 0, position.offset <= bytes.count,
                  (yaml ? yamlPosition(of: position.offset, in: bytes) : SourcePosition.locate(offset: position.offset, in: bytes)) == position
            else {
                return "position \(position.offset) (\(position)) of \(diagnostic) does not match the input"
            }
        }
        return nil
    }

    // MARK: - FuzzSchemaYAML

    /// The schema loader on any bytes: no trap or hang, an error always says something at a
    /// position that matches the bytes (libyaml counts characters, positions count bytes), and
    /// every version of a schema that loads decodes `{}` and a minimal update without trapping.
    /// - Parameter bytes: Any bytes.
    /// - Returns: What broke, or `nil`.
    public static func schemaYAML(_ bytes: UnsafeRawBufferPointer) -> String? {
        let schema: Schema
        do throws(SchemaLoadError) {
            schema = try SchemaLoader().load(yaml: Array(bytes), file: "-")
        } catch {
            guard error.diagnostics.contains(where: { $0.severity == .error }) else {
                return "a load error without an error diagnostic"
            }
            return checkPositions(error.diagnostics, bytes, yaml: true)
        }
        let update = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{}}}"#.utf8)
        for version in schema.versions {
            guard let decoder = try? ContentStateDecoder(schema: schema, version: version.version),
                  let validator = try? PayloadValidator(schema: schema, version: version.version)
            else { return "no decoder for a loaded version \(version.version)" }
            if let failure = roundTrip(decoder.decode(contentState: Array("{}".utf8)).state, decoder) {
                return "version \(version.version): \(failure)"
            }
            _ = validator.validate(update)
        }
        return nil
    }

    // MARK: - FuzzEnvelope

    /// Whole APNs bodies through `PayloadValidator` (bit 7 of the selector: broadcast), every
    /// version at once, and the budget: no trap, positions that match, and the round trip.
    /// - Parameters:
    ///   - bytes: A selector byte, then the body.
    ///   - targets: `targets(_:)` of the bundled schemas.
    /// - Returns: What broke, or `nil`.
    public static func envelope(_ bytes: UnsafeRawBufferPointer, targets: [Target]) -> String? {
        guard let selector = bytes.first, !targets.isEmpty else { return nil }
        let target = targets[Int(selector & 0x7F) % targets.count]
        let options = PayloadValidator.Options(broadcast: selector & 0x80 != 0)
        let body = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        guard let validator = try? PayloadValidator(schema: target.schema, version: target.version, options: options)
        else { return "no validator for \(target.schema.activity) v\(target.version)" }
        let result = validator.validate(body)
        if let failure = checkPositions(result.diagnostics, body) ?? roundTrip(result.state, validator.decoder) {
            return "\(target.schema.activity) v\(target.version): \(failure)"
        }
        guard result.budget.body == body.count else {
            return "the budget counts \(result.budget.body) bytes in a \(body.count)-byte body"
        }
        // The content-state read in one pass (the tape) and in full agree on everything.
        var full = validator
        full.readsInOnePass = false
        let reference = full.validate(body)
        if result != reference {
            return "\(target.schema.activity) v\(target.version): read in one pass \(result), in full \(reference)"
        }
        let all = PayloadValidator.validateAllVersions(target.schema, Array(body), options: options)
        if let failure = checkPositions(all.diagnostics, body) { return "all versions: \(failure)" }
        _ = try? ByteBudget.measure(body: body, broadcast: options.broadcast)
        return nil
    }

    // MARK: - Text

    static func describe(_ error: JSONError?) -> String {
        error.map { "\($0)" } ?? "accepted"
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).debugDescription
    }
}
