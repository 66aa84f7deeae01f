import ArgumentParser
import Dispatch
import Foundation
import LiveState
import LiveStateServer
import Logging
import Synchronization

/// `livestate serve`: the HTTP validation sidecar.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve validation, encoding and compatibility checks over HTTP (JSON), on loopback by default.",
        discussion: """
            Endpoints: GET /health, GET /ready (503 while no schema set is loaded), GET /metrics \
            (Prometheus text), GET /openapi.json, GET /v1/schemas, GET /v1/schemas/{id}/diff, \
            GET /v1/schemas/{id}/json-schema?version=N, \
            POST /v1/schemas/{id}/validate?version=N|all, POST /v1/schemas/{id}/validate-batch?version=N|all \
            (NDJSON), POST /v1/schemas/{id}/encode?version=N, POST \
            /v1/schemas/{id}/encode-content-state?version=N. Bodies over --max-body-bytes get 413. \
            SIGHUP (and, with --watch, a changed file) reloads the schemas; a reload that fails \
            keeps the schemas already loaded, logs why and shows it on /health. SIGTERM and SIGINT \
            stop the server after the requests in flight, or after --drain-seconds, when the \
            connections left are closed. Every option has an environment \
            variable (LIVESTATE_PORT, …); a flag wins over it. Exit status: 0 after a clean stop, 2 when the schemas do not \
            load or the address cannot be bound.
            """
    )

    @Option(help: "The address to listen on (env LIVESTATE_HOST; default 127.0.0.1). The sidecar has no authentication: keep it on loopback.")
    var host: String?

    @Option(parsing: .unconditional, help: "The port to listen on; 0 picks a free one (env LIVESTATE_PORT; default 8080).")
    var port: Int?

    @Option(help: "The folder of schema files (*.yaml, *.yml), or one schema file (env LIVESTATE_SCHEMAS; default schemas).")
    var schemas: String?

    @Option(help: "A folder of fleet files named by schema id (delivery.csv), or one such file: validate?version=all answers then give shares of devices. Reloaded with the schemas (env LIVESTATE_FLEET).")
    var fleet: String?

    @Option(name: .customLong("max-body-bytes"), parsing: .unconditional, help: "The largest request body accepted, in bytes (env LIVESTATE_MAX_BODY_BYTES; default 65536).")
    var maxBodyBytes: Int?

    @Option(name: .customLong("max-batch-bytes"), parsing: .unconditional, help: "The largest validate-batch body, in bytes (env LIVESTATE_MAX_BATCH_BYTES; default 4194304).")
    var maxBatchBytes: Int?

    @Flag(help: "Reload the schemas when a schema or fleet file changes, as SIGHUP does (env LIVESTATE_WATCH: 1, true, yes or on; 0, false, no or off).")
    var watch = false

    @Option(name: .customLong("watch-interval"), parsing: .unconditional, help: "Seconds between looks at the files with --watch (env LIVESTATE_WATCH_INTERVAL; default 1).")
    var watchInterval: String?

    @Option(name: .customLong("drain-seconds"), parsing: .unconditional, help: "Seconds SIGTERM or SIGINT waits for the requests in flight before it closes their connections (env LIVESTATE_DRAIN_SECONDS; default 8).")
    var drainSeconds: Int?

    @Option(name: .customLong("request-timeout"), parsing: .unconditional, help: "Seconds a request's body may take to arrive, from the end of its head; then it is answered 408 and its connection is closed (env LIVESTATE_REQUEST_TIMEOUT; default 60).")
    var requestTimeout: Int?

    @Option(name: .customLong("log-format"), help: "Log lines as text or json, one object per line (env LIVESTATE_LOG_FORMAT; default text).")
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: "The lowest level logged: trace, debug (one line per request), info, notice, warning, error, critical (env LIVESTATE_LOG_LEVEL, or LOG_LEVEL; default info).")
    var logLevel: String?

    @Flag(help: "Print the OpenAPI document of the endpoints and exit.")
    var openapi = false

    @Flag(name: .customLong("echo-route"), help: .hidden)
    var echoRoute = false

    func validate() throws {
        // Flags and environment variables are checked together, with their names.
        do {
            _ = try settings()
        } catch let error as ValidationError
            where Self.value(logFormat, "log-format", in: ProcessInfo.processInfo.environment)?.text == ServerLogHandler.Format.json.rawValue {
            Self.logUsageError(error.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    /// A usage error as a JSON log line: a log collector reads JSON lines only, and the error
    /// that stops the start is one too.
    static func logUsageError(_ message: String) {
        let logger = Logger(label: "livestate.serve") { ServerLogHandler(label: $0, format: .json, level: .info) }
        logger.critical("\(message)", metadata: ["code": "usage"])
    }

    /// Whether `arguments` (after `serve`) or the environment ask for JSON logs, read before
    /// the arguments parse: for a usage error the parser finds (`--port abc`, an unknown option).
    static func asksForJSONLogs(_ arguments: ArraySlice<String>, environment: [String: String]) -> Bool {
        let given = LiveStateCommand.lastValue(of: "--log-format", in: arguments)
        return (given ?? environment["LIVESTATE_LOG_FORMAT"])?.trimmingCharacters(in: .whitespaces).lowercased() == ServerLogHandler.Format.json.rawValue
    }

    /// Every setting, from its flag, else its environment variable, else its default.
    struct Settings {
        var host = "127.0.0.1"
        var port = 8080
        var schemas = "schemas"
        var fleet: String?
        var maxBodyBytes = 64 * 1024
        var maxBatchBytes = 4 << 20
        var watchInterval: Double?
        var drainSeconds = 8
        var requestTimeout = 60
        var logFormat = ServerLogHandler.Format.text
        var logLevel: Logger.Level = .info
        /// Settings given that do nothing, each said as a warning at the start.
        var unused: [String] = []

        /// Whether the host is a loopback address, which no other machine reaches: `localhost`,
        /// `::1`, or an IPv4 address in 127.0.0.0/8.
        var isLoopback: Bool {
            if host == "localhost" || host == "::1" { return true }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
        }

        /// The host as a URL writes it: an IPv6 address in brackets (`http://[::1]:8080`).
        var hostInURL: String { host.contains(":") ? "[\(host)]" : host }
    }

    /// A body limit's bytes: a body is held whole in memory, so at most 1 GiB, as `lint
    /// --max-bytes` (a 1.5 GB body took 3 GB of memory).
    static func bodyBytes(_ text: String, _ source: String) throws -> Int {
        guard let bytes = Int(text), (1...Output.maxBytesCeiling).contains(bytes) else {
            throw ValidationError("\(source) must be from 1 to \(Output.maxBytesCeiling) (1 GiB) bytes, not \(text)")
        }
        return bytes
    }

    /// A setting's text and where it came from: its flag (`--max-body-bytes`), else its
    /// environment variable (`LIVESTATE_MAX_BODY_BYTES`); `nil` when neither gives it.
    static func value(_ flag: String?, _ name: String, in environment: [String: String]) -> (text: String, source: String)? {
        if let flag { return (flag, "--" + name) }
        let variable = "LIVESTATE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        return environment[variable].map { ($0, variable) }
    }

    func settings(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        func value(_ flag: String?, _ name: String) -> (text: String, source: String)? {
            Self.value(flag, name, in: environment)
        }
        var settings = Settings()
        if let (text, source) = value(host, "host") {
            // An IPv6 address written as a URL writes it, in brackets, is that address.
            let host = text.count > 2 && text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            guard !host.isEmpty else {
                throw ValidationError("\(source) must name the address to listen on (127.0.0.1, ::1, 0.0.0.0 or a host name), not an empty one")
            }
            settings.host = host
        }
        if let (text, source) = value(port.map(String.init), "port") {
            guard let port = Int(text), (0...65_535).contains(port) else { throw ValidationError("\(source) must be a port between 0 and 65535, not \(text)") }
            settings.port = port
        }
        if let (text, _) = value(schemas, "schemas") { settings.schemas = text }
        if let (text, _) = value(fleet, "fleet") { settings.fleet = text }
        if let (text, source) = value(maxBodyBytes.map(String.init), "max-body-bytes") {
            settings.maxBodyBytes = try Self.bodyBytes(text, source)
        }
        if let (text, source) = value(maxBatchBytes.map(String.init), "max-batch-bytes") {
            settings.maxBatchBytes = try Self.bodyBytes(text, source)
        }
        // A switch has no value on the command line: its variable is read only without the flag.
        let watching = try watch || switchValue(environment, "LIVESTATE_WATCH") ?? false
        // Read here, not by the parser, so that a refusal echoes the number as given (`1e4`,
        // not the 10000.0 a `Double` prints).
        if let (text, source) = value(watchInterval, "watch-interval") {
            guard let seconds = Double(text), seconds.isFinite else {
                throw ValidationError("\(source) must be a number of seconds between 0.05 and 3600, not \(text)")
            }
            guard seconds >= 0.05, seconds <= 3600 else {
                throw ValidationError("\(source) must be between 0.05 and 3600 seconds, not \(text)")
            }
            settings.watchInterval = seconds
            if !watching { settings.unused.append("\(source) has no effect without --watch (or LIVESTATE_WATCH): the files are not watched") }
        }
        if watching { settings.watchInterval = settings.watchInterval ?? 1 } else { settings.watchInterval = nil }
        if let (text, source) = value(drainSeconds.map(String.init), "drain-seconds") {
            guard let seconds = Int(text), (0...3600).contains(seconds) else {
                throw ValidationError("\(source) must be a whole number of seconds between 0 and 3600, not \(text)")
            }
            settings.drainSeconds = seconds
        }
        if let (text, source) = value(requestTimeout.map(String.init), "request-timeout") {
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw ValidationError("\(source) must be a whole number of seconds between 1 and 3600, not \(text)")
            }
            settings.requestTimeout = seconds
        }
        if let (text, source) = value(logFormat, "log-format") {
            guard let format = ServerLogHandler.Format(rawValue: text) else { throw ValidationError("\(source) must be text or json, not \(text)") }
            settings.logFormat = format
        }
        if let (text, source) = value(logLevel, "log-level") ?? environment["LOG_LEVEL"].map({ ($0, "LOG_LEVEL") }) {
            guard let level = Logger.Level(rawValue: text) else {
                throw ValidationError("\(source) must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
            }
            settings.logLevel = level
        }
        return settings
    }

    /// The words a switch's environment variable takes, in any case: `on` first, then `off`.
    static let switchWords = (on: ["1", "true", "yes", "on"], off: ["0", "false", "no", "off"])

    /// A switch's environment variable (`LIVESTATE_WATCH`): `true` for 1, true, yes or on,
    /// `false` for 0, false, no or off, in any case; `nil` when it is not set.
    /// - Throws: `ValidationError` naming the variable, for any other value (an empty one too).
    func switchValue(_ environment: [String: String], _ variable: String) throws -> Bool? {
        guard let text = environment[variable] else { return nil }
        let word = text.lowercased()
        if Self.switchWords.on.contains(word) { return true }
        if Self.switchWords.off.contains(word) { return false }
        let on = ValueText.listed(Self.switchWords.on, "or")
        let off = ValueText.listed(Self.switchWords.off, "or")
        throw ValidationError("\(variable) must be \(on) (on), or \(off) (off), not '\(text)'")
    }

    /// Writes the diagnostics of loading the schemas to standard error: as log lines with
    /// `--log-format json` (errors `critical`, since the server stops on them), else as text.
    static func report(_ diagnostics: [Diagnostic], json: Bool, logger: Logger) {
        guard json else { return Output.printText(diagnostics) }
        for diagnostic in diagnostics.listed {
            logger.log(level: diagnostic.severity == .error ? .critical : .warning, "\(diagnostic.line)", metadata: diagnostic.logMetadata)
        }
    }

    func run() throws {
        if openapi {
            Output.write(Data(OpenAPIDocument.json.utf8))
            return
        }
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            Output.err("livestate serve needs macOS 15 or later")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        // Until the server's own signal handling starts, SIGTERM or SIGINT (while the schemas
        // load, say) is a clean stop too: nothing is in flight yet.
        // (A parent may have started it with them blocked, as a thread of Swift's task pool does.)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for stopSignal in [SIGTERM, SIGINT] {
            sigaddset(&stopSignals, stopSignal)
            signal(stopSignal) { _ in _exit(0) }
        }
        // SIGHUP reloads once the server runs; before, its default action ended the process
        // (status 129) while a large schema folder loaded. The load under way reads the files.
        signal(SIGHUP, SIG_IGN)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        let settings: Settings
        do {
            settings = try self.settings()
        } catch let error as ValidationError {
            Output.err("error: \(error.message)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let logger = Logger(label: "livestate.serve") { label in
            ServerLogHandler(label: label, format: settings.logFormat, level: settings.logLevel)
        }
        let json = settings.logFormat == .json
        let store: SchemaStore
        do {
            store = try SchemaStore(paths: [settings.schemas], fleetPath: settings.fleet)
        } catch {
            Self.report(error.diagnostics, json: json, logger: logger)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        Self.report(store.snapshot.warnings, json: json, logger: logger)
        var warnings = settings.unused
        if !settings.isLoopback { warnings.append("listening on \(settings.host): the sidecar has no authentication") }
        for warning in warnings {
            if json { logger.warning("\(warning)") } else { Output.err("warning: " + warning) }
        }
        var configuration = LiveStateServer.Configuration(
            host: settings.host, port: settings.port, maxBodyBytes: settings.maxBodyBytes, echoRoute: echoRoute,
            watchInterval: settings.watchInterval.map { .milliseconds(Int64($0 * 1000)) }, maxBatchBytes: settings.maxBatchBytes)
        configuration.drainSeconds = Int64(settings.drainSeconds)
        configuration.requestTimeoutSeconds = Int64(settings.requestTimeout)
        let server = LiveStateServer(store: store, configuration: configuration, logger: logger)
        let ids = store.snapshot.ids.joined(separator: ", ")
        let host = settings.hostInURL
        // ArgumentParser runs this command synchronously; the server runs in a task until it stops,
        // on NIO's event loops rather than the cooperative pool (no thread hop per request).
        LiveStateServer.runTasksOnEventLoops()
        // ServiceLifecycle handles the stop signals once its group runs, finishing the requests in
        // flight. Until then the clean stop above stays: reset to the default action here, a
        // SIGTERM in the moments before the group's handler was up ended the process with 143.
        let stopped = DispatchSemaphore(value: 0)
        let failed = Mutex(false)
        Task {
            do {
                try await server.run { port in
                    let banner = "listening on http://\(host):\(port) with schemas \(ids)"
                    // The log handler escapes JSON; in text the schema ids are printable, as findings are.
                    if json { logger.notice("\(banner)") } else { Output.err(Diagnostic.printable("livestate serve: " + banner)) }
                }
            } catch {
                // Like the schemas' errors: critical with its code in JSON, compiler style in text
                // (`ListenError`: cannot listen on 127.0.0.1:8080: address already in use).
                Self.report([Diagnostic(code: ListenError.code, severity: .error, message: "\(error)", file: "livestate serve")],
                            json: json, logger: logger)
                failed.withLock { $0 = true }
            }
            stopped.signal()
        }
        stopped.wait()
        // The exit is the main thread's: `exit` on an event loop runs the process's exit handlers
        // on a thread they may wait for. A busy port's `serve`, which exited there, once did not
        // end within 120 s in a CI run.
        if failed.withLock({ $0 }) { throw ExitCode(ExitStatus.usage.rawValue) }
    }
}
