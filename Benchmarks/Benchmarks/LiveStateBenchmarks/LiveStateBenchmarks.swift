import Benchmark
import BenchmarkFixtures
import Foundation
import LiveState
import LiveStateTooling

// Every contender on every payload, named `CONTENDER/PAYLOAD`; compare.sh pairs them up.
//
//   livestate-value             ContentStateDecoder.decode(contentState:), then its Value tree made (`state`)
//   livestate-view              ContentStateDecoder.decode(contentState:) alone: checked, nothing made yet
//   livestate-view-read         the same, then every value read through its nodes (`root`), strings made
//   livestate-view-struct       decode(contentState:).decode(Delivery.self): the struct, findings left unworded
//   livestate-body              ContentStateDecoder.decode(payload:) on a whole APNs body
//   livestate-lint              PayloadValidator.validate, what `livestate lint` runs on a body
//   jsondecoder-struct          Foundation JSONDecoder into the synthesized Codable Delivery
//   jsondecoder-tolerant        Foundation JSONDecoder into TolerantDelivery, a hand-written tolerant init(from:)
//   jsondecoder-body            the same, around a whole APNs body (DeliveryPush)
//   jsonserialization-defaults  JSONSerialization to [String: Any], then a default per field
//   jsonencoder-struct          Foundation JSONEncoder writing the Delivery LiveState decoded
//   livestate-encoder-struct    ContentStateEncoder.encode writing the same Delivery
//   livestate-encoder-value     ContentStateEncoder.encode writing the decoded Value tree
//
// and, on cs600-fallback (what an older app version gets: a fallback and a default taken),
// livestate-value, livestate-view, jsondecoder-tolerant and jsonserialization-defaults (and the
// first three on cs600-tightened, where a string is too long and a number out of range). The same
// decode contenders (with Grocery, TolerantGrocery and GroceryPush for the Foundation ones) run
// on grocery500 and grocery500-body, an activity the speed work was not measured on.
//
// Decoders, encoders and input bytes are made once, outside the measured loop. One sample is
// 1,000 operations (`scalingFactor: .kilo`): the two clock reads around a sample take about
// 25 ns of the time they measure here, a twentieth of the view's. compare.sh divides the times
// and malloc counts by its OPERATIONS_PER_SAMPLE. CrossCheck first makes sure every contender
// decodes each payload to the same state.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 20_000
    )

    // Every contender must decode every payload to the same state before anything is timed.
    CrossCheck.everyPayload()
    let jsonDecoder = JSONDecoder()
    let jsonEncoder = JSONEncoder()

    // The contenders every content-state has: the Value tree, the view, and JSONDecoder into the
    // hand-written tolerant type, which defaults as LiveState does; with `typed`, also every
    // value read through the view, the app's own type read by LiveState (two ways) and by
    // JSONDecoder with synthesized Codable (which throws on a payload that needs a default).
    func stateBenchmarks<Activity: BenchmarkActivity>(
        _ activity: Activity.Type, _ name: String, _ bytes: [UInt8], decoder: ContentStateDecoder, typed: Bool
    ) {
        let data = Data(bytes)
        Benchmark("livestate-value/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decoder.decode(contentState: bytes).state)
            }
        }
        Benchmark("livestate-view/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decoder.decode(contentState: bytes))
            }
        }
        Benchmark("jsondecoder-tolerant/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonDecoder.decode(Activity.Tolerant.self, from: data))
            }
        }
        guard typed else { return }
        Benchmark("livestate-view-read/\(name)") { benchmark in
            // The view, then every value read through its nodes, strings made.
            for _ in benchmark.scaledIterations {
                blackHole(decoder.decode(contentState: bytes).root.map(NodeVisit.checksum))
            }
        }
        Benchmark("livestate-view-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode(contentState: bytes).decode(Activity.State.self))
            }
        }
        Benchmark("jsondecoder-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonDecoder.decode(Activity.State.self, from: data))
            }
        }
    }

    // A whole APNs body: decode(payload:), lint, and JSONDecoder into the body type.
    func bodyBenchmarks<Activity: BenchmarkActivity>(_ activity: Activity.Type, _ name: String) {
        let decoder = Activity.decoder()
        let validator = Activity.validator()
        let bytes = Payloads.bytes(name)
        let data = Data(bytes)
        Benchmark("livestate-body/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decoder.decode(payload: bytes))
            }
        }
        Benchmark("livestate-lint/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(validator.validate(bytes))
            }
        }
        Benchmark("jsondecoder-body/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonDecoder.decode(Activity.Push.self, from: data))
            }
        }
    }

    // JSONSerialization to [String: Any], then a hand-written default per field (delivery only).
    func serializationBenchmark(_ name: String, _ bytes: [UInt8]) {
        let data = Data(bytes)
        Benchmark("jsonserialization-defaults/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(SerializationDefaulting.decode(data))
            }
        }
    }

    let decoder = DeliverySchema.decoder()
    let encoder = DeliverySchema.encoder()
    for name in Payloads.contentStates {
        let bytes = Payloads.bytes(name)
        let state = try! decoder.decode(contentState: bytes).decode(Delivery.self)

        stateBenchmarks(DeliverySchema.self, name, bytes, decoder: decoder, typed: true)
        serializationBenchmark(name, bytes)
        Benchmark("jsonencoder-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonEncoder.encode(state))
            }
        }
        Benchmark("livestate-encoder-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(state))
            }
        }
        // The state as servers hold it with LiveState: the Value tree, written without the
        // Encodable round trip (which reads the struct back through the decoder to check it).
        let tree = decoder.decode(contentState: bytes).state ?? .object([])
        Benchmark("livestate-encoder-value/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(encoder.encode(tree))
            }
        }
    }
    bodyBenchmarks(DeliverySchema.self, Payloads.body)

    // What an older app version gets: a status it does not know and a logo of the wrong type.
    // `JSONDecoder` throws on it into the synthesized `Delivery`; the hand-written decodes
    // (`TolerantDelivery`, `JSONSerialization`) default as LiveState does.
    let fallback = Payloads.fallback
    let fallbackBytes = Payloads.bytes(fallback)
    stateBenchmarks(DeliverySchema.self, fallback, fallbackBytes, decoder: decoder, typed: false)
    serializationBenchmark(fallback, fallbackBytes)
    // And when a later schema allows more: against the tolerant type, which checks the same bounds.
    stateBenchmarks(DeliverySchema.self, Payloads.tightened, Payloads.bytes(Payloads.tightened), decoder: decoder, typed: false)

    // An activity the speed work was not measured on: its content-state and its body.
    let grocery = GrocerySchema.decoder()
    let groceryBytes = Payloads.bytes(Payloads.untuned)
    stateBenchmarks(GrocerySchema.self, Payloads.untuned, groceryBytes, decoder: grocery, typed: true)
    bodyBenchmarks(GrocerySchema.self, Payloads.untunedBody)
}
