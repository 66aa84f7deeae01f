extension ByteBudget {
    /// Measures a body without a schema: its size, its content-state's size as sent and per
    /// top-level member, and the device's worst case for the content-state as it was sent.
    /// The content-state is the first `content-state` member of the first `aps` member (when
    /// that is an object), as the decoder and the validator find it: a later `aps` or
    /// `content-state` is not measured.
    ///
    /// With a schema, `PayloadValidator` measures the state the app version really decodes
    /// (defaults added, unknown keys gone) instead.
    /// - Parameters:
    ///   - bytes: The body's JSON text.
    ///   - broadcast: Whether the push is a broadcast (limit 5120).
    ///   - options: Scanner limits.
    /// - Returns: The budget.
    /// - Throws: `JSONError` when the body is not valid JSON.
    public static func measure(body bytes: UnsafeRawBufferPointer, broadcast: Bool = false, options: JSONScanOptions = .init()) throws(JSONError) -> ByteBudget {
        var budget = ByteBudget(limit: broadcast ? broadcastLimit : apnsLimit, body: bytes.count)
        var reader = try JSONReader(bytes: bytes, options: options)
        guard try reader.peek() == .objectStart else {
            try reader.skipValue()
            try reader.finish()
            return budget
        }
        try reader.beginObject()
        var apsSeen = false
        while let key = try reader.nextKey() {
            guard !apsSeen, reader.string(key) == "aps" else {
                try reader.skipValue()
                continue
            }
            apsSeen = true
            guard try reader.peek() == .objectStart else {
                try reader.skipValue()
                continue
            }
            try reader.beginObject()
            var contentStateSeen = false
            while let apsKey = try reader.nextKey() {
                guard !contentStateSeen, reader.string(apsKey) == "content-state" else {
                    try reader.skipValue()
                    continue
                }
                contentStateSeen = true
                guard try reader.peek() == .objectStart else {
                    // Its size as sent; no app decodes it.
                    let start = reader.offset
                    try reader.skipValue()
                    budget.contentState = reader.offset - start
                    continue
                }
                let start = reader.offset
                var fields: [FieldBytes] = []
                var members: [Value.Member] = []
                try reader.beginObject()
                while let member = try reader.nextKey() {
                    let memberStart = member.start - 1
                    let value = try JSONValueParser.parse(&reader)
                    let name = reader.string(member)
                    fields.append(FieldBytes(name: name, bytes: reader.offset - memberStart))
                    members.append(.init(name, value))
                }
                // Every member but the last is followed by a comma.
                for index in fields.indices.dropLast() { fields[index].bytes += 1 }
                budget.contentState = reader.offset - start
                budget.fields = fields
                budget.deviceWorstCase = deviceWorstCase(.object(members))
            }
        }
        try reader.finish()
        return budget
    }
}
