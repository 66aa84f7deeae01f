import Testing
@testable import LiveState
import LiveStateTooling

@Suite struct WorstCaseSizeCompatibilityTests {
    @Test func countsKeysStringsAtMaxLengthAndBooleansAtFalse() {
        let size = WorstCaseSize(fields: [
            Field(name: "title", type: .string, constraints: .init(maxLength: 8)),
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
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .int, constraints: .init(minimum: 0, maximum: 600))]).bytes == 2 + 4 + 3)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .int, constraints: .init(minimum: -1000, maximum: 5))]).bytes == 2 + 4 + 5)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .dateRange)]).bytes == 2 + 4 + 51)
        #expect(WorstCaseSize(fields: [Field(name: "a", type: .enumeration(.integers([1, 100])))]).bytes == 2 + 4 + 3)
    }

    @Test func enumsCountTheirLongestRawValueAndOptionalsAtLeastNull() {
        #expect(WorstCaseSize(fields: [Field(name: "s", type: .enumeration(.strings(["a", "abc"])))]).bytes == 2 + 4 + 5)
        #expect(WorstCaseSize(fields: [Field(name: "s", type: .string, isOptional: true, constraints: .init(maxLength: 1))]).bytes == 2 + 4 + 4)
        // A null that takes the default (`on-null: default`) may be sent too.
        let level = { (nullTakesDefault: Bool) in
            Field(name: "s", type: .enumeration(.integers([1, 2])), defaultValue: .int(1), nullTakesDefault: nullTakesDefault)
        }
        #expect(WorstCaseSize(fields: [level(false)]).bytes == 2 + 4 + 1)
        #expect(WorstCaseSize(fields: [level(true)]).bytes == 2 + 4 + 4)
    }

    /// Bounds a schema may state whose worst case passes `Int`: `check`, `budget`, `diff` and the
    /// sidecar's diff route trapped on the sum (the sidecar went down with it).
    @Test func aWorstCasePastIntIsIntMaxNotATrap() {
        let huge = Field(name: "", type: .string, constraints: .init(maxLength: 4_000_000_000))
        let array = Field(name: "a", type: .array(items: huge), constraints: .init(maxItems: 3_000_000_000))
        #expect(WorstCaseSize(fields: [array]).bytes == Int.max)
        let longest = Field(name: "s", type: .string, constraints: .init(maxLength: Int.max))
        #expect(WorstCaseSize(fields: [longest, longest]).bytes == Int.max)
        let map = Field(name: "m", type: .map(items: Field(name: "", type: .bool)), constraints: .init(maxItems: 2, maxKeyLength: Int.max - 1))
        let size = WorstCaseSize(fields: [map])
        #expect(size.bytes == Int.max && size.fittedBytes == Int.max && size.fields.map(\.bytes) == [Int.max])
    }

    @Test func arraysAndObjectsNest() {
        let items = Field(name: "", type: .object(fields: [Field(name: "n", type: .int, constraints: .init(minimum: 0, maximum: 9))]))
        let size = WorstCaseSize(fields: [Field(name: "xs", type: .array(items: items), constraints: .init(maxItems: 3))])
        // {"xs":[{"n":9},{"n":9},{"n":9}]}
        #expect(size.bytes == #"{"xs":[{"n":9},{"n":9},{"n":9}]}"#.utf8.count)
    }

    @Test func missingBoundsAreListedWithTheirPointers() {
        let size = WorstCaseSize(fields: [
            Field(name: "note", type: .string),
            Field(name: "tags", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: 4)))),
            Field(name: "deep", type: .array(items: Field(name: "", type: .url)), constraints: .init(maxItems: 2)),
        ])
        #expect(!size.isBounded)
        #expect(size.unbounded.map(\.pointer) == ["/note", "/tags", "/deep/-"])
        #expect(size.unbounded.map(\.missing) == ["max-length", "max-items", "max-length"])
        #expect(size.fittedBytes == nil)
    }

    /// As the encoder fits: a drop-priority field is left out, and the device re-encodes its
    /// default; a truncate string is cut to "…" (3 bytes) or its min-length, no shorter (the
    /// figure counted neither, and promised a size `encode --fit` could not reach).
    @Test func fittingDropsDropPriorityFieldsToTheirDefaultsAndCutsTruncateStrings() {
        let size = WorstCaseSize(fields: [
            Field(name: "a", type: .string, constraints: .init(maxLength: 100), truncate: true),
            Field(name: "b", type: .string, defaultValue: .string("-"), constraints: .init(maxLength: 100), dropPriority: 1),
            Field(name: "c", type: .string, truncate: true),
            Field(name: "d", type: .string, constraints: .init(minLength: 10, maxLength: 100), truncate: true),
            Field(name: "e", type: .string, constraints: .init(maxLength: 2), truncate: true),
        ])
        #expect(size.fittedBytes == #"{"a":"…","b":"-","c":"…","d":"0123456789","e":"ab"}"#.utf8.count)
    }

    /// `encode --fit` drops and shortens top-level fields only: a nested `truncate` or
    /// `drop-priority` (which the schema validator refuses) counted as fitted, and the gate
    /// promised a size the encoder never reached.
    @Test func fittingLeavesNestedFieldsAsTheyAre() {
        let name = Field(name: "name", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 100), truncate: true)
        let badge = Field(name: "badge", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 50), dropPriority: 1)
        let size = WorstCaseSize(fields: [
            Field(name: "o", type: .object(fields: [name, badge])),
            Field(name: "xs", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: 10), truncate: true)),
                  constraints: .init(maxItems: 2)),
        ])
        #expect(size.fittedBytes == size.bytes)
    }
}

@Suite struct EscapedLengthTests {
    /// What Foundation's `JSONEncoder` writes for a string, counted byte by byte.
    private func reference(_ string: String) -> Int {
        2 + string.utf8.reduce(0) { total, byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: total + 2
            case 0x00..<0x20: total + 6
            default: total + 1
            }
        }
    }

    @Test func agreesWithAByteByByteCountOnEveryKindOfByteAtEveryPosition() {
        // Each special byte at every offset of strings 0 to 40 bytes long, so that it falls in a
        // whole word, in the tail, and beside bytes that borrow in the word-wide test.
        let specials: [Character] = ["\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}",
                                     " ", "!", "0", "é", "\u{7F}", "😀"]
        for length in 0...40 {
            let plain = String(repeating: "a", count: length)
            #expect(ByteBudget.escapedLength(plain) == length + 2)
            for special in specials {
                for position in 0...length {
                    var characters = Array(plain)
                    characters.insert(special, at: position)
                    let string = String(characters)
                    #expect(ByteBudget.escapedLength(string) == reference(string), "\(string.debugDescription)")
                }
            }
        }
    }

    @Test func agreesOnRandomMixes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "\"", "\\", "/", "\u{1}", "\n", " ", "é", "\u{20}", "\u{2F}", "\u{30}", "\u{5B}", "\u{5D}"]
        for _ in 0..<2_000 {
            let string = String((0..<Int.random(in: 0...64, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(ByteBudget.escapedLength(string) == reference(string), "\(string.debugDescription)")
        }
    }
}
