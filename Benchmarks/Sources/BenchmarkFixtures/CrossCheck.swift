import Foundation
@_spi(Scanner) @_spi(Testing) import LiveState
import LiveStateTooling

/// Checks, before anything is timed, that every contender decodes a payload to the same state,
/// so that no benchmark measures a failing or short-cut decode.
public enum CrossCheck {
    /// Every check of every payload: what the benchmark suite and `DecodeDriver check` run
    /// before anything is measured. The process stops at the first disagreement.
    public static func everyPayload() {
        let delivery = DeliverySchema.decoder()
        for name in Payloads.contentStates {
            let state = contentState(name, Payloads.bytes(name), decoder: delivery)
            encoding(name, state, encoder: DeliverySchema.encoder(), decoder: delivery)
        }
        fallback(Payloads.fallback, Payloads.bytes(Payloads.fallback), decoder: delivery)
        fallback(Payloads.tightened, Payloads.bytes(Payloads.tightened), decoder: delivery, findings: ["invalid-defaulted"], bySerialization: false)
        body(Payloads.body, Payloads.bytes(Payloads.body), as: DeliverySchema.self, decoder: delivery)
        lint(Payloads.body, Payloads.bytes(Payloads.body), validator: DeliverySchema.validator(), decoder: delivery)
        let grocery = GrocerySchema.decoder()
        let groceryState = state(Payloads.untuned, Payloads.bytes(Payloads.untuned), as: GrocerySchema.self, decoder: grocery)
        encoding(Payloads.untuned, groceryState, encoder: GrocerySchema.encoder(), decoder: grocery)
        body(Payloads.untunedBody, Payloads.bytes(Payloads.untunedBody), as: GrocerySchema.self, decoder: grocery)
        lint(Payloads.untunedBody, Payloads.bytes(Payloads.untunedBody), validator: GrocerySchema.validator(), decoder: grocery)
    }

    /// Decodes a content-state payload of the delivery activity with every contender of
    /// `state(_:_:as:)`, and with `JSONSerialization`, and stops the process when they disagree.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The payload.
    ///   - decoder: The LiveState decoder.
    /// - Returns: The state, as LiveState decodes it into `Delivery`.
    @discardableResult
    public static func contentState(_ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder) -> Delivery {
        let live = state(name, bytes, as: DeliverySchema.self, decoder: decoder)
        guard let handWritten = SerializationDefaulting.decode(Data(bytes)) else {
            fail(name, "JSONSerialization with defaults rejected it")
        }
        guard live == handWritten else {
            fail(name, "the contenders disagree:\n  LiveState \(live)\n  JSONSerialization \(handWritten)")
        }
        return live
    }

    /// Decodes a content-state payload with LiveState (tree, nodes and struct, each against its reference decode) and
    /// `JSONDecoder` (into the app's type and the hand-written tolerant one), and stops the
    /// process when they disagree.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The payload.
    ///   - activity: The activity the payload is a state of.
    ///   - decoder: The LiveState decoder.
    /// - Returns: The state, as LiveState decodes it into the app's type.
    @discardableResult
    public static func state<Activity: BenchmarkActivity>(
        _ name: String, _ bytes: [UInt8], as activity: Activity.Type, decoder: ContentStateDecoder
    ) -> Activity.State {
        let result = decoder.decode(contentState: bytes)
        guard result.state != nil else { fail(name, "LiveState rejected it: \(result.diagnostics)") }
        // The decode must take its one-pass path on the benchmark payloads, and agree with the
        // reference decode.
        let reference = inFull(decoder).decode(contentState: bytes)
        guard result.isReadOnTape, result == reference else {
            fail(name, "the decode was not read on its tape (\(!result.isReadOnTape)) or disagrees with the reference decode")
        }
        guard let root = result.root, root.value == reference.state, NodeVisit.checksum(root) == NodeVisit.checksum(reference.state!) else {
            fail(name, "the result's nodes disagree with the reference decode")
        }
        let live: Activity.State
        let foundation: Activity.State
        let tolerant: Activity.State
        do {
            live = try result.decode(Activity.State.self)
            guard try reference.decode(Activity.State.self) == live else {
                fail(name, "the tape decodes another struct than the reference decode's state")
            }
            foundation = try JSONDecoder().decode(Activity.State.self, from: Data(bytes))
            tolerant = Activity.state(tolerant: try JSONDecoder().decode(Activity.Tolerant.self, from: Data(bytes)))
        } catch {
            fail(name, "\(error)")
        }
        // LiveState fills every missing key from the schema; JSONDecoder leaves it nil.
        guard live == tolerant, live == Activity.withSchemaDefaults(foundation) else {
            fail(name, "the contenders disagree:\n  LiveState \(live)\n  JSONDecoder \(foundation)\n  tolerant \(tolerant)")
        }
        return live
    }

    /// `decoder` with its one-pass read off: the reference decode the tape is checked against.
    private static func inFull(_ decoder: ContentStateDecoder) -> ContentStateDecoder {
        var full = decoder
        full.readsInOnePass = false
        return full
    }

    /// Checks that LiveState reads what an older app version gets (`Payloads.fallback`,
    /// `Payloads.tightened`) on the tape with its findings, and to the state the hand-written
    /// decodes make (`TolerantDelivery`, and `JSONSerialization` where it checks what the
    /// payload breaks).
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The payload.
    ///   - decoder: The LiveState decoder.
    ///   - findings: The codes of the findings LiveState must make.
    ///   - bySerialization: Whether `SerializationDefaulting` must agree (it checks types, not
    ///     lengths or ranges).
    public static func fallback(
        _ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder,
        findings: Set<String> = ["unknown-enum-value", "invalid-defaulted"], bySerialization: Bool = true
    ) {
        let result = decoder.decode(contentState: bytes)
        guard result.state != nil, findings.isSubset(of: result.diagnostics.map(\.code.rawValue)) else {
            fail(name, "LiveState did not make the findings \(findings.sorted()): \(result.diagnostics)")
        }
        guard result.isReadOnTape, result == inFull(decoder).decode(contentState: bytes) else {
            fail(name, "the decode was not read on its tape (\(!result.isReadOnTape)) or disagrees with the reference decode")
        }
        do {
            let live = try result.decode(Delivery.self)
            if bySerialization {
                guard let handWritten = SerializationDefaulting.decode(Data(bytes)), live == handWritten else {
                    fail(name, "LiveState and JSONSerialization with defaults disagree")
                }
            }
            let tolerant = try JSONDecoder().decode(TolerantDelivery.self, from: Data(bytes)).delivery
            guard live == tolerant else { fail(name, "LiveState and TolerantDelivery disagree:\n  \(live)\n  \(tolerant)") }
        } catch {
            fail(name, "\(error)")
        }
    }

    /// Checks that LiveState's encoder writes a state that decodes back to the same state.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - state: The state.
    ///   - encoder: The LiveState encoder.
    ///   - decoder: The LiveState decoder.
    public static func encoding<State: Codable & Equatable>(
        _ name: String, _ state: State, encoder: ContentStateEncoder, decoder: ContentStateDecoder
    ) {
        do {
            let result = try encoder.encode(state)
            guard result.succeeded else { fail(name, "LiveState's encoder failed: \(result.diagnostics)") }
            let back = try decoder.decode(contentState: result.bytes).decode(State.self)
            guard back == state else { fail(name, "the encoded state decodes to \(back), not \(state)") }
        } catch {
            fail(name, "\(error)")
        }
    }

    /// Checks that `livestate lint`'s validator accepts a body and reads the same state as
    /// `decode(payload:)`.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The body.
    ///   - validator: The validator.
    ///   - decoder: The LiveState decoder.
    public static func lint(_ name: String, _ bytes: [UInt8], validator: PayloadValidator, decoder: ContentStateDecoder) {
        let result = validator.validate(bytes)
        guard !result.hasErrors, result.appDecodes else { fail(name, "lint found errors: \(result.diagnostics)") }
        guard result.state == decoder.decode(payload: bytes).state else { fail(name, "lint and decode(payload:) disagree") }
    }

    /// Checks that LiveState and `JSONDecoder` read the same content-state out of an APNs body.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The body.
    ///   - activity: The activity the body carries a state of.
    ///   - decoder: The LiveState decoder.
    public static func body<Activity: BenchmarkActivity>(
        _ name: String, _ bytes: [UInt8], as activity: Activity.Type, decoder: ContentStateDecoder
    ) {
        let result = decoder.decode(payload: bytes)
        guard let state = result.state else { fail(name, "LiveState rejected it: \(result.diagnostics)") }
        do {
            let push = Activity.state(push: try JSONDecoder().decode(Activity.Push.self, from: Data(bytes)))
            var writer = JSONWriter()
            writer.write(state)
            let fromTree = try decoder.decode(contentState: writer.bytes).decode(Activity.State.self)
            guard fromTree == Activity.withSchemaDefaults(push) else {
                fail(name, "the contenders disagree:\n  LiveState \(fromTree)\n  JSONDecoder \(push)")
            }
        } catch {
            fail(name, "\(error)")
        }
    }

    private static func fail(_ name: String, _ message: String) -> Never {
        fatalError("\(name).json: \(message)")
    }
}

extension Delivery {
    /// The state with each `nil` replaced by the schema's default, as LiveState decodes it.
    /// `note` is optional in the schema and stays `nil`.
    func withSchemaDefaults() -> Delivery {
        var copy = self
        copy.etaText = etaText ?? ""
        copy.delayMinutes = delayMinutes ?? 0
        copy.badge = badge ?? ""
        return copy
    }
}
