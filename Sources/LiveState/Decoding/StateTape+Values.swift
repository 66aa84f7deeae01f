import Foundation

// MARK: - Making values and findings from a tape

extension StateTape {
    /// The whole state.
    func state(in bytes: UnsafeRawBufferPointer? = nil) -> Value {
        read(bytes) { nodes, reader in
            objectValue(at: 1, plan: plan, nodes: nodes, reader: reader)
        }
    }

    /// The state the version decodes: `nil` when it rejects the payload.
    func acceptedState(in bytes: UnsafeRawBufferPointer? = nil) -> Value? {
        isRejected ? nil : state(in: bytes)
    }

    /// One top-level field, or `nil` when the version has no such field.
    func field(named name: String) -> Value? {
        let plan = self.plan
        guard let index = plan.index(ofName: name) else { return nil }
        return read(nil) { nodes, reader in
            value(at: 1 + index, field: plan.fields[index], missing: plan.initialMembers[index].value, nodes: nodes, reader: reader)
        }
    }

    /// The findings, in the order they were made.
    func diagnostics(in bytes: UnsafeRawBufferPointer? = nil) -> [Diagnostic] {
        let findings = findingCount
        return read(bytes) { nodes, reader in
            var diagnostics: [Diagnostic] = []
            guard findings > 0 else { return diagnostics }
            diagnostics.reserveCapacity(findings)
            var locator = SourcePosition.Locator()
            // Read once, in place (see `StateTape.isRejected`), not once per finding.
            let (file, consequence, version) = withUnsafeMutablePointerToHeader {
                ($0.pointee.file, $0.pointee.consequence, String($0.pointee.version))
            }
            for position in 0..<nodeCount {
                let node = nodes[position]
                // What each finding node says: its code, words, offset and pointer.
                let code: DiagnosticCode
                let message: String
                let offset: Int
                let pointer: String
                switch node.kind {
                case .absent:
                    let (path, plan) = self.pointer(ofHeader: node.b & 0xFFFF_FFFF, nodes: nodes)
                    let field = plan.fields[node.b >> 32]
                    if field.hasMissingValue {
                        guard let defaulted = field.defaultedMessage else { continue }
                        (code, message) = (.defaulted, defaulted)
                    } else {
                        // A required key of the root object.
                        code = .missingRequiredKey
                        message = DecodeContext.missingRequiredMessage(field.field.name, consequence: consequence)
                    }
                    (offset, pointer) = (node.a, path + field.pointerToken)
                case .unknownKey:
                    let (path, plan) = self.pointer(ofHeader: node.b >> 32, nodes: nodes)
                    let name = reader.string(TapeNode.key(start: node.a, end: node.b & 0xFFFF_FFFF))
                    let isFieldless = plan.fieldCount == 0 && !path.isEmpty
                    (code, message) = (.unknownKey, isFieldless
                        ? DecodeContext.uncheckedKeyMessage(name, version: version) : DecodeContext.unknownKeyMessage(name, version: version))
                    (offset, pointer) = (node.a &- 1, JSONPointer.appending(name, to: path))
                case .repeatedKey:
                    let (path, plan) = self.pointer(ofHeader: node.b >> 32, nodes: nodes)
                    let start = node.a & 0xFFFF_FFFF
                    let field = node.a >> 32
                    let name = field > 0
                        ? plan.fields[field &- 1].field.name
                        : reader.string(TapeNode.key(start: start, end: node.b & 0xFFFF_FFFF))
                    code = .duplicateKey
                    let here = JSONPointer.appending(name, to: path)
                    message = field > 0
                        ? DecodeContext.repeatedKeyMessage(
                            plan.fields[field &- 1], pointer: here,
                            valueAfter: DecodeContext.valueOffset(afterKeyEndingAt: Int(node.b & 0x7FFF_FFFF), in: reader), in: reader)
                        : DecodeContext.repeatedUnknownKeyMessage(name, version: version)
                    (offset, pointer) = (start &- 1, here)
                case .fallbackTaken:
                    let (path, plan) = self.pointer(ofHeader: node.b, nodes: nodes)
                    let field = plan.fields[node.a >> 32]
                    let start = node.a & 0xFFFF_FFFF
                    guard let value = Self.enumValue(of: field, at: start, in: reader) else { continue }
                    (code, message) = (.unknownEnumValue, DecodeContext.unknownEnumMessage(ValueText.render(value), of: field))
                    (offset, pointer) = (start, path + field.pointerToken)
                case .elementFallbackTaken, .elementUnixDate:
                    let (path, plan) = self.pointer(ofHeader: node.b & 0xFFFF_FFFF, nodes: nodes)
                    let field = plan.fields[node.b >> 32]
                    let start = node.a & 0xFFFF_FFFF
                    guard let items = field.items else { continue }
                    if node.kind == .elementUnixDate {
                        guard let seconds = Self.number(at: start, in: reader) else { continue }
                        (code, message) = (.unixDateInDateField, DecodeContext.unixDateMessage(seconds))
                    } else {
                        guard let value = Self.enumValue(of: items, at: start, in: reader) else { continue }
                        (code, message) = (.unknownEnumValue, DecodeContext.unknownEnumMessage(ValueText.render(value), of: items))
                    }
                    (offset, pointer) = (start, path + field.pointerToken + "/\(node.a >> 32)")
                case .defaultTaken:
                    let (path, plan) = self.pointer(ofHeader: node.b, nodes: nodes)
                    let field = plan.fields[node.a >> 32]
                    let start = node.a & 0xFFFF_FFFF
                    pointer = path + field.pointerToken
                    code = .invalidDefaulted
                    (message, offset) = DecodeContext.invalidDefaulted(field, at: start, pointer: pointer, in: reader)
                case .nullDefaulted:
                    let (path, plan) = self.pointer(ofHeader: node.b, nodes: nodes)
                    let field = plan.fields[node.a >> 32]
                    guard let value = field.missingValue else { continue }
                    (code, message) = (.defaulted, DecodeContext.nullDefaultedMessage(field.field.name, value))
                    (offset, pointer) = (node.a & 0xFFFF_FFFF, path + field.pointerToken)
                case .unixDate:
                    let (path, plan) = self.pointer(ofHeader: node.b & 0xFFFF_FFFF, nodes: nodes)
                    guard let seconds = Self.number(at: node.b >> 32, in: reader) else { continue }
                    (code, message) = (.unixDateInDateField, DecodeContext.unixDateMessage(seconds))
                    let field = plan.fields[node.a >> 32]
                    // A date range's bound is reported at its place: after `[` the lower, after `,` the upper.
                    let bound = field.kind != .dateRange ? "" : Self.isFirstElement(at: node.b >> 32, in: reader) ? "/0" : "/1"
                    (offset, pointer) = (node.a & 0xFFFF_FFFF, path + field.pointerToken + bound)
                case .rejected:
                    let (path, plan) = self.pointer(ofHeader: node.b, nodes: nodes)
                    pointer = path + plan.fields[node.a >> 32].pointerToken
                    (code, message, offset) = DecodeContext.rejected(
                        plan.fields[node.a >> 32], at: node.a & 0xFFFF_FFFF, pointer: pointer, consequence: consequence, in: reader)
                case .reported:
                    // Worded by the full decoder when it decided a value.
                    guard let decided = decisions?.findings else { continue }
                    diagnostics += decided[node.a ..< node.a &+ node.b]
                    continue
                default:
                    continue
                }
                diagnostics.append(Diagnostic(
                    code: code, severity: code.decoderSeverity, message: message, file: file,
                    position: locator.position(of: offset, in: reader.bytes), scope: .contentState, pointer: pointer))
            }
            return diagnostics
        }
    }

    /// Whether the value at `start` is the first element of its array: `[` is the byte before
    /// it, white space aside.
    private static func isFirstElement(at start: Int, in reader: JSONReader) -> Bool {
        var index = start &- 1
        while index >= 0, JSONByte.isWhitespace(reader.bytes[index]) { index &-= 1 }
        return index >= 0 && reader.bytes[index] == JSONByte.openBracket
    }

    /// The number at `start`, as the full decoder converts it.
    private static func number(at start: Int, in reader: JSONReader) -> Double? {
        var number = reader
        number.move(toValueAt: start, depth: 0)
        return (try? number.readNumber()).map(reader.double)
    }

    /// The value at `start` of an enum of `plan`, as its `unknown-enum-value` finding shows it:
    /// a string unescaped, or an integer.
    private static func enumValue(of plan: FieldPlan, at start: Int, in reader: JSONReader) -> Value? {
        var token = reader
        token.move(toValueAt: start, depth: 0)
        if plan.kind == .stringEnum { return (try? token.readString()).map { .string(reader.string($0)) } }
        return (try? token.readNumber()).flatMap(reader.integer).map(Value.int)
    }

    /// The root object's members, in input order, from its `span` nodes, and whether a key may
    /// be among them twice: a field's own key met again, or more than one key that is no
    /// field's own (for `ByteBudget.merged` to be asked only then; it hashes every name).
    func spans() -> (spans: [DecodeContext.MemberSpan], mayRepeatKeys: Bool) {
        withUnsafeMutablePointerToElements { nodes in
            var spans: [DecodeContext.MemberSpan] = []
            // Mostly one member per field: growing the array from empty cost more than the spans.
            spans.reserveCapacity(plan.fieldCount &+ 4)
            // The fields of a mask's width are told apart; a key beyond them counts with the
            // keys no field owns.
            var seen = FieldMask(count: FieldSet.maskCapacity)
            var others = 0
            var mayRepeatKeys = false
            for position in 0..<nodeCount where nodes[position].kind == .span {
                let node = nodes[position]
                let start = node.a & 0x7FFF_FFFF
                let field = node.a >> 32
                if field > 0 && field <= FieldSet.maskCapacity {
                    if seen.contains(field &- 1) { mayRepeatKeys = true }
                    seen.insert(field &- 1)
                } else {
                    others &+= 1
                }
                spans.append(DecodeContext.MemberSpan(
                    key: JSONString(start: start &+ 1, end: node.b >> 32, hasEscapes: node.a & TapeNode.escapedKey != 0), start: start,
                    end: node.b & 0xFFFF_FFFF, fieldName: field > 0 ? plan.memberNames[field &- 1] : nil))
            }
            return (spans, mayRepeatKeys || others > 1)
        }
    }

    /// The node at `position`.
    func node(at position: Int) -> TapeNode {
        withUnsafeMutablePointerToElements { $0[position] }
    }

    /// The value of a `made` node: one the full decoder decided.
    func madeValue(_ node: TapeNode) -> Value? {
        decisions?.values[node.a]
    }

    /// A string of the input, escapes decoded.
    func string(_ token: JSONString) -> String {
        withInput { bytes in
            // The tape's tokens lie within the input it was built over (the reader clamps
            // any other).
            if !token.hasEscapes, token.start >= 0, token.start <= token.end, token.end <= bytes.count {
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start ..< token.end]), as: UTF8.self)
            }
            // The input was read under the decoder's own limits: none applies again here.
            return (try? JSONReader(bytes: bytes, options: .init(maxInputBytes: .max)))?.string(token) ?? ""
        }
    }

    /// The value of the field at `position`, made whole.
    func value(at position: Int, field: FieldPlan, missing: Value) -> Value {
        read(nil) { nodes, reader in value(at: position, field: field, missing: missing, nodes: nodes, reader: reader) }
    }

    /// The object whose first field is at `first`, made whole.
    func objectValue(at first: Int, plan: ObjectPlan) -> Value {
        read(nil) { nodes, reader in objectValue(at: first, plan: plan, nodes: nodes, reader: reader) }
    }

    /// Runs `body` with the nodes and a reader over the input: `bytes` when given (the tape
    /// was built over them and they are still alive), else the input the tape keeps.
    private func read<R>(_ bytes: UnsafeRawBufferPointer?, _ body: (UnsafeMutablePointer<TapeNode>, JSONReader) -> R) -> R {
        func run(_ bytes: UnsafeRawBufferPointer) -> R {
            withUnsafeMutablePointerToElements { nodes in
                // The input was read under the decoder's own limits: none applies again here.
                let reader = try! JSONReader(bytes: bytes, options: .init(maxInputBytes: .max))
                return body(nodes, reader)
            }
        }
        if let bytes { return run(bytes) }
        return withInput(run)
    }

    /// What the device's `JSONEncoder` may write for the whole state at most:
    /// `ByteBudget.deviceWorstCase(state(in:))`, measured on the tape without making the
    /// state (a string without escapes is measured where it lies in the input).
    func deviceWorstCase(in bytes: UnsafeRawBufferPointer? = nil) -> Int {
        read(bytes) { nodes, reader in
            objectWorstCase(at: 1, plan: plan, nodes: nodes, reader: reader)
        }
    }

    private func objectWorstCase(at first: Int, plan: ObjectPlan, nodes: UnsafeMutablePointer<TapeNode>, reader: JSONReader) -> Int {
        var total = ByteBudget.containerLength(plan.fieldCount)
        for index in 0 ..< plan.fieldCount {
            // As a guaranteed reference, as in `TapeBuilder`: the plan keeps its fields alive.
            total &+= plan.fieldRefs[index]._withUnsafeGuaranteedRef { field in
                let value = worstCase(at: first &+ index, field: field, missing: field.missingValueWorstCase, nodes: nodes, reader: reader)
                return ByteBudget.memberLength(escapedName: field.escapedNameLength, value: value)
            }
        }
        return total
    }

    /// `ByteBudget.deviceWorstCase` of `value(at:field:missing:nodes:reader:)`, given that of
    /// `missing`.
    private func worstCase(
        at position: Int, field: FieldPlan, missing: Int, nodes: UnsafeMutablePointer<TapeNode>, reader: JSONReader
    ) -> Int {
        let node = nodes[position]
        switch node.kind {
        case .string, .escapedString:
            // A URL as its type writes it; any other string measured in the input, or unescaped
            // on the stack: no `String` is made.
            if field.writesOtherwise { return ByteBudget.deviceWorstCase(.string(reader.string(node.string)), field: field) }
            return reader.withUnescapedUTF8(node.string) { ByteBudget.escapedLength(utf8: $0) }
        case .array:
            guard let items = field.items else { return missing }
            var total = ByteBudget.containerLength(node.b)
            let null = ByteBudget.scalarWorstCase(.null)
            for index in 0 ..< node.b {
                total &+= worstCase(at: node.a &+ index, field: items, missing: null, nodes: nodes, reader: reader)
            }
            return total
        case .object:
            guard let object = field.object else { return missing }
            return objectWorstCase(at: node.a, plan: object, nodes: nodes, reader: reader)
        case .missing:
            return missing
        case .made:
            return madeValue(node).map { ByteBudget.deviceWorstCase($0, field: field) } ?? missing
        case .null, .bool, .int, .double, .date, .dateRange, .header, .absent, .unknownKey, .repeatedKey, .fallbackTaken,
             .elementFallbackTaken, .defaultTaken, .nullDefaulted, .rejected, .unixDate, .elementUnixDate, .reported, .span:
            return node.scalar.map { ByteBudget.deviceWorstCase($0, field: field) } ?? missing
        }
    }

    /// How many diagnostics `diagnostics(in:)` words at most.
    private var findingCount: Int {
        withUnsafeMutablePointerToElements { nodes in
            var findings = 0
            for position in 0..<nodeCount {
                switch nodes[position].kind {
                case .absent, .unknownKey, .repeatedKey, .fallbackTaken, .elementFallbackTaken, .defaultTaken, .nullDefaulted, .rejected,
                     .unixDate, .elementUnixDate:
                    findings &+= 1
                case .reported: findings &+= nodes[position].b
                default: continue
                }
            }
            return findings
        }
    }

    /// A strict version's verdict, worded as the full decode words it; `nil` when synthesized
    /// `Codable` decodes the state (or the version is not strict).
    func strictFailure(in bytes: UnsafeRawBufferPointer? = nil) -> Diagnostic? {
        guard let problem = strictProblem else { return nil }
        return read(bytes) { _, reader in
            problem.strictFailure(
                file: header.file, position: SourcePosition.locate(offset: problem.offset, in: reader.bytes), consequence: header.consequence)
        }
    }

    /// The JSON Pointer of the object whose header is at `index`, and its plan.
    private func pointer(ofHeader index: Int, nodes: UnsafeMutablePointer<TapeNode>) -> (String, ObjectPlan) {
        // Most findings are the root's.
        guard nodes[index].a >= 0 else { return ("", plan) }
        let (steps, plan) = path(toHeader: index, nodes: nodes)
        let pointer = steps.reduce(into: "") { pointer, step in
            pointer += step.field.pointerToken
            for element in step.elements { pointer += "/\(element)" }
        }
        return (pointer, plan)
    }

    /// One step down from the root to an object on the tape: a field, and, when the object is
    /// an element of that (array) field, the element's index (indices, in arrays of arrays).
    struct Step {
        let field: FieldPlan
        var elements: [Int]
    }

    /// The steps from the root down to the object whose header is at `index`, and that
    /// object's plan.
    func path(toHeader index: Int, nodes: UnsafeMutablePointer<TapeNode>) -> ([Step], ObjectPlan) {
        var places: [Int] = []
        var header = index
        while nodes[header].a >= 0 {
            places.append(nodes[header].b)
            header = nodes[header].a
        }
        var plan = self.plan
        var steps: [Step] = []
        for place in places.reversed() {
            let (fieldIndex, element) = TapeNode.place(place)
            if fieldIndex == TapeNode.inArray {
                // An element of the array the header before heads.
                guard let element, !steps.isEmpty else { break }
                steps[steps.count - 1].elements.append(element)
            } else {
                steps.append(Step(field: plan.fields[fieldIndex], elements: element.map { [$0] } ?? []))
            }
            guard let step = steps.last else { break }
            var value: FieldPlan? = step.field
            for _ in step.elements { value = value?.items }
            // (An array's header heads no object: the plan stays.)
            if let object = value?.object { plan = object }
        }
        return (steps, plan)
    }

    func objectValue(at first: Int, plan: ObjectPlan, nodes: UnsafeMutablePointer<TapeNode>, reader: JSONReader) -> Value {
        let count = plan.fields.count
        let members = (0 ..< count).map { index in
            let missing = plan.initialMembers[index]
            return Value.Member(missing.name, value(at: first &+ index, field: plan.fields[index], missing: missing.value, nodes: nodes, reader: reader))
        }
        return .object(members)
    }

    func value(
        at position: Int, field: FieldPlan, missing: Value, nodes: UnsafeMutablePointer<TapeNode>, reader: JSONReader
    ) -> Value {
        let node = nodes[position]
        switch node.kind {
        case .missing: return missing
        case .string, .escapedString:
            return .string(reader.string(node.string))
        case .array:
            guard let items = field.items else { return missing }
            let elements = (0 ..< node.b).map { index in
                value(at: node.a &+ index, field: items, missing: .null, nodes: nodes, reader: reader)
            }
            return .array(elements)
        case .object:
            guard let object = field.object else { return missing }
            return objectValue(at: node.a, plan: object, nodes: nodes, reader: reader)
        case .made:
            return madeValue(node) ?? missing
        case .null, .bool, .int, .double, .date, .dateRange, .header, .absent, .unknownKey, .repeatedKey, .fallbackTaken,
             .elementFallbackTaken, .defaultTaken, .nullDefaulted, .rejected, .unixDate, .elementUnixDate, .reported, .span:
            return node.scalar ?? missing
        }
    }
}
