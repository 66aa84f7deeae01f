import LiveState

extension PairComparison {
    /// Compares the types of a field present on both sides, then what is inside them: enum
    /// values, object fields, array items and constraints.
    mutating func compareTypes(reader: Field, writer: Field, at place: Place, promotion: TypePromotion) {
        let name = display(place.readerPointer)
        let writerType = TypePromotion.describe(writer.type)
        let readerType = TypePromotion.describe(reader.type)
        switch promotion {
        case .same:
            compareInside(reader: reader, writer: writer, at: place)
        case .compatible(let why):
            report(.typeChangedCompatible, .info,
                   "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber); \(why), so every value decodes",
                   at: place)
            compareConstraints(reader: reader, writer: writer, at: place)
        case .epochChanged(let why):
            report(.dateEpochChanged, .warning,
                   "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber): every value decodes, but \(why); "
                   + "convert where the app reads it, or keep the type",
                   at: place)
            compareConstraints(reader: reader, writer: writer, at: place)
        case .narrowed(let why):
            let reaction = invalidReaction(of: reader, at: place)
            if !isStrict, reader.fallback != nil, case .enumeration = reader.type {
                report(.typeNarrowed, .warning,
                       "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber): \(why); other values take the fallback \(ValueText.render(reader.fallback!))",
                       at: place)
            } else {
                report(.typeNarrowed, severity(reaction),
                       "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber): \(why); for such a value \(consequence(reaction))",
                       at: place)
            }
        case .incompatible:
            let reaction = invalidReaction(of: reader, at: place)
            report(.typeChanged, severity(reaction),
                   "'\(name)' is \(writerType) in v\(writerNumber) (\(TypePromotion.jsonKind(writer.type))) and \(readerType) in v\(readerNumber), which decodes none of its values; \(consequence(reaction))",
                   at: place)
        }
    }

    /// Same type on both sides: recurse into objects and arrays, compare enum values and constraints.
    private mutating func compareInside(reader: Field, writer: Field, at place: Place) {
        switch (reader.type, writer.type) {
        case (.object(let readerFields), .object(let writerFields)):
            var inner = place
            inner.onInvalid = invalidReaction(of: reader, at: place)
            inner.isElement = false
            compareObjects(reader: readerFields, writer: writerFields, at: inner)
        case (.array(let readerItems), .array(let writerItems)):
            compareConstraints(reader: reader, writer: writer, at: place)
            var inner = place.entering(reader: readerItems, writer: writerItems, token: "-", onInvalid: invalidReaction(of: reader, at: place))
            inner.isElement = true
            compareField(reader: readerItems, writer: writerItems, at: inner)
        case (.enumeration(let readerValues), .enumeration(let writerValues)):
            compareEnumValues(reader: reader, readerValues: readerValues, writerValues: writerValues, at: place)
        default:
            compareConstraints(reader: reader, writer: writer, at: place)
        }
    }

    /// Raw values the writer may send that the reader does not list.
    private mutating func compareEnumValues(reader: Field, readerValues: EnumValues, writerValues: EnumValues, at place: Place) {
        let extra = writerValues.values.filter { !readerValues.contains($0) }
        guard !extra.isEmpty else { return }
        let name = display(place.readerPointer)
        let listed = ValueText.list(extra)
        let what = readerIsNewer
            ? "\(listed) \(extra.count == 1 ? "was" : "were") removed from '\(name)' in v\(readerNumber) and may still come in v\(writerNumber) payloads"
            : "\(listed) \(extra.count == 1 ? "was" : "were") added to '\(name)' in v\(writerNumber) and \(extra.count == 1 ? "is" : "are") unknown to app v\(readerNumber)"
        let withFallback: CompatibilityRule = readerIsNewer ? .enumValueRemovedWithFallback : .enumValueAddedWithFallback
        let withoutFallback: CompatibilityRule = readerIsNewer ? .enumValueRemovedWithoutFallback : .enumValueAddedWithoutFallback
        if let fallback = reader.fallback {
            if isStrict {
                report(withFallback, .error, "\(what); app v\(readerNumber) decodes with synthesized Codable, which ignores the fallback, and drops the update", at: place)
            } else {
                report(withFallback, .info, "\(what); they decode as the fallback \(ValueText.render(fallback))", at: place)
            }
        } else {
            let reaction = invalidReaction(of: reader, at: place)
            report(withoutFallback, severity(reaction), "\(what), and '\(name)' has no fallback; \(consequence(reaction))", at: place)
        }
    }

    /// `minimum`, `maximum`, `max-length` and `max-items` of the reader that the writer's own
    /// bounds do not respect.
    mutating func compareConstraints(reader: Field, writer: Field, at place: Place) {
        let bounds = WriterBounds(writer)
        var breaches: [(constraint: String, detail: String)] = []
        if let minimum = reader.minimum, bounds.minimum.map({ $0 < minimum }) ?? true {
            breaches.append(("minimum", "v\(readerNumber) has minimum \(ValueText.number(minimum)), v\(writerNumber) \(bounds.minimum.map { "allows down to \(ValueText.number($0))" } ?? "has no minimum")"))
        }
        if let maximum = reader.maximum, bounds.maximum.map({ $0 > maximum }) ?? true {
            breaches.append(("maximum", "v\(readerNumber) has maximum \(ValueText.number(maximum)), v\(writerNumber) \(bounds.maximum.map { "allows up to \(ValueText.number($0))" } ?? "has no maximum")"))
        }
        if let maxLength = reader.maxLength, bounds.maxLength.map({ $0 > maxLength }) ?? true {
            breaches.append(("max-length", "v\(readerNumber) has max-length \(maxLength), v\(writerNumber) \(bounds.maxLength.map { "allows \($0) bytes" } ?? "has no max-length")"))
        }
        if let maxItems = reader.maxItems, bounds.maxItems.map({ $0 > maxItems }) ?? true {
            breaches.append(("max-items", "v\(readerNumber) has max-items \(maxItems), v\(writerNumber) \(bounds.maxItems.map { "allows \($0)" } ?? "has no max-items")"))
        }
        guard !breaches.isEmpty else { return }
        let rule: CompatibilityRule = readerIsNewer ? .constraintTightened : .constraintLoosened
        let name = display(place.readerPointer)
        let reaction = invalidReaction(of: reader, at: place)
        for breach in breaches {
            // A bound past the reader's number type is no schema rule: synthesized `Codable`
            // fails on such a value too, so a strict client drops the update.
            if let format = reader.numberFormat, Self.passes(format, breach.constraint, bounds) {
                let outcome = isStrict
                    ? "app v\(readerNumber) holds it in a \(format.swiftName), and synthesized Codable drops the update for a value that does not fit"
                    : "app v\(readerNumber) holds it in a \(format.swiftName); such a value is invalid: \(consequence(reaction))"
                report(rule, isStrict ? .error : severity(reaction), "'\(name)' \(breach.constraint): \(breach.detail); \(outcome)", at: place)
                continue
            }
            let outcome = isStrict
                ? "app v\(readerNumber) decodes with synthesized Codable, which does not check \(breach.constraint), and shows the value as sent"
                : "such a value is invalid: \(consequence(reaction))"
            report(rule, isStrict ? .info : severity(reaction), "'\(name)' \(breach.constraint): \(breach.detail); \(outcome)", at: place)
        }
    }

    /// Whether the writer may send a value past `format`'s range on the side `constraint` names.
    private static func passes(_ format: Field.NumberFormat, _ constraint: String, _ bounds: WriterBounds) -> Bool {
        switch constraint {
        case "minimum": bounds.minimum.map { $0 < format.range.lowerBound } ?? true
        case "maximum": bounds.maximum.map { $0 > format.range.upperBound } ?? true
        default: false
        }
    }
}

/// The values a writer's field can hold, from its constraints and its enum values.
private struct WriterBounds {
    var minimum: Double?
    var maximum: Double?
    var maxLength: Int?
    var maxItems: Int?

    init(_ field: Field) {
        minimum = field.minimum
        maximum = field.maximum
        maxLength = field.maxLength
        maxItems = field.maxItems
        switch field.type {
        case .enumeration(.integers(let values)):
            minimum = values.min().map(Double.init)
            maximum = values.max().map(Double.init)
        case .enumeration(.strings(let values)):
            maxLength = values.map(\.utf8.count).max()
        case .dateRange:
            maxItems = 2
        default:
            break
        }
    }
}
