import Foundation

extension ByteBudget {
    /// Measures a body without a schema: its size, its content-state's size as sent and per
    /// top-level member, and the device's worst case for the content-state as it was sent.
    /// The content-state is found as `APNsBody` says, as the decoder and the validator find it:
    /// a later `aps` or `content-state` is not measured.
    ///
    /// With a schema, `BodyChecker` measures the state the app version really decodes
    /// (defaults added, unknown keys gone) instead.
    /// - Parameters:
    ///   - bytes: The body's JSON text, in an array, `Data` or any other contiguous bytes.
    ///   - broadcast: Whether the push is a broadcast (limit 5120).
    ///   - options: Scanner limits.
    /// - Returns: The budget.
    /// - Throws: `JSONError` when the body is not valid JSON.
    public static func measure(body bytes: some ContiguousBytes, broadcast: Bool = false, options: JSONScanOptions = .init()) throws(JSONError) -> ByteBudget {
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONError) in try measure(body: buffer, broadcast: broadcast, options: options) } }.get()
    }

    /// `measure(body:broadcast:options:)` of bytes already lent as a buffer.
    package static func measure(body bytes: UnsafeRawBufferPointer, broadcast: Bool = false, options: JSONScanOptions = .init()) throws(JSONError) -> ByteBudget {
        try measureLocated(body: bytes, broadcast: broadcast, options: options).budget
    }

    /// `measure(body:broadcast:options:)` with its findings, found and worded as `lint` finds
    /// them: the content-state's where it starts, a syntax error (and no budget) with the
    /// pointer of the value it is in.
    package static func measured(
        body bytes: some ContiguousBytes, broadcast: Bool, options: JSONScanOptions, file: String?
    ) -> (budget: ByteBudget?, diagnostics: [Diagnostic]) {
        bytes.withUnsafeBytes { bytes in
            do throws(JSONError) {
                let (budget, start, leastCase, compact, envelope, besideAPS, event) = try measureLocated(body: bytes, broadcast: broadcast, options: options)
                let position = start.map { SourcePosition.locate(offset: $0, in: bytes) }
                var diagnostics = budget.diagnostics(file: file, contentStatePosition: position, event: event, deviceLeastCase: leastCase, compactBody: compact)
                // Bytes that are no APNs body have a size, and no budget APNs would take them in.
                if let problem = APNsBody.problem(of: envelope, besideAPS: besideAPS) {
                    diagnostics.append(Diagnostic(code: problem.code, severity: .error, message: problem.message, file: file,
                                                  position: .locate(offset: problem.offset ?? Self.firstByte(of: bytes), in: bytes),
                                                  scope: .envelope, pointer: problem.pointer))
                }
                return (budget, diagnostics)
            } catch {
                return (nil, [error.diagnostic(in: bytes, options: options, file: file, scope: .envelope)])
            }
        }
    }

    /// `measure(body:broadcast:options:)`, with the offset of the content-state's first byte
    /// (for the findings' position), when the body has one, the device's least re-encoding
    /// of it when its worst passes the limit, and the body's compact size when it is over its
    /// limit (both for `diagnostics`), the Live Activity `aps` keys met beside `aps` (for the
    /// words of a body without one), and the push's event (for the words of what it does).
    static func measureLocated(
        body bytes: UnsafeRawBufferPointer, broadcast: Bool = false, options: JSONScanOptions = .init()
    ) throws(JSONError) -> (budget: ByteBudget, contentStateStart: Int?, deviceLeastCase: Int?, compactBody: Int?, envelope: APNsBody.Envelope,
                            besideAPS: [String], event: ActivityEvent?) {
        var measure = StateMeasure(budget: ByteBudget(limit: broadcast ? broadcastLimit : apnsLimit, body: bytes.count))
        var reading = BodyReading(reader: try JSONReader(bytes: bytes, options: options))
        let envelope = try APNsBody.walk(&measure, &reading)
        try reading.reader.finish()
        var compactBody: Int?
        if measure.budget.headroom < 0 {
            measure.budget.largestParts = largestParts(of: bytes)
            compactBody = compactSize(of: bytes)
        }
        return (measure.budget, measure.start, measure.leastCase, compactBody, envelope, measure.besideAPS, measure.event)
    }

    /// The offset of the first byte of `bytes` that is not JSON white space (a body's value).
    private static func firstByte(of bytes: UnsafeRawBufferPointer) -> Int {
        bytes.firstIndex { !JSONByte.isWhitespace($0) } ?? 0
    }

    /// The size of the JSON text `bytes` without the white space between its tokens: what a
    /// JSON encoder sends for it. The text must be valid JSON.
    package static func compactSize(of bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if JSONByte.isWhitespace(byte) {
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            count += 1
        }
        return count
    }

    /// The content-state measured as sent, the rest of the body skipped.
    private struct StateMeasure: APNsBodyVisitor {
        var budget: ByteBudget
        /// Where the content-state starts.
        var start: Int?
        /// The device's least re-encoding, when its worst passes the limit.
        var leastCase: Int?
        /// The Live Activity `aps` keys met beside `aps`, as `BodyChecker` notes them.
        var besideAPS: [String] = []
        /// The push's event, when its first `event` is one; `eventSeen` once that was read.
        var event: ActivityEvent?
        var eventSeen = false

        mutating func otherMember(_ key: JSONString, _ context: inout BodyReading) throws(JSONError) {
            if let known = APSKeys.liveActivityIndex(of: key, in: context.reader) { besideAPS.append(APSKeys.liveActivity[known].description) }
            try context.reader.skipValue()
        }

        mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout BodyReading) throws(JSONError) {
            guard isContentState else {
                // The first `event`, for the words of what the device does (as `lint` words it).
                if !eventSeen, context.reader.matches(key, "event") {
                    eventSeen = true
                    if try context.reader.peek() == .string {
                        event = ActivityEvent(rawValue: context.reader.string(try context.reader.readString()))
                        return
                    }
                }
                return try context.reader.skipValue()
            }
            // From the value's first byte: `peek` moves past the white space before it.
            let isObject = try context.reader.peek() == .objectStart
            let start = context.reader.offset
            self.start = start
            guard isObject else {
                // Its size as sent; no app decodes it.
                try context.reader.skipValue()
                budget.contentState = context.reader.offset - start
                return
            }
            let (fields, members) = try ByteBudget.members(&context.reader)
            budget.contentState = context.reader.offset - start
            budget.fields = fields
            let worst = settledWorstCase(deviceWorstCase(.object(members)), of: .object(members))
            budget.deviceWorstCase = worst
            if worst > contentStateLimit { leastCase = deviceLeastCase(.object(members)) }
        }
    }

    /// The members of the object at the reader (a `{`), each with its bytes as sent: key, value
    /// and the comma after it.
    private static func members(_ reader: inout JSONReader) throws(JSONError) -> (fields: [FieldBytes], members: [Value.Member]) {
        var fields: [FieldBytes] = []
        var members: [Value.Member] = []
        var names = Set<String>()
        try reader.beginObject()
        while let member = try reader.nextKey() {
            let memberStart = member.start - 1
            let value = try JSONValueParser.parse(&reader)
            let name = reader.string(member)
            fields.append(FieldBytes(name: name, bytes: reader.offset - memberStart))
            // The state the device re-encodes holds a key once (the first, as `JSONDecoder`
            // reads it).
            if names.insert(name).inserted { members.append(.init(name, value)) }
        }
        // Every member but the last is followed by a comma.
        for index in fields.indices.dropLast() { fields[index].bytes += 1 }
        return (merged(fields), members)
    }

    /// `parts` with each name once: a key sent twice is one entry, at its first place, with the
    /// bytes of every member that has it (all of them are in the body, and a report keyed by
    /// name, such as the JSON `fields` object, may hold a name once).
    static func merged(_ parts: [FieldBytes]) -> [FieldBytes] {
        var merged: [FieldBytes] = []
        merged.reserveCapacity(parts.count)
        var places: [String: Int] = [:]
        places.reserveCapacity(parts.count)
        for part in parts {
            if let index = places[part.name] {
                merged[index].bytes += part.bytes
            } else {
                places[part.name] = merged.count
                merged.append(part)
            }
        }
        return merged
    }

    /// The largest parts of the body `bytes` as sent (see `largestParts`): of each member of its
    /// first `aps` object and each other member of the body, key and value, the
    /// largest and, after it, those of 64 bytes or more; none for bytes that are not a JSON object.
    package static func largestParts(of bytes: UnsafeRawBufferPointer, count: Int = 3) -> [FieldBytes] {
        guard var reader = try? JSONReader(bytes: bytes, options: .init(maxInputBytes: .max)) else { return [] }
        var parts: [FieldBytes] = []
        /// The members of the object at the reader, each named under `pointer`; with `inside`,
        /// the first member so named is read as an object of members in turn.
        func members(under pointer: String, inside: String?) throws(JSONError) {
            try reader.beginObject()
            var insideSeen = false
            while let key = try reader.nextKey() {
                let start = key.start - 1
                let name = reader.string(key)
                if let inside, name == inside, !insideSeen, try reader.peek() == .objectStart {
                    insideSeen = true
                    try members(under: JSONPointer.appending(name, to: pointer), inside: nil)
                    continue
                }
                try reader.skipValue()
                parts.append(FieldBytes(name: JSONPointer.appending(name, to: pointer), bytes: reader.offset - start))
            }
        }
        guard (try? reader.peek()) == .objectStart, (try? members(under: "", inside: "aps")) != nil else { return [] }
        // The bulk, not the envelope's small keys: the largest part, and others of 64 bytes or more.
        let sorted = merged(parts).sorted { $0.bytes > $1.bytes }
        return Array(sorted.prefix(1) + sorted.dropFirst().prefix(count - 1).filter { $0.bytes >= 64 })
    }

    /// The top-level content-state members of `bytes` (a whole body, or with `bare` the
    /// content-state object itself) as `measure` counts them; none for bytes that are not JSON
    /// or hold no content-state object.
    package static func fields(in bytes: UnsafeRawBufferPointer, bare: Bool) -> [FieldBytes] {
        guard bare else { return (try? measure(body: bytes))?.fields ?? [] }
        guard var reader = try? JSONReader(bytes: bytes), (try? reader.peek()) == .objectStart else { return [] }
        return (try? members(&reader))?.fields ?? []
    }
}

extension EncodeResult {
    /// `budget` with its fields counted in the written bytes (the encoder does not count them
    /// as it writes), for a report; `bare` when the bytes are a content-state alone.
    package func budgetWithFields(bare: Bool) -> ByteBudget? {
        guard var budget else { return nil }
        budget.fields = bytes.withUnsafeBytes { ByteBudget.fields(in: $0, bare: bare) }
        return budget
    }
}
