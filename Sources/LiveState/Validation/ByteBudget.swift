import Foundation

/// The byte budget of one APNs body: what it weighs as sent, what its content-state weighs,
/// and what the device's re-encoding of the state may weigh.
///
/// APNs refuses a body over 4096 bytes (5120 for a broadcast push) with 413. The device
/// re-encodes the decoded state with Foundation and drops an update whose encoding passes
/// 4096 bytes; Foundation may write a double such as `1.91` as `1.9099999999999999` and `/`
/// as `\/`, so the worst case counts every non-integer number as Darwin prints it (`%.17g`) and
/// every `/` escaped.
public struct ByteBudget: Sendable, Hashable {
    /// The largest body APNs accepts for a Live Activity push.
    public static let apnsLimit = 4096
    /// The largest body APNs accepts for a broadcast push.
    public static let broadcastLimit = 5120
    /// The largest content-state the device applies.
    public static let contentStateLimit = 4096

    /// The body limit that applies: `apnsLimit` or `broadcastLimit`.
    public var limit: Int
    /// The body's size as sent, in bytes.
    public var body: Int
    /// The content-state's size as sent (from `{` to `}`), when the body has one.
    public var contentState: Int?
    /// The worst-case size of the content-state as the device re-encodes the decoded state.
    public var deviceWorstCase: Int?
    /// Each top-level content-state member as sent: key, value and the separator after it. A
    /// key sent twice is one entry, at its first place, with the bytes of both members.
    public var fields: [FieldBytes]
    /// For a body over its limit: its largest parts as sent, of each member of `aps` and each
    /// key beside it, named by JSON Pointer (`/aps/alert`, `/analytics`), largest first, at most
    /// three (the largest, and others of 64 bytes or more).
    public var largestParts: [FieldBytes] = []

    /// The bytes of one top-level content-state member.
    public struct FieldBytes: Sendable, Hashable {
        /// The member's key.
        public var name: String
        /// Its bytes: the quoted key, the colon, the value and the comma after it, if any.
        public var bytes: Int

        /// Creates an entry.
        /// - Parameters:
        ///   - name: The key.
        ///   - bytes: Its bytes.
        public init(name: String, bytes: Int) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// Creates a budget.
    /// - Parameters:
    ///   - limit: The body limit.
    ///   - body: The body's size.
    ///   - contentState: The content-state's size as sent.
    ///   - deviceWorstCase: The re-encoded worst case.
    ///   - fields: Bytes per top-level member.
    public init(limit: Int, body: Int, contentState: Int? = nil, deviceWorstCase: Int? = nil, fields: [FieldBytes] = []) {
        self.limit = limit
        self.body = body
        self.contentState = contentState
        self.deviceWorstCase = deviceWorstCase
        self.fields = fields
    }

    /// Bytes left under the body limit; negative when over.
    public var headroom: Int { limit - body }

    /// The budget as the JSON object the CLI and the HTTP sidecar print:
    /// `{limit, body, headroom, contentState, deviceWorstCase, fields: {name: bytes}}`.
    public var jsonValue: Value {
        .object([
            .init("limit", .int(limit)),
            .init("body", .int(body)),
            .init("headroom", .int(headroom)),
            .init("contentState", contentState.map(Value.int) ?? .null),
            .init("deviceWorstCase", deviceWorstCase.map(Value.int) ?? .null),
            .init("fields", .object(fields.map { .init($0.name, .int($0.bytes)) })),
        ])
    }

    /// Writes `jsonValue` straight to `writer`, byte for byte the same, without building the tree.
    /// - Parameter writer: The writer to append to.
    package func write(to writer: inout JSONWriter) {
        var buffer = StateWriter(capacity: 128 + 32 * fields.count)
        defer { buffer.release() }
        buffer.append(#"{"limit":"#)
        buffer.writeInt(limit)
        buffer.append(#","body":"#)
        buffer.writeInt(body)
        buffer.append(#","headroom":"#)
        buffer.writeInt(headroom)
        buffer.append(#","contentState":"#)
        if let contentState { buffer.writeInt(contentState) } else { buffer.append("null") }
        buffer.append(#","deviceWorstCase":"#)
        if let deviceWorstCase { buffer.writeInt(deviceWorstCase) } else { buffer.append("null") }
        buffer.append(#","fields":{"#)
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(",") }
            _ = buffer.writeString(field.name)
            buffer.append(":")
            buffer.writeInt(field.bytes)
        }
        buffer.append("}}")
        writer.append(bytes: buffer.bytes)
    }

    /// The errors for every limit this budget breaks: `over-budget` (the body),
    /// `content-state-over-budget` (the device's re-encoding passes its limit whatever numbers
    /// it writes) and `reencoded-over-budget` (only its worst case does).
    /// - Parameters:
    ///   - file: The file name to put in diagnostics.
    ///   - contentStatePosition: Where the content-state starts, when known.
    ///   - event: The push's event, for the consequence's words (`nil`: "the device drops this push").
    ///   - deviceLeastCase: The least the device's re-encoding of the decoded state weighs
    ///     (`deviceLeastCase(_:)`), needed only when `deviceWorstCase` passes the limit; without
    ///     it, a state over the limit at its worst is reported as `reencoded-over-budget`.
    ///     (Not stored in the budget: a larger budget costs every encode and lint.)
    ///   - compactBody: The body's size without its white space (`compactSize(of:)`), for a
    ///     body over its limit: when that fits, `over-budget` says so (a hand-written file is
    ///     pretty-printed, and ends with a line feed; a server's JSON encoder sends neither).
    /// - Returns: The diagnostics, none when every limit holds.
    public func diagnostics(
        file: String?, contentStatePosition: SourcePosition?, event: ActivityEvent? = nil, deviceLeastCase: Int? = nil,
        compactBody: Int? = nil
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let overWorst = deviceWorstCase.map { $0 > Self.contentStateLimit } ?? false
        guard headroom < 0 || overWorst else { return found }
        let top = fields.sorted { $0.bytes > $1.bytes }.prefix(3)
        let biggest = top.isEmpty ? "" : "; largest content-state fields: " + top.map { "\($0.name) \($0.bytes) B" }.joined(separator: ", ")
        if headroom < 0 {
            // The body's own largest parts first: the bulk may be an alert or a key beside `aps`.
            let parts = largestParts.isEmpty ? "" : "; largest members, key and value: " + largestParts.map { "\($0.name) \($0.bytes) B" }.joined(separator: ", ")
            // Said only when it fits: a pretty-printed file, or one ending with a line feed, that
            // a server's encoder would send under the limit.
            let compact = compactBody.flatMap { compact in
                compact <= limit ? " (without its white space, as JSON encoders send a body, it is \(compact) bytes, which fits)" : nil
            } ?? ""
            found.append(Diagnostic(
                code: DiagnosticCode.overBudget, severity: .error,
                message: "the body is \(body) bytes, \(-headroom) over the APNs limit of \(limit); APNs answers 413\(compact)\(parts)\(biggest)",
                file: file, position: SourcePosition(offset: 0, line: 1, column: 1), scope: .envelope, pointer: ""))
        }
        guard let worst = deviceWorstCase, worst > Self.contentStateLimit else { return found }
        // What the device measures is its own encoding of the decoded state, not the bytes sent
        // (a state sent with `\u20ac` escapes re-encodes smaller; one whose missing keys take
        // defaults, or whose `/` the device escapes, larger). It depends on the version's
        // defaults: each version's finding is its own (scope content-state).
        let sent = contentState.map { " (\($0) bytes as sent)" } ?? ""
        let consequence = DeviceConsequence(event: event, broadcast: limit == Self.broadcastLimit).rawValue
        if let least = deviceLeastCase, least > Self.contentStateLimit {
            found.append(Diagnostic(
                code: DiagnosticCode.contentStateOverBudget, severity: .error,
                message: "the device re-encodes this state\(sent) to \(least) bytes at the least ('/' as '\\/', missing keys with "
                    + "their defaults), over its limit of \(Self.contentStateLimit); \(consequence)\(biggest)",
                file: file, position: contentStatePosition, scope: .contentState, pointer: ""))
        } else {
            // Which Foundation writes more depends on the numbers: `%.17g` for most, the shortest
            // form for a whole number from 2^53 on.
            let sizes = deviceLeastCase.map { "between \($0) and \(worst) bytes" } ?? "as many as \(worst) bytes"
            found.append(Diagnostic(
                code: DiagnosticCode.reencodedOverBudget, severity: .error,
                message: "the device re-encodes this state\(sent) to \(sizes), as its Foundation writes numbers (at their shortest, "
                    + "or at 17 digits with %.17g); where it writes \(worst), over its limit of \(Self.contentStateLimit), \(consequence)",
                file: file, position: contentStatePosition, scope: .contentState, pointer: ""))
        }
        return found
    }

    // MARK: - The device's re-encoding

    /// The most bytes Foundation's `JSONEncoder` may write for `value` on the device: compact,
    /// `/` escaped as `\/`, every non-integer number as `%.17g` prints it.
    /// - Parameter value: A decoded state.
    /// - Returns: The worst-case size in bytes.
    ///
    /// `StateTape.deviceWorstCase(in:)` measures a tape the same way, with the same pieces
    /// (`scalarWorstCase`, `escapedLength`, `containerLength`, `memberLength`) without making
    /// the tree; a test holds the two equal.
    public static func deviceWorstCase(_ value: Value) -> Int {
        deviceSize(value, field: nil, in: nil, numbers: WorstCaseNumbers.self)
    }

    /// `deviceWorstCase(_:)` of a state of `plan`: its values of a `Float`, a `Decimal` or a `URL`
    /// measured as their type writes them (`deviceLengths(of:as:)`).
    static func deviceWorstCase(_ value: Value, plan: ObjectPlan?) -> Int {
        deviceSize(value, field: nil, in: asked(plan), numbers: WorstCaseNumbers.self)
    }

    /// `plan` when a field of it is written otherwise, else `nil`: the walk then looks up no
    /// member's field.
    private static func asked(_ plan: ObjectPlan?) -> ObjectPlan? {
        plan?.writesOtherwise == true ? plan : nil
    }

    /// `deviceWorstCase(_:)` of a value of `field`.
    static func deviceWorstCase(_ value: Value, field: FieldPlan) -> Int {
        deviceSize(value, field: field, in: nil, numbers: WorstCaseNumbers.self)
    }

    /// The fewest bytes Foundation's `JSONEncoder` writes for `value` on the device: as
    /// `deviceWorstCase(_:)` counts them, an optional's `nil` left out, as synthesized
    /// `Encodable` leaves it out, and every number as the Foundation that writes the state
    /// shorter writes it: at its shortest, the form that reads back the same (`1.91` as `1.91`,
    /// as swift-foundation writes it), or as `%.17g` prints it (as Darwin's older Foundation
    /// writes it), which is shorter for a whole number from 2^53 to 10^17
    /// (`9007199254740994`, where the shortest form is `9.007199254740994e+15`). When this
    /// passes the limit, every device drops the update.
    /// - Parameter value: A decoded state.
    /// - Returns: The least size in bytes.
    public static func deviceLeastCase(_ value: Value) -> Int {
        deviceLeastCase(value, plan: nil)
    }

    /// `deviceLeastCase(_:)` of a state of `plan` (see `deviceWorstCase(_:plan:)`).
    static func deviceLeastCase(_ value: Value, plan: ObjectPlan?) -> Int {
        min(deviceSize(value, field: nil, in: asked(plan), numbers: ShortestNumbers.self),
            deviceSize(value, field: nil, in: asked(plan), numbers: PrintedNumbers.self))
    }

    /// The bytes the `JSONEncoder` of Darwin's older Foundation writes for `value`, measured
    /// exactly: every non-integer number as `%.17g` prints it, which drops the zeros a rounding
    /// ends in (`0.019` is 5 bytes, where `deviceWorstCase(_:)` counts 17 digits for every number
    /// a double does not hold exactly), and an optional's `nil` left out, as synthesized
    /// `Encodable` leaves it out (`encodeIfPresent`). The most a device writes for nearly every
    /// state; for a whole number from 2^53 to 10^17 the shortest form is longer (see
    /// `deviceLeastCase(_:)`). Slower than `deviceWorstCase(_:)`, which bounds it: asked only
    /// when that passes the limit, to decide the verdict.
    /// - Parameter value: A decoded state.
    /// - Returns: The size in bytes.
    public static func devicePrintedCase(_ value: Value) -> Int {
        deviceSize(value, field: nil, in: nil, numbers: PrintedNumbers.self)
    }

    /// `worst`, a state's `deviceWorstCase(_:)`, or, when `worst` passes the content-state's
    /// limit, the most either Foundation writes for it, measured exactly (`devicePrintedCase(_:)`,
    /// or every number at its shortest where that is longer): what a verdict is given on.
    /// With a `plan`, the state's values of a `Float`, a `Decimal` or a `URL` are measured as
    /// their type writes them (`deviceWorstCase(_:plan:)`).
    static func settledWorstCase(_ worst: Int, of state: @autoclosure () -> Value?, plan: ObjectPlan? = nil) -> Int {
        guard worst > contentStateLimit, let state = state() else { return worst }
        return min(worst, max(deviceSize(state, field: nil, in: asked(plan), numbers: PrintedNumbers.self),
                              deviceSize(state, field: nil, in: asked(plan), numbers: ShortestNumbers.self)))
    }

    /// How long the device writes a non-integer number: at its worst, or at its shortest; and
    /// whether it leaves an object's `nil` members out.
    private protocol NumberLength {
        static func length(_ double: Double) -> Int
        static var leavesOutNil: Bool { get }
        /// Whether a value its type writes otherwise counts at the most it may take, or at the least.
        static var takesMost: Bool { get }
    }

    private enum PrintedNumbers: NumberLength {
        static func length(_ double: Double) -> Int { printedNumber(double) }
        static var leavesOutNil: Bool { true }
        static var takesMost: Bool { true }
    }

    private enum WorstCaseNumbers: NumberLength {
        static func length(_ double: Double) -> Int { worstCaseNumber(double) }
        static var leavesOutNil: Bool { false }
        static var takesMost: Bool { true }
    }

    private enum ShortestNumbers: NumberLength {
        static func length(_ double: Double) -> Int { shortestNumber(double) }
        static var leavesOutNil: Bool { true }
        static var takesMost: Bool { false }
    }

    /// The re-encoded size of `value`, numbers measured by `numbers` (specialized for each, so
    /// the worst case's walk is what it was before the least case shared it). With the plan of
    /// the value's `field`, or of the object it is (`object`), a value of a `Float`, a `Decimal`
    /// or a `URL` is measured as its type writes it.
    private static func deviceSize<Numbers: NumberLength>(
        _ value: Value, field: FieldPlan?, in object: ObjectPlan?, numbers: Numbers.Type
    ) -> Int {
        if let field, field.writesOtherwise, let lengths = deviceLengths(of: value, as: field) {
            return Numbers.takesMost ? lengths.most : lengths.least
        }
        switch value {
        case .double(let double), .date(let double): return Numbers.length(double)
        case .dateRange(let lower, let upper): return 3 + Numbers.length(lower) + Numbers.length(upper)
        case .null, .bool, .int, .uint: return scalarWorstCase(value)
        case .string(let string): return escapedLength(string)
        case .array(let elements):
            var total = containerLength(elements.count)
            let items = field?.items
            for element in elements { total += deviceSize(element, field: items, in: nil, numbers: numbers) }
            return total
        case .object(let members):
            // A map's values are all of its `items`; an object's members are its fields.
            let values = field?.kind == .map ? field?.items : nil
            let plan = field?.object ?? object
            var count = 0
            var total = 0
            for member in members where !(Numbers.leavesOutNil && member.value.isNull) {
                count += 1
                let memberField = values ?? plan.flatMap { plan in plan.index(ofName: member.name).map { plan.fields[$0] } }
                total += memberLength(
                    escapedName: escapedLength(member.name), value: deviceSize(member.value, field: memberField, in: nil, numbers: numbers))
            }
            return total + containerLength(count)
        }
    }

    /// The fewest and the most bytes the device writes for `value` of `field` when the field's
    /// Swift type writes it otherwise than a `Double` or a `String` of it would; `nil` for any
    /// other field or value:
    /// - a `Float` (`format: float`): at the float's shortest (`123456789` is the float
    ///   `1.2345679e+08`, `0.1` stays `0.1`), or as `%.17g` prints the float's `Double`
    ///   (`0.10000000149011612`), as a Foundation that prints numbers so may;
    /// - a `Decimal` (`format: decimal`): every digit it holds (`1e127` is a 1 and 127 zeros);
    /// - a `URL`: its `absoluteString`, which iOS 17 and later percent-encode (`a b` is
    ///   `a%20b`), and on iOS 16, when the app has devices there and they read it, the string
    ///   as sent. `/` is escaped in each.
    static func deviceLengths(of value: Value, as field: FieldPlan) -> (least: Int, most: Int)? {
        switch field.kind {
        case .double where field.numberFormat == .float:
            guard let float = value.floatValue, float.isFinite else { return nil }
            let shortest = foundationLength(of: float.description)
            let printed = printedNumber(Double(float))
            return (min(shortest, printed), max(shortest, printed))
        case .double where field.numberFormat == .decimal:
            return value.decimalValue.map { decimal in
                let length = decimal.description.utf8.count
                return (length, length)
            }
        case .url:
            guard case .string(let string) = value else { return nil }
            let lengths = field.urls.absoluteStrings(string).map(escapedLength)
            guard let least = lengths.min(), let most = lengths.max() else { return nil }
            return (least, most)
        default:
            return nil
        }
    }

    /// The length of a number's `description` as swift-foundation's `JSONEncoder` writes it:
    /// without the `.0` of a whole number (`123.0` is `123`).
    private static func foundationLength(of description: String) -> Int {
        description.utf8.count - (description.hasSuffix(".0") ? 2 : 0)
    }

    /// The worst case of a value that is not a string or a container; 0 for those.
    static func scalarWorstCase(_ value: Value) -> Int {
        switch value {
        case .null: 4
        case .bool(let bool): bool ? 4 : 5
        case .int(let int): decimalDigits(int)
        case .uint(let uint): String(uint).utf8.count
        case .double(let double), .date(let double): worstCaseNumber(double)
        case .dateRange(let lower, let upper): 3 + worstCaseNumber(lower) + worstCaseNumber(upper)
        case .string, .array, .object: 0
        }
    }

    /// The brackets and commas of an array or object of `count` values.
    @inline(__always)
    static func containerLength(_ count: Int) -> Int {
        2 + max(0, count - 1)
    }

    /// One member of an object: its key (`escapedName` bytes, quotes included), the colon and
    /// its value's `value` bytes.
    @inline(__always)
    static func memberLength(escapedName: Int, value: Int) -> Int {
        escapedName + 1 + value
    }

    /// The length of `string` as a JSON string literal with `/` escaped, quotes included.
    package static func escapedLength(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { escapedLength(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The length of the string whose UTF-8 is `utf8` as a JSON string literal with `/`
    /// escaped, quotes included: each byte `EscapeScan` flags adds 1 (`/`, `"`, `\` and the
    /// short escapes) or 5 (another control character, `\u00XX`).
    static func escapedLength(utf8: UnsafeRawBufferPointer) -> Int {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return 2 }
        var added = 0
        EscapeScan.forEachFlaggedWord(source, utf8.count) { attention, wordStart in
            added &+= attention.slashes.nonzeroBitCount
            var escapes = attention.escapes
            while escapes != 0 {
                let byte = source.load(fromByteOffset: wordStart &+ escapes.trailingZeroBitCount &>> 3, as: UInt8.self)
                added &+= EscapeScan.shortEscape(byte) == nil ? 5 : 1
                escapes &= escapes &- 1
            }
        }
        return 2 &+ utf8.count &+ added
    }

    /// The length of a number as the device's Foundation may write it: integral values within
    /// ±2^53 as integers (`-0` with its sign); every other number as Darwin prints it with
    /// `%.17g`, so that a value binary holds exactly in 17 digits or fewer keeps its short form
    /// (`0.5`, `2.5`, `0.375`) and one it does not counts at 17 significant digits, the most it
    /// prints (`1.91` is `1.9099999999999999`; a rounding that ends in zeros prints shorter).
    /// A whole number from 2^53 on counts as the longer of `%.17g` and its shortest form, which
    /// a Foundation that writes the shortest form writes with an exponent
    /// (`9.007199254740994e+15`, where `%.17g` prints `9007199254740994`).
    static func worstCaseNumber(_ double: Double) -> Int {
        guard double.isFinite else { return 4 }
        if let integral = integralLength(double) { return integral }
        if double.magnitude >= 9_007_199_254_740_992 {
            // Whole, and rare: both forms measured.
            return max(printedNumber(double), shortestNumber(double))
        }
        let sign = double < 0 ? 1 : 0
        let magnitude = double.magnitude
        // The exact decimal of m × 2^-k (m odd) is m × 5^k × 10^-k: its significant digits,
        // when there are 17 or fewer, are what "%.17g" prints.
        var digits = 17
        var exponent: Int
        let k = Int(magnitude.significandWidth) - Int(magnitude.exponent)
        if k > 0, k <= 24, let exact = exactDigits(Double(sign: .plus, exponent: k, significand: magnitude), times5ToThe: k) {
            digits = decimalDigits(Int(exact))
            exponent = digits - k - 1
        } else {
            // The decimal exponent: x = d.ddd × 10^exponent.
            exponent = 0
            var scaled = magnitude
            while scaled >= 10 { scaled /= 10; exponent += 1 }
            while scaled < 1 { scaled *= 10; exponent -= 1 }
        }
        let point = digits > 1 ? 1 : 0
        if exponent < -4 || exponent >= 17 {
            // d.ddde-XX
            return sign + digits + point + 2 + (exponent.magnitude >= 100 ? 3 : 2)
        }
        if exponent < 0 {
            // 0.000ddd
            return sign + 2 + (-exponent - 1) + digits
        }
        // ddd.ddd
        return sign + digits + 1
    }

    /// The length of a number as Darwin's older Foundation writes it: integral values within
    /// ±2^53 as integers, every other as `%.17g` prints it.
    static func printedNumber(_ double: Double) -> Int {
        guard double.isFinite else { return 4 }
        return integralLength(double) ?? String(format: "%.17g", double).utf8.count
    }

    /// The length of a number at its shortest: integral values within ±2^53 as integers, every
    /// other as Swift's `description` writes it, the shortest text that reads back the same
    /// (`0.1`, `1.91`, `1e-05`), without the `.0` that swift-foundation drops (2^53 itself is
    /// `9007199254740992.0` to `description`).
    static func shortestNumber(_ double: Double) -> Int {
        guard double.isFinite else { return 4 }
        return integralLength(double) ?? foundationLength(of: double.description)
    }

    /// The length of an integral value within ±2^53, written as an integer, as Foundation
    /// writes one (`-0` with its sign, as both Foundations write it); `nil` for any other number.
    private static func integralLength(_ double: Double) -> Int? {
        let magnitude = double.magnitude
        guard magnitude == magnitude.rounded(.towardZero), magnitude < 9_007_199_254_740_992 else { return nil }
        return (double.sign == .minus ? 1 : 0) + decimalDigits(Int(magnitude))
    }

    /// `m × 5^k` for an integral `m`, when it is below 10^17.
    private static func exactDigits(_ m: Double, times5ToThe k: Int) -> UInt64? {
        var value = UInt64(m)
        for _ in 0..<k {
            let (product, overflow) = value.multipliedReportingOverflow(by: 5)
            guard !overflow, product < 100_000_000_000_000_000 else { return nil }
            value = product
        }
        return value
    }

    static func decimalDigits(_ int: Int) -> Int {
        var digits = int < 0 ? 2 : 1
        var rest = int.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }
}
