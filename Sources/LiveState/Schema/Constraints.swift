extension Field {
    /// One limit a schema puts on a field's values beyond their type, named as the schema file
    /// names it.
    ///
    /// Every constraint is declared here once: its key, what it measures, which types it applies
    /// to and which side it bounds. The loader reads each by its key, the schema validator checks
    /// each against its field's type, the compatibility checker compares each between versions,
    /// and generated Swift passes each to `TolerantValue` by its name as an argument label; none
    /// of them lists the constraints again. Code outside the package names a constraint by its
    /// property of ``Field/Constraints``.
    package enum Constraint: String, Sendable, Hashable, CaseIterable {
        /// The smallest allowed number (`int`, `double`, `date`).
        case minimum
        /// The largest allowed number (`int`, `double`, `date`).
        case maximum
        /// The shortest allowed string, in UTF-8 bytes (`string`, `url`).
        case minLength = "min-length"
        /// The longest allowed string, in UTF-8 bytes (`string`, `url`).
        case maxLength = "max-length"
        /// The fewest elements an array, or entries a map, may hold.
        case minItems = "min-items"
        /// The most elements an array, or entries a map, may hold.
        case maxItems = "max-items"
        /// The longest key a map may hold, in UTF-8 bytes.
        case maxKeyLength = "max-key-length"

        /// What a constraint bounds: the number itself, a string's UTF-8 bytes, an array's
        /// elements, or a map key's UTF-8 bytes.
        package enum Measure: Sendable {
            case number, length, count, keyLength
        }

        package var measure: Measure {
            switch self {
            case .minimum, .maximum: .number
            case .minLength, .maxLength: .length
            case .minItems, .maxItems: .count
            case .maxKeyLength: .keyLength
            }
        }

        /// Whether the constraint is a lower bound (`minimum`, `min-length`) rather than an upper one.
        package var isLowerBound: Bool {
            switch self {
            case .minimum, .minLength, .minItems: true
            case .maximum, .maxLength, .maxItems, .maxKeyLength: false
            }
        }

        /// The case's name in Swift, which is also the property of `Constraints` and the
        /// argument label of `TolerantValue`: generated code writes `$0.string(maxLength: 32)`.
        package var swiftName: String { String(describing: self) }

        /// Whether a field of `type` may carry the constraint.
        package func applies(to type: FieldType) -> Bool {
            switch (measure, type) {
            case (.number, .int), (.number, .double), (.number, .date): true
            case (.length, .string), (.length, .url): true
            case (.count, .array), (.count, .map), (.keyLength, .map): true
            default: false
            }
        }

        /// The types `applies(to:)` accepts, for messages: `string and url fields`.
        package var appliesTo: String {
            switch measure {
            case .number: "int, double and date fields"
            case .length: "string and url fields"
            case .count: "array and map fields"
            case .keyLength: "map fields"
            }
        }

        /// What a bound of the measure counts, for messages: ` bytes`, ` items`, or nothing.
        package var unit: String {
            switch measure {
            case .number: ""
            case .length, .keyLength: " bytes"
            case .count: " items"
            }
        }

        /// Why `value` breaks this constraint's `bound`: `65 bytes is longer than max-length 64`.
        /// - Parameter shown: The value as the input wrote it, when that is not how
        ///   `ValueText.number` writes it (an `Int` beyond 2^53).
        /// - Parameter shownBound: The bound as an integer's is written, for an integer's
        ///   problem (`9007199254740992`, which `ValueText.number` writes `9007199254740992.0`).
        package func problem(_ value: Double, shown: String? = nil, bound: Double, shownBound: String? = nil) -> String {
            let (lower, upper) = switch measure {
            case .number: ("less", "greater")
            case .length, .keyLength: ("shorter", "longer")
            case .count: ("fewer", "more")
            }
            let text = shown ?? ValueText.number(value)
            return "\(text)\(unit) is \(isLowerBound ? lower : upper) than \(rawValue) \(shownBound ?? ValueText.number(bound))"
        }

        /// Whether `value` is on the allowed side of `bound`.
        @inline(__always)
        package func allows(_ value: Double, bound: Double) -> Bool {
            isLowerBound ? value >= bound : value <= bound
        }
    }

    /// The constraints a field carries, each decided and worded once.
    ///
    /// Every reader and writer asks these: the rule walk `Field.violation(of:)` and the encoder
    /// share (`FieldPlan.walk`, for defaults, the encoder and the schema validator),
    /// `ContentStateDecoder`, the accept-only tape builder (through the `allows…` forms, which
    /// never pass a value the `…Problem` forms refuse), and `TolerantValue`, the runtime that
    /// generated Swift calls.
    /// Code that builds a schema writes `Field.Constraints(maxLength: 64)`; generated code passes
    /// the same arguments to `TolerantValue`: `try $0.string(maxLength: 64)`.
    public struct Constraints: Sendable, Hashable {
        /// The smallest allowed number.
        public var minimum: Double?
        /// The largest allowed number.
        public var maximum: Double?
        /// The shortest allowed string, in UTF-8 bytes.
        public var minLength: Int?
        /// The longest allowed string, in UTF-8 bytes.
        public var maxLength: Int?
        /// The fewest elements an array, or entries a map, may hold.
        public var minItems: Int?
        /// The most elements an array, or entries a map, may hold.
        public var maxItems: Int?
        /// The longest key a map may hold, in UTF-8 bytes.
        public var maxKeyLength: Int?

        /// No constraints.
        public init() {}

        /// Creates a set of constraints; `nil` leaves a constraint out.
        public init(
            minimum: Double? = nil, maximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil, minItems: Int? = nil,
            maxItems: Int? = nil, maxKeyLength: Int? = nil
        ) {
            self.minimum = minimum
            self.maximum = maximum
            self.minLength = minLength
            self.maxLength = maxLength
            self.minItems = minItems
            self.maxItems = maxItems
            self.maxKeyLength = maxKeyLength
        }

        /// A constraint's bound as a number; a length or count that is not a whole number is
        /// not set.
        package subscript(constraint: Constraint) -> Double? {
            get {
                switch constraint {
                case .minimum: minimum
                case .maximum: maximum
                case .minLength: minLength.map(Double.init)
                case .maxLength: maxLength.map(Double.init)
                case .minItems: minItems.map(Double.init)
                case .maxItems: maxItems.map(Double.init)
                case .maxKeyLength: maxKeyLength.map(Double.init)
                }
            }
            set {
                switch constraint {
                case .minimum: minimum = newValue
                case .maximum: maximum = newValue
                case .minLength: minLength = newValue.flatMap(Self.whole)
                case .maxLength: maxLength = newValue.flatMap(Self.whole)
                case .minItems: minItems = newValue.flatMap(Self.whole)
                case .maxItems: maxItems = newValue.flatMap(Self.whole)
                case .maxKeyLength: maxKeyLength = newValue.flatMap(Self.whole)
                }
            }
        }

        /// A length or count: a whole number, `Int.max` for one past it (`Double(Int.max)` is 2^63).
        private static func whole(_ bound: Double) -> Int? {
            Int(exactly: bound) ?? (bound >= 0x1p63 ? Int.max : nil)
        }

        /// The constraints that are set, in declaration order, with their bounds.
        package var bounds: [(constraint: Constraint, bound: Double)] {
            Constraint.allCases.compactMap { constraint in self[constraint].map { (constraint, $0) } }
        }

        // MARK: Strings (UTF-8 bytes)

        @inline(__always)
        func allowsLength(_ bytes: Int) -> Bool {
            if let maxLength, bytes > maxLength { return false }
            if let minLength, bytes < minLength { return false }
            return true
        }

        func lengthProblem(_ bytes: Int) -> String? {
            problem(Double(bytes), measure: .length)
        }

        // MARK: Arrays

        @inline(__always)
        func allowsCount(_ count: Int) -> Bool {
            if let maxItems, count > maxItems { return false }
            if let minItems, count < minItems { return false }
            return true
        }

        package func countProblem(_ count: Int) -> String? {
            problem(Double(count), measure: .count)
        }

        // MARK: Map keys (UTF-8 bytes)

        /// Why a map's key of `bytes` UTF-8 bytes breaks `max-key-length`, or `nil`.
        package func keyLengthProblem(_ bytes: Int) -> String? {
            guard let maxKeyLength, bytes > maxKeyLength else { return nil }
            return "the key is \(bytes) bytes, longer than max-key-length \(maxKeyLength)"
        }

        // MARK: Numbers

        @inline(__always)
        func allowsNumber(_ number: Double) -> Bool {
            if let minimum, number < minimum { return false }
            if let maximum, number > maximum { return false }
            return true
        }

        /// - Parameter shown: The number as the input wrote it, when that is not how
        ///   `ValueText.number` writes it (an `Int` beyond 2^53).
        func rangeProblem(_ number: Double, shown: String? = nil) -> String? {
            problem(number, shown: shown, measure: .number)
        }

        /// Whether an integer (an `int` field's value, `Int` or an app's `UInt64`) is within
        /// `minimum` and `maximum`, compared exactly. As a `Double`, an integer past 2^53 is
        /// rounded (9007199254740993 is 9007199254740992) and would pass a bound it breaks by
        /// less than the rounding; where the two `Double`s tie, the integers are compared.
        func allowsInteger(_ integer: Int) -> Bool {
            integerRange?.contains(integer) ?? false
        }

        /// The `Int`s within `minimum` and `maximum`, exactly: from the least whole number at or
        /// above `minimum` to the greatest at or below `maximum`, within `Int`'s range; `nil`
        /// when no `Int` is. A plan holds it, so that its check is two integer comparisons.
        package var integerRange: ClosedRange<Int>? {
            var lowest = Int.min
            var highest = Int.max
            if let minimum {
                // 2^63 and up: above every Int.
                guard minimum < 0x1p63 else { return nil }
                if minimum > -0x1p63 { lowest = Int(minimum.rounded(.up)) }
            }
            if let maximum {
                guard maximum >= -0x1p63 else { return nil }
                if maximum < 0x1p63 { highest = Int(maximum.rounded(.down)) }
            }
            return lowest <= highest ? lowest...highest : nil
        }

        /// `allowsInteger` for an app's `UInt64` past `Int`.
        func allowsInteger(_ integer: UInt64) -> Bool {
            let number = Double(integer)
            if let minimum, number <= minimum, number < minimum || Self.order(integer, tiedWith: minimum) < 0 { return false }
            if let maximum, number >= maximum, number > maximum || Self.order(integer, tiedWith: maximum) > 0 { return false }
            return true
        }

        /// Why an integer breaks `minimum` or `maximum`, compared as `allowsInteger` compares,
        /// worded with the integer as it is: `9007199254740993 is greater than maximum 9007199254740992`.
        func rangeProblem<T: BinaryInteger>(integer: T) -> String? {
            let number = Double(integer)
            for constraint in [Constraint.minimum, .maximum] {
                guard let bound = self[constraint] else { continue }
                let order = number != bound ? (number < bound ? -1 : 1) : Self.order(integer, tiedWith: bound)
                if constraint.isLowerBound ? order < 0 : order > 0 {
                    let whole = Int64(exactly: bound).map(String.init) ?? UInt64(exactly: bound).map(String.init)
                    return constraint.problem(number, shown: String(integer), bound: bound, shownBound: whole)
                }
            }
            return nil
        }

        /// -1, 0 or 1 as `integer` is below, at or above `bound`, whose `Double` equals the
        /// integer's: `bound` is then a whole number, held exactly by `T` unless it is past `T`'s
        /// range (2^63 for an `Int`, which every `Int` is below).
        private static func order<T: BinaryInteger>(_ integer: T, tiedWith bound: Double) -> Int {
            guard let exact = T(exactly: bound) else { return bound > 0 ? -1 : 1 }
            return integer < exact ? -1 : integer > exact ? 1 : 0
        }

        /// The first constraint of `measure` that `value` breaks, worded.
        private func problem(_ value: Double, shown: String? = nil, measure: Constraint.Measure) -> String? {
            for constraint in Constraint.allCases where constraint.measure == measure {
                if let bound = self[constraint], !constraint.allows(value, bound: bound) {
                    return constraint.problem(value, shown: shown, bound: bound)
                }
            }
            return nil
        }

        // MARK: Rules of the types themselves

        static func finiteProblem(_ number: Double) -> String? {
            number.isFinite ? nil : "\(number) is not a finite number"
        }

        /// A date range's bounds: finite, and the lower not after the upper.
        @inline(__always)
        static func allowsOrder(lower: Double, upper: Double) -> Bool {
            lower.isFinite && upper.isFinite && lower <= upper
        }

        /// Why a date range's bounds break `allowsOrder`, or `nil` when they do not.
        static func orderProblem(lower: Double, upper: Double) -> String? {
            guard !allowsOrder(lower: lower, upper: upper) else { return nil }
            guard lower.isFinite, upper.isFinite else { return "a date-range needs finite bounds" }
            return "the date-range's lower bound \(ValueText.number(lower)) is after its upper bound \(ValueText.number(upper))"
        }
    }
}
