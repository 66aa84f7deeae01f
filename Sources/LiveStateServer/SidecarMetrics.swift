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
///   included (`RequestLogMiddleware`, the router's outermost middleware).
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
    /// Made at the first scrape after a reload (one entry): before one, there is nothing to report.
    private let lastReload = Mutex<[String: CoreMetrics.Gauge]>([:])

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
        let timer = Self.kept(route, in: timers) {
            CoreMetrics.Timer(label: "livestate_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
        }
        timer.recordNanoseconds(Int64(duration / .nanoseconds(1)))
    }

    /// A request body read.
    func body(route: String, bytes: Int) {
        let recorder = Self.kept(route, in: recorders) {
            CoreMetrics.Recorder(label: "livestate_request_body_bytes", dimensions: [("route", route)], aggregate: true, factory: factory)
        }
        recorder.record(bytes)
    }

    /// One payload validated for one version (`all` for every version at once).
    func validation(schema: String, version: String, ok: Bool, diagnostics: [Diagnostic]) {
        counter("livestate_validations_total", [("schema", schema), ("version", version), ("outcome", ok ? "ok" : "invalid")]).increment()
        for diagnostic in diagnostics {
            counter("livestate_diagnostics_total", [("schema", schema), ("version", version), ("code", diagnostic.code.rawValue)]).increment()
        }
    }

    /// The Prometheus text, with the store's gauges set as they are now.
    func exposition(store: SchemaStore) -> [UInt8] {
        let snapshot = store.snapshot
        generation.record(Double(snapshot.generation))
        loaded.record(Double(snapshot.ids.count))
        if let reload = store.lastReload {
            let gauge = Self.kept("", in: lastReload) { CoreMetrics.Gauge(label: "livestate_schema_last_reload_success", factory: factory) }
            gauge.record(reload.succeeded ? 1.0 : 0.0)
        }
        return registry.emitToBuffer()
    }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        Self.kept(label + dimensions.map { "|" + $0.1 }.joined(), in: counters) {
            CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
        }
    }

    /// The metric kept under `key`, made by `make` the first time.
    private static func kept<Metric>(_ key: String, in cache: borrowing Mutex<[String: Metric]>, _ make: () -> Metric) -> Metric {
        cache.withLock { metrics in
            if let metric = metrics[key] { return metric }
            let metric = make()
            metrics[key] = metric
            return metric
        }
    }
}
