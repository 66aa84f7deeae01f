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
}
