import Foundation

/// One entry of a `StateTape`: a value, an object's header, or a finding.
///
/// An object's fields have one node each, in schema order, right after the object's header
/// (reserved when the object opens, so members may arrive in any order); an array's elements
/// are consecutive (an array of objects or of arrays lays each element out where it stands,
/// and its elements' nodes after them all). Findings sit between them in the order they were made.
struct TapeNode {
    var kind: Kind
    var a: Int
    var b: Int

    /// A node holding a double in `a` (and, for a date-range, the upper bound in `b`).
    init(kind: Kind, double: Double, upper: Double = 0) {
        self.init(kind: kind, a: Int(bitPattern: UInt(double.bitPattern)), b: Int(bitPattern: UInt(upper.bitPattern)))
    }

    init(kind: Kind, a: Int, b: Int) {
        self.kind = kind
        self.a = a
        self.b = b
    }

    /// The double in `a`, and in `b`.
    var doubleA: Double { Double(bitPattern: UInt64(UInt(bitPattern: a))) }
    var doubleB: Double { Double(bitPattern: UInt64(UInt(bitPattern: b))) }

    /// A string node's content as a token of the input.
    var string: JSONString { JSONString(start: a, end: b, hasEscapes: kind == .escapedString) }

    /// The value of a `null`, `bool`, number or date node, which needs neither the input nor
    /// the plan; `nil` for every other kind.
    var scalar: Value? {
        switch kind {
        case .null: .null
        case .bool: .bool(a != 0)
        case .int: .int(a)
        case .double: .double(doubleA)
        case .date: .date(doubleA)
        case .dateRange: .dateRange(lower: doubleA, upper: doubleB)
        case .missing, .string, .escapedString, .array, .object, .made, .header, .absent, .unknownKey, .repeatedKey, .fallbackTaken,
             .elementFallbackTaken, .defaultTaken, .nullDefaulted, .rejected, .unixDate, .elementUnixDate, .reported, .span: nil
        }
    }

    enum Kind: UInt8 {
        /// The key was absent: the field's value for a missing key (its default, or `null`).
        case missing
        /// `null`, for an optional field.
        case null
        /// `a` is 0 or 1.
        case bool
        /// `a` is the value.
        case int
        /// `a` is the bit pattern.
        case double
        /// `a` is the bit pattern of the seconds since 2001-01-01.
        case date
        /// `a` and `b` are the bit patterns of the bounds.
        case dateRange
        /// `a` and `b` are the offsets of the content, between the quotes; no escapes.
        case string
        /// The same, with backslash escapes.
        case escapedString
        /// `a` is the first element's node, `b` the count.
        case array
        /// `a` is the first field's node (its header is the node before), `b` the count.
        case object
        /// A value the full decoder decided (see `TapeBuilder.decide`) that no other kind
        /// holds: a string not in the input (an enum's fallback), or a container the tape does
        /// not lay out. `a` is its index in the tape's `TapeDecisions.values`.
        case made
        /// An object's header: `a` is the enclosing object's header (-1 for the root), `b` the
        /// object's place in it (see `TapeNode.place`). Also the header of an array that is an
        /// element of an array, so that the objects in it know their place (`TapeBuilder.arrays`).
        case header
        /// Finding: a key was absent. The field took its default (reported when it has a
        /// `defaulted` message), or it is required, and the root object is rejected. `a` is the
        /// object's offset, `b` its header plus the field's index shifted left by 32.
        case absent
        /// Finding: a key the version does not know. `a` is the key's start, `b` its end (with
        /// `escapedKey` for an escaped key) plus the object's header shifted left by 32.
        case unknownKey
        /// Finding: a key the object had already, whose value is skipped. `a` is the key's
        /// start plus, shifted left by 32, its field's index plus 1 (0 for a key the version
        /// does not know); `b` its end (with `escapedKey`) plus the object's header shifted left
        /// by 32.
        case repeatedKey
        /// Finding: an enum field's value is none of its raw values, and the field took its
        /// fallback (`unknown-enum-value`, worded as `DecodeContext.unknownEnumMessage`, with the
        /// value read again as the full decoder reads it). `a` is the value's offset plus the
        /// field's index shifted left by 32; `b` the object's header.
        case fallbackTaken
        /// Finding: a value invalid for its field (of another JSON type, or one a rule of the
        /// field refuses), which took the field's default (`invalid-defaulted`, worded by
        /// `DecodeContext.invalidDefaulted`). `a` is the value's offset plus the field's
        /// index shifted left by 32; `b` the object's header.
        case defaultTaken
        /// Finding: a `null` that took its field's default (`on-null: default`; `defaulted`,
        /// worded by `DecodeContext.nullDefaultedMessage`). The field's slot stays `missing`.
        /// `a` is the `null`'s offset plus the field's index shifted left by 32; `b` the
        /// object's header.
        case nullDefaulted
        /// Finding: a value invalid for a field of the root object that takes no default (of
        /// another JSON type, or one a rule of the field refuses): the payload is rejected
        /// (worded by `DecodeContext.rejected`, with the problem's code). `a` is the value's
        /// offset plus the field's index shifted left by 32; `b` the root's header.
        case rejected
        /// Finding: an element of an array of enums is none of the items' raw values, and took
        /// their fallback (`unknown-enum-value`, worded as for `fallbackTaken`). `a` is the
        /// element's offset plus its index shifted left by 32; `b` the header of the object
        /// whose field the array is plus the field's index shifted left by 32.
        case elementFallbackTaken
        /// Finding: an element of an array of dates whose seconds look like UNIX time, read as
        /// the validator reads (worded as for `unixDate`). `a` and `b` as for
        /// `elementFallbackTaken`.
        case elementUnixDate
        /// Finding: a date (or a bound of a date range) whose seconds look like UNIX time, read
        /// as the validator reads (`unix-date-in-date-field`, worded as
        /// `DecodeContext.unixDateMessage`). `a` is the offset it is reported at (the date's, or
        /// its range's) plus the field's index shifted left by 32; `b` the object's header plus
        /// the offset of the number shifted left by 32.
        case unixDate
        /// Findings the full decoder made while it decided a value: `a` is the first one's
        /// index in the tape's `TapeDecisions.findings`, `b` the count.
        case reported
        /// A member of the root object, recorded for the byte budget when asked for: `a` is
        /// the offset of its key's opening quote (with `escapedKey` for an escaped key) plus,
        /// shifted left by 32, the field's index plus 1 (0 for an unknown key); `b` the end of
        /// its value plus, shifted left by 32, the end of its key.
        case span
    }
}

extension TapeNode {
    /// A header's `b`: the index of the field that holds the object in the enclosing object
    /// and, when the object is an element of that (array) field, its index plus 1 shifted
    /// left by 32.
    static func place(field: Int, element: Int? = nil) -> Int {
        field | (element.map { $0 &+ 1 } ?? 0) << 32
    }

    /// Set in a finding's key offset (see `unknownKey`, `repeatedKey`, `span`) when the key has
    /// escapes: offsets stay below 2 GiB, so bit 31 is free.
    static let escapedKey = 1 << 31

    /// The key whose start is `start` and whose end, with `escapedKey` for an escaped key, is
    /// the low half of `end`.
    static func key(start: Int, end: Int) -> JSONString {
        JSONString(start: start, end: end & 0x7FFF_FFFF, hasEscapes: end & escapedKey != 0)
    }

    /// The `field` of the place of an array's header (see `TapeBuilder.arrays`) and its
    /// elements': an element of the array its enclosing header heads, not a field.
    static let inArray = 0xFFFF_FFFF

    /// The field and element index in a header's `b`.
    static func place(_ b: Int) -> (field: Int, element: Int?) {
        let element = b >> 32
        return (b & 0xFFFF_FFFF, element > 0 ? element &- 1 : nil)
    }
}

/// The tape of one decode, and what it needs to make values and findings later: the plan,
/// the file name and, for a result, where its copy of the input is.
struct StateTapeHeader {
    /// The nodes.
    var count: Int
    /// The length of the input the tape keeps, copied right after its `count` nodes (see
    /// `StateTape.withInput`); 0 when it keeps none and its values are made while the bytes
    /// are at hand.
    var inputCount = 0
    let plan: ObjectPlan
    let version: Int
    let file: String?
    /// Whether the version is under `clients.strict`: the result says so.
    let isStrict: Bool
    /// Where the content-state starts in the input the tape keeps: 0 for a bare one, the
    /// offset of its `{` in a whole body.
    var rootOffset = 0
    /// What the device does when the root object is rejected: the end of the messages that say so.
    let consequence: DeviceConsequence
    /// Whether the root object is rejected: the result has no state.
    var isRejected = false
    /// For a strict version: why synthesized `Codable` fails on the state, the first field in
    /// schema order it fails on (`DecodeProblem.strictFailure` words the verdict).
    var strictProblem: DecodeProblem?
    /// What the full decoder decided for the values the builder could not read itself;
    /// `nil` when there were none, as on most tapes.
    var decisions: TapeDecisions?
}

/// The values and findings of the full decoder's decisions on one tape (see
/// `TapeBuilder.decide`). Written only while the tape is built, read-only after.
final class TapeDecisions: @unchecked Sendable {
    var values: [Value] = []
    var findings: [Diagnostic] = []
}

/// A content-state checked against a version and laid out flat, without a `String` made for
/// any of its values: one allocation for the whole state, its input included when it keeps
/// one. The nodes are trivial values, so nothing has to deinitialize them.
final class StateTape: ManagedBuffer<StateTapeHeader, TapeNode> {
    /// A tape with room for `capacity` nodes and then `inputCount` bytes.
    static func make(
        capacity: Int, inputCount: Int, plan: ObjectPlan, version: Int, file: String?, isStrict: Bool,
        consequence: DeviceConsequence
    ) -> StateTape {
        let stride = MemoryLayout<TapeNode>.stride
        let buffer = StateTape.create(minimumCapacity: capacity &+ (inputCount &+ stride &- 1) / stride) { _ in
            StateTapeHeader(count: 0, plan: plan, version: version, file: file, isStrict: isStrict, consequence: consequence)
        }
        return unsafeDowncast(buffer, to: StateTape.self)
    }

    /// Whether the root object is rejected. (Read in place: `header` hands out a copy, which
    /// retains and releases every reference in it.)
    var isRejected: Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.isRejected }
    }

    /// The header's fields the readers ask for most, read in place (see `isRejected`).
    var plan: ObjectPlan { withUnsafeMutablePointerToHeader { $0.pointee.plan } }
    var nodeCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
    var decisions: TapeDecisions? { withUnsafeMutablePointerToHeader { $0.pointee.decisions } }
    var strictProblem: DecodeProblem? { withUnsafeMutablePointerToHeader { $0.pointee.strictProblem } }
    var isStrict: Bool { withUnsafeMutablePointerToHeader { $0.pointee.isStrict } }
    var rootOffset: Int { withUnsafeMutablePointerToHeader { $0.pointee.rootOffset } }

    /// Runs `body` with the input the tape keeps: empty when it keeps none.
    ///
    /// A decode result's tape, and the validator's, hold a copy of their input after their nodes
    /// (`TapeBuilder` writes it when it finishes), so that reading a string is pointer
    /// arithmetic: no enum of array, `Data` or other storage to switch over, copy and retain on
    /// every read, as when the tape kept the caller's buffer. The copy costs one `memcpy` of the
    /// input, and a larger allocation (see `Benchmarks/README.md` for what that costs the decode).
    func withInput<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, nodes in
            try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(nodes + header.pointee.count), count: header.pointee.inputCount))
        }
    }
}

/// Builds a `StateTape` in one pass over the bytes, or gives up.
///
/// It reads the values that have the right type and meet their constraints itself, objects,
/// arrays of objects and arrays of arrays included, and words only `defaulted` and
/// `unknown-key` as it goes. What an older app version most often meets in an object's field
/// it decides too, worded when read by the full decoder's words: an unknown enum value, in a
/// field or an array, takes the fallback (`takesFallback`), and a value of another type, or a
/// scalar or array of scalars a rule of the field refuses, takes the field's default
/// (`takesDefault`), or, in a field that takes none, rejects the root object or makes the
/// nested object that holds it invalid; a `null` takes the default of an `on-null: default`
/// field (`nullTakesDefault`). For a strict version, the full decoder is asked only why
/// synthesized `Codable` fails on such a value, and for a nested object's, why it is invalid
/// (`problems`, its words). A date that looks like UNIX time, read as the validator reads, is
/// kept and reported (`flagsUnixDate`), and out of its field's range too, reported and then
/// refused as any value a rule refuses. An array of scalars with an invalid element is read on
/// to its end for its elements' findings (`invalidElement`), as the full decoder reads on, and
/// one with too many keeps them too. Any other scalar it does not read (an element of an array
/// in an array with a problem, an array's element that is such a date out of range, …) is
/// decided by the full decoder where it stands (`decide`): the full decoder's rules, settling
/// and words. An object that is invalid (a value or a
/// required key it lacks) is read to its end and settled at the field that holds it, by the
/// full decoder's rule (`settle`); an array of objects or arrays with an invalid element, or
/// too many, likewise. What rejects the root object rejects the tape, which is still read to
/// its end for the findings after, as the full decoder reads.
/// Keys are matched as the full decoder matches them, escaped and non-ASCII ones included, and
/// a field met again under its name or an alias is settled by its rule (`ReadAgain`; an invalid
/// value read under an alias when the object ends, `aliasReads`).
/// It gives up only on bytes that are not JSON (or nest deeper than the limit, which it counts
/// as the reader does), whose error the scanner words with where it is
/// (`JSONError.diagnostic`), and on a root that is not an object, which
/// `DecodeContext.decodeRoot` words. A whole body's content-state is read where `APNsBody`
/// finds it. The full decoder's object walk reads nothing but the reference decode the tests
/// compare with.
/// For a strict app version it also finds the first field, in schema order, that synthesized
/// `Codable` fails on (a value the full decoder says so of, a missing key of a field that is not
/// optional, a field read only under an alias), as the full decoder finds it: the tape's
/// `strictProblem`, worded as its verdict. So what it accepts it accepts exactly as the full
/// decoder does, and every problem is worded by one decoder.
struct TapeBuilder {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var index = 0
    private var tape: StateTape
    private var nodes: UnsafeMutablePointer<TapeNode>
    /// The nodes there is room for (the tape has room for `keptInput` bytes after them).
    private var capacity: Int
    /// The bytes of input the tape keeps: all of them for a decode result, none otherwise.
    private let keptInput: Int
    private var count = 0
    private var depth = 0
    private let maxDepth: Int
    /// The header of the object whose members get `span` nodes; -1 for none.
    private var spansHeader = -1
    /// Whether a `date` value that looks like UNIX seconds is reported (the validator's
    /// reading, `flagsUnixDate`).
    private var flagsUnixDates = false
    /// The full decoder's scanner over the same bytes: escapes and UTF-8 sequences are checked
    /// by its code, and numbers converted. (Its number and literal scanners cost a tenth more
    /// of a whole read on cs600, a quarter on cs4k: the tape keeps its own for those.)
    private let reader: JSONReader
    /// What the full decoder decided for values this builder could not read (see `decide`).
    private var decisions: TapeDecisions?
    /// The version is under `clients.strict`.
    private let isStrict: Bool
    /// Whether a decision or a missing required key rejected the root object.
    private var isRejected = false
    /// For a strict version: why synthesized `Codable` fails on the value just read (set by
    /// `decide` and, for a container, by `object` and `elements`), for the object that holds
    /// it to keep the first in schema order; and on the root object.
    private var strictProblem: DecodeProblem?
    private var rootStrictProblem: DecodeProblem?
    /// Where the root object starts (see `StateTapeHeader.rootOffset`).
    private var rootOffset = 0
    /// Counts lines for the positions of the findings the full decoder makes on this tape's
    /// decisions, one for them all (see `context(at:depth:header:field:)`).
    private var locator = SourcePosition.Locator()
    /// The fields read under an alias in the objects being read, innermost last.
    private var aliasReads = AliasReads()
    /// Why the container just read is invalid: set by `object` when it read a whole object
    /// that is (it returns `true` then), and by `value` when it read a whole object, or array
    /// of objects or arrays, that is (it returns `false` then), for the field that holds it to
    /// settle.
    private var rejection: DecodeProblem?
    /// The start of the last value that `value` read and a rule of its field refused (a number
    /// out of range, a string of a length it does not allow, a URL the app's devices do not all
    /// read, an enum value without a fallback, a date range out of order, `null` for a field
    /// that is not optional; an array of scalars with such an element or one of another type,
    /// or too many), for `takesDefault` to give the field its default; -1 for none.
    private var ruleBroken = -1
    /// A date of an object's field that looks like UNIX time and that a rule refused (its
    /// offset, the field, the object's header): the full decoder reports it before it finds the
    /// value out of range, so `takesDefault` puts the finding back after it rolls the tape back.
    private var refusedUnixDate: (start: Int, field: Int, header: Int)?
    /// The findings of the elements of an array of scalars that an invalid element, or too many
    /// elements, refused (the array's offset, and the finding nodes as `array` appends them):
    /// the full decoder reports every element's before it finds the array invalid, so
    /// `takesDefault` puts them back after it rolls the tape back.
    private var refusedArrayFindings: (start: Int, nodes: [TapeNode])?
    /// The finding of the element just read by `value` (the kind of its node and the element's
    /// offset): its items' enum fallback taken (`elementFallbackTaken`, by `takesFallback`), or a
    /// date that looks like UNIX time (`elementUnixDate`, by `flagsUnixDate`), for `array` to
    /// append after the elements, which are consecutive nodes.
    private var elementFinding: (kind: TapeNode.Kind, offset: Int)?

    /// Decodes `bytes` as the root object of `plan`; `nil` for bytes that are not JSON or not
    /// an object. When `flagsUnixDates`, a date that looks like UNIX seconds is reported. (A
    /// whole body's content-state is read with `build(object:in:…)` where `APNsBody` finds it.)
    static func build(
        _ bytes: UnsafeRawBufferPointer, keepingInput: Bool, plan: ObjectPlan,
        version: Int, file: String?, isStrict: Bool, options: JSONScanOptions, flagsUnixDates: Bool = false
    ) -> StateTape? {
        // Findings keep an offset and an index in one word, 32 bits each: an input of 2 GiB or
        // more is refused (`DecodeContext.tape(of:)` words that).
        guard bytes.count <= options.maxInputBytes, bytes.count > 0, bytes.count < 1 << 31, let base = bytes.baseAddress,
              let reader = try? JSONReader(bytes: bytes, options: options) else { return nil }
        var builder = TapeBuilder(
            base: base.assumingMemoryBound(to: UInt8.self), end: bytes.count, capacity: plan.tapeSlots &+ 16,
            keptInput: keepingInput ? bytes.count : 0,
            plan: plan, version: version, file: file, isStrict: isStrict, consequence: .update, maxDepth: options.maxDepth,
            reader: reader)
        builder.flagsUnixDates = flagsUnixDates
        guard builder.root(plan) else { return nil }
        return builder.finishedTape()
    }

    /// Decodes the object at `offset` in `bytes` (a whole APNs body the validator walks,
    /// `depth` levels down) as the root of `plan`, and records its members' spans; the tape
    /// and the offset past the object, or `nil` when the bytes are not JSON. When
    /// `flagsUnixDates` (the validator's reading), a date that looks like UNIX seconds is
    /// reported. When `keepingInput`, the tape keeps a copy
    /// of the whole body, so that the state can be made after `bytes` are gone
    /// (`ValidationResult.state`, a `DecodeResult`); when `recordsSpans`, its root members' spans.
    static func build(
        object offset: Int, in bytes: UnsafeRawBufferPointer, depth: Int, plan: ObjectPlan, version: Int, file: String?,
        isStrict: Bool, consequence: DeviceConsequence, options: JSONScanOptions,
        flagsUnixDates: Bool = true, keepingInput: Bool = true, recordsSpans: Bool = true
    ) -> (tape: StateTape, end: Int)? {
        guard offset >= 0, offset < bytes.count, bytes.count < 1 << 31, let base = bytes.baseAddress,
              let reader = try? JSONReader(bytes: bytes, options: .init(maxDepth: options.maxDepth, maxInputBytes: .max))
        else { return nil }
        var builder = TapeBuilder(
            base: base.assumingMemoryBound(to: UInt8.self), end: bytes.count,
            capacity: plan.tapeSlots &+ (recordsSpans ? plan.fieldCount : 0) &+ 16,
            keptInput: keepingInput ? bytes.count : 0, plan: plan, version: version, file: file, isStrict: isStrict,
            consequence: consequence, maxDepth: options.maxDepth, reader: reader)
        builder.index = offset
        builder.rootOffset = offset
        builder.depth = depth
        builder.flagsUnixDates = flagsUnixDates
        guard builder.byte() == JSONByte.openBrace else { return nil }
        if recordsSpans { builder.spansHeader = builder.count }
        builder.append(.header, -1, 0)
        guard builder.object(plan, header: 0) else { return nil }
        return (builder.finishedTape(), builder.index)
    }

    /// A builder writing a new tape of `capacity` nodes.
    private init(
        base: UnsafePointer<UInt8>, end: Int, capacity: Int, keptInput: Int, plan: ObjectPlan, version: Int, file: String?,
        isStrict: Bool, consequence: DeviceConsequence, maxDepth: Int, reader: JSONReader
    ) {
        self.base = base
        self.end = end
        tape = StateTape.make(
            capacity: capacity, inputCount: keptInput, plan: plan, version: version, file: file, isStrict: isStrict,
            consequence: consequence)
        self.keptInput = keptInput
        self.isStrict = isStrict
        nodes = tape.withUnsafeMutablePointerToElements { $0 }
        // What was asked for: `tape.capacity` would ask malloc for the block's size.
        self.capacity = capacity
        self.maxDepth = maxDepth
        self.reader = reader
    }

    /// The tape, with its node count written through the header's pointer: writing `header`
    /// itself is an access the runtime checks.
    private func finishedTape() -> StateTape {
        let count = self.count
        let decisions = self.decisions
        let isRejected = self.isRejected
        let strictProblem = rootStrictProblem
        let rootOffset = self.rootOffset
        if keptInput > 0 {
            // The room after the last node (see `StateTape.make`) holds bytes from now on.
            UnsafeMutableRawPointer(nodes + count).bindMemory(to: UInt8.self, capacity: keptInput)
                .initialize(from: base, count: keptInput)
        }
        let inputCount = keptInput
        tape.withUnsafeMutablePointerToHeader {
            $0.pointee.count = count
            $0.pointee.inputCount = inputCount
            if let decisions { $0.pointee.decisions = decisions }
            if isRejected { $0.pointee.isRejected = true }
            if let strictProblem { $0.pointee.strictProblem = strictProblem }
            $0.pointee.rootOffset = rootOffset
        }
        return tape
    }

    // MARK: - The tape

    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(count &+ more) }
    }

    private mutating func grow(_ needed: Int) {
        let old = tape
        // One copy of the header, not one per field read (see `StateTape.isRejected`).
        let header = old.header
        let larger = StateTape.make(
            capacity: max(needed, capacity &* 2), inputCount: keptInput, plan: header.plan,
            version: header.version, file: header.file, isStrict: header.isStrict, consequence: header.consequence)
        let target = larger.withUnsafeMutablePointerToElements { $0 }
        target.initialize(from: nodes, count: count)
        tape = larger
        nodes = target
        capacity = max(needed, capacity &* 2)
        withExtendedLifetime(old) {}
    }

    @inline(__always)
    private mutating func append(_ kind: TapeNode.Kind, _ a: Int, _ b: Int) {
        reserve(1)
        (nodes + count).initialize(to: TapeNode(kind: kind, a: a, b: b))
        count &+= 1
    }

    // MARK: - Structure

    @inline(__always)
    private mutating func skipWhitespace() {
        // Compact JSON has none: one test for the common case. The four whitespace bytes are
        // all at or below 0x20.
        guard index < end, base[index] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index &+= 1
        }
    }

    /// Skips whitespace, then the byte at `index`, or 0 at the end: one bounds check and one
    /// load for compact JSON.
    @inline(__always)
    private mutating func nextByte() -> UInt8 {
        if index < end {
            let next = base[index]
            if next > 0x20 { return next }
            skipWhitespaceRun()
        }
        return byte()
    }

    /// The byte at `index`, or 0 at the end (0 never starts or ends a token).
    @inline(__always)
    private func byte() -> UInt8 {
        index < end ? base[index] : 0
    }

    private mutating func root(_ plan: ObjectPlan) -> Bool {
        guard nextByte() == JSONByte.openBrace else { return false }
        let header = count
        append(.header, -1, 0)
        guard object(plan, header: header) else { return false }
        skipWhitespace()
        return index == end
    }

    /// Reads the object at `index` (a `{`) into the slots after `header`, which the caller has
    /// appended; reserves the slots itself.
    private mutating func object(_ plan: ObjectPlan, header: Int) -> Bool {
        // Its fields seen in one word, but for an object of more than 64 fields.
        plan.fieldCount <= FieldSet.maskCapacity
            ? object(plan, header: header, fields: FieldMask.self) : object(plan, header: header, fields: FieldSet.self)
    }

    private mutating func object<Fields: FieldBits>(_ plan: ObjectPlan, header: Int, fields: Fields.Type) -> Bool {
        depth &+= 1
        let fieldCount = plan.fieldCount
        // `depth` counts this object, as the reader's counts the containers around a value.
        guard depth <= maxDepth else { return false }
        let objectStart = index
        reserve(fieldCount)
        let first = count
        (nodes + first).initialize(repeating: TapeNode(kind: .missing, a: 0, b: 0), count: fieldCount)
        count &+= fieldCount
        var seen = Fields(count: fieldCount)
        // The fields read under an alias.
        var aliased = Fields(count: fieldCount)
        var firstUnknown = -1
        // Past `KeyList.scanned` unknown keys, their values: each later one is looked up once
        // rather than compared with every one before it.
        var unknownCount = 0
        var unknownValues: Set<String>?
        var hint = 0
        var verdict = ObjectVerdict()
        index &+= 1
        if nextByte() == JSONByte.closeBrace {
            index &+= 1
        } else {
            members: while true {
                guard byte() == JSONByte.quote, let key = string() else { return false }
                guard nextByte() == JSONByte.colon else { return false }
                index &+= 1
                skipWhitespace()
                let length = key.end &- key.start
                var spanField = 0
                var found = key.escaped ? nil : plan.index(ofKey: base + key.start, length: length, hint: hint, wordReadable: key.start &+ 8 <= end)
                if found == nil, key.escaped || plan.hasNonASCIIKeys {
                    // An escaped key, or one that may name a field in another Unicode
                    // normalization: the full decoder's lookup, which compares unescaped values
                    // and, for non-ASCII names, `String`s, as Foundation's `JSONDecoder` does.
                    found = plan.index(of: key.token, in: reader, hint: hint)
                }
                if let field = found {
                    spanField = field &+ 1
                    var reads = !seen.contains(field)
                    if !reads {
                        // The key again: the first value stays, or replaces one read under an
                        // alias (`ReadAgain`).
                        let earlier = aliased.contains(field) ? aliasReads.rank(of: field, header: header) : nil
                        switch ReadAgain(earlier: earlier, now: nil) {
                        case .keepsFirst(let reportsDuplicate):
                            if reportsDuplicate { append(.repeatedKey, key.start | spanField << 32, key.end | header << 32) }
                            guard skipValue() else { return false }
                        case .replaces:
                            aliased.remove(field)
                            aliasReads.forget(field, header: header)
                            reads = true
                        }
                    }
                    if reads {
                        seen.insert(field)
                        hint = field &+ 1
                        let (valueStart, kept, level) = (index, count, depth)
                        let valid = plan.fieldRefs[field]._withUnsafeGuaranteedRef { fieldPlan in
                            // A string, the most common value, is read here without a call.
                            fieldPlan.kind == .string && byte() == JSONByte.quote
                                ? string(fieldPlan, slot: first &+ field)
                                : value(fieldPlan, slot: first &+ field, header: header, fieldIndex: field)
                        }
                        guard valid || unread(
                            plan.fields[field], field: field, slot: first &+ field, header: header, at: valueStart, kept: kept,
                            depth: level, verdict: &verdict)
                        else { return false }
                    }
                } else if key.escaped || plan.hasNonASCIIKeys || plan.mayBeAlias(length: length),
                          let alias = plan.aliasIndex(of: key.token, in: reader) {
                    // A key read under an alias (synthesized `Codable` reads none: for a strict
                    // version, the field's key is missing). Which value wins is `ReadAgain`'s;
                    // an invalid value read under an alias is settled at the end of the object,
                    // as the field's own key or a better alias may still replace it.
                    var reads = !seen.contains(alias.field)
                    if !reads {
                        let earlier = aliased.contains(alias.field) ? aliasReads.rank(of: alias.field, header: header) : nil
                        switch ReadAgain(earlier: earlier, now: alias.rank) {
                        case .keepsFirst:
                            // An alias met after the field is never reported.
                            guard skipValue() else { return false }
                        case .replaces:
                            aliasReads.forget(alias.field, header: header)
                            reads = true
                        }
                    }
                    if reads {
                        seen.insert(alias.field)
                        aliased.insert(alias.field)
                        guard read(plan.fields[alias.field], field: alias.field, rank: alias.rank, slot: first &+ alias.field, header: header)
                        else { return false }
                    }
                } else {
                    let escapedKey = key.escaped ? TapeNode.escapedKey : 0
                    let repeated = if unknownValues != nil {
                        !unknownValues!.insert(KeyList.value(of: key.token, in: reader)).inserted
                    } else {
                        firstUnknown >= 0 && repeatsUnknownKey(key, from: firstUnknown, header: header)
                    }
                    if repeated {
                        // A second unknown key with the same value: a duplicate.
                        append(.repeatedKey, key.start, key.end | escapedKey | header << 32)
                    } else {
                        if firstUnknown < 0 { firstUnknown = count }
                        append(.unknownKey, key.start, key.end | escapedKey | header << 32)
                        unknownCount &+= 1
                        if unknownCount == KeyList.scanned, unknownValues == nil {
                            unknownValues = unknownKeyValues(from: firstUnknown, header: header)
                        }
                    }
                    guard skipValue() else { return false }
                }
                if header == spansHeader {
                    append(.span, (key.start &- 1) | (key.escaped ? TapeNode.escapedKey : 0) | spanField << 32, index | key.end << 32)
                }
                switch separator(closing: JSONByte.closeBrace) {
                case .more: continue
                case .closed: break members
                case .invalid: return false
                }
            }
        }
        depth &-= 1
        if !aliased.isEmpty {
            guard settleAliasReads(plan, first: first, header: header, verdict: &verdict) else { return false }
        }
        // The absent fields, lowest first.
        var absent = seen.complement(count: fieldCount)
        if isStrict {
            var missing = absent
            missing.formUnion(aliased)
            findStrictProblem(plan, missing: missing, header: header, at: objectStart, verdict: &verdict)
        }
        while let field = absent.popFirst() {
            let (hasMissingValue, reportsDefault) = plan.fieldRefs[field]._withUnsafeGuaranteedRef { ($0.hasMissingValue, $0.reportsDefault) }
            if !hasMissingValue {
                // A required key: the root object is rejected; a nested one is invalid, for
                // the field that holds it to settle.
                if nodes[header].a < 0 {
                    isRejected = true
                    append(.absent, objectStart, header | field << 32)
                } else if verdict.invalid == nil {
                    verdict.invalid = context(at: objectStart, depth: depth, header: header)
                        .missingRequired(plan.fields[field].field.name, at: objectStart)
                }
            } else if reportsDefault {
                append(.absent, objectStart, header | field << 32)
            }
        }
        if verdict.invalid != nil { rejection = verdict.invalid }
        return true
    }

    /// Reads a value of the `field`th field of the object whose header is at `header` that
    /// `value` did not accept: settles a container it read whole (`settle`), or asks the full
    /// decoder (`decide`), and keeps what that says of the object in `verdict`. Out of the
    /// member loop, which it would otherwise crowd.
    @inline(never)
    private mutating func unread(
        _ plan: FieldPlan, field: Int, slot: Int, header: Int, at start: Int, kept: Int, depth level: Int,
        verdict: inout ObjectVerdict
    ) -> Bool {
        if let problem = rejection {
            // An invalid container, read whole: the field settles it.
            rejection = nil
            guard settle(plan, rejected: problem, slot: slot, header: header, invalid: &verdict.invalid) else { return false }
        } else if strictProblem == nil {
            if takesDefault(plan, at: start, kept: kept, depth: level, orRejects: true) {
                // Asked only where needed: a default taken or a root rejected is worded when read.
                let isNested = plan.invalidReplacement == nil && nodes[header].a >= 0
                let problems = isNested || isStrict ? problems(plan, at: start, depth: level, header: header) : (invalid: nil, strict: nil)
                if plan.invalidReplacement != nil {
                    takeDefault(plan, field: field, slot: slot, header: header, at: start)
                } else if nodes[header].a < 0 {
                    // A root field that takes no default: the payload is rejected.
                    isRejected = true
                    append(.rejected, start | field << 32, header)
                } else {
                    // A nested object's: the object is invalid, for the field that holds it to
                    // settle (`settle`), as a required key it lacks makes it.
                    guard let problem = problems.invalid else { return false }
                    if verdict.invalid == nil { verdict.invalid = problem }
                }
                if isStrict { strictProblem = problems.strict }
            } else {
                guard decide(plan, slot: slot, header: header, at: start, kept: kept, depth: level, invalid: &verdict.invalid)
                else { return false }
            }
        }
        // (Else a container read whole that synthesized `Codable` fails on.)
        if let problem = strictProblem {
            strictProblem = nil
            verdict.failsCodable(field, problem)
        }
        return true
    }

    /// Whether the value at `start`, which `value` did not accept, is invalid for a field whose
    /// invalid values take its default, and takes it: what an older app version meets when a
    /// field changed type (a value of another JSON type, `FieldKind.accepts`) or a constraint was
    /// tightened (a scalar or an array of scalars a rule of the field refused, `ruleBroken`).
    /// With `orRejects`, also for a field that takes no default: the payload is rejected then (a
    /// field of the root object), or the object that holds the field is invalid. Only where the
    /// full decoder (`DecodeContext.decodeValue`) would find just that, and only for a value
    /// that is JSON. (The caller asks why the value is invalid, and for a strict version why
    /// synthesized `Codable` fails on it, `problems`.) `true` leaves the reader past the value;
    /// `false` leaves the value to the full decoder.
    @inline(never)
    private mutating func takesDefault(_ plan: FieldPlan, at start: Int, kept: Int, depth level: Int, orRejects: Bool = false) -> Bool {
        let brokeRule = ruleBroken == start
        ruleBroken = -1
        let unixDate = refusedUnixDate
        refusedUnixDate = nil
        let arrayFindings = refusedArrayFindings
        refusedArrayFindings = nil
        guard plan.invalidReplacement != nil || orRejects else { return false }
        guard brokeRule || isOfAnotherType(plan, at: start, depth: level) else { return false }
        // A value read whole leaves the reader past it; an array whose element broke a rule,
        // inside it (one level deeper), and another type's value, at its start: skipped from there.
        let readWhole = brokeRule && depth == level
        count = kept
        if let unixDate, unixDate.start == start {
            _ = flagsUnixDate(at: start, reportedAt: start, field: unixDate.field, header: unixDate.header)
        }
        if let arrayFindings, arrayFindings.start == start {
            for node in arrayFindings.nodes { append(node.kind, node.a, node.b) }
        }
        guard !readWhole else { return true }
        (index, depth) = (start, level)
        return skipValue()
    }

    /// Why the value at `start`, `level` deep, of `plan`'s field in the object whose header is at
    /// `header`, which the tape decided (`takesDefault`, `takesFallback`, `nullTakesDefault`), is
    /// invalid, and for a strict version why synthesized `Codable` fails on it: the full
    /// decoder's answers (`DecodeContext.decodeValue`, whose words they are, and which alone
    /// knows which refusals `Codable` shares), with their pointers. `strict` is `nil` when
    /// `Codable` takes the value (a schema's own constraint, such as a length or a range).
    /// `element` asks it of that array field's `element`th element, its items' value.
    @inline(never)
    private func problems(
        _ plan: FieldPlan, at start: Int, depth level: Int, header: Int, element: (index: Int, field: Int)? = nil
    ) -> (invalid: DecodeProblem?, strict: DecodeProblem?) {
        var context: DecodeContext
        var valuePlan = plan
        if let element, let items = plan.items {
            context = self.context(ofElementsOf: plan, field: element.field, header: header, at: start)
            context.path.push(index: element.index)
            valuePlan = items
        } else {
            context = self.context(at: start, depth: level, header: header, field: plan)
        }
        _ = try? context.decodeValue(valuePlan)
        return (context.problem, context.strictProblem)
    }

    /// Whether the value at `start`, `level` deep, is JSON of a type `plan`'s field does not
    /// take (`null` aside, which `value` refuses itself where the field is not optional).
    private func isOfAnotherType(_ plan: FieldPlan, at start: Int, depth level: Int) -> Bool {
        var peek = reader
        peek.move(toValueAt: start, depth: level)
        guard let token = try? peek.peek() else { return false }
        return token != .null && !plan.kind.accepts(token)
    }

    /// The default of the `field`th field of the object whose header is at `header` into
    /// `slot`, for the invalid value at `start` (`takesDefault`), with the `invalid-defaulted`
    /// finding worded when it is read (`DecodeContext.invalidDefaulted`).
    private mutating func takeDefault(_ plan: FieldPlan, field: Int, slot: Int, header: Int, at start: Int) {
        put(plan.invalidReplacement?.value ?? .null, in: slot)
        append(.defaultTaken, start | field << 32, header)
    }

    /// Settles, in input order, the invalid values read under an alias in the object whose
    /// header is at `header` (and whose first field's node is `first`) that nothing replaced.
    @inline(never)
    private mutating func settleAliasReads(_ plan: ObjectPlan, first: Int, header: Int, verdict: inout ObjectVerdict) -> Bool {
        for read in aliasReads.removeAll(of: header) {
            switch read.outcome {
            case .valid:
                continue
            case .takesDefault(let start):
                takeDefault(plan.fields[read.field], field: read.field, slot: first &+ read.field, header: header, at: start)
            case .invalid(let problem):
                guard settle(plan.fields[read.field], rejected: problem, slot: first &+ read.field, header: header, invalid: &verdict.invalid)
                else { return false }
            }
        }
        return true
    }

    /// For a strict version, at the end of the object whose header is at `header`: the first
    /// field synthesized `Codable` fails on, among the values read (`verdict`) and the fields
    /// in `missing` that are not optional (missing keys, and fields read only under an alias,
    /// which it does not read). The root's goes into the tape; a nested one's into
    /// `strictProblem`, for the field that holds the object.
    @inline(never)
    private mutating func findStrictProblem<Fields: FieldBits>(
        _ plan: ObjectPlan, missing: Fields, header: Int, at objectStart: Int, verdict: inout ObjectVerdict
    ) {
        var missing = missing
        while let field = missing.popFirst() {
            guard field < verdict.strictField else { break }
            guard !plan.fields[field].isOptional else { continue }
            verdict.failsCodable(field, context(at: objectStart, depth: depth, header: header)
                .missingForCodable(plan.fields[field].field.name, at: objectStart))
            break
        }
        guard let problem = verdict.strictProblem else { return }
        if nodes[header].a < 0 { rootStrictProblem = problem } else { strictProblem = problem }
    }

    /// The values of the unknown keys of the object whose header is at `header`, from its
    /// first at `first`, escapes resolved.
    private func unknownKeyValues(from first: Int, header: Int) -> Set<String> {
        var values = Set<String>()
        for position in first..<count {
            let node = nodes[position]
            guard node.kind == .unknownKey, node.b >> 32 == header else { continue }
            values.insert(KeyList.value(of: TapeNode.key(start: node.a, end: node.b), in: reader))
        }
        return values
    }

    /// Whether an unknown key of the object whose header is at `header`, from `first` on, has
    /// the value of `key`: the same bytes, or the same value as `String`s compare, escapes
    /// resolved (`KeyList.same`, the full decoder's rule).
    private func repeatsUnknownKey(_ key: StringSpan, from first: Int, header: Int) -> Bool {
        for position in first..<count {
            let node = nodes[position]
            guard node.kind == .unknownKey, node.b >> 32 == header else { continue }
            if KeyList.same(TapeNode.key(start: node.a, end: node.b), key.token, in: reader) { return true }
        }
        return false
    }

    /// What follows a member or an element.
    private enum Separator {
        case more, closed, invalid
    }

    /// Past the comma after a member or element (and the whitespace after it), or past the
    /// `close` that ends the container.
    @inline(__always)
    private mutating func separator(closing close: UInt8) -> Separator {
        let next = nextByte()
        if next == JSONByte.comma {
            index &+= 1
            skipWhitespace()
            return .more
        }
        if next == close {
            index &+= 1
            return .closed
        }
        return .invalid
    }

    // MARK: - Decisions

    /// Asks the full decoder for the value at `start` of a field of the object whose header is
    /// at `header`, which `value` could not read: a value with a problem, or one the tape does
    /// not lay out (an escaped enum value, …). The full decoder reads it as it reads that field
    /// in an object (`DecodeContext.decide`), so the rules,
    /// their settling (`on-invalid`, the enum fallback) and the findings' words stay its own.
    /// What it decides goes into `slot`, and its findings onto the tape in input order.
    ///
    /// `kept` and `level` are the node count and depth before `value` ran: what it appended is
    /// dropped. When the decision rejects the root object, the tape is rejected and read on;
    /// when it rejects a nested one, that object is `invalid`. For a strict version, why
    /// synthesized `Codable` fails on the value goes into `strictProblem`. `false` (give up)
    /// when the bytes are not JSON, and so for an object (or an array that may hold objects)
    /// that `value` could not read: it reads every valid or invalid one, and the full decoder
    /// would walk it.
    private mutating func decide(
        _ plan: FieldPlan, slot: Int, header: Int, at start: Int, kept: Int, depth level: Int, invalid: inout DecodeProblem?
    ) -> Bool {
        count = kept
        depth = level
        rejection = nil
        strictProblem = nil
        guard !walksObjects(plan, at: start) else { return false }
        var context = context(at: start, depth: level, header: header)
        let isRoot = nodes[header].a < 0
        guard let decided = readInFull(&context, { context throws(JSONError) in try context.decide(plan, isRoot: isRoot) })
        else { return false }
        strictProblem = context.strictProblem
        return record(decided, problem: context.problem, slot: slot, header: header, findings: context.diagnostics, invalid: &invalid)
    }

    /// Reads the value at `index` of a field met under the alias of position `rank` in its
    /// `aliases`, the `field`th of the object whose header is at `header`, into `slot`, and
    /// notes the read (`aliasReads`): with its problem, unsettled, when the value is invalid
    /// (the full decoder words it, `DecodeContext.decodeValue`). `false` (give up) where
    /// `decide` gives up.
    private mutating func read(_ plan: FieldPlan, field: Int, rank: Int, slot: Int, header: Int) -> Bool {
        let (start, kept, level) = (index, count, depth)
        let valid = value(plan, slot: slot, header: header, fieldIndex: field)
        // A container read whole that synthesized `Codable` fails on is valid here: a strict
        // app reads no alias.
        let strictOnly = !valid && rejection == nil && strictProblem != nil
        strictProblem = nil
        if valid || strictOnly {
            aliasReads.note(AliasRead(header: header, field: field, rank: rank, outcome: .valid))
            return true
        }
        if let problem = rejection {
            rejection = nil
            aliasReads.note(AliasRead(header: header, field: field, rank: rank, outcome: .invalid(problem)))
            return true
        }
        if takesDefault(plan, at: start, kept: kept, depth: level) {
            aliasReads.note(AliasRead(header: header, field: field, rank: rank, outcome: .takesDefault(at: start)))
            return true
        }
        count = kept
        depth = level
        guard !walksObjects(plan, at: start) else { return false }
        var context = context(at: start, depth: level, header: header, field: plan)
        guard let decided = readInFull(&context, { context throws(JSONError) in try context.decodeValue(plan) }) else { return false }
        if let decided {
            put(decided, in: slot)
            aliasReads.note(AliasRead(header: header, field: field, rank: rank, outcome: .valid))
        } else {
            guard let problem = context.problem else { return false }
            aliasReads.note(AliasRead(header: header, field: field, rank: rank, outcome: .invalid(problem)))
        }
        keep(context.diagnostics)
        return true
    }

    /// Whether the full decoder would read the value at `start` of a field with its object
    /// walk: an object, or an array that may hold objects. The builder reads every such value
    /// itself; one it could not read is not JSON, and a reason to give up.
    private func walksObjects(_ plan: FieldPlan, at start: Int) -> Bool {
        plan.holdsObjects && start < end && base[start] == (plan.kind == .object ? JSONByte.openBrace : JSONByte.openBracket)
    }

    /// Settles, by the full decoder's rule (`DecodeContext.settle`), a field of the object
    /// whose header is at `header` whose value, a container read whole, is invalid for
    /// `problem`: its replacement goes into `slot`, and its findings onto the tape; or the
    /// object is rejected (the root: the tape is) or `invalid` (a nested one).
    private mutating func settle(
        _ plan: FieldPlan, rejected problem: DecodeProblem, slot: Int, header: Int, invalid: inout DecodeProblem?
    ) -> Bool {
        var context = context(at: index, depth: depth, header: header)
        let decided = context.settle(plan, rejected: problem, isRoot: nodes[header].a < 0)
        locator = context.locator
        return record(decided, problem: problem, slot: slot, header: header, findings: context.diagnostics, invalid: &invalid)
    }

    /// The full decoder's context at `start`, `level` deep, with its path at the object whose
    /// header is at `header` (or the array, for the header of an array in an array), and then
    /// at `field` when given.
    private func context(at start: Int, depth level: Int, header: Int, field: FieldPlan? = nil) -> DecodeContext {
        let tapeHeader = tape.header
        var context = DecodeContext(reader: reader, file: tapeHeader.file, version: tapeHeader.version, strict: isStrict)
        context.reader.move(toValueAt: start, depth: level)
        context.flagsUnixDates = flagsUnixDates
        for step in tape.path(toHeader: header, nodes: nodes).0 {
            context.path.push(step.field)
            for element in step.elements { context.path.push(index: element) }
        }
        if let field { context.path.push(field) }
        context.consequence = tapeHeader.consequence
        // Lines counted on from the last decision: a fresh count for each of thousands of
        // findings would be quadratic.
        context.locator = locator
        return context
    }

    /// Puts what the full decoder decided for the field in `slot` of the object whose header
    /// is at `header` onto the tape, with its `findings`: the value, or, for `nil`, the object
    /// rejected (the root: the tape is) or `invalid` for `problem` (a nested one). `false`
    /// (give up) for a nested object without a problem, which does not happen.
    private mutating func record(
        _ decided: Value?, problem: DecodeProblem?, slot: Int, header: Int, findings: [Diagnostic], invalid: inout DecodeProblem?
    ) -> Bool {
        if let decided {
            put(decided, in: slot)
        } else if nodes[header].a < 0 {
            isRejected = true
        } else {
            guard let problem else { return false }
            if invalid == nil { invalid = problem }
        }
        keep(findings)
        return true
    }

    /// Puts a value the full decoder decided into `slot`.
    private mutating func put(_ value: Value, in slot: Int) {
        if let scalar = Self.node(ofScalar: value) {
            nodes[slot] = scalar
        } else {
            let decisions = self.decisions ?? TapeDecisions()
            self.decisions = decisions
            nodes[slot] = TapeNode(kind: .made, a: decisions.values.count, b: 0)
            decisions.values.append(value)
        }
    }

    /// Puts the findings the full decoder made onto the tape, where the builder is.
    private mutating func keep(_ findings: [Diagnostic]) {
        guard !findings.isEmpty else { return }
        let decisions = self.decisions ?? TapeDecisions()
        self.decisions = decisions
        append(.reported, decisions.findings.count, findings.count)
        // The first ones are taken as they are, not copied one by one into a new array.
        if decisions.findings.isEmpty { decisions.findings = findings } else { decisions.findings += findings }
    }

    /// The node that holds a scalar `Value`, as `TapeNode.scalar` reads it back; `nil` for a
    /// string or a container, which a `made` node holds.
    private static func node(ofScalar value: Value) -> TapeNode? {
        switch value {
        case .null: TapeNode(kind: .null, a: 0, b: 0)
        case .bool(let bool): TapeNode(kind: .bool, a: bool ? 1 : 0, b: 0)
        case .int(let int): TapeNode(kind: .int, a: int, b: 0)
        case .double(let double): TapeNode(kind: .double, double: double)
        case .date(let seconds): TapeNode(kind: .date, double: seconds)
        case .dateRange(let lower, let upper): TapeNode(kind: .dateRange, double: lower, upper: upper)
        case .uint, .string, .array, .object: nil
        }
    }

    // MARK: - Values

    /// Reads one value for a field into `slot`; `false` when it is not a clean, valid value,
    /// with `rejection` or `strictProblem` set when it is a container read whole.
    private mutating func value(_ plan: FieldPlan, slot: Int, header: Int, fieldIndex: Int) -> Bool {
        let first = byte()
        let start = index
        if first == UInt8(ascii: "n") {
            guard literal("null") else { return false }
            guard plan.isOptional else { return nullTakesDefault(plan, at: start, header: header, fieldIndex: fieldIndex) }
            nodes[slot] = TapeNode(kind: .null, a: 0, b: 0)
            return true
        }
        switch plan.kind {
        case .string:
            return first == JSONByte.quote && string(plan, slot: slot)
        case .url:
            guard first == JSONByte.quote, string(plan, slot: slot) else { return false }
            // A URL (rare in payloads) is checked by the rule on a made string.
            return plan.urls.problem(reader.string(nodes[slot].string)) == nil || refused(at: start)
        case .formattedString:
            guard first == JSONByte.quote, string(plan, slot: slot), let format = plan.stringFormat else { return false }
            return format.problem(reader.string(nodes[slot].string)) == nil || refused(at: start)
        case .int:
            guard let read = integer(from: start) else { return false }
            // Past `Int`, a `format: uint64` field's number is the full decoder's (`Value.uint`).
            guard let int = read else { return plan.numberFormat == .uint64 ? false : refused(at: start) }
            guard !plan.isOutOfRange(integer: int) else { return refused(at: start) }
            nodes[slot] = TapeNode(kind: .int, a: int, b: 0)
            return true
        case .double, .date:
            guard var double = double() else { return false }
            // A `Float`'s (`format: float`) number that rounds to zero is the full decoder's, and
            // so is a `Decimal`'s that its parser does not read. A `Float`'s is what the app
            // holds, bounds checked on it.
            if plan.numberFormat == .float {
                let number = JSONNumber(start: start, end: index, isInteger: false)
                guard let held = reader.heldByFloat(number) else { return false }
                double = held
            }
            if plan.numberFormat == .decimal, !reader.decimalReads(JSONNumber(start: start, end: index, isInteger: false)) { return false }
            guard plan.kind == .date, flagsUnixDates, DecodeContext.looksLikeUnixTime(double) else {
                guard !plan.isOutOfRange(double) else { return refused(at: start) }
                nodes[slot] = TapeNode(kind: plan.kind == .date ? .date : .double, double: double)
                return true
            }
            // A date that looks like UNIX time is reported too, out of the field's range as well
            // (`refusedUnixDate`); an element of an array that is both is left to the full decoder.
            guard !plan.isOutOfRange(double) else {
                guard header >= 0 else { return false }
                refusedUnixDate = (start, fieldIndex, header)
                return refused(at: start)
            }
            nodes[slot] = TapeNode(kind: .date, double: double)
            return flagsUnixDate(at: start, reportedAt: start, field: fieldIndex, header: header)
        case .bool:
            if first == UInt8(ascii: "t"), literal("true") {
                nodes[slot] = TapeNode(kind: .bool, a: 1, b: 0)
                return true
            }
            if first == UInt8(ascii: "f"), literal("false") {
                nodes[slot] = TapeNode(kind: .bool, a: 0, b: 0)
                return true
            }
            return false
        case .dateRange:
            guard first == JSONByte.openBracket, depth < maxDepth else { return false }
            index &+= 1
            skipWhitespace()
            let lowerStart = index
            guard let lower = double() else { return false }
            guard nextByte() == JSONByte.comma else { return false }
            index &+= 1
            skipWhitespace()
            let upperStart = index
            guard let upper = double() else { return false }
            guard nextByte() == JSONByte.closeBracket else { return false }
            index &+= 1
            // Bounds out of order or out of range are refused before any is read as UNIX time.
            guard Field.Constraints.allowsOrder(lower: lower, upper: upper), !plan.isOutOfRange(lower), !plan.isOutOfRange(upper)
            else { return refused(at: start) }
            nodes[slot] = TapeNode(kind: .dateRange, double: lower, upper: upper)
            // Each bound that looks like UNIX time is reported at its place, lower first. (The
            // upper bound is the later: when the lower looks like UNIX time, so does it.) A
            // range that is an element of an array is left to the full decoder.
            guard flagsUnixDates, DecodeContext.looksLikeUnixTime(upper) else { return true }
            guard header >= 0 else { return false }
            if DecodeContext.looksLikeUnixTime(lower) {
                guard flagsUnixDate(at: lowerStart, reportedAt: lowerStart, field: fieldIndex, header: header) else { return false }
            }
            return flagsUnixDate(at: upperStart, reportedAt: upperStart, field: fieldIndex, header: header)
        case .stringEnum:
            return stringEnumeration(plan, first: first, slot: slot, header: header, fieldIndex: fieldIndex)
        case .intEnum:
            guard let read = integer(from: start) else { return false }
            guard let int = read else { return refused(at: start) }
            guard plan.enumIntegers.contains(int) else {
                return takesFallback(plan, at: start, slot: slot, header: header, fieldIndex: fieldIndex)
            }
            nodes[slot] = TapeNode(kind: .int, a: int, b: 0)
            return true
        case .array:
            guard first == JSONByte.openBracket, let items = plan.itemsRef else { return false }
            return items._withUnsafeGuaranteedRef { array(plan, items: $0, slot: slot, header: header, field: fieldIndex) }
        case .map:
            // Keys that are data: the full decoder reads a map whole (`decide`).
            return false
        case .object:
            guard first == JSONByte.openBrace, let object = plan.objectRef else { return false }
            let objectHeader = count
            append(.header, header, fieldIndex)
            return object._withUnsafeGuaranteedRef {
                nodes[slot] = TapeNode(kind: .object, a: count, b: $0.fieldCount)
                return self.object($0, header: objectHeader) && rejection == nil && strictProblem == nil
            }
        }
    }

    /// The string at `index` (a quote) into `slot`, if its length is one the field allows.
    @inline(__always)
    private mutating func string(_ plan: FieldPlan, slot: Int) -> Bool {
        let start = index
        guard let text = string() else { return false }
        guard plan.constraints.allowsLength(text.length) else { return refused(at: start) }
        nodes[slot] = TapeNode(kind: text.escaped ? .escapedString : .string, a: text.start, b: text.end)
        return true
    }

    /// Notes that the date whose seconds are the number at `number` looks like UNIX time, as
    /// the validator reports (`unixDate`, worded when read by `DecodeContext.unixDateMessage`)
    /// at `offset` (the date's, or its range's), in the `field`th field of the object whose
    /// header is at `header`. For an element of an array (no `header`), the finding is left to
    /// the array (`elementFinding`); `false` (for the full decoder) for a date range's bound
    /// there.
    @inline(never)
    private mutating func flagsUnixDate(at number: Int, reportedAt offset: Int, field: Int, header: Int) -> Bool {
        guard header >= 0 else {
            guard number == offset else { return false }
            elementFinding = (.elementUnixDate, number)
            return true
        }
        append(.unixDate, offset | field << 32, header | number << 32)
        return true
    }

    /// A `null` at `start` for a field that is not optional: with `on-null: default`, the
    /// field keeps its `missing` slot (the default) and the finding is noted; otherwise
    /// refused. For a strict version, whose synthesized `Codable` has no such rule and fails
    /// on the `null`, the default is taken all the same and `strictProblem` says why (`false`
    /// then, for `unread` to record it), as for an enum's fallback (`takesFallback`).
    @inline(never)
    private mutating func nullTakesDefault(_ plan: FieldPlan, at start: Int, header: Int, fieldIndex: Int) -> Bool {
        guard plan.nullTakesDefault else { return refused(at: start) }
        // (An array's element has no default: a schema built in code that gives one to a
        // strict version's items is left to the full decoder.)
        guard header >= 0 || !isStrict else { return false }
        append(.nullDefaulted, start | fieldIndex << 32, header)
        guard isStrict else { return true }
        strictProblem = problems(plan, at: start, depth: depth, header: header).strict
        return strictProblem == nil
    }

    /// Notes that a rule of the field refused the scalar value at `start`, read whole
    /// (`ruleBroken`), and returns `false`: the value is not the field's.
    @inline(never)
    private mutating func refused(at start: Int) -> Bool {
        ruleBroken = start
        return false
    }

    /// A string enum's value into `slot`, if its bytes are one of the raw values', or else as
    /// `unlistedEnumeration` decides.
    private mutating func stringEnumeration(_ plan: FieldPlan, first: UInt8, slot: Int, header: Int, fieldIndex: Int) -> Bool {
        guard first == JSONByte.quote, let text = string() else { return false }
        if !text.escaped {
            let length = text.end &- text.start
            for candidate in plan.enumStrings where candidate.bytes.count == length {
                let same = length == 0 || candidate.bytes.withUnsafeBytes { memcmp($0.baseAddress!, base + text.start, length) == 0 }
                if same {
                    nodes[slot] = TapeNode(kind: .string, a: text.start, b: text.end)
                    return true
                }
            }
        }
        return unlistedEnumeration(plan, text, slot: slot, header: header, fieldIndex: fieldIndex)
    }

    /// A string enum's value `text` whose bytes are none of the raw values': one with escapes,
    /// or for raw values that are not plain ASCII, compared as the full decoder compares it
    /// (`FieldPlan.enumValue(matching:in:)`: unescaped, and as `String`s), into `slot`; else its
    /// fallback where `takesFallback` says the full decoder would take it.
    @inline(never)
    private mutating func unlistedEnumeration(_ plan: FieldPlan, _ text: StringSpan, slot: Int, header: Int, fieldIndex: Int) -> Bool {
        if text.escaped || plan.enumHasNonASCII, let value = plan.enumValue(matching: text.token, in: reader) {
            put(value, in: slot)
            return true
        }
        return takesFallback(plan, at: text.start &- 1, slot: slot, header: header, fieldIndex: fieldIndex)
    }

    /// The fallback of an enum field whose value, at `start`, is none of its raw values, into
    /// `slot`, with the `unknown-enum-value` finding worded when it is read: what an older app
    /// version most often meets. Without a fallback, the value is refused (`refused(at:)`), and
    /// may take the field's default. Only where the full decoder (`DecodeContext.decodeEnum`)
    /// would decide just that. For a strict version, whose synthesized `Codable` has no fallback
    /// and fails, the fallback is taken all the same and `strictProblem` says why (`false` then,
    /// for `unread` to record it). For an element of an array of scalars (no `header`), the
    /// finding is left to the array (`elementFinding`), whose elements are consecutive nodes;
    /// `false` (the full decoder) for a strict version's there.
    @inline(never)
    private mutating func takesFallback(
        _ plan: FieldPlan, at start: Int, slot: Int, header: Int, fieldIndex: Int
    ) -> Bool {
        guard let fallback = plan.fallback else { return refused(at: start) }
        put(fallback, in: slot)
        guard header >= 0 else {
            // An element of an array of scalars: its finding follows the array's elements, and
            // `array` asks why a strict version's `Codable` fails on the first such element.
            elementFinding = (.elementFallbackTaken, start)
            return true
        }
        append(.fallbackTaken, start | fieldIndex << 32, header)
        guard isStrict else { return true }
        // Synthesized `Codable` has no fallback and fails: the value is the fallback all the
        // same, and `unread` records why for the verdict.
        strictProblem = problems(plan, at: start, depth: depth, header: header).strict
        return strictProblem == nil
    }

    /// An array of scalars, whose elements are appended one after another, or of objects:
    /// `field` is its index in the object whose header is at `header`.
    private mutating func array(_ plan: FieldPlan, items: FieldPlan, slot: Int, header: Int, field: Int) -> Bool {
        switch items.kind {
        case .object: return objects(plan, items: items, slot: slot, header: header, field: field)
        case .array: return arrays(plan, items: items, slot: slot, header: header, field: field)
        default: break
        }
        let start = index
        depth &+= 1
        guard depth <= maxDepth else { return false }
        index &+= 1
        skipWhitespace()
        let first = count
        // The elements' findings (`elementFinding`), each node's `a` the element's offset plus
        // its index shifted left by 32.
        var findings: [TapeNode] = []
        // For a strict version: why synthesized `Codable`, which has no fallback, fails on the
        // first element that took one.
        var strictElement: DecodeProblem?
        defer { elementFinding = nil }
        // Strings that may not be null, the usual array: read here, without a call per element.
        let plainStrings = items.kind == .string && !items.isOptional
        let constraints = items.constraints
        if byte() == JSONByte.closeBracket {
            index &+= 1
        } else {
            elements: while true {
                if plainStrings, byte() == JSONByte.quote {
                    guard let text = string() else { return false }
                    guard constraints.allowsLength(text.length) else { return refused(at: start) }
                    append(text.escaped ? .escapedString : .string, text.start, text.end)
                } else {
                    let elementStart = index
                    append(.missing, 0, 0)
                    guard value(items, slot: count &- 1, header: -1, fieldIndex: 0) else {
                        guard elementsMayReport(items) else { return refusedElement(items, at: elementStart, depth: depth, array: start) }
                        // The elements after it may have findings, which the full decoder reports
                        // (in an array's array, it words them).
                        guard field != TapeNode.inArray else { return false }
                        return invalidElement(
                            items, array: start, at: elementStart, index: count &- 1 &- first, findings: findings, header: header, field: field)
                    }
                    if let found = elementFinding {
                        // Worded at its place in an object's field; in an array's array, by the
                        // full decoder.
                        guard field != TapeNode.inArray else { return false }
                        let element = count &- 1 &- first
                        findings.append(TapeNode(kind: found.kind, a: found.offset | element << 32, b: 0))
                        elementFinding = nil
                        if isStrict, found.kind == .elementFallbackTaken, strictElement == nil {
                            strictElement = problems(plan, at: found.offset, depth: depth, header: header, element: (element, field)).strict
                        }
                    }
                }
                switch separator(closing: JSONByte.closeBracket) {
                case .more: continue
                case .closed: break elements
                case .invalid: return false
                }
            }
        }
        depth &-= 1
        let elements = count &- first
        guard plan.constraints.allowsCount(elements) else {
            // Too many: every element's finding, then the field's rule, as the full decoder finds it.
            if !findings.isEmpty { refusedArrayFindings = (start, Self.placed(findings, header: header, field: field)) }
            return refused(at: start)
        }
        nodes[slot] = TapeNode(kind: .array, a: first, b: elements)
        for finding in findings { append(finding.kind, finding.a, header | field << 32) }
        // The array is read; a strict version's `Codable` fails on it (`unread` records why).
        strictProblem = strictElement
        return strictElement == nil
    }

    /// Reads an array of scalars at `start` on to its end from its `element`th element, at
    /// `elementStart`, which `value` did not accept, when that element makes the array invalid
    /// as the full decoder finds it (as in `refusedElement`); the full decoder reads on too. The
    /// findings of the elements after it join those before (`findings`) for `takesDefault` to
    /// put back (`refusedArrayFindings`), and the array is refused. Returns `false` either way;
    /// nothing is kept (the full decoder decides) at an element it cannot read, or an invalid
    /// one with a finding of its own.
    @inline(never)
    private mutating func invalidElement(
        _ items: FieldPlan, array start: Int, at elementStart: Int, index element: Int, findings: [TapeNode], header: Int, field: Int
    ) -> Bool {
        var findings = findings
        var element = element
        var elementStart = elementStart
        var valid = false
        while true {
            if let found = elementFinding {
                elementFinding = nil
                guard valid else { return false }
                findings.append(TapeNode(kind: found.kind, a: found.offset | element << 32, b: 0))
            } else if !valid {
                // Invalid: read whole, or of another type, skipped as the full decoder skips it.
                let brokeRule = ruleBroken == elementStart
                ruleBroken = -1
                guard brokeRule || isOfAnotherType(items, at: elementStart, depth: depth) else { return false }
                if !brokeRule {
                    index = elementStart
                    guard skipValue() else { return false }
                }
            }
            switch separator(closing: JSONByte.closeBracket) {
            case .more: break
            case .closed:
                depth &-= 1
                refusedArrayFindings = (start, Self.placed(findings, header: header, field: field))
                return refused(at: start)
            case .invalid: return false
            }
            element &+= 1
            elementStart = index
            let kept = count
            append(.missing, 0, 0)
            valid = value(items, slot: count &- 1, header: -1, fieldIndex: 0)
            count = kept
        }
    }

    /// An array's element findings as they are put back after a refused array: at the `field`th
    /// field of the object whose header is at `header`, where `array` appends them.
    private static func placed(_ findings: [TapeNode], header: Int, field: Int) -> [TapeNode] {
        findings.map { TapeNode(kind: $0.kind, a: $0.a, b: header | field << 32) }
    }

    /// Whether a valid element of `items` may have a finding (a fallback taken, a date the
    /// validator reports): the full decoder reads the elements after an invalid one all the same,
    /// and words them (`invalidElement` reads on as it does).
    private func elementsMayReport(_ items: FieldPlan) -> Bool {
        items.fallback != nil || (flagsUnixDates && (items.kind == .date || items.kind == .dateRange))
    }

    /// Whether the element at `start`, `level` deep, of an array of scalars at `array`, which
    /// `value` did not accept, makes the array invalid as the full decoder finds it (a rule of
    /// the items refused it, or it is of another JSON type): the array is refused then, as
    /// its field's rules refuse a scalar, and may take the field's default (`takesDefault`).
    /// Anything else (an element that is a date the validator reports and out of range too, or
    /// a date range's bound, a strict version's `null` in items given a default in code, bytes
    /// that are not JSON) is left to the full decoder. Returns `false` either way.
    @inline(never)
    private mutating func refusedElement(_ items: FieldPlan, at start: Int, depth level: Int, array: Int) -> Bool {
        let brokeRule = ruleBroken == start
        ruleBroken = -1
        guard brokeRule || isOfAnotherType(items, at: start, depth: level) else { return false }
        return refused(at: array)
    }

    /// An array of objects: each element's object is laid out where it stands (its header,
    /// its fields, its findings), and the elements' nodes follow them all (`elements`).
    private mutating func objects(_ plan: FieldPlan, items: FieldPlan, slot: Int, header: Int, field: Int) -> Bool {
        guard let object = items.objectRef else { return false }
        let fieldCount = object._withUnsafeGuaranteedRef { $0.fieldCount }
        return elements(plan, items: items, slot: slot, header: header, field: field) { builder, element in
            guard builder.byte() == JSONByte.openBrace else {
                // (Items are never optional: a `null` element is one of these.)
                return builder.elementByFullDecoder(plan, items: items, element: element, header: header, field: field)
            }
            let elementHeader = builder.count
            builder.append(.header, header, TapeNode.place(field: field, element: element))
            guard object._withUnsafeGuaranteedRef({ builder.object($0, header: elementHeader) }) else { return nil }
            return TapeNode(kind: .object, a: elementHeader &+ 1, b: fieldCount)
        }
    }

    /// An array of arrays: each element array is laid out where it stands, after a header of
    /// its own that gives the objects in it (if any) their place, and the elements' nodes
    /// follow them all (`elements`). An inner array of scalars the builder does not read (a
    /// problem, too many) is read by the full decoder, as in `value`.
    private mutating func arrays(_ plan: FieldPlan, items: FieldPlan, slot: Int, header: Int, field: Int) -> Bool {
        guard let inner = items.itemsRef else { return false }
        return elements(plan, items: items, slot: slot, header: header, field: field) { builder, element in
            let (start, kept, level) = (builder.index, builder.count, builder.depth)
            if builder.byte() == JSONByte.openBracket {
                let arrayHeader = builder.count
                builder.append(.header, header, TapeNode.place(field: field, element: element))
                builder.append(.missing, 0, 0)
                let elementSlot = builder.count &- 1
                let read = inner._withUnsafeGuaranteedRef {
                    builder.array(items, items: $0, slot: elementSlot, header: arrayHeader, field: TapeNode.inArray)
                }
                // Read whole, valid or not.
                if read || builder.rejection != nil || builder.strictProblem != nil { return builder.nodes[elementSlot] }
                // An inner array a rule refused is decided by the full decoder here too.
                builder.ruleBroken = -1
                // One the full decoder would walk objects in is given up on.
                guard !items.holdsObjects else { return nil }
                (builder.index, builder.count, builder.depth) = (start, kept, level)
            }
            return builder.elementByFullDecoder(plan, items: items, element: element, header: header, field: field)
        }
    }

    /// The frame of `objects` and `arrays`: reads the array at `index` (a `[`), whose elements
    /// `read` reads one by one into the tape (the `element`th's node, or `nil` to give up),
    /// then appends the elements' nodes one after another, as readers find an array's
    /// elements, and points `slot` at them. An invalid element, or too many, make the array
    /// invalid, as in the full decoder, which reads the elements after an invalid one all the
    /// same: `false` then, with `rejection` set; and, for an element synthesized `Codable` fails
    /// on, with `strictProblem` set. `field` is the array's place in the object whose header is
    /// at `header`, or `TapeNode.inArray` in an array's.
    private mutating func elements(
        _ plan: FieldPlan, items: FieldPlan, slot: Int, header: Int, field: Int, _ read: (inout TapeBuilder, _ element: Int) -> TapeNode?
    ) -> Bool {
        let start = index
        depth &+= 1
        guard depth <= maxDepth else { return false }
        index &+= 1
        skipWhitespace()
        var elements: [TapeNode] = []
        // Room for the usual list at once, not grown from one: at most `max-items`, or 8.
        elements.reserveCapacity(min(plan.constraints.maxItems ?? 8, 8))
        var problem: DecodeProblem?
        // For a strict version: the first element synthesized `Codable` fails on.
        var strictElement: DecodeProblem?
        if byte() == JSONByte.closeBracket {
            index &+= 1
        } else {
            elements: while true {
                guard let node = read(&self, elements.count) else { return false }
                elements.append(node)
                if let invalid = rejection {
                    rejection = nil
                    if problem == nil { problem = invalid }
                }
                if let failure = strictProblem {
                    strictProblem = nil
                    if strictElement == nil { strictElement = failure }
                }
                switch separator(closing: JSONByte.closeBracket) {
                case .more: continue
                case .closed: break elements
                case .invalid: return false
                }
            }
        }
        depth &-= 1
        nodes[slot] = TapeNode(kind: .array, a: count, b: elements.count)
        for element in elements { append(element.kind, element.a, element.b) }
        if problem == nil, let message = plan.constraints.countProblem(elements.count) {
            problem = context(ofElementsOf: plan, field: field, header: header, at: start).problem(.outOfRange, message, at: start)
        }
        rejection = problem
        strictProblem = strictElement
        return problem == nil && strictElement == nil
    }

    /// The `element`th element, at `index`, of an array (see `elements`) read by the full
    /// decoder (`decodeValue`, which walks no object here: the callers read every object
    /// themselves): its node, with its problem in `rejection` and, for a strict version, why
    /// synthesized `Codable` fails on it in `strictProblem`; `nil` to give up.
    private mutating func elementByFullDecoder(_ plan: FieldPlan, items: FieldPlan, element: Int, header: Int, field: Int) -> TapeNode? {
        var context = context(ofElementsOf: plan, field: field, header: header, at: index)
        context.path.push(index: element)
        guard let decided = readInFull(&context, { context throws(JSONError) in try context.decodeValue(items) }) else { return nil }
        keep(context.diagnostics)
        strictProblem = context.strictProblem
        guard let decided else {
            guard let problem = context.problem else { return nil }
            rejection = problem
            return TapeNode(kind: .missing, a: 0, b: 0)
        }
        append(.missing, 0, 0)
        put(decided, in: count &- 1)
        return nodes[count &- 1]
    }

    /// Reads the value at `context`'s reader with the full decoder (`read`: `decodeValue`, or
    /// `decide`, which also settles it), and goes on past it, lines counted: the value, or
    /// `.some(nil)` for an invalid one (why in `context.problem`); `nil` (give up) when the
    /// bytes are not JSON.
    private mutating func readInFull(
        _ context: inout DecodeContext, _ read: (inout DecodeContext) throws(JSONError) -> Value?
    ) -> Value?? {
        let decided: Value?
        do {
            decided = try read(&context)
        } catch {
            return nil
        }
        index = context.reader.offset
        locator = context.locator
        return .some(decided)
    }

    /// The full decoder's context at `start`, with its path at the array `plan`, which is the
    /// field at `field` of the object whose header is at `header`, or the array whose header
    /// that is (`TapeNode.inArray`).
    private func context(ofElementsOf plan: FieldPlan, field: Int, header: Int, at start: Int) -> DecodeContext {
        context(at: start, depth: depth, header: header, field: field == TapeNode.inArray ? nil : plan)
    }

    // MARK: - Scalars

    /// A string's content between its quotes.
    struct StringSpan {
        var start: Int
        var end: Int
        var escaped: Bool
        /// The UTF-8 length of the value, escapes resolved.
        var length: Int

        /// The string as a token of the input.
        var token: JSONString { JSONString(start: start, end: end, hasEscapes: escaped) }
    }

    /// Reads the string whose opening quote is at `index` and moves past its closing quote.
    /// Inlined: most strings are short, plain ASCII, and found in a word or two.
    @inline(__always)
    private mutating func string() -> StringSpan? {
        let start = index &+ 1
        var position = start
        while position &+ 8 <= end {
            let mask = JSONReader.attentionMask(UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)))
            if mask != 0 {
                position &+= mask.trailingZeroBitCount &>> 3
                if base[position] == JSONByte.quote {
                    index = position &+ 1
                    return StringSpan(start: start, end: position, escaped: false, length: position &- start)
                }
                break
            }
            position &+= 8
        }
        return string(from: start, at: position)
    }

    /// The rest of a string from `position`: escapes, UTF-8, and the input's last bytes.
    /// `length` is the UTF-8 length of its value, escapes resolved.
    private mutating func string(from start: Int, at resume: Int) -> StringSpan? {
        var position = resume
        var escaped = false
        var saved = 0
        while true {
            if position &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let mask = JSONReader.attentionMask(word)
                if mask == 0 {
                    position &+= 8
                    continue
                }
                position &+= mask.trailingZeroBitCount &>> 3
            }
            guard position < end else { return nil }
            let byte = base[position]
            if byte == JSONByte.quote {
                index = position &+ 1
                return StringSpan(start: start, end: position, escaped: escaped, length: position &- start &- saved)
            } else if byte == JSONByte.backslash {
                escaped = true
                // The usual escapes are checked here; a surrogate, the input's end and any
                // error go to the reader's `scanEscape`.
                if position &+ 6 <= end {
                    let kind = base[position &+ 1]
                    if kind == UInt8(ascii: "u") {
                        let unit = Self.hex4(base + (position &+ 2))
                        if unit >= 0, unit & 0xF800 != 0xD800 {
                            saved &+= Self.saving(unit)
                            position &+= 6
                            continue
                        }
                    } else if JSONByte.isShortEscape(kind) {
                        saved &+= 1
                        position &+= 2
                        continue
                    }
                }
                guard let next = try? reader.scanEscape(at: position, quote: start &- 1) else { return nil }
                saved &+= escapeSaving(at: position, next: next)
                position = next
            } else if byte < 0x20 {
                return nil
            } else if byte < 0x80 {
                position &+= 1
            } else {
                guard let next = try? reader.scanUTF8(at: position, quote: start &- 1) else { return nil }
                position = next
            }
        }
    }

    /// The four hex digits at `digits` as a UTF-16 code unit, or -1 when one is not a hex digit.
    @inline(__always)
    private static func hex4(_ digits: UnsafePointer<UInt8>) -> Int {
        var unit = 0
        var valid = true
        for offset in 0..<4 {
            let byte = digits[offset]
            let decimal = byte &- JSONByte.zero
            let letter = (byte | 0x20) &- UInt8(ascii: "a")
            valid = valid && (decimal < 10 || letter < 6)
            unit = unit &<< 4 | Int(decimal < 10 ? decimal : letter &+ 10)
        }
        return valid ? unit : -1
    }

    /// How many bytes shorter the value of the valid escape from `position` to `next` is than
    /// its text: `\n` is 1 byte of 2, `\u00e9` 2 of 6, a surrogate pair 4 of 12.
    private func escapeSaving(at position: Int, next: Int) -> Int {
        switch next &- position {
        case 2: return 1
        case 12: return 8
        default:
            // The reader's `hex4`: the tape's own, inlined here, made the UTF-8 path of this
            // function copy memory once per string (+1,300 instructions on cs4k).
            return Self.saving(Int((try? reader.hex4(at: position &+ 2, quote: position)) ?? 0))
        }
    }

    /// How many bytes shorter than its six the value of `\u` and `unit` (not a surrogate) is:
    /// its UTF-8 length is 1, 2 or 3.
    @inline(__always)
    private static func saving(_ unit: Int) -> Int {
        unit < 0x80 ? 5 : unit < 0x800 ? 4 : 3
    }

    /// Checks the literal at `index` and moves past it.
    @inline(__always)
    private mutating func literal(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index &+ length <= end, memcmp(base + index, text.utf8Start, length) == 0 else { return false }
        index &+= length
        return true
    }

    /// Scans a number by the strict grammar: its end, and whether it is plain digits.
    @inline(__always)
    private mutating func number() -> (start: Int, isInteger: Bool)? {
        let start = index
        var position = index
        if position < end, base[position] == JSONByte.minus { position &+= 1 }
        guard position < end else { return nil }
        if base[position] == JSONByte.zero {
            position &+= 1
        } else {
            guard JSONByte.isDigit(base[position]) else { return nil }
            while position < end, JSONByte.isDigit(base[position]) { position &+= 1 }
        }
        var isInteger = true
        if position < end, base[position] == JSONByte.period {
            isInteger = false
            position &+= 1
            guard position < end, JSONByte.isDigit(base[position]) else { return nil }
            while position < end, JSONByte.isDigit(base[position]) { position &+= 1 }
        }
        if position < end, base[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position &+= 1
            if position < end, base[position] == JSONByte.plus || base[position] == JSONByte.minus { position &+= 1 }
            guard position < end, JSONByte.isDigit(base[position]) else { return nil }
            while position < end, JSONByte.isDigit(base[position]) { position &+= 1 }
        }
        index = position
        return (start, isInteger)
    }

    /// An integer field's value at `start` (where `index` is): plain digits that fit 18 digits
    /// read here (`integer()`), anything else as `integerByReader` reads it. `.some(nil)` for a
    /// number that is not an integer that fits `Int`, which the field refuses; `nil` for what is
    /// not a number.
    @inline(__always)
    private mutating func integer(from start: Int) -> Int?? {
        if let plain = integer() { return plain }
        return integerByReader(from: start)
    }

    /// Plain digits that fit 18 digits, at `index`; `nil` for anything else.
    private mutating func integer() -> Int? {
        guard let (start, isInteger) = number(), isInteger else { return nil }
        var position = start
        let negative = base[position] == JSONByte.minus
        if negative { position &+= 1 }
        guard index &- position <= 18 else { return nil }
        var value = 0
        while position < index {
            value = value &* 10 &+ Int(base[position] &- JSONByte.zero)
            position &+= 1
        }
        return negative ? -value : value
    }

    /// An integer field's value at `start` that `integer` does not read (a fraction, an
    /// exponent, 19 digits or more), converted as the full decoder converts it
    /// (`JSONReader.integer`): `.some(nil)` for a number that is not an integer that fits `Int`,
    /// which the field refuses; `nil` for what is not a number.
    @inline(never)
    private mutating func integerByReader(from start: Int) -> Int?? {
        var number = reader
        number.move(toValueAt: start, depth: depth)
        guard let token = try? number.readNumber() else { return nil }
        index = number.offset
        return .some(reader.integer(token))
    }

    /// A double field's value, converted exactly as the full decoder converts it; `nil` for
    /// what it would refuse.
    ///
    /// Up to 15 significant digits without an exponent (`0.6`, `752000000.0`) are one exact
    /// division: the digits and the power of ten are both exact doubles, so the quotient is
    /// correctly rounded (Clinger's fast path), the very value `Double(String)` gives. The rest
    /// goes through `JSONReader.double`.
    @inline(__always)
    private mutating func double() -> Double? {
        let start = index
        var position = index
        let negative = position < end && base[position] == JSONByte.minus
        if negative { position &+= 1 }
        guard position < end else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        if base[position] == JSONByte.zero {
            position &+= 1
        } else {
            guard JSONByte.isDigit(base[position]) else { return nil }
            while position < end, JSONByte.isDigit(base[position]) {
                mantissa = mantissa &* 10 &+ UInt64(base[position] &- JSONByte.zero)
                digits &+= 1
                position &+= 1
            }
        }
        if position < end, base[position] == JSONByte.period {
            position &+= 1
            guard position < end, JSONByte.isDigit(base[position]) else { return nil }
            while position < end, JSONByte.isDigit(base[position]) {
                mantissa = mantissa &* 10 &+ UInt64(base[position] &- JSONByte.zero)
                digits &+= 1
                fraction &+= 1
                position &+= 1
            }
        }
        guard digits <= 15, position >= end || base[position] | 0x20 != UInt8(ascii: "e") else {
            index = start
            return exactDouble()
        }
        index = position
        var value = Double(mantissa)
        if fraction > 0 { value /= Self.powersOfTen[fraction] }
        return negative ? -value : value
    }

    /// 10^0 through 10^15, each exact.
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    private mutating func exactDouble() -> Double? {
        guard let (start, isInteger) = number() else { return nil }
        let token = JSONNumber(start: start, end: index, isInteger: isInteger)
        let double = reader.double(token)
        guard double.isFinite, !reader.foundationRefusesDouble(token, value: double) else { return nil }
        return double
    }

    // MARK: - Skipping

    /// Skips any valid value, strictly, the way the full decoder skips an unknown key's value.
    private mutating func skipValue() -> Bool {
        let start = index
        // One bit per open container: 1 for an object.
        var stack: UInt64 = 0
        var level = 0
        // The first byte of the value at `index`.
        var next = nextByte()
        while true {
            switch next {
            case JSONByte.openBrace, JSONByte.openBracket:
                let isObject = next == JSONByte.openBrace
                guard depth &+ level < maxDepth else { return false }
                // Deeper than the bit stack (a `maxDepth` over 64): the scanner's skip.
                guard level < UInt64.bitWidth else { return skipDeepValue(from: start) }
                index &+= 1
                next = nextByte()
                if next == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) {
                    index &+= 1
                } else {
                    stack = stack << 1 | (isObject ? 1 : 0)
                    level &+= 1
                    if isObject {
                        guard skipKeyAndColon(next) else { return false }
                        next = nextByte()
                    }
                    continue
                }
            case JSONByte.quote:
                guard string() != nil else { return false }
            case JSONByte.minus, JSONByte.zero ... JSONByte.nine:
                guard number() != nil else { return false }
            case UInt8(ascii: "t"):
                guard literal("true") else { return false }
            case UInt8(ascii: "f"):
                guard literal("false") else { return false }
            case UInt8(ascii: "n"):
                guard literal("null") else { return false }
            default:
                return false
            }
            // After a value: close containers, or go on to the next member or element.
            while true {
                if level == 0 { return true }
                let inObject = stack & 1 == 1
                next = nextByte()
                if next == JSONByte.comma {
                    index &+= 1
                    next = nextByte()
                    if inObject {
                        guard skipKeyAndColon(next) else { return false }
                        next = nextByte()
                    }
                    break
                }
                guard next == (inObject ? JSONByte.closeBrace : JSONByte.closeBracket) else { return false }
                index &+= 1
                stack >>= 1
                level &-= 1
            }
        }
    }

    /// Skips the value at `start` with the scanner, which keeps any depth: `false` when it is
    /// not JSON. (Out of line: the common skip stays small.)
    @inline(never)
    private mutating func skipDeepValue(from start: Int) -> Bool {
        var scanner = reader
        scanner.move(toValueAt: start, depth: depth)
        guard (try? scanner.skipValue()) != nil else { return false }
        index = scanner.offset
        return true
    }

    /// Past a key whose first byte, at `index`, is `first`, and the colon after it.
    @inline(__always)
    private mutating func skipKeyAndColon(_ first: UInt8) -> Bool {
        guard first == JSONByte.quote, string() != nil, nextByte() == JSONByte.colon else { return false }
        index &+= 1
        return true
    }
}

/// A field read under an alias, in an object the tape builder is reading: which alias, and
/// why its value is invalid, until the object ends (see `ReadAgain`).
struct AliasRead {
    /// The object's header.
    var header: Int
    var field: Int
    /// The alias's position in the field's `aliases`.
    var rank: Int
    var outcome: Outcome

    /// What the read found, to be settled at the end of the object.
    enum Outcome {
        case valid
        /// The value at the offset is invalid, and takes the field's default
        /// (`TapeBuilder.takesDefault`), worded when read.
        case takesDefault(at: Int)
        /// The value is invalid for the problem, which the full decoder's rule settles.
        case invalid(DecodeProblem)
    }
}

/// The alias reads of the objects being read, in input order. An object's reads are at the end
/// while it is read (those of the objects inside it are gone when they end), and removed when
/// it ends. Empty, and never allocated, for payloads without aliases.
struct AliasReads {
    private var reads: [AliasRead] = []

    /// The rank of the alias `field` of the object whose header is `header` was read under.
    func rank(of field: Int, header: Int) -> Int? {
        reads.last { $0.header == header && $0.field == field }?.rank
    }

    mutating func note(_ read: AliasRead) {
        reads.append(read)
    }

    /// Forgets the read of `field`: its value is replaced.
    mutating func forget(_ field: Int, header: Int) {
        reads.removeAll { $0.header == header && $0.field == field }
    }

    /// Removes and returns the reads of the object whose header is `header`, in input order.
    mutating func removeAll(of header: Int) -> [AliasRead] {
        var start = reads.count
        while start > 0, reads[start - 1].header == header { start -= 1 }
        defer { reads.removeSubrange(start...) }
        return Array(reads[start...])
    }
}

/// What the tape builder found wrong with one object it reads, off the member loop's happy path.
struct ObjectVerdict {
    /// Why the object is invalid: its first invalid value, or else its first missing required
    /// key, as the full decoder finds them.
    var invalid: DecodeProblem?
    /// For a strict version: the first field in schema order synthesized `Codable` fails on,
    /// and why.
    var strictField = Int.max
    var strictProblem: DecodeProblem?

    mutating func failsCodable(_ field: Int, _ problem: DecodeProblem) {
        guard field < strictField else { return }
        strictField = field
        strictProblem = problem
    }
}

/// The fields of one object by index, as `TapeBuilder.object` keeps the ones it has seen: one
/// word (`FieldMask`) for an object of up to 64 fields, `FieldSet` beyond. The builder is written
/// once over this and compiled for each.
protocol FieldBits {
    init(count: Int)
    func contains(_ field: Int) -> Bool
    mutating func insert(_ field: Int)
    mutating func remove(_ field: Int)
    var isEmpty: Bool { get }
    /// The fields of `0 ..< count` that are not in the set.
    func complement(count: Int) -> Self
    mutating func formUnion(_ other: Self)
    /// Removes the lowest field and returns it; `nil` when the set is empty.
    mutating func popFirst() -> Int?
}

/// The fields of an object of up to 64 fields, one bit each.
struct FieldMask: FieldBits {
    private var bits: UInt64 = 0

    init(count: Int) {}

    @inline(__always)
    func contains(_ field: Int) -> Bool {
        bits & 1 &<< UInt64(field) != 0
    }

    @inline(__always)
    mutating func insert(_ field: Int) {
        bits |= 1 &<< UInt64(field)
    }

    mutating func remove(_ field: Int) {
        bits &= ~(1 &<< UInt64(field))
    }

    var isEmpty: Bool { bits == 0 }

    func complement(count: Int) -> FieldMask {
        let all: UInt64 = count == FieldSet.maskCapacity ? ~0 : (1 &<< UInt64(count)) &- 1
        var other = FieldMask(count: count)
        other.bits = all & ~bits
        return other
    }

    mutating func formUnion(_ other: FieldMask) {
        bits |= other.bits
    }

    @inline(__always)
    mutating func popFirst() -> Int? {
        guard bits != 0 else { return nil }
        let field = bits.trailingZeroBitCount
        bits &= bits &- 1
        return field
    }
}
