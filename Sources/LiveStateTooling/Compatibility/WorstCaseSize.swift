@_spi(Scanner) import LiveState

/// The static worst case of a content-state's encoded size: the largest object a version's
/// schema allows, as the device would re-encode it.
///
/// Strings count as `max-length` bytes plus the quotes (before escaping: a re-encoding device
/// may also write `/` as `\/`, and iOS 17 percent-encodes a URL's spaces and non-ASCII
/// characters), string enums as their longest raw value as the device writes it (`/` as `\/`),
/// integers at the width of their bounds (20 bytes unbounded, 20 for a `uint64` past
/// `Int.max`), doubles and dates at 24 bytes (17 significant digits, a sign, a point and an
/// exponent), decimals at 131 (`decimalBytes`), date-ranges at 51, arrays at `max-items` elements.
/// Optional fields count at least as `null`. A string without `max-length` or an array without
/// `max-items` has no bound: `unbounded` lists them, and `bytes` is the worst case of the rest.
///
/// For example `{ title: { type: string, max-length: 8 }, done: { type: bool } }` is
/// `{"title":"12345678","done":false}`: 2 braces + 8 (`"title":`) + 10 + 1 comma + 7 (`"done":`) + 5 = 33 bytes.
public struct WorstCaseSize: Sendable, Hashable {
    /// The worst case in bytes; a lower bound when `unbounded` is not empty.
    public var bytes: Int
    /// The worst case after the encoder's `--fit`: fields with `drop-priority` dropped (the
    /// device re-encodes their defaults) and `truncate` strings cut to "…" or their
    /// `min-length`; `nil` when that is still unbounded.
    public var fittedBytes: Int?
    /// Each top-level field's worst case, key and colon included, in schema order.
    public var fields: [Entry]
    /// The fields without a bound, in schema order.
    public var unbounded: [Unbounded]

    /// One top-level field's share of the worst case.
    public struct Entry: Sendable, Hashable {
        /// The field's key.
        public var name: String
        /// `"key":value` at its worst, in bytes; a lower bound when the field is unbounded.
        public var bytes: Int
    }

    /// A field that makes the worst case unbounded.
    public struct Unbounded: Sendable, Hashable {
        /// The field's JSON Pointer; array elements use the token `-`.
        public var pointer: String
        /// `max-length` or `max-items`: the constraint it lacks.
        public var missing: String
        /// Where the field is declared.
        public var position: SourcePosition?
    }

    /// Whether every field has a bound.
    public var isBounded: Bool { unbounded.isEmpty }

    /// The worst case of an object with the given fields, such as a version's content-state.
    /// - Parameter fields: The object's fields.
    /// - Returns: The worst case.
    public init(fields: [Field]) {
        var measure = Measure()
        let object = measure.object(fields, pointer: "", position: nil)
        self.bytes = object.bytes
        self.fittedBytes = object.fittedBytes
        self.fields = measure.topLevel
        self.unbounded = measure.unbounded
    }

    /// The worst case of a version's content-state.
    /// - Parameter version: The schema version.
    /// - Returns: The worst case.
    public static func contentState(of version: SchemaVersion) -> WorstCaseSize {
        WorstCaseSize(fields: version.contentState)
    }

    /// The widest double or date: 17 significant digits, sign, point and exponent.
    public static let doubleBytes = 24

    /// The widest `Decimal` (`format: decimal`) the device writes: `JSONEncoder` writes every
    /// digit, with no exponent, so `-9.9999999999999999999999999999999999999e-91` (38 digits,
    /// the most a `Decimal` holds, as small as the decoder reads them) is a sign, `0.`, 90
    /// zeros and the 38 digits.
    public static let decimalBytes = 131
}

/// The walk that computes a `WorstCaseSize`.
private struct Measure {
    var topLevel: [WorstCaseSize.Entry] = []
    var unbounded: [WorstCaseSize.Unbounded] = []

    /// A size and the size after fitting (`nil`: unbounded after fitting).
    struct Size {
        var bytes: Int
        var fittedBytes: Int?
    }

    mutating func object(_ fields: [Field], pointer: String, position: SourcePosition?) -> Size {
        var bytes = 2
        var fitted: Int? = 2
        var keptMembers = 0
        for (index, field) in fields.enumerated() {
            let fieldPointer = JSONPointer.appending(field.name, to: pointer)
            let key = ByteBudget.escapedLength(field.name) + 1
            let value = self.value(field, pointer: fieldPointer, position: field.position ?? position)
            let member = sum(key, value.bytes)
            bytes = sum(bytes, member, index > 0 ? 1 : 0)
            if pointer.isEmpty { topLevel.append(.init(name: field.name, bytes: member)) }
            // A field fitting leaves out is still re-encoded by the device, with the value its
            // missing key takes.
            // Only a top-level field is dropped or shortened (`isFitted`; the schema validator
            // refuses the keys elsewhere).
            let dropped = field.dropPriority != nil && Self.isFitted(fieldPointer)
            let fittedValue = dropped ? field.missingValue.map(ByteBudget.deviceWorstCase) : value.fittedBytes
            if let value = fittedValue, let sofar = fitted {
                fitted = sum(sofar, key, value, keptMembers > 0 ? 1 : 0)
            } else {
                fitted = nil
            }
            keptMembers += 1
        }
        return Size(bytes: bytes, fittedBytes: fitted)
    }

    mutating func value(_ field: Field, pointer: String, position: SourcePosition?) -> Size {
        var size = bareValue(field, pointer: pointer, position: position)
        if field.takesNull {
            size.bytes = max(size.bytes, 4)
            size.fittedBytes = size.fittedBytes.map { max($0, 4) }
        }
        return size
    }

    private mutating func bareValue(_ field: Field, pointer: String, position: SourcePosition?) -> Size {
        switch field.type {
        case .string, .url:
            // A UUID's text is 36 bytes whatever the schema says.
            // A top-level `truncate` string is cut no shorter than "…" or its `min-length`.
            let truncates = field.truncate && Self.isFitted(pointer)
            let cut = ContentStateEncoder.shortestCut(minLength: field.constraints.minLength)
            guard let maxLength = [field.constraints.maxLength, field.stringFormat?.length].compactMap({ $0 }).min() else {
                unbounded.append(.init(pointer: pointer, missing: "max-length", position: position))
                return Size(bytes: 2, fittedBytes: truncates ? cut + 2 : nil)
            }
            return Size(bytes: sum(maxLength, 2), fittedBytes: truncates ? min(cut, maxLength) + 2 : sum(maxLength, 2))
        case .int:
            return fixed(Self.integerWidth(minimum: field.constraints.minimum, maximum: field.constraints.maximum))
        case .double where field.numberFormat == .decimal:
            return fixed(WorstCaseSize.decimalBytes)
        case .double, .date:
            return fixed(WorstCaseSize.doubleBytes)
        case .bool:
            return fixed(5)
        case .dateRange:
            return fixed(2 * WorstCaseSize.doubleBytes + 3)
        case .enumeration(.strings(let values)):
            // As the device writes the raw value, `/` as `\/`: it is known, so its escapes count.
            return fixed(values.map(ByteBudget.escapedLength).max() ?? 2)
        case .enumeration(.integers(let values)):
            return fixed(values.map { String($0).utf8.count }.max() ?? 1)
        case .array(let items):
            let element = value(items, pointer: JSONPointer.appending("-", to: pointer), position: items.position ?? position)
            guard let maxItems = field.constraints.maxItems else {
                unbounded.append(.init(pointer: pointer, missing: "max-items", position: position))
                return Size(bytes: 2, fittedBytes: nil)
            }
            let commas = max(maxItems - 1, 0)
            return Size(
                bytes: sum(2, product(maxItems, element.bytes), commas),
                fittedBytes: element.fittedBytes.map { sum(2, product(maxItems, $0), commas) })
        case .object(let fields):
            return object(fields, pointer: pointer, position: position)
        case .map(let items):
            // `max-items` entries of the longest key and the largest value. The device writes an
            // `Int` key as `Int` writes it, at most 20 bytes (`-9223372036854775808`).
            let value = value(items, pointer: JSONPointer.appending("*", to: pointer), position: items.position ?? position)
            let keyBound = field.hasIntegerKeys ? min(field.constraints.maxKeyLength ?? .max, Self.integerWidth(minimum: nil, maximum: nil)) : field.constraints.maxKeyLength
            guard let maxKeyLength = keyBound, let maxItems = field.constraints.maxItems else {
                let missing = field.constraints.maxItems == nil ? "max-items" : "max-key-length"
                unbounded.append(.init(pointer: pointer, missing: missing, position: position))
                return Size(bytes: 2, fittedBytes: nil)
            }
            let entry = sum(maxKeyLength, 3)
            let commas = max(maxItems - 1, 0)
            return Size(
                bytes: sum(2, product(maxItems, sum(entry, value.bytes)), commas),
                fittedBytes: value.fittedBytes.map { sum(2, product(maxItems, sum(entry, $0)), commas) })
        }
    }

    private func fixed(_ bytes: Int) -> Size { Size(bytes: bytes, fittedBytes: bytes) }

    /// Whether the field at `pointer` is one `--fit` drops or shortens: a top-level one, whose
    /// pointer has one token (`/note`; an element's is `/tags/-`).
    private static func isFitted(_ pointer: String) -> Bool {
        pointer.lastIndex(of: "/") == pointer.startIndex
    }

    /// The sum of sizes, or `Int.max` past it: a schema may say `max-length:
    /// 9223372036854775807`, or `max-items: 3000000000` of `max-length: 4000000000` strings,
    /// whose worst case is past any limit, not a trap.
    private func sum(_ sizes: Int...) -> Int {
        sizes.reduce(0) { total, size in
            let (next, overflow) = total.addingReportingOverflow(size)
            return overflow ? .max : next
        }
    }

    /// `count` times `size`, or `Int.max` past it.
    private func product(_ count: Int, _ size: Int) -> Int {
        let (result, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? .max : result
    }

    /// The widest integer between the bounds, in bytes: past `Int.max` (a `uint64`, up to
    /// 18446744073709551615), as a `UInt64`.
    static func integerWidth(minimum: Double?, maximum: Double?) -> Int {
        let low = minimum.map { clamp($0.rounded(.up)) } ?? Int.min
        if let maximum, maximum >= 9_223_372_036_854_775_808 {
            let high = UInt64(exactly: maximum.rounded(.down)) ?? .max
            return max(String(low).utf8.count, String(high).utf8.count)
        }
        let high = maximum.map { clamp($0.rounded(.down)) } ?? Int.max
        return max(String(low).utf8.count, String(high).utf8.count)
    }

    private static func clamp(_ double: Double) -> Int {
        Int(exactly: double) ?? (double < 0 ? Int.min : Int.max)
    }
}
