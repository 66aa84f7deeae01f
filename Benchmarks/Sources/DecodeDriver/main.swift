// A small release driver for profiling one contender under valgrind, where the benchmark
// harness would drown the decoder in its own instructions:
//
//     swift build -c release --product DecodeDriver
//     valgrind --tool=callgrind --callgrind-out-file=cs600.callgrind \
//         .build/release/DecodeDriver value cs600 1000
//     callgrind_annotate --inclusive=yes cs600.callgrind | head -60
//
// Arguments: CONTENDER (check: the cross-checks of every payload, then nothing measured; view, view-read, value, value-findings, value-floor, read-floor, view-struct, scan, body, lint, lint-state,
// jsondecoder, jsondecoder-tolerant, jsondecoder-body, serialization, encoder, encoder-value, jsonencoder; default
// value),
// PAYLOAD (a stem in Payloads/; default cs600; a stem starting `grocery` is decoded with the
// grocery schema and types, any other with the delivery ones), COUNT (default 1000). `shape` as CONTENDER
// prints what the Value tree of PAYLOAD holds instead: the strings longer than 15 UTF-8 bytes
// (the ones Swift cannot store inline) and the containers.
import BenchmarkFixtures
import Foundation
@_spi(Scanner) @_spi(Testing) import LiveState

let arguments = CommandLine.arguments.dropFirst()
let contender = arguments.first ?? "value"
let payload = arguments.dropFirst().first ?? "cs600"
let count = arguments.dropFirst(2).first.flatMap(Int.init) ?? 1000

let isGrocery = payload.hasPrefix("grocery")
let activity: any BenchmarkActivity.Type = isGrocery ? GrocerySchema.self : DeliverySchema.self
let decoder = activity.decoder()
let bytes = Payloads.bytes(payload)
let data = Data(bytes)
let jsonDecoder = JSONDecoder()
let validator = activity.validator()
let encoder = activity.encoder()
let jsonEncoder = JSONEncoder()

/// Counts what the decoded tree allocates for: long strings and containers.
func shape(of value: Value, into tally: inout (longStrings: Int, containers: Int, diagnostics: Int)) {
    switch value {
    case .string(let string) where string.utf8.count > 15:
        tally.longStrings += 1
    case .array(let elements):
        tally.containers += 1
        for element in elements { shape(of: element, into: &tally) }
    case .object(let members):
        tally.containers += 1
        for member in members { shape(of: member.value, into: &tally) }
    default:
        break
    }
}

/// A `Value` tree's parts, each string kept as its UTF-8 bytes, from which the same tree is
/// made again: the floor of any decoder that hands over this tree (the field names, which a
/// decoder takes from its schema, are shared, as LiveState's are).
indirect enum TreeParts {
    case scalar(Value)
    case string([UInt8])
    case array([TreeParts])
    case object([(name: String, parts: TreeParts)])

    init(_ value: Value) {
        switch value {
        case .string(let string): self = .string(Array(string.utf8))
        case .array(let elements): self = .array(elements.map(TreeParts.init))
        case .object(let members): self = .object(members.map { ($0.name, TreeParts($0.value)) })
        default: self = .scalar(value)
        }
    }

    func make() -> Value {
        switch self {
        case .scalar(let value): value
        case .string(let utf8): .string(utf8.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) })
        case .array(let elements): .array(elements.map { $0.make() })
        case .object(let members): .object(members.map { Value.Member($0.name, $0.parts.make()) })
        }
    }

    /// The tree made `count` times. (Not in the top-level loop: its code is main-actor
    /// isolated, and the closures there would check their executor on every call.)
    nonisolated func makeTrees(_ count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count { checksum &+= make().isNull ? 0 : 1 }
        return checksum
    }

    /// Each of `strings` made `count` times.
    nonisolated static func makeStrings(_ strings: [[UInt8]], _ count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            for utf8 in strings { checksum &+= utf8.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }.utf8.count }
        }
        return checksum
    }

    /// Every string of `value`, as UTF-8 bytes, in the order the nodes visit them.
    static func strings(of value: Value) -> [[UInt8]] {
        switch value {
        case .string(let string): [Array(string.utf8)]
        case .array(let elements): elements.flatMap(strings)
        case .object(let members): members.flatMap { strings(of: $0.value) }
        default: []
        }
    }
}

var checksum = 0
switch contender {
case "check":
    // The benchmark suite's cross-checks on every payload, without the suite: each contender
    // must decode each payload to the same state (the process stops when one does not).
    CrossCheck.everyPayload()
    print("every contender agrees on every payload")
    exit(0)
case "shape":
    let result = payload.hasPrefix("body") ? decoder.decode(payload: bytes) : decoder.decode(contentState: bytes)
    guard let state = result.state else { fatalError("\(payload) was rejected: \(result.diagnostics)") }
    var tally = (longStrings: 0, containers: 0, diagnostics: result.diagnostics.count)
    shape(of: state, into: &tally)
    print("\(payload): \(tally.longStrings) strings longer than 15 bytes, \(tally.containers) containers, \(tally.diagnostics) diagnostics")
    for diagnostic in result.diagnostics { print("  \(diagnostic.code): \(diagnostic.message)") }
    exit(0)
case "value":
    // The decode, then its Value tree made; the findings are worded only when read
    // (`value-findings`).
    for _ in 0..<count { checksum &+= decoder.decode(contentState: bytes).state == nil ? 0 : 1 }
case "value-findings":
    for _ in 0..<count { checksum &+= decoder.decode(contentState: bytes).diagnostics.count }
case "view":
    // The decode alone: checked, nothing made.
    for _ in 0..<count { checksum &+= decoder.decode(contentState: bytes).isReadOnTape ? 1 : 0 }
case "view-read":
    // The decode, then every value read through its nodes, strings made.
    for _ in 0..<count { checksum &+= decoder.decode(contentState: bytes).root.map(NodeVisit.checksum) ?? 0 }
case "view-struct", "encoder", "jsonencoder", "jsondecoder", "jsondecoder-tolerant", "jsondecoder-body":
    checksum = isGrocery ? typed(GrocerySchema.self) : typed(DeliverySchema.self)
case "encoder-value":
    // The Value path: the state decoded once into a tree, then written COUNT times.
    guard let state = decoder.decode(contentState: bytes).state else { fatalError("\(payload) was rejected") }
    for _ in 0..<count { checksum &+= encoder.encode(state).bytes.count }
case "value-floor":
    // The payload's `Value` tree made again from its parts, each string from its UTF-8 bytes,
    // with no JSON read: what any decoder that hands over this tree pays at least.
    guard let state = decoder.decode(contentState: bytes).state else { fatalError("\(payload) was rejected") }
    checksum = TreeParts(state).makeTrees(count)
case "read-floor":
    // Every string the view's nodes make (`view-read`), made from its UTF-8 bytes, with no JSON
    // read and no tree: what reading every value pays at least beyond the view itself.
    guard let state = decoder.decode(contentState: bytes).state else { fatalError("\(payload) was rejected") }
    checksum = TreeParts.makeStrings(TreeParts.strings(of: state), count)
case "body":
    for _ in 0..<count { checksum &+= decoder.decode(payload: bytes).diagnostics.count }
case "lint":
    for _ in 0..<count { checksum &+= validator.validate(bytes).diagnostics.count }
case "lint-state":
    // Lint, then the state made from its result (lint alone makes none).
    for _ in 0..<count { checksum &+= validator.validate(bytes).state == nil ? 0 : 1 }
case "scan":
    // The strict scanner alone over the whole payload: no tree, no strings, no duplicate check.
    let options = JSONScanOptions(duplicateKeys: .ignore)
    for _ in 0..<count {
        checksum &+= bytes.withUnsafeBytes { (try? JSONValidator.validate($0, options: options))?.count ?? 1 }
    }
case "serialization":
    for _ in 0..<count { checksum &+= SerializationDefaulting.decode(data)?.items.count ?? 0 }
default:
    fatalError("unknown contender '\(contender)': view, view-read, value, value-findings, value-floor, read-floor, view-struct, scan, body, lint, lint-state, jsondecoder, jsondecoder-tolerant, jsondecoder-body, serialization, encoder, encoder-value, jsonencoder or shape")
}
print("\(contender) \(payload) x\(count): checksum \(checksum)")

/// Runs the contenders that read into the activity's own types.
/// - Parameter activity: The activity of the payload.
/// - Returns: The checksum of `count` operations.
func typed<Activity: BenchmarkActivity>(_ activity: Activity.Type) -> Int {
    var checksum = 0
    switch contender {
    case "view-struct":
        for _ in 0..<count { checksum &+= Activity.checksum(try! decoder.decode(contentState: bytes).decode(Activity.State.self)) }
    case "encoder", "jsonencoder":
        let state = try! decoder.decode(contentState: bytes).decode(Activity.State.self)
        if contender == "encoder" {
            for _ in 0..<count { checksum &+= try! encoder.encode(state).bytes.count }
        } else {
            for _ in 0..<count { checksum &+= try! jsonEncoder.encode(state).count }
        }
    case "jsondecoder":
        for _ in 0..<count { checksum &+= Activity.checksum(try! jsonDecoder.decode(Activity.State.self, from: data)) }
    case "jsondecoder-tolerant":
        for _ in 0..<count { checksum &+= Activity.checksum(Activity.state(tolerant: try! jsonDecoder.decode(Activity.Tolerant.self, from: data))) }
    case "jsondecoder-body":
        for _ in 0..<count { checksum &+= Activity.checksum(Activity.state(push: try! jsonDecoder.decode(Activity.Push.self, from: data))) }
    default:
        fatalError("not a typed contender: \(contender)")
    }
    return checksum
}
