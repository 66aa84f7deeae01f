import Foundation
import LiveState
import Prometheus
import Synchronization

/// The sidecar's metrics, in a Prometheus registry of the server's own, served as text at
/// `GET /metrics`, each family with its `# HELP` line.
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
    /// Metrics by label set: made once and kept (the registry would look each up under its lock).
    private let counters = Mutex<[String: Counter]>([:])
    private let durations = Mutex<[String: DurationHistogram]>([:])
    private let sizes = Mutex<[String: ValueHistogram]>([:])
    private let generation: Gauge
    private let loaded: Gauge
    /// Made at the first scrape after a reload (one entry): before one, there is nothing to report.
    private let lastReload = Mutex<[String: Gauge]>([:])

    /// Each family's name and `# HELP` text (made when a metric is, not kept: the type is not
    /// `Sendable`).
    private enum Family {
        static var requests: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", metricName: "http_requests", unitName: "total",
                helpText: "Requests answered, by route pattern, method and status.")
        }
        static var duration: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", metricName: "http_request_duration", unitName: "seconds",
                helpText: "Time from a request's arrival to the end of its answer (a validate-batch answer's last line included), by route pattern.")
        }
        static var bodySize: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", metricName: "request_body", unitName: "bytes",
                helpText: "Size of each request body read, by route pattern.")
        }
        static var validations: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", metricName: "validations", unitName: "total",
                helpText: "Payloads validated, by schema, version (all for every version at once) and outcome (ok, invalid); a batch counts each line.")
        }
        static var diagnostics: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", metricName: "diagnostics", unitName: "total",
                helpText: "Diagnostics found in validated payloads, by schema, version and code.")
        }
        static var generation: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", subsystem: "schema", metricName: "generation", unitName: "",
                helpText: "The loaded schema set's generation: 1 at start, one more at each reload that succeeds.")
        }
        static var loaded: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", subsystem: "schemas", metricName: "loaded", unitName: "",
                helpText: "Schemas in the loaded set.")
        }
        static var lastReload: MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "livestate", subsystem: "schema", metricName: "last_reload_success", unitName: "",
                helpText: "1 when the last reload succeeded, 0 when it failed and the set before it is served; absent before the first reload.")
        }
    }

    private static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(250), .seconds(1),
    ]
    private static let sizeBuckets: [Double] = [256, 512, 1024, 2048, 4096, 5120, 16_384, 65_536, 1_048_576, 4_194_304]

    init() {
        generation = registry.makeGauge(descriptor: Family.generation)
        loaded = registry.makeGauge(descriptor: Family.loaded)
    }

    /// A request answered, and how long it took; `nil` for one whose time was never measured
    /// (the HTTP parser refused it), which is counted and not timed.
    func request(route: String, method: String, status: Int, duration: Duration?) {
        counter(Family.requests, [("route", route), ("method", method), ("status", String(status))]).increment()
        guard let duration else { return }
        let histogram = Self.kept(route, in: durations) {
            registry.makeDurationHistogram(descriptor: Family.duration, labels: [("route", route)], buckets: Self.durationBuckets)
        }
        histogram.record(duration)
    }

    /// A request body read.
    func body(route: String, bytes: Int) {
        let histogram = Self.kept(route, in: sizes) {
            registry.makeValueHistogram(descriptor: Family.bodySize, labels: [("route", route)], buckets: Self.sizeBuckets)
        }
        histogram.record(Double(bytes))
    }

    /// One payload validated for one version (`all` for every version at once).
    func validation(schema: String, version: String, ok: Bool, diagnostics: [Diagnostic]) {
        counter(Family.validations, [("schema", schema), ("version", version), ("outcome", ok ? "ok" : "invalid")]).increment()
        for diagnostic in diagnostics {
            counter(Family.diagnostics, [("schema", schema), ("version", version), ("code", diagnostic.code.rawValue)]).increment()
        }
    }

    /// The Prometheus text, with the store's gauges set as they are now.
    func exposition(store: SchemaStore) -> [UInt8] {
        let snapshot = store.snapshot
        generation.set(Double(snapshot.generation))
        loaded.set(Double(snapshot.ids.count))
        if let reload = store.lastReload {
            let gauge = Self.kept("", in: lastReload) { registry.makeGauge(descriptor: Family.lastReload) }
            gauge.set(reload.succeeded ? 1.0 : 0.0)
        }
        return registry.emitToBuffer()
    }

    private func counter(_ family: @autoclosure () -> MetricNameDescriptor, _ labels: [(String, String)]) -> Counter {
        // Each family's labels have names of their own: the names tell the families apart.
        Self.kept(labels.map { "|" + $0.0 + "=" + $0.1 }.joined(), in: counters) {
            registry.makeCounter(descriptor: family(), labels: labels)
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
