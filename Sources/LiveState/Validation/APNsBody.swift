/// Where an APNs body keeps its content-state: the rule, written once for every reader of a body
/// (`ContentStateDecoder`'s `decode(payload:)`, `BodyChecker` and
/// `ByteBudget.measure`).
///
/// The body is an object. Its first `aps` member is the envelope, whatever its value, and the
/// first `content-state` member of that envelope, when the envelope is an object, is the state.
/// A later `aps` or `content-state` is not the one read, as Foundation's `JSONDecoder` keeps the
/// first of a repeated key. Keys are compared unescaped. Every other member is skipped, strictly.
///
/// The decoder and the validator read the content-state found on a tape
/// (`DecodeContext.tape(of:…)`); `everyReaderOfABodyFindsTheSameContentState` holds the readers
/// together.
enum APNsBody {
    /// What a body held where the envelope belongs.
    enum Envelope: Equatable {
        /// The body is not an object.
        case bodyNotAnObject
        /// The body, the object at this offset, has no `aps` member.
        case missing(body: Int)
        /// The first `aps` member is not an object: the value at this offset.
        case notAnObject(at: Int)
        /// The first `aps` member is the object at this offset.
        case object(at: Int)
    }

    /// What is wrong with a body whose envelope the walk found so (`nil`: an `aps` object), in
    /// the words `lint` uses; the offset, when not the body's first byte, is `aps`'s value or
    /// the body object's. For a reader that measures the body rather than checks it (`budget`).
    /// - Parameter besideAPS: The Live Activity `aps` keys the body holds at its top level.
    static func problem(of envelope: Envelope, besideAPS: [String]) -> (code: DiagnosticCode, message: String, offset: Int?, pointer: String)? {
        switch envelope {
        case .object: nil
        case .bodyNotAnObject: (.missingAPS, notABody, nil, "")
        case .missing(let body): (.missingAPS, noAPS(besides: besideAPS), body, "/aps")
        case .notAnObject(let value): (.invalidAPSValue, apsNotAnObject, value, "/aps")
        }
    }

    /// The words of each problem, `BodyChecker`'s as well.
    static let notABody = "an APNs body must be a JSON object with an aps object"
    static let apsNotAnObject = "aps must be an object"

    /// A body without `aps`, whose top level holds the Live Activity `aps` keys `names` (the
    /// envelope written without its `aps`): "its key timestamp belongs inside it", "its keys
    /// timestamp and event belong inside it".
    static func noAPS(besides names: [String]) -> String {
        // Each once, where first met: a key written twice is one key to move.
        var seen = Set<String>()
        let names = names.filter { seen.insert($0).inserted }
        let listed = ValueText.listed(names)
        let hint = names.isEmpty ? ""
            : names.count == 1 ? "; its key \(listed) belongs inside it: {\"aps\": {…}}"
            : "; its keys \(listed) belong inside it: {\"aps\": {…}}"
        return "the body has no aps object" + hint
    }

    /// Walks the body at the reader's position, asking `visitor` about each part the rule names.
    /// - Returns: What the body held where the envelope belongs.
    static func walk<Visitor: APNsBodyVisitor>(_ visitor: inout Visitor, _ context: inout Visitor.Context) throws(JSONError) -> Envelope {
        guard try context.reader.peek() == .objectStart else {
            try visitor.bodyIsNotAnObject(&context)
            return .bodyNotAnObject
        }
        var envelope = Envelope.missing(body: context.reader.offset)
        try context.reader.beginObject()
        while let key = try context.reader.nextKey() {
            guard context.reader.matches(key, "aps") else {
                try visitor.otherMember(key, &context)
                continue
            }
            guard case .missing = envelope else {
                try visitor.repeatedAPS(key, &context)
                continue
            }
            guard try context.reader.peek() == .objectStart else {
                envelope = .notAnObject(at: context.reader.offset)
                try visitor.apsIsNotAnObject(&context)
                continue
            }
            envelope = .object(at: context.reader.offset)
            try context.reader.beginObject()
            var stateSeen = false
            while let member = try context.reader.nextKey() {
                let isContentState = !stateSeen && context.reader.matches(member, "content-state")
                stateSeen = stateSeen || isContentState
                try visitor.apsMember(member, isContentState: isContentState, &context)
            }
        }
        return envelope
    }
}

/// What holds the reader a body is walked with.
protocol JSONReading {
    var reader: JSONReader { get set }
}

/// The reader alone, for a walk that needs nothing else.
struct BodyReading: JSONReading {
    var reader: JSONReader
}

/// A reader of a body's parts, as `APNsBody.walk` finds them. Each method is called with the
/// reader at a value, and reads or skips that whole value; by default it is skipped.
protocol APNsBodyVisitor {
    associatedtype Context: JSONReading

    /// The body is not an object.
    mutating func bodyIsNotAnObject(_ context: inout Context) throws(JSONError)
    /// An `aps` member after the first; `key` is its key.
    mutating func repeatedAPS(_ key: JSONString, _ context: inout Context) throws(JSONError)
    /// The first `aps` member's value, which is not an object.
    mutating func apsIsNotAnObject(_ context: inout Context) throws(JSONError)
    /// A member of the first `aps` object: `isContentState` for its first `content-state`.
    mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout Context) throws(JSONError)
    /// A member of the body beside `aps` (data for the app); `key` is its key.
    mutating func otherMember(_ key: JSONString, _ context: inout Context) throws(JSONError)
}

extension APNsBodyVisitor {
    mutating func bodyIsNotAnObject(_ context: inout Context) throws(JSONError) {
        try context.reader.skipValue()
    }

    mutating func repeatedAPS(_ key: JSONString, _ context: inout Context) throws(JSONError) {
        try context.reader.skipValue()
    }

    mutating func apsIsNotAnObject(_ context: inout Context) throws(JSONError) {
        try context.reader.skipValue()
    }

    mutating func otherMember(_ key: JSONString, _ context: inout Context) throws(JSONError) {
        try context.reader.skipValue()
    }
}
