import Benchmark
import BenchmarkFixtures
import Foundation
import LiveState

// Every contender on every payload, named `CONTENDER/PAYLOAD`; compare.sh pairs them up.
//
//   livestate-value             ContentStateDecoder.decode(contentState:) to the Value tree
//   livestate-view              ContentStateDecoder.view(contentState:): checked, strings made when read
//   livestate-struct            ContentStateDecoder.decode(Delivery.self, contentState:), with the whole DecodeResult
//   livestate-view-struct       view(contentState:).decode(Delivery.self): the struct, findings left unworded
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
// livestate-value, livestate-view, jsondecoder-tolerant and jsonserialization-defaults.
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

    let decoder = DeliverySchema.decoder()
    let validator = DeliverySchema.validator()
    let encoder = DeliverySchema.encoder()
    let jsonDecoder = JSONDecoder()
    let jsonEncoder = JSONEncoder()

    // The contenders every content-state has: the Value tree, the view, and the two hand-written
    // decodes that default as LiveState does (JSONDecoder with a tolerant init(from:), and
    // JSONSerialization).
    func decodeBenchmarks(_ name: String, _ bytes: [UInt8], _ data: Data) {
        Benchmark("livestate-value/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decoder.decode(contentState: bytes))
            }
        }
        Benchmark("livestate-view/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decoder.view(contentState: bytes))
            }
        }
        Benchmark("jsondecoder-tolerant/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonDecoder.decode(TolerantDelivery.self, from: data))
            }
        }
        Benchmark("jsonserialization-defaults/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(SerializationDefaulting.decode(data))
            }
        }
    }

    for name in Payloads.contentStates {
        let bytes = Payloads.bytes(name)
        let data = Data(bytes)
        let state = CrossCheck.contentState(name, bytes, decoder: decoder)
        CrossCheck.encoding(name, state, encoder: encoder, decoder: decoder)

        decodeBenchmarks(name, bytes, data)
        Benchmark("livestate-view-read/\(name)") { benchmark in
            // The view, then every value read through its nodes, strings made.
            for _ in benchmark.scaledIterations {
                blackHole(decoder.view(contentState: bytes).root.map(NodeVisit.checksum))
            }
        }
        Benchmark("livestate-view-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.view(contentState: bytes).decode(Delivery.self))
            }
        }
        Benchmark("livestate-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode(Delivery.self, contentState: bytes))
            }
        }
        Benchmark("jsondecoder-struct/\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jsonDecoder.decode(Delivery.self, from: data))
            }
        }
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

    let body = Payloads.body
    let bodyBytes = Payloads.bytes(body)
    let bodyData = Data(bodyBytes)
    CrossCheck.body(body, bodyBytes, decoder: decoder)
    CrossCheck.lint(body, bodyBytes, validator: validator, decoder: decoder)

    Benchmark("livestate-body/\(body)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(decoder.decode(payload: bodyBytes))
        }
    }
    Benchmark("livestate-lint/\(body)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(validator.validate(bodyBytes))
        }
    }
    Benchmark("jsondecoder-body/\(body)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try jsonDecoder.decode(DeliveryPush.self, from: bodyData))
        }
    }

    // What an older app version gets: a status it does not know and a logo of the wrong type.
    // `JSONDecoder` throws on it into the synthesized `Delivery`; the hand-written decodes
    // (`TolerantDelivery`, `JSONSerialization`) default as LiveState does.
    let fallback = Payloads.fallback
    let fallbackBytes = Payloads.bytes(fallback)
    let fallbackData = Data(fallbackBytes)
    CrossCheck.fallback(fallback, fallbackBytes, decoder: decoder)
    decodeBenchmarks(fallback, fallbackBytes, fallbackData)
}
