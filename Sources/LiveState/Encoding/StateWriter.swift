/// The byte-level writer behind `JSONWriter` and `ContentStateEncoder`: compact JSON into a
/// buffer, with one capacity check per string, number or literal rather than per byte, and
/// strings copied in runs found 8 bytes at a time.
///
/// Each `write` also returns how many bytes more the device's re-encoding of what it wrote
/// may take (`ByteBudget.deviceWorstCase` minus the bytes written): one per `/`, and the
/// extra digits of every non-integral number as Darwin prints it (`%.17g`).
///
/// A writer made with `init(capacity:)` owns its buffer, and its owner calls `release()`
/// exactly once, after taking the bytes. `writingArray(capacity:_:)` lends one temporary
/// storage instead.
struct StateWriter {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Whether `base` was allocated here (and is freed by `release()` or when it grows), rather
    /// than lent by `writingArray(capacity:_:)`.
    private var ownsBase: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        ownsBase = true
    }

    /// A writer into storage it does not own: it moves to a buffer of its own if it grows.
    private init(lent storage: UnsafeMutableBufferPointer<UInt8>) {
        capacity = storage.count
        base = storage.baseAddress!
        ownsBase = false
    }

    /// Frees the buffer, when the writer owns it.
    func release() {
        if ownsBase { base.deallocate() }
    }

    /// Runs `body` with a writer into `capacity` bytes of temporary storage (on the stack up
    /// to 1,024 bytes), and returns what it wrote as a new array, with what `body` returned.
    ///
    /// Writing in place and copying once is cheaper than writing into the storage of an
    /// array made by `init(unsafeUninitializedCapacity:initializingWith:)`: that initializer
    /// asks the runtime for the array storage's type on every call, on Linux about 300
    /// instructions, where the copy costs about 60 for a 600-byte state.
    static func writingArray<Result>(capacity: Int, _ body: (inout StateWriter) -> Result) -> (bytes: [UInt8], result: Result) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 16)) { storage in
            var writer = StateWriter(lent: storage)
            let result = body(&writer)
            let bytes = writer.array
            writer.release()
            return (bytes, result)
        }
    }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes written, as an array.
    var array: [UInt8] { Array(bytes) }

    // MARK: - Room

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        if ownsBase { base.deallocate() }
        ownsBase = true
        base = newBase
        capacity = newCapacity
    }

    /// Drops what was written after `position`.
    mutating func rewind(to position: Int) {
        precondition(position >= 0 && position <= count)
        count = position
    }

    /// Appends one byte (room reserved by the caller).
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends bytes.
    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (base + count).initialize(from: start, count: length)
        count &+= length
    }

    /// Appends bytes.
    mutating func append(_ raw: [UInt8]) {
        raw.withUnsafeBufferPointer { append($0.baseAddress!, count: $0.count) }
    }

    /// Appends a literal that is already JSON.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    // MARK: - Values

    /// Appends a value; objects keep their member order. Returns the device's extra bytes.
    mutating func write(_ value: Value) -> Int {
        switch value {
        case .null:
            append("null")
            return 0
        case .bool(let bool):
            append(bool ? "true" : "false")
            return 0
        case .int(let int):
            writeInt(int)
            return 0
        case .uint(let uint):
            writeUInt(uint)
            return 0
        case .double(let double), .date(let double):
            return writeNumber(double)
        case .string(let string):
            return writeString(string)
        case .dateRange(let lower, let upper):
            return putDateRange(lower: lower, upper: upper)
        case .array(let elements):
            append(UInt8(ascii: "["))
            var extra = 0
            var first = true
            for element in elements {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                extra &+= write(element)
            }
            append(UInt8(ascii: "]"))
            return extra
        case .object(let members):
            append(UInt8(ascii: "{"))
            var extra = 0
            var first = true
            for member in members {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                extra &+= writeString(member.name)
                append(UInt8(ascii: ":"))
                extra &+= write(member.value)
            }
            append(UInt8(ascii: "}"))
            return extra
        }
    }

    /// Appends a number in its shortest round-trip form; integral values within ±2^53 without
    /// a fraction, non-finite ones as `null`. Returns the device's extra bytes.
    mutating func writeNumber(_ double: Double) -> Int {
        guard double.isFinite else {
            append("null")
            return 0
        }
        if double == double.rounded(.towardZero), abs(double) < 9_007_199_254_740_992 {
            if double == 0 && double.sign == .minus {
                append("-0")
                return 0
            }
            writeInt(Int(double))
            return 0
        }
        let length: Int
        if let written = writeShortDecimal(double) {
            length = written
        } else {
            length = writeDescription(double)
        }
        return ByteBudget.worstCaseNumber(double) &- length
    }

    /// Appends `double.description`; returns its length.
    private mutating func writeDescription(_ double: Double) -> Int {
        let text = double.description
        let length = text.utf8.count
        if text.utf8.withContiguousStorageIfAvailable({ append($0.baseAddress!, count: $0.count) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
        return length
    }

    /// Writes a non-integral number of magnitude 1e-4 up to 1e9 that has a unique shortest
    /// round-trip form with at most 6 decimals (`0.6`, `4.9`, `-0.0125`), exactly as
    /// `description` writes it, without making a `String`; returns the bytes written, or `nil`
    /// (nothing written) for any other number.
    ///
    /// `n / 10^k` as `Double` is the correctly rounded value of the decimal `n`e-`k`: what any
    /// correct parser reads. The first `k` at which it is `double` gives the fewest digits; a
    /// neighbour `n ± 1` that also reads back as `double` would leave the choice to
    /// `description`'s rules, so that case is left to it.
    mutating func writeShortDecimal(_ double: Double) -> Int? {
        let magnitude = double.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return nil }
        // 10^decimals, exact in a Double.
        var scale = 1.0
        for decimals in 1...6 {
            scale *= 10
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            guard (scaled - 1) / scale != magnitude, (scaled + 1) / scale != magnitude else { return nil }
            var digits = UInt64(scaled)
            guard digits % 10 != 0 else { return nil }
            var divisor: UInt64 = 1
            for _ in 0..<decimals { divisor &*= 10 }
            let integral = digits / divisor
            digits %= divisor
            reserve(32)
            let start = count
            if double < 0 { put(UInt8(ascii: "-")) }
            writeInt(Int(integral))
            put(UInt8(ascii: "."))
            var position = count &+ decimals
            count = position
            for _ in 0..<decimals {
                position &-= 1
                base[position] = UInt8(truncatingIfNeeded: digits % 10) &+ 0x30
                digits /= 10
            }
            return count &- start
        }
        return nil
    }

    /// Appends an integer's decimal digits.
    mutating func writeInt(_ int: Int) {
        reserve(20)
        count &+= Self.writeDigits(of: int, to: base + count)
    }

    /// Appends an integer above `Int.max` (a `format: uint64` value). Rare: written by way of
    /// `String`.
    mutating func writeUInt(_ uint: UInt64) {
        append(Array(String(uint).utf8))
    }

    /// Writes an integer's decimal digits, with its sign, at `destination` (at most 20 bytes);
    /// returns how many it wrote.
    static func writeDigits(of int: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if int >= 0 && int < 10 {
            destination[0] = UInt8(truncatingIfNeeded: int) &+ 0x30
            return 1
        }
        var start = 0
        if int < 0 {
            destination[0] = UInt8(ascii: "-")
            start = 1
        }
        var magnitude = int.magnitude
        var digits = 1
        var scale: UInt = 10
        while digits < 20 && magnitude >= scale {
            digits &+= 1
            if digits < 20 { scale &*= 10 }
        }
        let end = start &+ digits
        var position = end
        repeat {
            let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
            position &-= 1
            destination[position] = UInt8(truncatingIfNeeded: digit) &+ 0x30
            magnitude = quotient
        } while magnitude > 0
        return end
    }

    /// Appends a string literal with the escapes JSON requires and no others (`/` is not
    /// escaped). Returns how many `/` it holds: the bytes the device's re-encoding adds.
    mutating func writeString(_ string: String) -> Int {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            // The span borrows the string's bytes, where `withContiguousStorageIfAvailable`
            // retains and releases the string: about 40 instructions a string.
            return string.utf8.span.withUnsafeBufferPointer { writeEscaped($0) }
        }
        if let slashes = string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) {
            return slashes
        }
        return Array(string.utf8).withUnsafeBufferPointer { writeEscaped($0) }
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let length = utf8.count
        // Room for the quotes and the longest escape of every byte: one check for the string.
        reserve(length &* 6 &+ 2)
        put(UInt8(ascii: "\""))
        guard length > 0, let source = utf8.baseAddress else {
            put(UInt8(ascii: "\""))
            return 0
        }
        var slashes = 0
        var runStart = 0
        EscapeScan.forEachFlaggedWord(source, length) { attention, wordStart in
            slashes &+= attention.slashes.nonzeroBitCount
            var escapes = attention.escapes
            while escapes != 0 {
                let at = wordStart &+ escapes.trailingZeroBitCount &>> 3
                copy(source + runStart, at &- runStart)
                putEscape(source[at])
                runStart = at &+ 1
                escapes &= escapes &- 1
            }
        }
        copy(source + runStart, length &- runStart)
        put(UInt8(ascii: "\""))
        return slashes
    }

    /// Copies a run of bytes that need no escape (room reserved by the caller).
    @inline(__always)
    private mutating func copy(_ start: UnsafePointer<UInt8>, _ length: Int) {
        guard length > 0 else { return }
        (base + count).initialize(from: start, count: length)
        count &+= length
    }

    /// Appends the escape of one byte that JSON does not allow raw in a string (room
    /// reserved by the caller).
    private mutating func putEscape(_ byte: UInt8) {
        put(UInt8(ascii: "\\"))
        if let letter = EscapeScan.shortEscape(byte) {
            put(letter)
        } else {
            let hex: StaticString = "0123456789abcdef"
            put(UInt8(ascii: "u"))
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "0"))
            put(hex.utf8Start[Int(byte >> 4)])
            put(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}
