import Hummingbird
import Logging

/// Counts every request in the sidecar's metrics and writes its access line at `debug`: the
/// router's outermost middleware, so it sees every route (the hot `validate` route included),
/// the router's 404 and 405, and the status `APIErrorMiddleware` made of an error. A streamed
/// answer is timed to its last byte.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: SidecarMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            record(request, status: 500, since: started, context: context)
            throw error
        }
        guard response.body.contentLength == nil else {
            record(request, status: response.status.code, since: started, context: context)
            return response
        }
        // A streamed answer (validate-batch) is served when its last byte is written, not when
        // its head is ready: its lines are validated as they are written.
        var streamed = response
        let body = response.body
        let status = response.status.code
        streamed.body = ResponseBody { writer in
            defer { record(request, status: status, since: started, context: context) }
            try await body.write(writer)
        }
        return streamed
    }

    private func record(_ request: Request, status: Int, since started: ContinuousClock.Instant, context: Context) {
        let elapsed = ContinuousClock.now - started
        let path = request.uri.path
        let route = SchemaRoutes.routePattern(path: path)
        metrics?.request(route: route, method: request.method.rawValue, status: status, duration: elapsed)
        // One access line per request at `debug`: the default `info` pays one comparison.
        guard context.logger.logLevel <= .debug else { return }
        let segments = path.split(separator: "/")
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "route": "\(route)", "path": "\(path)", "status": "\(status)",
            "ms": "\(elapsed / .milliseconds(1))",
        ]
        if segments.count >= 3, segments[0] == "v1", segments[1] == "schemas" { metadata["schema"] = "\(segments[2])" }
        if let version = request.uri.queryParameters.get("version") { metadata["version"] = "\(version)" }
        context.logger.debug("request", metadata: metadata)
    }
}
