import CoreMetrics
import Foundation
import LiveState
import Prometheus
import Synchronization

/// The sidecar's metrics, through swift-metrics into a Prometheus registry of the server's own,
/// served as text at `GET /metrics`.
///
/// - `livestate_http_requests_total{route,method,status}` and
///   `livestate_http_request_duration_seconds{route}`: every request, the hot validate route
///   included (`ValidateRouteResponder` sees each request before the router).
/// - `livestate_request_body_bytes{route}`: the size of each body read.
/// - `livestate_validations_total{schema,version,outcome}` (`ok`, `invalid`) and
///   `livestate_diagnostics_total{schema,version,code}`: what validation found, per payload
///   (a batch counts each line).
/// - `livestate_schema_generation`, `livestate_schemas_loaded` and
///   `livestate_schema_last_reload_success` (1, or 0 after a failed reload; absent before the
///   first reload): read from the store when scraped.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SidecarMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Metrics by label set: swift-metrics objects are made once and kept.
    private let counters = Mutex<[String: CoreMetrics.Counter]>([:])
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])
    private let recorders = Mutex<[String: CoreMetrics.Recorder]>([:])
    private let generation: CoreMetrics.Gauge
    private let loaded: CoreMetrics.Gauge
    /// Made at the first scrape after a reload: before one, there is nothing to report.
    private let lastReload = Mutex<CoreMetrics.Gauge?>(nil)

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["livestate_request_body_bytes"] = [256, 512, 1024, 2048, 4096, 5120, 16_384, 65_536, 1_048_576, 4_194_304]
        factory.durationHistogramBuckets["livestate_http_request_duration_seconds"] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(250), .seconds(1),
        ]
        self.factory = factory
        generation = CoreMetrics.Gauge(label: "livestate_schema_generation", factory: factory)
        loaded = CoreMetrics.Gauge(label: "livestate_schemas_loaded", factory: factory)
    }

    /// A request answered.
    func request(route: String, method: String, status: Int, duration: Duration) {
        counter("livestate_http_requests_total", [("route", route), ("method", method), ("status", String(status))]).increment()
        let timer = timers.withLock { timers in
            let key = route
            if let timer = timers[key] { return timer }
            let timer = CoreMetrics.Timer(label: "livestate_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            timers[key] = timer
            return timer
        }
        timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + Int64(duration.components.attoseconds / 1_000_000_000))
    }

    /// A request body read.
    func body(route: String, bytes: Int) {
        let recorder = recorders.withLock { recorders in
            if let recorder = recorders[route] { return recorder }
            let recorder = CoreMetrics.Recorder(label: "livestate_request_body_bytes", dimensions: [("route", route)], aggregate: true, factory: factory)
            recorders[route] = recorder
            return recorder
        }
        recorder.record(bytes)
    }

    /// One payload validated for one version (`all` for every version at once).
    func validation(schema: String, version: String, ok: Bool, diagnostics: [Diagnostic]) {
        counter("livestate_validations_total", [("schema", schema), ("version", version), ("outcome", ok ? "ok" : "invalid")]).increment()
        for diagnostic in diagnostics {
            counter("livestate_diagnostics_total", [("schema", schema), ("version", version), ("code", diagnostic.code)]).increment()
        }
    }

    /// The Prometheus text, with the store's gauges set as they are now.
    func exposition(store: SchemaStore) -> [UInt8] {
        let snapshot = store.snapshot
        generation.record(Double(snapshot.generation))
        loaded.record(Double(snapshot.ids.count))
        if let reload = store.lastReload {
            let gauge = lastReload.withLock { gauge in
                if let gauge { return gauge }
                let made = CoreMetrics.Gauge(label: "livestate_schema_last_reload_success", factory: factory)
                gauge = made
                return made
            }
            gauge.record(reload.succeeded ? 1.0 : 0.0)
        }
        return registry.emitToBuffer()
    }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = label + dimensions.map { "|" + $0.1 }.joined()
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }
}
