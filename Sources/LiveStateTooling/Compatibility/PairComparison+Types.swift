import LiveState

extension PairComparison {
    /// Compares the types of a field present on both sides, then what is inside them: enum
    /// values, object fields, array items and constraints.
    mutating func compareTypes(reader: Field, writer: Field, at place: Place, promotion: TypePromotion) {
        let name = subject(of: place)
        let writerType = TypePromotion.describe(writer)
        let readerType = TypePromotion.describe(reader)
        switch promotion {
        case .same:
            compareInside(reader: reader, writer: writer, at: place)
        case .compatible(let why):
            report(.typeChangedCompatible, .info,
                   "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber); \(why), so every value decodes",
                   at: place)
            let said = findings.count
            compareConstraints(reader: reader, writer: writer, at: place)
            // The reader's bounds refuse some of the values: every value's kind decodes, not every value.
            if findings[said...].contains(where: { $0.severity > .info }) { rewordCompatible(at: said - 1) }
        case .epochChanged(let why):
            report(.dateEpochChanged, .warning,
                   "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber): every value decodes, but \(why); "
                   + "convert where the app reads it, or keep the type",
                   at: place)
            compareConstraints(reader: reader, writer: writer, at: place)
        case .narrowed(let why):
            reportNarrowed(reader: reader, "'\(name)' is \(writerType) in v\(writerNumber) and \(readerType) in v\(readerNumber): \(why)", at: place,
                           fractional: TypePromotion.sendsFractions(writer))
            // The values of the kind both read are still held to the reader's bounds: a whole
            // 50 from a double up to 100, read as an int up to 10 (it said only "1.5").
            compareConstraints(reader: reader, writer: writer, at: place)
        case .incompatible:
            let reaction = invalidReaction(of: reader, at: place)
            report(.typeChanged, severity(reaction),
                   "'\(name)' is \(writerType) in v\(writerNumber) (\(TypePromotion.jsonKind(writer.type))) and \(readerType) in v\(readerNumber), which decodes none of its values; \(consequence(reaction))",
                   at: place)
        }
    }

    /// The `type-changed-compatible` info at `index`, said of a field whose reader's bounds
    /// refuse some values (a finding after it): it said "so every value decodes" beside an
    /// error that some do not.
    private mutating func rewordCompatible(at index: Int) {
        let bounds = ", so each value is of a kind it reads, but v\(readerNumber)'s bounds refuse some (below)"
        rewordFinding(at: index) { $0.replacing(", so every value decodes", with: bounds) }
    }

    /// A `type-narrowed` finding: `what` the writer sends that the reader does not decode, and
    /// what the reader does then (an enum's fallback, its default, or a drop). `capped`: at
    /// most a warning (what only a server that elides defaults sends). `fractional`: the writer
    /// sends numbers with a fraction, which an enum of integers' fallback does not take (it
    /// takes an unlisted whole number; `1.5` is no `Int` at all).
    mutating func reportNarrowed(reader: Field, _ what: String, at place: Place, capped: Bool = false, fractional: Bool = false) {
        if !isStrict, let fallback = reader.fallback, case .enumeration(let values) = reader.type {
            guard fractional, case .integers = values else {
                report(.typeNarrowed, .warning, "\(what); other values take the fallback \(ValueText.render(fallback))", at: place)
                return
            }
            let reaction = invalidReaction(of: reader, at: place)
            report(.typeNarrowed, capped ? .warning : severity(reaction),
                   "\(what); other whole numbers take the fallback \(ValueText.render(fallback)), but a number with a fraction is no "
                   + "integer raw value: for such a value \(consequence(reaction))", at: place)
        } else {
            let reaction = invalidReaction(of: reader, at: place)
            report(.typeNarrowed, capped ? .warning : severity(reaction), "\(what); for such a value \(consequence(reaction))", at: place)
        }
    }

    /// What the writer of the same type may send that the reader does not decode, beyond its
    /// constraints (`compareConstraints`): a `url` an iOS 17 version writes that an iOS 16
    /// version's `URL(string:)` refuses, and a number too small for the reader's `Float` or
    /// `Decimal` (its range's other end is a bound `compareConstraints` checks).
    private func narrowing(reader: Field, writer: Field, at place: Place) -> String? {
        let name = subject(of: place)
        switch (reader.type, writer.type) {
        case (.url, .url):
            let (readerRule, writerRule) = (schema.urlRule(readerNumber), schema.urlRule(writerNumber))
            guard readerRule.hasLegacyParser, !writerRule.hasLegacyParser else { return nil }
            return "v\(writerNumber) runs on iOS \(writerRule.minIOS) and later, whose URL(string:) reads strings with a space, "
                + "a non-ASCII letter or a brace, which app v\(readerNumber) refuses on iOS 16 (min-ios \(readerRule.minIOS)): '\(name)' "
                + "may hold one in v\(writerNumber) payloads"
        case (.string, .string):
            // A plain string read as one of a format (`format: uuid` added); one of another
            // format is `incompatible` (`TypePromotion`).
            guard let format = reader.stringFormat, writer.stringFormat == nil else { return nil }
            return "'\(name)' is a String in v\(writerNumber), which may send text that is not \(format.text); "
                + "app v\(readerNumber) holds it in a \(format.swiftName), and JSONDecoder refuses such text"
        case (.map, .map):
            // A `[String: T]` read as `[Int: T]` (`keys: int` added).
            guard reader.hasIntegerKeys, !writer.hasIntegerKeys else { return nil }
            return "'\(name)' is a [String: …] in v\(writerNumber), whose keys may be any text; app v\(readerNumber) holds it in "
                + "an [Int: …], and JSONDecoder refuses a key that is not an integer"
        case (.double, .double):
            // A non-zero number closer to zero than the type's least magnitude reads as zero, and
            // JSONDecoder refuses it; the writer's own bounds may keep it away from zero.
            let least: (type: String, magnitude: Double, example: String)
            switch (reader.numberFormat, writer.numberFormat) {
            case (.float?, let written) where written != .float: least = ("Float", Double(Float.leastNonzeroMagnitude), "1e-50")
            case (.decimal?, let written) where written != .decimal && written != .float: least = ("Decimal", 1e-128, "1e-200")
            default: return nil
            }
            let bounds = writer.constraints
            guard (bounds.minimum ?? -.infinity) < least.magnitude, (bounds.maximum ?? .infinity) > -least.magnitude else { return nil }
            return "'\(name)' is a Double in v\(writerNumber), which may send a non-zero number closer to zero than \(Self.article(least.type)) "
                + "\(least.type) holds (such as \(least.example)); app v\(readerNumber) holds it in \(Self.article(least.type)) \(least.type), "
                + "and JSONDecoder refuses it"
        default:
            return nil
        }
    }

    /// Same type on both sides: recurse into objects, arrays and maps, compare enum values and constraints.
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
        case (.map(let readerItems), .map(let writerItems)):
            // A map's values are compared as an array's elements: one invalid value makes it
            // invalid, as one key the reader's does not take does.
            compareConstraints(reader: reader, writer: writer, at: place)
            if let what = narrowing(reader: reader, writer: writer, at: place) { reportNarrowed(reader: reader, what, at: place) }
            var inner = place.entering(reader: readerItems, writer: writerItems, token: "*", onInvalid: invalidReaction(of: reader, at: place))
            inner.isElement = true
            compareField(reader: readerItems, writer: writerItems, at: inner)
        case (.enumeration(let readerValues), .enumeration(let writerValues)):
            compareEnumValues(reader: reader, readerValues: readerValues, writerValues: writerValues, at: place)
        default:
            compareConstraints(reader: reader, writer: writer, at: place)
            if let what = narrowing(reader: reader, writer: writer, at: place) { reportNarrowed(reader: reader, what, at: place) }
        }
    }

    /// Raw values the writer may send that the reader does not list.
    private mutating func compareEnumValues(reader: Field, readerValues: EnumValues, writerValues: EnumValues, at place: Place) {
        // A set of the reader's values: a long list compared with another is linear, not quadratic.
        let known = Set(readerValues.values)
        let extra = writerValues.values.filter { !known.contains($0) }
        guard !extra.isEmpty else { return }
        let name = subject(of: place)
        let listed = ValueText.list(extra)
        // The versions that added (or removed) them, which a pair of versions apart is not.
        let (pointer, olderPointer) = readerIsNewer ? (place.readerPointer, place.writerPointer) : (place.writerPointer, place.readerPointer)
        let versions = Set(extra.map { value in
            changed(pointer, olderPointer: olderPointer) { field in if case .enumeration(let values) = field.type { values.contains(value) } else { false } }
        }).sorted().map { "v\($0)" }
        let when = versions.count == 1 ? versions[0] : versions.dropLast().joined(separator: ", ") + " and " + versions[versions.count - 1]
        let what = readerIsNewer
            ? "\(listed) \(extra.count == 1 ? "was" : "were") removed from '\(name)' in \(when) and may still come in v\(writerNumber) payloads"
            : "\(listed) \(extra.count == 1 ? "was" : "were") added to '\(name)' in \(when) and \(extra.count == 1 ? "is" : "are") unknown to app v\(readerNumber)"
        let withFallback: CompatibilityRule = readerIsNewer ? .enumValueRemovedWithFallback : .enumValueAddedWithFallback
        let withoutFallback: CompatibilityRule = readerIsNewer ? .enumValueRemovedWithoutFallback : .enumValueAddedWithoutFallback
        if let fallback = reader.fallback {
            if isStrict {
                report(withFallback, .error, "\(what); app v\(readerNumber) decodes with synthesized Codable, which ignores the fallback, and drops \(droppedPush)", at: place)
            } else {
                report(withFallback, .info, "\(what); they decode as the fallback \(ValueText.render(fallback))", at: place)
            }
        } else {
            let reaction = invalidReaction(of: reader, at: place)
            report(withoutFallback, severity(reaction), "\(what), and '\(name)' has no fallback; \(consequence(reaction))", at: place)
        }
    }

    /// The reader's constraints that the writer's own bounds do not respect.
    mutating func compareConstraints(reader: Field, writer: Field, at place: Place) {
        let bounds = Self.writerBounds(writer)
        var breaches: [(constraint: Field.Constraint, detail: String)] = []
        for (constraint, bound) in Self.readerBounds(reader) {
            let allowed = bounds[constraint]
            // A writer's `int` without a bound of its own sends at most what an `Int` holds.
            let edge = allowed ?? Self.implicitFormat(writer).flatMap { constraint.measure == .number ? Self.edge(of: $0, constraint) : nil }
            if let edge, constraint.allows(edge, bound: bound) { continue }
            let writes = allowed.map { "allows \(constraint.isLowerBound ? "down" : "up") to \(Self.text(ofBound: $0, of: writer))\(constraint.unit)" }
                ?? "has no \(constraint.rawValue)"
            if reader.constraints[constraint] == nil {
                // `Int`'s own edge: only a writer with a bound past it (a `uint64`) sends past it.
                guard allowed != nil else { continue }
                breaches.append((constraint, "v\(readerNumber) has no \(constraint.rawValue), v\(writerNumber) \(writes)"))
                continue
            }
            breaches.append((constraint, "v\(readerNumber) has \(constraint.rawValue) \(Self.text(ofBound: bound, of: reader)), v\(writerNumber) \(writes)"))
        }
        guard !breaches.isEmpty else { return }
        let rule: CompatibilityRule = readerIsNewer ? .constraintTightened : .constraintLoosened
        let name = subject(of: place)
        let reaction = invalidReaction(of: reader, at: place)
        for breach in breaches {
            // A bound past the reader's number type is no schema rule: synthesized `Codable`
            // fails on such a value too, so a strict client drops the update.
            if let format = reader.numberFormat ?? Self.implicitFormat(reader), Self.passes(format, breach.constraint, bounds) {
                let type = reader.numberFormat?.swiftName ?? "Int"
                let outcome = isStrict
                    ? "app v\(readerNumber) holds it in \(Self.article(type)) \(type), and synthesized Codable drops \(droppedPush) for a value that does not fit"
                    : "app v\(readerNumber) holds it in \(Self.article(type)) \(type); such a value is invalid: \(consequence(reaction))"
                report(rule, isStrict ? .error : severity(reaction), "'\(name)' \(breach.constraint.rawValue): \(breach.detail); \(outcome)", at: place)
                continue
            }
            let outcome = isStrict
                ? "app v\(readerNumber) decodes with synthesized Codable, which does not check \(breach.constraint.rawValue), and shows the value as sent"
                : "such a value is invalid: \(consequence(reaction))"
            report(rule, isStrict ? .info : severity(reaction), "'\(name)' \(breach.constraint.rawValue): \(breach.detail); \(outcome)", at: place)
        }
    }

    /// A bound as a message writes it: a `float` field's own edge, which the loader sets to the
    /// midpoint past `Float`'s greatest (the least text that no longer reads as a `Float`), as
    /// that greatest `Float` (`3.4028235e+38`); any other as `ValueText.number` writes it.
    static func text(ofBound bound: Double, of field: Field) -> String {
        guard let format = field.numberFormat, format == .float || format == .decimal, abs(bound) == format.range.upperBound else {
            return ValueText.number(bound)
        }
        // The type's greatest value, not the `Double` the loader holds its range at: for a
        // `Decimal`, (2^128 - 1) * 10^127, exactly.
        let greatest = format == .float ? "\(Float.greatestFiniteMagnitude)" : "3.40282366920938463463374607431768211455e+165"
        return (bound < 0 ? "-" : "") + greatest
    }

    /// The reader's constraints, and for an `int` without a `format`, `Int`'s own range where it
    /// states no bound: JSONDecoder refuses a number past it for an `Int`, as a `uint64`
    /// writer may send one.
    private static func readerBounds(_ field: Field) -> [(constraint: Field.Constraint, bound: Double)] {
        guard let format = implicitFormat(field) else { return field.constraints.bounds }
        var constraints = field.constraints
        constraints.minimum = constraints.minimum ?? format.range.lowerBound
        constraints.maximum = constraints.maximum ?? format.range.upperBound
        return constraints.bounds
    }

    /// The end of `format`'s range that `constraint` bounds.
    private static func edge(of format: Field.NumberFormat, _ constraint: Field.Constraint) -> Double {
        constraint.isLowerBound ? format.range.lowerBound : format.range.upperBound
    }

    /// `an Int8`, `a UInt64`.
    private static func article(_ type: String) -> String {
        type.hasPrefix("I") ? "an" : "a"
    }

    /// `Int`'s range (`int64`'s, on the 64-bit devices that run Live Activities) for an `int`
    /// field without a `format`.
    private static func implicitFormat(_ field: Field) -> Field.NumberFormat? {
        field.type == .int && field.numberFormat == nil ? .int64 : nil
    }

    /// Whether the writer may send a value past `format`'s range on the side `constraint` bounds.
    private static func passes(_ format: Field.NumberFormat, _ constraint: Field.Constraint, _ bounds: Field.Constraints) -> Bool {
        guard constraint.measure == .number else { return false }
        return bounds[constraint].map { !constraint.allows($0, bound: edge(of: format, constraint)) } ?? true
    }

    /// The values a writer's field can hold, from its constraints and, for an enum or a date
    /// range, from the values it can take: its raw values' smallest and largest number or
    /// length, and two elements.
    private static func writerBounds(_ field: Field) -> Field.Constraints {
        var bounds = field.constraints
        let taken: [(measure: Field.Constraint.Measure, values: [Double])] = switch field.type {
        case .enumeration(.integers(let values)): [(.number, values.map(Double.init))]
        case .enumeration(.strings(let values)): [(.length, values.map { Double($0.utf8.count) })]
        case .dateRange: [(.count, [2])]
        // Every UUID is 36 bytes.
        case .string: field.stringFormat?.length.map { [(.length, [Double($0)])] } ?? []
        // An object read as a map: its members are its fields, those a payload must carry at
        // least, and its keys are their names (it had "no max-items", and a map's bounds were
        // errors although every object decodes).
        case .object(let fields) where !fields.isEmpty:
            [(.count, [Double(fields.filter { $0.missingValue == nil }.count), Double(fields.count)]),
             (.keyLength, fields.map { Double($0.name.utf8.count) })]
        default: []
        }
        for (measure, values) in taken {
            for constraint in Field.Constraint.allCases where constraint.measure == measure {
                bounds[constraint] = constraint.isLowerBound ? values.min() : values.max()
            }
        }
        return bounds
    }
}
