import Foundation

/// What the rule walk (`FieldPlan.walk(_:into:)`) does with a value it accepts, piece by
/// piece: the encoder's `StateWriter` writes it, in the same pass as the checks; `ValueBuilder`
/// makes it a `Value` again, completed (the encoder's long way, which then fits it to the
/// budget); `RuleCheck` does nothing, for `Field.violation(of:)`. Each call that takes a number
/// or a string returns the bytes the device's re-encoding adds to it (its escaped `/`s, a
/// number's longer form); the others add none.
protocol ValueSink {
    mutating func putNull()
    mutating func putBool(_ bool: Bool)
    mutating func putInt(_ int: Int)
    /// An integer above `Int.max`, which only a `format: uint64` field holds.
    mutating func putUInt(_ uint: UInt64)
    mutating func putDouble(_ double: Double) -> Int
    mutating func putDate(_ seconds: Double) -> Int
    mutating func putDateRange(lower: Double, upper: Double) -> Int
    mutating func putString(_ string: String) -> Int
    mutating func beginArray()
    mutating func endArray()
    mutating func beginObject()
    mutating func endObject()
    /// Between two elements or members.
    mutating func putSeparator()
    /// A member's key, before its value.
    mutating func putKey(_ name: String) -> Int
    /// The form to write for a `url` value the app's devices do not all read (`problem`), when
    /// the sink makes such URLs portable; `nil` (the default) when the value is refused.
    mutating func portable(_ string: String, for problem: URLRule.Problem) -> String?
}

extension ValueSink {
    func portable(_ string: String, for problem: URLRule.Problem) -> String? { nil }
}

extension StateWriter: ValueSink {
    @inline(__always) mutating func putNull() { append("null") }
    @inline(__always) mutating func putBool(_ bool: Bool) { append(bool ? "true" : "false") }
    @inline(__always) mutating func putInt(_ int: Int) { writeInt(int) }
    mutating func putUInt(_ uint: UInt64) { writeUInt(uint) }
    @inline(__always) mutating func putDouble(_ double: Double) -> Int { writeNumber(double) }
    @inline(__always) mutating func putDate(_ seconds: Double) -> Int { writeNumber(seconds) }
    @inline(__always) mutating func putDateRange(lower: Double, upper: Double) -> Int {
        append(UInt8(ascii: "["))
        var extra = writeNumber(lower)
        append(UInt8(ascii: ","))
        extra &+= writeNumber(upper)
        append(UInt8(ascii: "]"))
        return extra
    }
    @inline(__always) mutating func putString(_ string: String) -> Int { writeString(string) }
    @inline(__always) mutating func beginArray() { append(UInt8(ascii: "[")) }
    @inline(__always) mutating func endArray() { append(UInt8(ascii: "]")) }
    @inline(__always) mutating func beginObject() { append(UInt8(ascii: "{")) }
    @inline(__always) mutating func endObject() { append(UInt8(ascii: "}")) }
    @inline(__always) mutating func putSeparator() { append(UInt8(ascii: ",")) }
    @inline(__always) mutating func putKey(_ name: String) -> Int {
        let extra = writeString(name)
        append(UInt8(ascii: ":"))
        return extra
    }
}

/// A sink that makes the value it is given again, each object completed with its missing
/// fields: what the encoder writes, as a `Value`.
///
/// With `makesURLsPortable`, a URL that iOS 16 refuses and iOS 17 and later percent-encode is
/// made the form both read alike (what iOS 17 makes of it), and each such change is listed in
/// `portableURLs` with its place, a JSON Pointer relative to the value walked.
struct ValueBuilder: ValueSink {
    private enum Open {
        case array([Value])
        case object([Value.Member], key: String)
    }

    private var open: [Open] = []
    /// The value made, once the walk is done.
    private(set) var value: Value = .null
    let makesURLsPortable: Bool
    /// The URLs made portable: where, what was given, what is written, and the character iOS
    /// 16 refuses.
    private(set) var portableURLs: [(pointer: String, given: String, written: String, character: String)] = []

    init(makesURLsPortable: Bool = false) {
        self.makesURLsPortable = makesURLsPortable
    }

    mutating func portable(_ string: String, for problem: URLRule.Problem) -> String? {
        guard makesURLsPortable, case .refusedBeforeIOS17(_, let character, let portable?) = problem else { return nil }
        // The place of the value about to be put.
        let pointer = open.reduce(into: "") { pointer, container in
            switch container {
            case .array(let elements): pointer = JSONPointer.appending(String(elements.count), to: pointer)
            case .object(_, let key): pointer = JSONPointer.appending(key, to: pointer)
            }
        }
        portableURLs.append((pointer, string, portable, character))
        return portable
    }

    private mutating func put(_ made: Value) {
        switch open.popLast() {
        case nil: value = made
        case .array(var elements):
            elements.append(made)
            open.append(.array(elements))
        case .object(var members, let key):
            members.append(Value.Member(key, made))
            open.append(.object(members, key: ""))
        }
    }

    mutating func putNull() { put(.null) }
    mutating func putBool(_ bool: Bool) { put(.bool(bool)) }
    mutating func putInt(_ int: Int) { put(.int(int)) }
    mutating func putUInt(_ uint: UInt64) { put(.uint(uint)) }
    mutating func putDouble(_ double: Double) -> Int { put(.double(double)); return 0 }
    mutating func putDate(_ seconds: Double) -> Int { put(.date(seconds)); return 0 }
    mutating func putDateRange(lower: Double, upper: Double) -> Int { put(.dateRange(lower: lower, upper: upper)); return 0 }
    mutating func putString(_ string: String) -> Int { put(.string(string)); return 0 }
    mutating func beginArray() { open.append(.array([])) }
    mutating func endArray() {
        guard case .array(let elements)? = open.popLast() else { return }
        put(.array(elements))
    }
    mutating func beginObject() { open.append(.object([], key: "")) }
    mutating func endObject() {
        guard case .object(let members, _)? = open.popLast() else { return }
        put(.object(members))
    }
    mutating func putSeparator() {}
    mutating func putKey(_ name: String) -> Int {
        if case .object(let members, _)? = open.popLast() { open.append(.object(members, key: name)) }
        return 0
    }
}

/// A sink that keeps nothing: the walk only checks.
struct RuleCheck: ValueSink {
    func putNull() {}
    func putBool(_ bool: Bool) {}
    func putInt(_ int: Int) {}
    func putUInt(_ uint: UInt64) {}
    func putDouble(_ double: Double) -> Int { 0 }
    func putDate(_ seconds: Double) -> Int { 0 }
    func putDateRange(lower: Double, upper: Double) -> Int { 0 }
    func putString(_ string: String) -> Int { 0 }
    func beginArray() {}
    func endArray() {}
    func beginObject() {}
    func endObject() {}
    func putSeparator() {}
    func putKey(_ name: String) -> Int { 0 }
}

/// A rule a value breaks, worded: `65 bytes is longer than max-length 64`, or for a nested
/// value with the JSON Pointer of its place first, relative to the value walked:
/// `/courier/name: 65 bytes is longer than max-length 64`.
struct RuleBroken: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    /// A member given twice: an object's members are its fields, each once.
    static func appearsTwice(_ name: String) -> RuleBroken {
        RuleBroken("member '\(name)' appears twice")
    }

    /// A member that is not a field of its object; `version` for the content-state itself,
    /// whose fields are the version's.
    static func unknownMember(_ name: String, version: Int? = nil) -> RuleBroken {
        RuleBroken(version.map { "version \($0) has no field '\(name)'" } ?? "unknown member '\(name)'")
    }

    /// A required field with no member (and so no value); `version` as for `unknownMember`.
    static func missingRequired(_ name: String, version: Int? = nil) -> RuleBroken {
        RuleBroken(version == nil ? "missing required member '\(name)'" : "required field '\(name)' has no value")
    }

    /// The same problem, one container further out.
    func nested(under token: String) -> RuleBroken {
        let escaped = JSONPointer.escape(token)
        return RuleBroken(message.hasPrefix("/") ? "/" + escaped + message : "/" + escaped + ": " + message)
    }
}

extension FieldPlan {
    /// What a value must be to be this field's value, stated once: the field's type (`null` only
    /// for an optional field), `minimum`/`maximum`, `max-length` and `min-length` (UTF-8
    /// bytes), `max-items`, the enum's values, a URL the app's devices all read, and a date
    /// range's finite, ordered bounds. An array's elements follow `items`; an object's members
    /// must be fields of it, each once, and every required field must be there.
    ///
    /// The walk hands each accepted piece to `sink` as it goes, and every missing member of a
    /// nested object after the given ones, with its missing value (`null` for an optional field
    /// without a default): an app version that decodes with synthesized `Codable` fails on a
    /// missing key. `Field.violation(of:)` walks with a sink that keeps nothing; the encoder
    /// walks with its writer, and writes and checks a state in one pass, or, the long way,
    /// with a `ValueBuilder` (`completed(_:)`).
    ///
    /// The value is read where it lies, through a pointer, and so are the elements and members
    /// of containers: no container is retained and released on the way.
    /// - Returns: The bytes the device's re-encoding adds to what the sink was given.
    /// - Throws: The first rule the value breaks, in the order above, members in their order.
    ///   What the sink was given is then to be thrown away.
    func walk<Sink: ValueSink>(_ value: UnsafePointer<Value>, into sink: inout Sink) throws(RuleBroken) -> Int {
        switch value.pointee {
        case .null:
            if isOptional {
                sink.putNull()
                return 0
            }
            // `on-null: default`: the null stands for the default, as the decoder reads it.
            guard nullTakesDefault, let missingValue else { throw RuleBroken("null, but the field is not optional") }
            return try withUnsafePointer(to: missingValue) { missing throws(RuleBroken) in try walk(missing, into: &sink) }
        case .string(let string):
            switch kind {
            case .string:
                try Self.check(length: string, constraints)
            case .formattedString:
                if let problem = stringFormat?.problem(string) { throw RuleBroken(problem) }
                try Self.check(length: string, constraints)
            case .url:
                if let problem = urls.problem(string) {
                    guard let portable = sink.portable(string, for: problem), urls.problem(portable) == nil else {
                        throw RuleBroken(urls.message(problem, in: string))
                    }
                    // The bound is the written form's: said so, since the state's own is shorter.
                    let bytes = portable.utf8.count
                    guard constraints.allowsLength(bytes) else {
                        throw RuleBroken((constraints.lengthProblem(bytes) ?? "") + " once percent-encoded, the form iOS 16 reads (it refuses the URL as given)")
                    }
                    return sink.putString(portable)
                }
                try Self.check(length: string, constraints)
            case .stringEnum:
                guard enumRawStrings.contains(string) else { throw notOneOf(value.pointee) }
            case .intEnum:
                throw notOneOf(value.pointee)
            default:
                throw mismatch(value.pointee)
            }
            return sink.putString(string)
        case .int(let int):
            switch kind {
            case .int:
                // The message, and the number's text in it, only when there is a problem.
                guard !isOutOfRange(integer: int) else {
                    throw RuleBroken(constraints.rangeProblem(integer: int) ?? "")
                }
            case .intEnum:
                guard enumIntegers.contains(int) else { throw notOneOf(value.pointee) }
            case .stringEnum:
                throw notOneOf(value.pointee)
            default:
                throw mismatch(value.pointee)
            }
            sink.putInt(int)
            return 0
        case .uint(let uint):
            // A `.uint` that `Int` holds (made by hand) is that `.int`.
            if let int = Int(exactly: uint) {
                return try withUnsafePointer(to: Value.int(int)) { int throws(RuleBroken) in try walk(int, into: &sink) }
            }
            // Above `Int.max`: only an app's `UInt64` holds it.
            switch kind {
            case .int:
                guard numberFormat == .uint64 else {
                    throw RuleBroken("\(uint) does not fit the app's \(numberFormat?.swiftName ?? "Int")")
                }
                guard !isOutOfRange(integer: uint) else {
                    throw RuleBroken(constraints.rangeProblem(integer: uint) ?? "")
                }
            case .intEnum, .stringEnum:
                throw notOneOf(value.pointee)
            default:
                throw mismatch(value.pointee)
            }
            sink.putUInt(uint)
            return 0
        case .double(let double):
            guard kind == .double else { throw mismatch(value.pointee) }
            try checkNumber(double)
            return sink.putDouble(double)
        case .date(let double):
            guard kind == .date else { throw mismatch(value.pointee) }
            try checkNumber(double)
            return sink.putDate(double)
        case .bool(let bool):
            guard kind == .bool else { throw mismatch(value.pointee) }
            sink.putBool(bool)
            return 0
        case .dateRange(let lower, let upper):
            guard kind == .dateRange else { throw mismatch(value.pointee) }
            // The quick checks first; the words only for a range that breaks one.
            if !Field.Constraints.allowsOrder(lower: lower, upper: upper) || isOutOfRange(lower) || isOutOfRange(upper),
               let problem = Field.Constraints.orderProblem(lower: lower, upper: upper)
                ?? constraints.rangeProblem(lower) ?? constraints.rangeProblem(upper) {
                throw RuleBroken(problem)
            }
            return sink.putDateRange(lower: lower, upper: upper)
        case .array(let elements):
            guard kind == .array, let items = itemsRef else { throw mismatch(value.pointee) }
            if !constraints.allowsCount(elements.count), let problem = constraints.countProblem(elements.count) { throw RuleBroken(problem) }
            sink.beginArray()
            let extra = try elements.withUnsafeBufferPointer { elements throws(RuleBroken) in
                var extra = 0
                for index in 0..<elements.count {
                    if index > 0 { sink.putSeparator() }
                    do throws(RuleBroken) {
                        // A guaranteed reference: the plan is not retained for each element.
                        extra &+= try items.borrowing { items throws(RuleBroken) in
                            try items.walk(elements.baseAddress! + index, into: &sink)
                        }
                    } catch {
                        throw error.nested(under: String(index))
                    }
                }
                return extra
            }
            sink.endArray()
            return extra
        case .object(let members) where kind == .map:
            guard let items = itemsRef else { throw mismatch(value.pointee) }
            if !constraints.allowsCount(members.count), let problem = constraints.countProblem(members.count) { throw RuleBroken(problem) }
            sink.beginObject()
            var names = Set<String>()
            var integers = Set<Int>()
            var extra = 0
            for (position, member) in members.enumerated() {
                guard names.insert(member.name).inserted else { throw RuleBroken.appearsTwice(member.name) }
                if let (problem, _) = Field.mapKeyProblem(member.name, integerKeys: hasIntegerKeys, constraints: constraints) {
                    throw RuleBroken(problem).nested(under: member.name)
                }
                // Two keys of one `Int` (`05` and `5`) are one entry of the app's dictionary,
                // with either value.
                if hasIntegerKeys, let integer = Int(member.name), !integers.insert(integer).inserted {
                    throw RuleBroken("key '\(member.name)' is the Int \(integer), as another key is, and the app's [Int: …] holds one of their values")
                }
                if position > 0 { sink.putSeparator() }
                extra &+= sink.putKey(member.name)
                do throws(RuleBroken) {
                    extra &+= try withUnsafePointer(to: member.value) { value throws(RuleBroken) in
                        try items.borrowing { items throws(RuleBroken) in try items.walk(value, into: &sink) }
                    }
                } catch {
                    throw error.nested(under: member.name)
                }
            }
            sink.endObject()
            return extra
        case .object(let members):
            guard kind == .object, let object = objectRef else { throw mismatch(value.pointee) }
            sink.beginObject()
            let extra = try members.withUnsafeBufferPointer { members throws(RuleBroken) in
                try object.borrowing { object throws(RuleBroken) in try object.walk(members, into: &sink) }
            }
            sink.endObject()
            return extra
        }
    }

    /// `value` as the encoder writes it, when it keeps the field's rules: each object in it, at
    /// any depth, with every field of its schema, the members given in their order and then
    /// each missing field with its missing value (see `walk`), made by `builder` (which may
    /// make URLs portable).
    /// - Throws: The first rule the value breaks.
    func completed(_ value: Value, into builder: inout ValueBuilder) throws(RuleBroken) -> Value {
        _ = try withUnsafePointer(to: value) { value throws(RuleBroken) in try walk(value, into: &builder) }
        return builder.value
    }

    /// A double or date: finite, and within `minimum` and `maximum`.
    @inline(__always)
    private func checkNumber(_ double: Double) throws(RuleBroken) {
        if let problem = Field.Constraints.finiteProblem(double) { throw RuleBroken(problem) }
        guard !isOutOfRange(double) else { throw RuleBroken(constraints.rangeProblem(double) ?? "") }
        if let numberFormat, !numberFormat.holds(double) {
            throw RuleBroken("\(Field.format(double)) does not fit the app's \(numberFormat.swiftName)")
        }
    }

    @inline(__always)
    private static func check(length string: String, _ constraints: Field.Constraints) throws(RuleBroken) {
        let bytes = string.utf8.count
        guard constraints.allowsLength(bytes) else { throw RuleBroken(constraints.lengthProblem(bytes) ?? "") }
    }

    private func notOneOf(_ value: Value) -> RuleBroken {
        guard case .enumeration(let values) = field.type else { return mismatch(value) }
        return RuleBroken("\(Field.describe(value)) is not one of \(Field.list(values))")
    }

    private func mismatch(_ value: Value) -> RuleBroken {
        RuleBroken("expected \(field.type.article), found \(Field.describe(value))")
    }
}

extension ObjectPlan {
    /// The field the member called `name` gives a value of, by the rule every object value's
    /// members keep, the content-state's included: each is a field of the object, given once
    /// (`seen`: the fields given before it). `hint`: the field to try first; `version`: for the
    /// content-state's own members, the words that name the version.
    /// - Throws: The rule the member breaks.
    func field(ofMember name: String, hint: Int, seen: FieldSet, version: Int? = nil) throws(RuleBroken) -> Int {
        guard let index = index(ofName: name, hint: hint) else { throw RuleBroken.unknownMember(name, version: version) }
        guard !seen.contains(index) else { throw RuleBroken.appearsTwice(name) }
        return index
    }

    /// The members of an object value, then its missing fields (see `FieldPlan.walk`).
    func walk<Sink: ValueSink>(_ members: UnsafeBufferPointer<Value.Member>, into sink: inout Sink) throws(RuleBroken) -> Int {
        var extra = 0
        var seen = FieldSet(count: fieldCount)
        var hint = 0
        for position in 0..<members.count {
            let member = members.baseAddress! + position
            let name = member.pointee.name
            let index = try field(ofMember: name, hint: hint, seen: seen)
            if position > 0 { sink.putSeparator() }
            seen.insert(index)
            hint = index &+ 1
            extra &+= sink.putKey(name)
            do throws(RuleBroken) {
                extra &+= try fieldRefs[index].borrowing { field throws(RuleBroken) in
                    try field.walk(member.pointer(to: \.value)!, into: &sink)
                }
            } catch {
                throw error.nested(under: name)
            }
        }
        guard members.count < fieldCount else { return extra }
        var first = members.isEmpty
        for (index, field) in fields.enumerated() where !seen.contains(index) {
            let name = memberNames[index]
            guard let missing = field.missingValue else { throw RuleBroken.missingRequired(name) }
            if first { first = false } else { sink.putSeparator() }
            extra &+= sink.putKey(name)
            do throws(RuleBroken) {
                extra &+= try withUnsafePointer(to: missing) { missing throws(RuleBroken) in try field.walk(missing, into: &sink) }
            } catch {
                throw error.nested(under: name)
            }
        }
        return extra
    }
}

extension Unmanaged {
    /// `_withUnsafeGuaranteedRef` for a body that throws `RuleBroken`: the instance is lent
    /// without a retain and release (the plans outlive every walk).
    @inline(__always)
    fileprivate func borrowing<Result>(_ body: (Instance) throws(RuleBroken) -> Result) throws(RuleBroken) -> Result {
        try _withUnsafeGuaranteedRef { instance in Swift.Result { () throws(RuleBroken) in try body(instance) } }.get()
    }
}
