import Foundation
@_spi(Scanner) import LiveState

/// Checks, before anything is timed, that every contender decodes a payload to the same state,
/// so that no benchmark measures a failing or short-cut decode.
public enum CrossCheck {
    /// Decodes a content-state payload with LiveState (tree and struct), `JSONDecoder` (into
    /// `Delivery` and `TolerantDelivery`) and `JSONSerialization`, and stops the process when
    /// they disagree.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The payload.
    ///   - decoder: The LiveState decoder.
    /// - Returns: The state, as LiveState decodes it into `Delivery`.
    @discardableResult
    public static func contentState(_ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder) -> Delivery {
        let result = decoder.decode(contentState: bytes)
        guard result.state != nil else { fail(name, "LiveState rejected it: \(result.diagnostics)") }
        // The view must take its one-pass path on the benchmark payloads, and agree.
        let view = decoder.view(contentState: bytes)
        guard view.isDeferred, view.result == result else {
            fail(name, "the view took the full decode (\(!view.isDeferred)) or disagrees with decode(contentState:)")
        }
        guard let root = view.root, root.value == result.state, NodeVisit.checksum(root) == NodeVisit.checksum(result.state!) else {
            fail(name, "the view's nodes disagree with decode(contentState:)")
        }
        let live: Delivery
        let foundation: Delivery
        let tolerant: Delivery
        do {
            live = try decoder.decode(Delivery.self, contentState: bytes).value
            foundation = try JSONDecoder().decode(Delivery.self, from: Data(bytes))
            tolerant = try JSONDecoder().decode(TolerantDelivery.self, from: Data(bytes)).delivery
        } catch {
            fail(name, "\(error)")
        }
        guard let handWritten = SerializationDefaulting.decode(Data(bytes)) else {
            fail(name, "JSONSerialization with defaults rejected it")
        }
        // LiveState fills every missing key from the schema; JSONDecoder leaves it nil.
        guard live == handWritten, live == tolerant, live == foundation.withSchemaDefaults() else {
            fail(name, "the contenders disagree:\n  LiveState \(live)\n  JSONSerialization \(handWritten)\n  JSONDecoder \(foundation)\n  TolerantDelivery \(tolerant)")
        }
        return live
    }

    /// Checks that LiveState reads `Payloads.fallback` on the tape with its two findings, and
    /// to the state the hand-written decodes (`TolerantDelivery`, `JSONSerialization`) make.
    /// - Parameters:
    ///   - name: The payload's stem, for the message.
    ///   - bytes: The payload.
    ///   - decoder: The LiveState decoder.
    public static func fallback(_ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder) {
        let result = decoder.decode(contentState: bytes)
        let codes = result.diagnostics.map(\.code)
        guard result.state != nil, codes.contains("unknown-enum-value"), codes.contains("invalid-defaulted") else {
            fail(name, "LiveState did not take the fallback and the default: \(result.diagnostics)")
        }
        let view = decoder.view(contentState: bytes)
        guard view.isDeferred, view.result == result else {
            fail(name, "the view took the full decode (\(!view.isDeferred)) or disagrees with decode(contentState:)")
        }
        do {
            let live = try decoder.decode(Delivery.self, contentState: bytes).value
            guard let handWritten = SerializationDefaulting.decode(Data(bytes)), live == handWritten else {
                fail(name, "LiveState and JSONSerialization with defaults disagree")
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
    public static func encoding(_ name: String, _ state: Delivery, encoder: ContentStateEncoder, decoder: ContentStateDecoder) {
        do {
            let result = try encoder.encode(state)
            guard result.succeeded else { fail(name, "LiveState's encoder failed: \(result.diagnostics)") }
            let back = try decoder.decode(Delivery.self, contentState: result.bytes).value
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
    ///   - decoder: The LiveState decoder.
    public static func body(_ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder) {
        let result = decoder.decode(payload: bytes)
        guard let state = result.state else { fail(name, "LiveState rejected it: \(result.diagnostics)") }
        do {
            let push = try JSONDecoder().decode(DeliveryPush.self, from: Data(bytes))
            var writer = JSONWriter()
            writer.write(state)
            let fromTree = try decoder.decode(Delivery.self, contentState: writer.bytes).value
            guard fromTree == push.aps.contentState.withSchemaDefaults() else {
                fail(name, "the contenders disagree:\n  LiveState \(fromTree)\n  JSONDecoder \(push.aps.contentState)")
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
