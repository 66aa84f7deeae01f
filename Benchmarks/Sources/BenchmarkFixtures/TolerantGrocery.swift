import Foundation

/// What a team writes today to make `Grocery` tolerant without LiveState (the grocery team of
/// `schemas/grocery.yaml` decoded into a dictionary and defaulted each property by hand): a
/// hand-written `init(from:)` for Foundation's `JSONDecoder` that follows schema version 3.
/// Every field has a default, taken when its key is missing or its value is null, of another
/// type, or outside the schema's length or range; an unknown stage reads as `picking`; each
/// substitution's fields default on their own, and a list longer than 5 or holding something
/// other than an object is the empty list. Unknown keys are ignored. No diagnostics are made.
public struct TolerantGrocery: Decodable, Sendable, Hashable {
    /// The state read.
    public var grocery: Grocery

    private enum Key: String, CodingKey {
        case statusText, minutesLeft, progress, riderName, stage, deliverBy, itemCount, substitutions
    }

    private enum SubstitutionKey: String, CodingKey {
        case original, replacement
    }

    /// One substitution, each field defaulted on its own.
    private struct TolerantSubstitution: Decodable {
        var substitution: Grocery.Substitution

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SubstitutionKey.self)
            substitution = Grocery.Substitution(
                original: container.tolerantString(.original, maxLength: 48) ?? "",
                replacement: container.tolerantString(.replacement, maxLength: 48) ?? "")
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let substitutions = (try? container.decodeIfPresent([TolerantSubstitution].self, forKey: .substitutions))
            .flatMap { $0 }
            .flatMap { $0.count <= 5 ? $0.map(\.substitution) : nil }
        grocery = Grocery(
            statusText: container.tolerantString(.statusText, maxLength: 48) ?? "",
            minutesLeft: container.tolerantNumber(.minutesLeft, in: 0 ... 60) ?? 30,
            progress: container.tolerantNumber(.progress, in: 0.0 ... 1.0) ?? 0,
            riderName: container.tolerantString(.riderName, maxLength: 32) ?? "",
            stage: (try? container.decodeIfPresent(Grocery.Stage.self, forKey: .stage)).flatMap { $0 } ?? .picking,
            deliverBy: (try? container.decodeIfPresent(Date.self, forKey: .deliverBy)).flatMap { $0 }
                ?? Date(timeIntervalSinceReferenceDate: 0),
            itemCount: container.tolerantNumber(.itemCount, in: 0 ... 200) ?? 0,
            substitutions: substitutions ?? [])
    }
}
