import LiveState
import LiveStateTooling

/// Builds a `YAMLNode` tree from libyaml's events, enforcing the loader's limits as it goes.
///
/// The tree is built without recursion, on an explicit stack of open collections, so the
/// depth limit is the only bound on nesting and the Swift stack never grows with the input.
/// When a collection would open deeper than `maxDepth`, reading stops at once: libyaml is
/// asked for no more events and no more of the tree is built.
///
/// Aliases are resolved as they come: each costs the size of the node it names (that node
/// counted with its own aliases expanded), and the document's total may not pass
/// `maxAliasExpansion`. A "billion laughs" document is refused at the first alias whose
/// running total passes the bound, after reading only the lines up to it.
struct YAMLTreeReader {
    /// The deepest nesting of sequences and mappings allowed.
    var maxDepth: Int
    /// The most nodes that aliases may stand for, in total, in one document.
    var maxAliasExpansion: Int
    /// The most nodes one document may hold, each alias counting as one.
    var maxNodes: Int
    /// What the file is, for messages: "a schema file", "a fleet file".
    var kind = "a schema file"

    /// One collection still open on the stack.
    private struct OpenCollection {
        var isMapping: Bool
        var position: SourcePosition
        var anchor: String?
        var tag: String?
        var children: [YAMLNode] = []
        var size = 1
    }

    /// Reads the stream's only document.
    /// - Parameter parser: The event source.
    /// - Returns: The document's root, or `nil` when the stream holds no document.
    /// - Throws: `YAMLReadError`: `yaml-syntax` from libyaml, for an undefined or recursive
    ///   alias, or for a second document; `yaml-limit` for depth or alias expansion.
    func read(_ parser: LibYAMLParser) throws(YAMLReadError) -> YAMLNode? {
        var event = try parser.next()
        if event.kind == .streamStart {
            event = try parser.next()
        }
        guard event.kind == .documentStart else { return nil }
        let root = try readNode(parser)
        event = try parser.next()
        if event.kind == .documentEnd {
            event = try parser.next()
        }
        if event.kind == .documentStart {
            // A `---` with nothing after it, as a tool that joins documents writes at the end,
            // holds no second document.
            guard isEmptyLastDocument(parser) else {
                throw YAMLReadError(
                    code: .yamlSyntax,
                    message: "a second YAML document starts here; \(kind) holds one document per file",
                    position: event.position)
            }
        }
        return root
    }

    /// Whether the document that just started is empty and the stream's last; whatever it
    /// holds otherwise, broken or not, is read as a second document.
    private func isEmptyLastDocument(_ parser: LibYAMLParser) -> Bool {
        do throws(YAMLReadError) {
            guard try readNode(parser).isEmptyScalar else { return false }
            var end = try parser.next()
            if end.kind == .documentEnd {
                end = try parser.next()
            }
            return end.kind == .streamEnd
        } catch {
            return false
        }
    }

    /// Refuses a tag on `node` other than the non-specific `!` and its kind's `standard` one.
    private static func checkTag(of node: YAMLNode, standard: String) throws(YAMLReadError) {
        guard let tag = node.tag, tag != "!", tag != standard else { return }
        throw YAMLReadError(code: .schemaWrongType, message: YAMLNode.unsupportedTag(tag), position: node.position)
    }

    private func readNode(_ parser: LibYAMLParser) throws(YAMLReadError) -> YAMLNode {
        var stack: [OpenCollection] = []
        var anchors: [String: YAMLNode] = [:]
        var openAnchors: [String: Int] = [:]
        var expanded = 0
        var nodes = 0

        while true {
            let event = try parser.next()
            var completed: YAMLNode
            var anchor: String? = nil
            switch event.kind {
            case .scalar, .alias, .sequenceStart, .mappingStart:
                nodes += 1
                if nodes > maxNodes {
                    throw YAMLReadError(
                        code: .yamlLimit,
                        message: "the document holds more than \(maxNodes) nodes",
                        position: event.position)
                }
            default:
                break
            }
            switch event.kind {
            case .scalar:
                completed = YAMLNode(
                    content: .scalar(event.scalar ?? YAMLScalar(text: "", isPlain: true)),
                    position: event.position, tag: event.tag, size: 1)
                anchor = event.anchor
            case .alias:
                let name = event.anchor ?? ""
                if openAnchors[name, default: 0] > 0 {
                    throw YAMLReadError(
                        code: .yamlSyntax,
                        message: "alias *\(name) refers to a node that contains it; recursive aliases are not allowed",
                        position: event.position)
                }
                guard let target = anchors[name] else {
                    throw YAMLReadError(
                        code: .yamlSyntax,
                        message: "alias *\(name) refers to an anchor &\(name) that is not defined before it",
                        position: event.position)
                }
                expanded = Self.saturatingSum(expanded, target.size)
                if expanded > maxAliasExpansion {
                    throw YAMLReadError(
                        code: .yamlLimit,
                        message: "aliases expand to more than \(maxAliasExpansion) nodes in this document (at least \(expanded)); the limit guards against alias bombs",
                        position: event.position)
                }
                completed = target
                completed.position = event.position
            case .sequenceStart, .mappingStart:
                if stack.count >= maxDepth {
                    throw YAMLReadError(
                        code: .yamlLimit,
                        message: "sequences and mappings nest deeper than \(maxDepth) levels",
                        position: event.position)
                }
                if let name = event.anchor {
                    openAnchors[name, default: 0] += 1
                }
                stack.append(OpenCollection(
                    isMapping: event.kind == .mappingStart, position: event.position,
                    anchor: event.anchor, tag: event.tag))
                continue
            case .sequenceEnd, .mappingEnd:
                guard let open = stack.popLast() else {
                    throw YAMLReadError(code: .yamlSyntax, message: "unbalanced collection end", position: event.position)
                }
                if open.isMapping {
                    var pairs: [YAMLPair] = []
                    pairs.reserveCapacity(open.children.count / 2)
                    var index = 0
                    while index + 1 < open.children.count {
                        var value = open.children[index + 1]
                        // A key with nothing after it (`optional,` or `default:` at a line's end)
                        // has an empty value, which libyaml places at the token after it: a
                        // finding about the value points at the key instead.
                        if value.isEmptyScalar {
                            value.position = open.children[index].position
                        }
                        pairs.append(YAMLPair(key: open.children[index], value: value))
                        index += 2
                    }
                    if pairs.contains(where: { $0.key.isMergeKey }) {
                        pairs = try Self.merging(pairs)
                    }
                    completed = YAMLNode(content: .mapping(pairs), position: open.position, tag: open.tag, size: open.size)
                } else {
                    completed = YAMLNode(content: .sequence(open.children), position: open.position, tag: open.tag, size: open.size)
                }
                if let name = open.anchor {
                    openAnchors[name, default: 1] -= 1
                    anchor = name
                }
            case .streamStart, .streamEnd, .documentStart, .documentEnd:
                throw YAMLReadError(code: .yamlSyntax, message: "unexpected end of document", position: event.position)
            }
            if let anchor {
                anchors[anchor] = completed
            }
            guard !stack.isEmpty else { return completed }
            stack[stack.count - 1].children.append(completed)
            stack[stack.count - 1].size = Self.saturatingSum(stack[stack.count - 1].size, completed.size)
        }
    }

    /// A mapping's pairs with its merge key applied: the `<<` pair is replaced, where it stands,
    /// by the pairs of the mapping it names (`<<: *base`), or of each mapping of a sequence
    /// (`<<: [*base, *extra]`), as YAML's merge type (yaml.org/type/merge.html) and PyYAML,
    /// ruamel and yaml-cpp read it. A key the mapping states itself wins over a merged one, and
    /// a mapping earlier in the sequence over a later one. Merged pairs keep their own positions,
    /// so a finding about a merged field points at the text the author wrote once.
    /// - Parameter pairs: The mapping's pairs, in document order, one of them a merge key.
    /// - Throws: `yaml-syntax` for a second merge key in one mapping, or a merge of anything
    ///   but a mapping or a sequence of mappings.
    private static func merging(_ pairs: [YAMLPair]) throws(YAMLReadError) -> [YAMLPair] {
        var merge: YAMLPair?
        var stated: Set<String> = []
        for pair in pairs {
            if pair.key.isMergeKey {
                guard merge == nil else {
                    throw YAMLReadError(
                        code: .yamlSyntax,
                        message: "a second merge key '<<' in one mapping; merge several mappings with one key, as in '<<: [*a, *b]'",
                        position: pair.key.position)
                }
                merge = pair
            } else if let text = pair.key.scalar?.text {
                stated.insert(text)
            }
        }
        guard let merge else { return pairs }
        let sources: [YAMLNode]
        switch merge.value.content {
        case .mapping: sources = [merge.value]
        case .sequence(let elements): sources = elements
        case .scalar: sources = [merge.value]
        }
        var merged: [YAMLPair] = []
        // What is written in place under `<<` is in the tree nowhere else, so its tags are
        // checked here (what an alias reaches is checked where it is written, too).
        if case .sequence = merge.value.content { try Self.checkTag(of: merge.value, standard: "tag:yaml.org,2002:seq") }
        for source in sources {
            guard case .mapping(let sourcePairs) = source.content else {
                throw YAMLReadError(
                    code: .yamlSyntax,
                    message: "the merge key '<<' takes a mapping, or a sequence of mappings, such as '*base' or '[*a, *b]'; found \(source.described)",
                    position: source.position)
            }
            try Self.checkTag(of: source, standard: "tag:yaml.org,2002:map")
            // The mapping's own key, or one merged from an earlier mapping, wins. A key this
            // mapping repeats is kept twice, so that the schema's duplicate check finds it here
            // too (a mapping written in place under `<<` is in the tree nowhere else).
            var own: Set<String> = []
            for pair in sourcePairs {
                guard let text = pair.key.scalar?.text else {
                    merged.append(pair)
                    continue
                }
                if !stated.contains(text) {
                    merged.append(pair)
                    own.insert(text)
                }
            }
            stated.formUnion(own)
        }
        var result: [YAMLPair] = []
        result.reserveCapacity(pairs.count - 1 + merged.count)
        for pair in pairs {
            if pair.key.isMergeKey {
                result += merged
            } else {
                result.append(pair)
            }
        }
        return result
    }

    /// Sizes never trap, even with limits raised to `Int.max`.
    private static func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? Int.max : sum
    }
}
