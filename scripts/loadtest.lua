-- wrk script for scripts/loadtest.sh.
-- LOADTEST_BODY names a file to POST as JSON (LOADTEST_CONTENT_TYPE overrides the type);
-- without it, requests are plain GETs.
-- At the end, prints one line: "RESULT requests_per_s=N p99_ms=N p50_ms=N errors=N requests=N".

local body_path = os.getenv("LOADTEST_BODY")
if body_path and body_path ~= "" then
  local file = assert(io.open(body_path, "rb"))
  wrk.method = "POST"
  wrk.body = file:read("*a")
  file:close()
  local content_type = os.getenv("LOADTEST_CONTENT_TYPE")
  wrk.headers["Content-Type"] = (content_type and content_type ~= "") and content_type or "application/json"
end

done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  local seconds = summary.duration / 1e6
  io.write(string.format("RESULT requests_per_s=%.0f p99_ms=%.2f p50_ms=%.2f errors=%d requests=%d\n",
    summary.requests / seconds, latency:percentile(99) / 1000, latency:percentile(50) / 1000,
    errors, summary.requests))
end
