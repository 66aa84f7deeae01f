import SwiftSyntax

/// Every type declaration of the parsed files that the importer may need: structs, classes and
/// enums by their qualified name (`Outer.Inner`), typealiases, and the extensions' conformances
/// and members. `#if` is read as an iOS app build compiles it (`BuildConditions`): only the
/// active clause's declarations and members are in; an `#if` that cannot be settled is kept
/// apart, for the reader to report.
struct SwiftDeclarations {
    /// A struct, class or enum.
    struct TypeDecl {
        enum Kind { case `struct`, `class`, `enum` }
        var name: String
        var kind: Kind
        var inherited: [String]
        /// The members an iOS app build compiles.
        var members: [MemberBlockItemSyntax]
        var file: String
        var node: Syntax
        /// Members added by extensions, in file order.
        var extensionMembers: [(members: [MemberBlockItemSyntax], file: String)] = []
        /// The `#if`s among the members (the extensions' included) that cannot be settled.
        var unsettled: [(ifConfig: IfConfigDeclSyntax, file: String)] = []
        /// The condition of an `#if` that cannot be settled and that holds this declaration.
        var unsettledCondition: ExprSyntax?
    }

    /// Types by qualified name.
    var types: [String: TypeDecl] = [:]
    /// Typealiases by qualified name, with the type they name and where they are.
    var aliases: [String: (type: TypeSyntax, scope: String, file: String)] = [:]
    /// Conformances declared on extensions, by the extended type's name as written.
    var extensionConformances: [String: [String]] = [:]
    /// Protocols by name as written, with the protocols each inherits.
    var protocols: [String: [String]] = [:]
    /// The members of extensions of `KeyedDecodingContainer` (or of its protocol, whose method
    /// synthesized `Codable` calls too), where a property wrapper's `decode(_:forKey:)` is (see
    /// `PropertyWrapperReading`), in file order.
    var keyedDecodingMembers: [(members: [MemberBlockItemSyntax], file: String)] = []
    static let keyedDecodingNames: Set<String> = [
        "KeyedDecodingContainer", "Swift.KeyedDecodingContainer", "KeyedDecodingContainerProtocol", "Swift.KeyedDecodingContainerProtocol",
    ]

    /// Collects the declarations of one file.
    mutating func add(_ file: SourceFileSyntax, path: String) {
        let collector = Collector(path: path)
        collector.walk(file)
        for type in collector.types {
            if types[type.name] == nil { types[type.name] = type }
        }
        for (name, alias) in collector.aliases where aliases[name] == nil {
            aliases[name] = alias
        }
        for (name, inherited) in collector.protocols where protocols[name] == nil {
            protocols[name] = inherited
        }
        for (name, inherited, members) in collector.extensions {
            extensionConformances[name, default: []] += inherited
            pendingExtensions.append((name, members, path))
        }
    }

    private var pendingExtensions: [(name: String, members: MemberBlockItemListSyntax, file: String)] = []

    /// Attaches the extensions' members to their types, once every file is in.
    mutating func finish() {
        for pending in pendingExtensions {
            if let name = resolveName(pending.name, from: ""), types[name] != nil {
                let compiled = BuildConditions.members(pending.members)
                types[name]?.extensionMembers.append((compiled.members, pending.file))
                types[name]?.unsettled += compiled.unsettled.map { ($0, pending.file) }
            } else if Self.keyedDecodingNames.contains(pending.name) {
                keyedDecodingMembers.append((BuildConditions.members(pending.members).members, pending.file))
            }
        }
        pendingExtensions = []
    }

    /// The qualified name a type name written in `scope` refers to: `Inner` inside `Outer` is
    /// `Outer.Inner` when that exists, else the name itself; typealiases are followed.
    func resolveName(_ written: String, from scope: String) -> String? {
        // `Self.Phase` in a member of `scope` is `scope`'s own `Phase`.
        if written.hasPrefix("Self."), !scope.isEmpty {
            let member = scope + "." + written.dropFirst(5)
            return types[member] != nil || aliases[member] != nil ? member : nil
        }
        var scopes = scope.isEmpty ? [] : [scope]
        var parts = scope.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            parts.removeLast()
            scopes.append(parts.joined(separator: "."))
        }
        if !scopes.contains("") { scopes.append("") }
        for candidateScope in scopes {
            let name = candidateScope.isEmpty ? written : candidateScope + "." + written
            if types[name] != nil { return name }
            if aliases[name] != nil { return name }
        }
        return nil
    }

    /// How a type conforms to `ActivityAttributes`, when it does.
    enum Conformance: Equatable {
        /// It names `ActivityAttributes`, or a protocol of the given files that inherits it.
        case declared
        /// It names a protocol that is not in the given files and whose name ends in
        /// `ActivityAttributes` (`OneSignalLiveActivityAttributes`), or in `Attributes` for a type
        /// that declares a `ContentState` (Insider's `InsiderLiveActivitiesAttributes`): an
        /// SDK's, which refines it.
        case assumed(protocolName: String)
    }

    /// How `type` conforms to `ActivityAttributes`, on its declaration or an extension: itself,
    /// through protocols of the given files
    /// (`protocol AppAttributes: ActivityAttributes`), or, taken on its name, through a
    /// protocol that is not in them (`assumed`); `nil` when it does not.
    func activityAttributesConformance(_ type: TypeDecl) -> Conformance? {
        let simple = type.name.split(separator: ".").last.map(String.init) ?? type.name
        let all = type.inherited + (extensionConformances[type.name] ?? []) + (type.name == simple ? [] : extensionConformances[simple] ?? [])
        var assumed: String?
        var seen: Set<String> = []
        var pending = all
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            if name == "ActivityAttributes" || name.hasSuffix(".ActivityAttributes") { return .declared }
            if let inherited = protocols[name] {
                pending += inherited
            } else if name.hasSuffix("ActivityAttributes") || (name.hasSuffix("Attributes") && declaresContentState(type)) {
                assumed = assumed ?? name
            }
        }
        return assumed.map { .assumed(protocolName: $0) }
    }

    /// Whether `type` declares a `ContentState`, a nested type or a typealias.
    private func declaresContentState(_ type: TypeDecl) -> Bool {
        let name = type.name + ".ContentState"
        return types[name] != nil || aliases[name] != nil
    }

    /// Walks one file, naming nested types by their enclosing types.
    private final class Collector: SyntaxVisitor {
        let path: String
        var scope: [String] = []
        var types: [TypeDecl] = []
        var aliases: [String: (type: TypeSyntax, scope: String, file: String)] = [:]
        var extensions: [(String, [String], MemberBlockItemListSyntax)] = []
        var protocols: [(String, [String])] = []
        /// The conditions of the `#if`s being walked, `nil` for those settled.
        var conditions: [ExprSyntax?] = []

        init(path: String) {
            self.path = path
            super.init(viewMode: .sourceAccurate)
        }

        private func qualified(_ name: String) -> String { (scope + [name]).joined(separator: ".") }

        private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
            clause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        }

        private func enter(_ name: String, _ kind: TypeDecl.Kind, _ clause: InheritanceClauseSyntax?, _ members: MemberBlockSyntax, _ node: some SyntaxProtocol) {
            let compiled = BuildConditions.members(members.members)
            types.append(TypeDecl(name: qualified(name), kind: kind, inherited: inherited(clause), members: compiled.members, file: path, node: Syntax(node),
                                  unsettled: compiled.unsettled.map { ($0, path) }, unsettledCondition: conditions.last { $0 != nil } ?? nil))
            scope.append(name)
        }

        /// Walks only the clause an iOS app build compiles; every clause of an `#if` that
        /// cannot be settled, each declaration in it remembering the condition.
        override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
            switch BuildConditions.outcome(of: node) {
            case .active(let clause):
                conditions.append(nil)
                if let elements = clause?.elements { walk(elements) }
                return .skipChildren
            case .unsettled(let condition):
                conditions.append(condition)
                return .visitChildren
            }
        }
        override func visitPost(_ node: IfConfigDeclSyntax) { conditions.removeLast() }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            enter(node.name.text, .struct, node.inheritanceClause, node.memberBlock, node)
            return .visitChildren
        }
        override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            enter(node.name.text, .class, node.inheritanceClause, node.memberBlock, node)
            return .visitChildren
        }
        override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            enter(node.name.text, .enum, node.inheritanceClause, node.memberBlock, node)
            return .visitChildren
        }
        override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }

        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
            protocols.append((node.name.text, inherited(node.inheritanceClause)))
            return .skipChildren
        }

        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            aliases[qualified(node.name.text)] = (node.initializer.value, scope.joined(separator: "."), path)
            return .skipChildren
        }

        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            let name = node.extendedType.trimmedDescription
            extensions.append((name, inherited(node.inheritanceClause), node.memberBlock.members))
            // Types nested in an extension belong to the extended type.
            scope.append(name)
            return .visitChildren
        }
        override func visitPost(_ node: ExtensionDeclSyntax) { scope.removeLast() }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}
