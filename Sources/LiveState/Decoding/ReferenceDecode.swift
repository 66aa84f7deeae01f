import Foundation

// The reference decode: the full decoder's object walk, which reads an object member by member
// with `JSONReader`, making its value as it goes. The product reads every object on a tape
// (`TapeBuilder`); this walk runs only when `ContentStateDecoder.readsInOnePass` or
// `BodyChecker.readsInOnePass` is off, as the oracle the tape's results are compared with
// by the tests and the fuzzers (`DecodeContext.isReference`), and for an object that is a
// map's value, which the full decoder reads with the map (`decodeMap`). Both ask the same rules of a value
// (`decide`, `decodeValue`, `settle`), of keys (`ObjectPlan.index(of:in:hint:)`, `KeyList`,
// `ReadAgain`) and the same words; what is written twice is the member loop itself.

extension DecodeContext {
    /// Decodes an object against its fields. The reader is at `{`.
    mutating func decodeObject(_ plan: ObjectPlan, isRoot: Bool) throws(JSONError) -> Value? {
        #if DEBUG
        ObjectWalks.counter?.add()
        #endif
        let objectStart = reader.offset
        try reader.beginObject()
        let count = plan.fields.count
        // The defaults copied into a new buffer (`map`): a copy of the shared array would be
        // copied again, through the generic array copy, on the first store.
        var members = plan.initialMembers.map { $0 }
        var seen = FieldSet(count: count)
        var fromAlias = FieldSet(count: count)
        var invalid: DecodeProblem?
        // An invalid value read under an alias is settled only at the end of the object: the
        // field's own key, or an alias listed earlier, may still replace it.
        var aliasProblems: [(index: Int, problem: DecodeProblem)] = []
        // For a field read under an alias: the alias's position in the field's `aliases`.
        var aliasRanks: [Int: Int] = [:]
        // For strict clients: the first field, in schema order, that synthesized Codable fails on.
        var strictIndex = Int.max
        var objectStrictProblem: DecodeProblem?
        // Keys the version does not know, so that a repeated one is reported as a duplicate.
        var unknownKeys = KeyList()
        var hint = 0
        let recordsSpans = isRoot && spans != nil
        var openSpan: MemberSpan?

        while true {
            if recordsSpans, var span = openSpan {
                span.end = reader.offset
                spans?.append(span)
                openSpan = nil
            }
            guard let key = try reader.nextKey() else { break }
            let keyOffset = key.start &- 1
            if recordsSpans { openSpan = MemberSpan(key: key, start: keyOffset, end: keyOffset) }
            var index = plan.index(of: key, in: reader, hint: hint)
            var isAlias = false
            var aliasRank = 0
            if index == nil, let aliased = plan.aliasIndex(of: key, in: reader) {
                index = aliased.field
                aliasRank = aliased.rank
                isAlias = true
            }
            if recordsSpans, !isAlias, let index { openSpan?.fieldName = plan.memberNames[index] }
            guard let index else {
                if unknownKeys.contains(key, in: reader) {
                    reportRepeatedUnknownKey(key, at: keyOffset)
                } else {
                    unknownKeys.insert(key, in: reader)
                    reportUnknownKey(key, at: keyOffset, inFieldless: !isRoot && plan.fieldCount == 0)
                }
                try reader.skipValue()
                continue
            }
            let fieldPlan = plan.fields[index]
            if seen.contains(index) {
                let earlier = fromAlias.contains(index) ? aliasRanks[index] : nil
                switch ReadAgain(earlier: earlier, now: isAlias ? aliasRank : nil) {
                case .replaces:
                    if !isAlias { fromAlias.remove(index) }
                    aliasProblems.removeAll { $0.index == index }
                    members[index].value = plan.initialMembers[index].value
                case .keepsFirst(let reportsDuplicate):
                    if reportsDuplicate {
                        let here = pointer(appending: fieldPlan.field.name)
                        report(.duplicateKey, Self.repeatedKeyMessage(fieldPlan, pointer: here, valueAfter: reader.offset, in: reader),
                               at: keyOffset, pointer: here)
                    }
                    try reader.skipValue()
                    continue
                }
            }
            seen.insert(index)
            if isAlias {
                fromAlias.insert(index)
                aliasRanks[index] = aliasRank
            }
            hint = index &+ 1
            path.push(fieldPlan)
            let value = try decodeValue(fieldPlan)
            if let strictFailure = strictProblem {
                strictProblem = nil
                if strict && !isAlias, index < strictIndex {
                    strictIndex = index
                    objectStrictProblem = strictFailure
                }
            }
            if let value {
                members[index].value = value
            } else if let fallbackProblem = problem {
                problem = nil
                if isAlias {
                    aliasProblems.append((index, fallbackProblem))
                } else if let replacement = settle(fieldPlan, problem: fallbackProblem, isRoot: isRoot) {
                    members[index].value = replacement
                } else if invalid == nil {
                    invalid = fallbackProblem
                }
            }
            path.pop()
        }
        for (index, problem) in aliasProblems {
            let fieldPlan = plan.fields[index]
            path.push(fieldPlan)
            if let replacement = settle(fieldPlan, problem: problem, isRoot: isRoot) {
                members[index].value = replacement
            } else if invalid == nil {
                invalid = problem
            }
            path.pop()
        }

        var index = 0
        while index < count {
            defer { index &+= 1 }
            if seen.contains(index) && !(strict && fromAlias.contains(index)) { continue }
            let fieldPlan = plan.fields[index]
            if strict, index < strictIndex, !fieldPlan.isOptional {
                strictIndex = index
                objectStrictProblem = missingForCodable(fieldPlan.field.name, at: objectStart)
            }
            if seen.contains(index) { continue }
            if fieldPlan.hasMissingValue {
                if let message = fieldPlan.defaultedMessage {
                    report(.defaulted, message, at: objectStart, pointer: pointer(appendingToken: fieldPlan.pointerToken))
                }
            } else {
                let name = fieldPlan.field.name
                if isRoot {
                    report(.missingRequiredKey, Self.missingRequiredMessage(name, consequence: consequence),
                           at: objectStart, pointer: pointer(appending: name))
                }
                if invalid == nil { invalid = missingRequired(name, at: objectStart) }
            }
        }

        strictProblem = objectStrictProblem
        if let invalid {
            problem = invalid
            return nil
        }
        return .object(members)
    }

    /// Reports a key the version does not know, building the message in one allocation.
    private mutating func reportUnknownKey(_ key: JSONString, at offset: Int, inFieldless: Bool) {
        let name = reader.string(key)
        let message = inFieldless ? Self.uncheckedKeyMessage(name, version: versionText) : Self.unknownKeyMessage(name, version: versionText)
        report(.unknownKey, message, at: offset, pointer: pointer(appending: name))
    }

    /// Reports an unknown key that this object already had: a duplicate, which the device
    /// ignores like the first.
    private mutating func reportRepeatedUnknownKey(_ key: JSONString, at offset: Int) {
        let name = reader.string(key)
        report(.duplicateKey, Self.repeatedUnknownKeyMessage(name, version: versionText), at: offset, pointer: pointer(appending: name))
    }
}

#if DEBUG
/// Counts the full decoder's object walks (`DecodeContext.decodeObject`) inside
/// `ObjectWalks.counting`: tests hold the product to reading every object on a tape.
enum ObjectWalks {
    @TaskLocal static var counter: Counter?

    /// What `body` returns, and the object walks it made.
    static func counting<Result>(_ body: () throws -> Result) rethrows -> (Result, walks: Int) {
        let counter = Counter()
        let result = try $counter.withValue(counter, operation: body)
        return (result, counter.count)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var walks = 0

        init() {}

        var count: Int { lock.withLock { walks } }

        func add() { lock.withLock { walks += 1 } }
    }
}
#endif
