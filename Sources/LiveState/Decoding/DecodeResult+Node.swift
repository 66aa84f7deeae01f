import Foundation

extension DecodeResult {
    /// The state as a tree of typed values in schema order, every field present: `nil` when the
    /// app version rejects the payload.
    ///
    /// Visiting the tree makes nothing but the nodes asked for. A node is a few words on the
    /// stack; a string is made (one allocation when it is longer than 15 UTF-8 bytes, none
    /// otherwise) when its `string` is read, and containers are never copied out.
    ///
    /// ```swift
    /// let result = decoder.decode(contentState: bytes)
    /// guard let state = result.root else { ... }
    /// let title = state["title"]?.string              // "Order on the way"
    /// let rating = state["courier"]?["rating"]?.double
    /// for index in 0..<(state["items"]?.count ?? 0) {
    ///     print(state["items"]?[index]?.string ?? "")
    /// }
    /// ```
    public var root: Node? {
        switch storage {
        case .tape(let shared):
            shared.tape.isRejected ? nil : Node(.object(shared, first: 1, plan: .passUnretained(shared.tape.plan)))
        case .made(let state, _, _, _, _): state.map { Node(.value($0)) }
        }
    }

    /// One value of a decoded state: the root object, a field's value, or an array's element.
    ///
    /// Each accessor answers for its own kind and is `nil` (or empty) for the others: `string`
    /// of an `int` field is `nil`, not the number written out. A missing field's node holds its
    /// default, as the app version sees it.
    public struct Node: Sendable {
        /// What a node is, as `Value`'s cases are.
        public enum Kind: Sendable, Hashable {
            /// `null`: an optional field that is absent or null.
            case null
            /// A `bool` field: read `bool`.
            case bool
            /// An `int` field or an integer enum: read `int` (or `uint64`, for a value above
            /// `Int.max` in a `format: uint64` field).
            case int
            /// A `double` field: read `double`.
            case double
            /// A `string` or `url` field, or a string enum: read `string`.
            case string
            /// A `date` field: read `date`.
            case date
            /// A `date-range` field: read `dateRange`.
            case dateRange
            /// An `array` field: `count` elements, read by index.
            case array
            /// An `object` field or the root: `names`, read by name.
            case object
        }

        /// The plans are not retained: the tape's plan holds every plan below it.
        enum Storage: Sendable {
            /// Made already: a scalar, a missing field's default, or any part of a state that was
            /// decoded in full.
            case value(Value)
            /// A string of the input, not made yet.
            case string(SharedTape, JSONString)
            /// The array whose node is at `position`, for the array field `field`.
            case array(SharedTape, position: Int, field: Unmanaged<FieldPlan>)
            /// The object whose first field's node is at `first`.
            case object(SharedTape, first: Int, plan: Unmanaged<ObjectPlan>)
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// The node of the tape value at `position`: `missing` when the key was absent (asked
        /// for only then, so that a present value does not copy the missing one).
        init(_ shared: SharedTape, at position: Int, field: FieldPlan, missing: @autoclosure () -> Value) {
            let node = shared.tape.node(at: position)
            switch node.kind {
            case .string, .escapedString:
                storage = .string(shared, node.string)
            case .array where field.itemsRef != nil:
                storage = .array(shared, position: position, field: .passUnretained(field))
            case .object:
                if let object = field.objectRef {
                    storage = .object(shared, first: node.a, plan: object)
                } else {
                    storage = .value(missing())
                }
            case .made:
                storage = .value(shared.tape.madeValue(node) ?? missing())
            default:
                storage = .value(node.scalar ?? missing())
            }
        }

        /// What this node is.
        public var kind: Kind {
            switch storage {
            case .string: .string
            case .array: .array
            case .object: .object
            case .value(let value):
                switch value {
                case .null: .null
                case .bool: .bool
                case .int, .uint: .int
                case .double: .double
                case .string: .string
                case .date: .date
                case .dateRange: .dateRange
                case .array: .array
                case .object: .object
                }
            }
        }

        /// Whether this is `null`: an optional field that is absent or null.
        public var isNull: Bool { kind == .null }

        /// A `bool` field's value.
        public var bool: Bool? {
            if case .value(.bool(let bool)) = storage { return bool }
            return nil
        }

        /// An `int` field's value, or an integer enum's raw value; `nil` for a value above
        /// `Int.max` (read `uint64`).
        public var int: Int? {
            if case .value(.int(let int)) = storage { return int }
            return nil
        }

        /// A `format: uint64` field's value, however large; `nil` for a negative `int` and for
        /// every other kind.
        public var uint64: UInt64? {
            switch storage {
            case .value(.int(let int)): UInt64(exactly: int)
            case .value(.uint(let uint)): uint
            default: nil
            }
        }

        /// A `double` field's value.
        public var double: Double? {
            if case .value(.double(let double)) = storage { return double }
            return nil
        }

        /// A `string` or `url` field's value, or a string enum's raw value: made on each read.
        public var string: String? {
            switch storage {
            case .string(let shared, let token): shared.tape.string(token)
            case .value(.string(let string)): string
            default: nil
            }
        }

        /// A `date` field's value.
        public var date: Date? {
            if case .value(.date(let seconds)) = storage { return Date(timeIntervalSinceReferenceDate: seconds) }
            return nil
        }

        /// A `date-range` field's value, as ActivityKit's `ClosedRange<Date>`. (The decoder
        /// accepts only `lower <= upper`; a range that is not would read as `nil`, never trap.)
        public var dateRange: ClosedRange<Date>? {
            guard case .value(.dateRange(let lower, let upper)) = storage, lower <= upper else { return nil }
            return Date(timeIntervalSinceReferenceDate: lower) ... Date(timeIntervalSinceReferenceDate: upper)
        }

        /// An array's element count, or an object's field count; 0 for anything else.
        public var count: Int {
            switch storage {
            case .array(let shared, let position, _): shared.tape.node(at: position).b
            case .object(_, _, let plan): plan.takeUnretainedValue().fieldCount
            case .value(.array(let elements)): elements.count
            case .value(.object(let members)): members.count
            case .value, .string: 0
            }
        }

        /// An object's field names in schema order; empty for anything else.
        public var names: [String] {
            switch storage {
            case .object(_, _, let plan): plan.takeUnretainedValue().memberNames
            case .value(.object(let members)): members.map(\.name)
            case .value, .string, .array: []
            }
        }

        /// The value of an object's field, or `nil` when this is not an object or the version
        /// has no such field.
        /// - Parameter name: The field's name.
        public subscript(name: String) -> Node? {
            switch storage {
            case .object(let shared, let first, let plan):
                let plan = plan.takeUnretainedValue()
                return plan.index(ofName: name).map {
                    Node(shared, at: first &+ $0, field: plan.fieldRefs[$0].takeUnretainedValue(), missing: plan.initialMembers[$0].value)
                }
            case .value(let value):
                return value[name].map { Node(.value($0)) }
            case .string, .array:
                return nil
            }
        }

        /// An array's element, or `nil` when this is not an array or `index` is out of bounds.
        /// - Parameter index: The element's position, from 0.
        public subscript(index: Int) -> Node? {
            switch storage {
            case .array(let shared, let position, let field):
                let array = shared.tape.node(at: position)
                guard index >= 0, index < array.b, let items = field.takeUnretainedValue().itemsRef else { return nil }
                return Node(shared, at: array.a &+ index, field: items.takeUnretainedValue(), missing: .null)
            case .value(.array(let elements)):
                return elements.indices.contains(index) ? Node(.value(elements[index])) : nil
            case .value, .string, .object:
                return nil
            }
        }

        /// The node and everything under it, made as a `Value`.
        public var value: Value {
            switch storage {
            case .value(let value): value
            case .string(let shared, let token): .string(shared.tape.string(token))
            case .array(let shared, let position, let field):
                shared.tape.value(at: position, field: field.takeUnretainedValue(), missing: .null)
            case .object(let shared, let first, let plan): shared.tape.objectValue(at: first, plan: plan.takeUnretainedValue())
            }
        }
    }
}
