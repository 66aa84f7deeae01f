import Testing
@testable import LiveState

@Suite struct WorstCaseSizeCompatibilityTests {
    @Test func countsKeysStringsAtMaxLengthAndBooleansAtFalse() {
        let size = WorstCaseSize(fields: [
            Field(name: "title", type: .string, maxLength: 8),
            Field(name: "done", type: .bool),
        ])
        // {"title":"12345678","done":false}
        #expect(size.bytes == 33)
        #expect(size.bytes == #"{"title":"12345678","done":false}"#.utf8.count)
        #expect(size.fields.map(\.bytes) == [18, 12])
        #expect(size.isBounded)
    }

    @Test func numbersAreAtTheirWidest() {
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .double)]).bytes == 2 + 4 + 24)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .int)]).bytes == 2 + 4 + 20)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .int, minimum: 0, maximum: 600)]).bytes == 2 + 4 + 3)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .int, minimum: -1000, maximum: 5)]).bytes == 2 + 4 + 5)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .dateRange)]).bytes == 2 + 4 + 51)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .enumeration(.integers([1, 100])))]).bytes == 2 + 4 + 3)
    }

    @Test func enumsCountTheirLongestRawValueAndOptionalsAtLeastNull() {
        #expect(WorstCaseSize(fields: [Field(name: "s", type: .enumeration(.strings(["a", "abc"])))]).bytes == 2 + 4 + 5)
        #expect(WorstCaseSize(fields: [Field(name: "s", type: .string, isOptional: true, maxLength: 1)]).bytes == 2 + 4 + 4)
    }

    @Test func arraysAndObjectsNest() {
        let items = Field(name: "", type: .object(fields: [Field(name: "n", type: .int, minimum: 0, maximum: 9)]))
        let size = WorstCaseSize(fields: [Field(name: "xs", type: .array(items: items), maxItems: 3)])
        // {"xs":[{"n":9},{"n":9},{"n":9}]}
        #expect(size.bytes == #"{"xs":[{"n":9},{"n":9},{"n":9}]}"#.utf8.count)
    }

    @Test func missingBoundsAreListedWithTheirPointers() {
        let size = WorstCaseSize(fields: [
            Field(name: "note", type: .string),
            Field(name: "tags", type: .array(items: Field(name: "", type: .string, maxLength: 4))),
            Field(name: "deep", type: .array(items: Field(name: "", type: .url)), maxItems: 2),
        ])
        #expect(!size.isBounded)
        #expect(size.unbounded.map(\.pointer) == ["/note", "/tags", "/deep/-"])
        #expect(size.unbounded.map(\.missing) == ["max-length", "max-items", "max-length"])
        #expect(size.fittedBytes == nil)
    }

    @Test func fittingDropsDropPriorityFieldsAndEmptiesTruncateStrings() {
        let size = WorstCaseSize(fields: [
            Field(name: "a", type: .string, maxLength: 100, truncate: true),
            Field(name: "b", type: .string, maxLength: 100, dropPriority: 1),
            Field(name: "c", type: .string, truncate: true),
        ])
        #expect(size.fittedBytes == #"{"a":"","c":""}"#.utf8.count)
    }
}
