import Testing
@testable import LiveState
@testable import LiveStateTooling

@Suite struct TypePromotionCompatibilityTests {
    private func classify(_ writer: FieldType, _ reader: FieldType, readerMaxItems: Int? = nil) -> String {
        switch TypePromotion.classify(writer: Field(name: "x", type: writer), reader: Field(name: "x", type: reader, constraints: .init(maxItems: readerMaxItems))) {
        case .same: "same"
        case .compatible: "compatible"
        case .epochChanged: "epoch-changed"
        case .narrowed: "narrowed"
        case .incompatible: "incompatible"
        }
    }

    @Test func numbersPromoteTowardDoubleOnly() {
        #expect(classify(.int, .double) == "compatible")
        #expect(classify(.double, .int) == "narrowed")
        #expect(classify(.int, .date) == "epoch-changed")
        #expect(classify(.date, .int) == "narrowed")
    }

    @Test func dateAndNumberAreTheSameJSONNumberInAnotherEpoch() {
        #expect(classify(.date, .double) == "epoch-changed")
        #expect(classify(.double, .date) == "epoch-changed")
        #expect(classify(.int, .date) == "epoch-changed")
        guard case .narrowed(let why) = TypePromotion.classify(writer: Field(name: "x", type: .date), reader: Field(name: "x", type: .int)) else {
            Issue.record("date → int is narrowed")
            return
        }
        #expect(why.contains("31 years"))
    }

    @Test func urlAndStringAreTheSameJSONStringButAStringNeedNotBeAURL() {
        #expect(classify(.url, .string) == "compatible")
        #expect(classify(.string, .url) == "narrowed")
    }

    @Test func enumsAreTheirRawTypeOneWay() {
        #expect(classify(.enumeration(.strings(["a"])), .string) == "compatible")
        #expect(classify(.string, .enumeration(.strings(["a"]))) == "narrowed")
        #expect(classify(.enumeration(.integers([1])), .int) == "compatible")
        #expect(classify(.enumeration(.integers([1])), .double) == "compatible")
        #expect(classify(.int, .enumeration(.integers([1]))) == "narrowed")
        #expect(classify(.enumeration(.strings(["a"])), .enumeration(.strings(["b"]))) == "same")
        #expect(classify(.enumeration(.strings(["1"])), .enumeration(.integers([1]))) == "incompatible")
    }

    @Test func dateRangeIsAnArrayOfTwoNumbers() {
        let doubles = FieldType.array(items: Field(name: "", type: .double))
        #expect(classify(.dateRange, doubles) == "compatible")
        #expect(classify(.dateRange, doubles, readerMaxItems: 1) == "narrowed")
        #expect(classify(doubles, .dateRange) == "narrowed")
        #expect(classify(.dateRange, .array(items: Field(name: "", type: .string))) == "incompatible")
    }

    @Test func otherJSONKindsAreIncompatible() {
        #expect(classify(.bool, .int) == "incompatible")
        #expect(classify(.string, .int) == "incompatible")
        #expect(classify(.object(fields: []), .array(items: Field(name: "", type: .int))) == "incompatible")
    }
}
