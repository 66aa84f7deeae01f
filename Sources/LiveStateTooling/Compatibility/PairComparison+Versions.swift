import LiveState

extension PairComparison {
    /// Rules about the writer's version as a whole, rather than about a field the two versions
    /// share: reported once per writer version by `CompatibilityChecker.check`.
    static let writerScopedRules: Set<String> = [
        CompatibilityRule.tombstoneReuse.id, CompatibilityRule.worstCaseSizeOverBudget.id, CompatibilityRule.unboundedSize.id,
    ]

    /// The rules of a version's payloads against the byte budget (`checkSize`): APNs refuses
    /// an oversized body for every device, whichever app version would read it, so
    /// `CompatibilityChecker` checks them once per version written, not per pair, and a fleet
    /// weighs them by every device.
    static let budgetRules: Set<String> = [CompatibilityRule.worstCaseSizeOverBudget.id, CompatibilityRule.unboundedSize.id]

    /// Names the writer's version brings back, with another type, after an earlier version
    /// listed them under `removed`. Reported where the name returns.
    mutating func checkTombstones() {
        guard writerIndex > 0 else { return }
        let previous = schema.versions[writerIndex - 1]
        for scope in [DiagnosticScope.contentState, .attributes] {
            for field in fields(of: writer, in: scope) where !fields(of: previous, in: scope).contains(where: { $0.name == field.name }) {
                guard let tombstone = tombstone(for: field.name, in: scope, before: writerIndex),
                      !tombstone.type.hasSameShape(as: field.type) else { continue }
                report(.tombstoneReuse, .error,
                       "'\(field.name)' was removed in v\(tombstone.removedIn) as \(TypePromotion.describe(tombstone.type)) and returns in v\(writerNumber) as \(TypePromotion.describe(field.type)); app versions before v\(tombstone.removedIn) still decode it as \(TypePromotion.describe(tombstone.type))",
                       scope: scope, pointer: JSONPointer.appending(field.name, to: ""), position: field.position ?? writer.position,
                       prefix: "v\(writerNumber): ")
            }
        }
    }

    /// The latest tombstone for `name` in versions up to `index`: the type it had and the version that removed it.
    private func tombstone(for name: String, in scope: DiagnosticScope, before index: Int) -> (type: FieldType, removedIn: Int)? {
        let versions = schema.versions
        for position in stride(from: index, through: 1, by: -1) where versions[position].removed.contains(name) {
            if let field = fields(of: versions[position - 1], in: scope).first(where: { $0.name == name }) {
                return (field.type, versions[position].version)
            }
        }
        return nil
    }

    private func fields(of version: SchemaVersion, in scope: DiagnosticScope) -> [Field] {
        scope == .attributes ? version.attributes : version.contentState
    }

    /// The static worst case of the writer's content-state against the byte budget.
    mutating func checkSize() {
        let size = WorstCaseSize.contentState(of: writer)
        let prefix = "v\(writerNumber) payloads: "
        for entry in size.unbounded {
            report(.unboundedSize, .warning,
                   "'\(display(entry.pointer))' has no \(entry.missing), so the worst-case size of v\(writerNumber)'s content-state is unbounded",
                   scope: .contentState, pointer: entry.pointer, position: entry.position ?? writer.position, prefix: prefix)
        }
        let budget = options.byteBudget
        guard size.bytes > budget else { return }
        let method = "strings at max-length bytes before escaping, doubles and dates at \(WorstCaseSize.doubleBytes) bytes, "
            + "decimals at \(WorstCaseSize.decimalBytes)"
        let total = size.isBounded ? "is \(size.bytes) bytes" : "is at least \(size.bytes) bytes (some fields are unbounded)"
        if let fitted = size.fittedBytes, fitted <= budget {
            report(.worstCaseSizeOverBudget, .warning,
                   "the worst-case content-state \(total), over the \(budget)-byte budget (\(method)); dropping drop-priority fields and shortening truncate strings can bring it to \(fitted) bytes",
                   scope: .contentState, pointer: "", position: writer.position, prefix: prefix)
        } else {
            report(.worstCaseSizeOverBudget, .error,
                   "the worst-case content-state \(total), over the \(budget)-byte budget (\(method)); APNs answers 413 and the device rejects the update",
                   scope: .contentState, pointer: "", position: writer.position, prefix: prefix)
        }
    }
}
