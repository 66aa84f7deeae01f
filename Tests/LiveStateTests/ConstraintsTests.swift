import Testing
@testable import LiveState

/// `Field.Constraints`: the quick `allows…` checks the hot paths use never disagree with the
/// worded `…Problem` checks, and each constraint is declared once for every reader.
struct ConstraintsTests {
    /// Every constraint alone, with every value around its bound.
    @Test(arguments: Field.Constraint.allCases)
    func quickCheckAndWordedCheckAgree(_ constraint: Field.Constraint) {
        for bound in [0.0, 1, 5, 64] {
            var constraints = Field.Constraints()
            constraints[constraint] = bound
            for value in stride(from: bound - 2, through: bound + 2, by: 1) where value >= 0 || constraint.measure == .number {
                let (allowed, problem) = switch constraint.measure {
                case .number: (constraints.allowsNumber(value), constraints.rangeProblem(value))
                case .length: (constraints.allowsLength(Int(value)), constraints.lengthProblem(Int(value)))
                case .count: (constraints.allowsCount(Int(value)), constraints.countProblem(Int(value)))
                case .keyLength: (constraint.allows(value, bound: bound), constraints.keyLengthProblem(Int(value)))
                }
                #expect(allowed == (problem == nil), "\(constraint.rawValue) \(bound), value \(value): \(problem ?? "allowed")")
                #expect(allowed == constraint.allows(value, bound: bound))
            }
        }
    }

    /// A date range's order: the tape builder's quick check and the worded one agree.
    @Test func dateRangeOrderQuickAndWordedAgree() {
        let bounds: [Double] = [-1, 0, 0.5, 1, .infinity, -.infinity, .nan]
        for lower in bounds {
            for upper in bounds {
                let problem = Field.Constraints.orderProblem(lower: lower, upper: upper)
                #expect(Field.Constraints.allowsOrder(lower: lower, upper: upper) == (problem == nil), "[\(lower), \(upper)]: \(problem ?? "allowed")")
            }
        }
        #expect(Field.Constraints.orderProblem(lower: 2, upper: 1) == "the date-range's lower bound 2 is after its upper bound 1")
        #expect(Field.Constraints.orderProblem(lower: .nan, upper: 1) == "a date-range needs finite bounds")
    }

    @Test func problemsAreWordedWithTheSchemaFilesNames() {
        let constraints: Field.Constraints = .init(minimum: 1, maximum: 99, maxLength: 64, maxItems: 2)
        #expect(constraints.rangeProblem(0) == "0 is less than minimum 1")
        #expect(constraints.rangeProblem(100) == "100 is greater than maximum 99")
        #expect(constraints.rangeProblem(9_007_199_254_740_993, shown: "9007199254740993") == "9007199254740993 is greater than maximum 99")
        #expect(constraints.lengthProblem(65) == "65 bytes is longer than max-length 64")
        #expect(constraints.countProblem(3) == "3 items is more than max-items 2")
        #expect(constraints.rangeProblem(50) == nil && constraints.lengthProblem(64) == nil && constraints.countProblem(2) == nil)
    }

    @Test func aDictionaryLiteralSetsWhatTheSubscriptReads() {
        let constraints: Field.Constraints = .init(maximum: 1.5, maxLength: 32)
        #expect(constraints == Field.Constraints(maximum: 1.5, maxLength: 32))
        #expect(constraints.bounds.map(\.constraint) == [.maximum, .maxLength])
        #expect(constraints[.maxLength] == 32 && constraints[.minimum] == nil)
    }

    @Test func aLengthOrCountIsAWholeNumber() {
        var constraints = Field.Constraints()
        constraints[.maxLength] = 2.5
        #expect(constraints.maxLength == nil)
        constraints[.maxItems] = Double(Int.max)
        #expect(constraints.maxItems == Int.max)
    }

    /// The initializer's constraint arguments land in `constraints`, which `violation(of:)` asks.
    @Test func aFieldsConstraintsAreTheOnesItChecks() {
        var field = Field(name: "title", type: .string, constraints: .init(maxLength: 64))
        #expect(field.constraints == .init(maxLength: 64))
        field.constraints.maxLength = 10
        #expect(field.violation(of: .string("12345678901")) == "11 bytes is longer than max-length 10")
    }

    /// An integer past 2^53 and a bound it breaks by less than a `Double`'s rounding:
    /// `maximum: 9007199254740992` let 9007199254740993 through (both are 2^53 as `Double`s), in
    /// every reader. They compare exactly now, and the message shows the integer as sent.
    @Test func integersAreComparedWithTheirBoundsExactly() throws {
        let bounds = Field.Constraints(minimum: -9_007_199_254_740_992, maximum: 9_007_199_254_740_992)
        #expect(bounds.allowsInteger(9_007_199_254_740_992) && bounds.allowsInteger(-9_007_199_254_740_992))
        #expect(!bounds.allowsInteger(9_007_199_254_740_993) && !bounds.allowsInteger(-9_007_199_254_740_993))
        #expect(bounds.rangeProblem(integer: 9_007_199_254_740_993) == "9007199254740993 is greater than maximum 9007199254740992")
        #expect(bounds.rangeProblem(integer: -9_007_199_254_740_993) == "-9007199254740993 is less than minimum -9007199254740992")
        // The edges of Int and UInt64, which a Double holds as 2^63 and 2^64.
        let int = Field.Constraints(minimum: Double(Int.min), maximum: Double(Int.max))
        #expect(int.allowsInteger(Int.max) && int.allowsInteger(Int.min))
        let uint = Field.Constraints(minimum: 0, maximum: Double(UInt64.max))
        #expect(uint.allowsInteger(UInt64.max) && !uint.allowsInteger(-1))
        #expect(!Field.Constraints(maximum: 18_446_744_073_709_549_568).allowsInteger(UInt64.max - 1))

        // Every reader asks the rule: the one-pass read, the full decode, the encoder, generated types.
        let field = Field(name: "n", type: .int, constraints: .init(maximum: 9_007_199_254_740_992))
        let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [field])])
        let decoder = try ContentStateDecoder(schema: schema)
        let bytes = Array(#"{"n":9007199254740993}"#.utf8)
        for result in [decoder.decode(contentState: bytes), decoder.decodeInFull(contentState: bytes)] {
            #expect(!result.appDecodes)
            #expect(result.diagnostics.first?.message.hasPrefix("9007199254740993 is greater than maximum 9007199254740992") == true, "\(result.diagnostics)")
        }
        #expect(decoder.decode(contentState: Array(#"{"n":9007199254740992}"#.utf8)).appDecodes)
        #expect(field.violation(of: .int(9_007_199_254_740_993)) == "9007199254740993 is greater than maximum 9007199254740992")
        #expect(try ContentStateEncoder(schema: schema).encode(.object([.init("n", .int(9_007_199_254_740_993))])).bytes.isEmpty)
    }

    /// The plan's `Int` range, the `UInt64` check and the message decide alike, on bounds and
    /// integers around 2^53, 2^63, 2^64, zero and a fraction.
    @Test func theIntegerFormsOfTheRangeRuleAgree() {
        let edges: [Double] = [0, 0.5, -0.5, 100, 0x1p53, -0x1p53, 0x1p53 + 2, 0x1p63, -0x1p63, 0x1p64, 1e19, -1e19, 0x1p62 + 512]
        var bounds = [Field.Constraints()]
        for low in edges { bounds.append(.init(minimum: low)) }
        for high in edges { bounds.append(.init(maximum: high)) }
        for low in edges { for high in edges where low <= high { bounds.append(.init(minimum: low, maximum: high)) } }
        var integers: [Int] = [0, 1, -1, 100, 101, Int.max, Int.min, Int.max - 1, Int.min + 1, 1 << 62, (1 << 62) + 512, (1 << 62) + 513]
        for base in [1 << 53, -(1 << 53), (1 << 53) + 2] { integers += (-3...3).map { base + $0 } }
        for bound in bounds {
            for int in integers {
                #expect(bound.allowsInteger(int) == (bound.rangeProblem(integer: int) == nil), "\(bound) \(int)")
                if int >= 0 {
                    #expect(bound.allowsInteger(UInt64(int)) == bound.allowsInteger(int), "\(bound) \(int)")
                }
            }
            for uint in [UInt64.max, UInt64.max - 1, UInt64(1) << 63, (UInt64(1) << 63) + 1] {
                #expect(bound.allowsInteger(uint) == (bound.rangeProblem(integer: uint) == nil), "\(bound) \(uint)")
            }
        }
    }
}
