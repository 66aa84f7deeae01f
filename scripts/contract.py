#!/usr/bin/env python3
"""Checks `livestate serve`'s real answers against its contract, Sources/LiveStateServer/openapi.yaml.

Starts the debug binary (`swift build` first) on a free loopback port with the bundled schemas
and the example fleet, and checks that:
- the document it serves at /openapi.json is openapi.yaml;
- each endpoint's answer to the requests below (successes and every documented error), each
  line of an NDJSON one, matches the schema the document gives for that path, method, status
  and content type, with jsonschema (OpenAPI 3.1 schemas are JSON Schema 2020-12). An answer
  with a status the operation does not document fails; errors outside any operation (404 for no
  route, 405) must be the `Error` object;
- schemathesis, in positive and negative modes with every check, finds nothing: every request
  the document allows is accepted, every request it forbids is refused with a 4xx, and every
  answer matches the document (LIVESTATE_CONTRACT_SEED and LIVESTATE_CONTRACT_EXAMPLES change
  its seed, 1, and examples per operation, 100).

    python3 scripts/contract.py            # exits 1 on a mismatch, naming it
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

from pyrequire import require

jsonschema = require("jsonschema", "jsonschema==4.26.0")
yaml = require("yaml", "PyYAML==6.0.3")
require("schemathesis", "schemathesis==4.32.5")

root = pathlib.Path(__file__).resolve().parent.parent
binary = subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=root, text=True).strip() + "/livestate"
server = subprocess.Popen(
    [binary, "serve", "--port", "0", "--schemas", "schemas", "--fleet", "schemas/fleet", "--max-batch-bytes", "200000"],
    cwd=root, stderr=subprocess.PIPE, text=True)
port = None
deadline = time.time() + 30
while port is None and time.time() < deadline:
    line = server.stderr.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if match:
        port = int(match.group(1))
if port is None:
    server.kill()
    sys.exit("the server did not start")

base = f"http://127.0.0.1:{port}"
failures = []


def call(method, path, body=None, content_type="application/json"):
    request = urllib.request.Request(base + path, data=body, method=method)
    if body is not None and content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


document = json.loads(call("GET", "/openapi.json")[2])
source = yaml.safe_load((root / "Sources/LiveStateServer/openapi.yaml").read_text(encoding="utf-8"))
if document != source:
    server.kill()
    sys.exit("contract: the served /openapi.json is not openapi.yaml: run python3 scripts/openapi.py")


def deref(node):
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def validate(instance, schema, where):
    validator = jsonschema.Draft202012Validator({**schema, "components": document["components"]})
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    if errors:
        failures.append(f"{where}: {errors[0].message} at {list(errors[0].path)}")


def check(method, template, path, body=None, content_type="application/json", expect=None):
    status, headers, data = call(method, path, body, content_type)
    where = f"{method} {path} -> {status}"
    if expect is not None and status != expect:
        failures.append(f"{where}: expected {expect}")
    operation = document["paths"].get(template, {}).get(method.lower()) if template else None
    if operation is None:
        validate(json.loads(data), {"$ref": "#/components/schemas/Error"}, where)
        return status, data
    response = operation["responses"].get(str(status))
    if response is None:
        failures.append(f"{where}: status not in the document")
        return status, data
    response = deref(response)
    type_ = (headers.get("Content-Type") or "").split(";")[0].strip()
    content = response.get("content", {}).get(type_)
    if content is None:
        failures.append(f"{where}: content type {type_!r} not in the document")
        return status, data
    schema = content["schema"]
    if type_ == "application/json":
        validate(json.loads(data), schema, where)
    elif type_ == "application/schema+json":
        answer = json.loads(data)
        validate(answer, schema, where)
        try:
            jsonschema.Draft202012Validator.check_schema(answer)
        except jsonschema.exceptions.SchemaError as error:
            failures.append(f"{where}: not a valid JSON Schema: {error.message}")
    elif type_ == "application/x-ndjson":
        line_schema = {"allOf": [{"$ref": "#/components/schemas/ValidateResponse"}],
                       "required": ["line"], "properties": {"line": {"type": "integer", "minimum": 1}}}
        for number, line in enumerate(data.decode().splitlines(), 1):
            validate(json.loads(line), line_schema, f"{where} line {number}")
    return status, data


# The checker itself: a wrong answer must be refused, or a clean run proves nothing.
validate({"status": "ok"}, {"$ref": "#/components/schemas/Health"}, "self-check")
if not failures:
    server.kill()
    sys.exit("contract: the checker accepts a Health answer without its required members")
failures.clear()

update = (root / "scripts/loadtest-update.json").read_bytes()
state = json.dumps(json.loads(update)["aps"]["content-state"]).encode()
try:
    check("GET", "/health", "/health", expect=200)
    check("GET", "/ready", "/ready", expect=200)
    check("GET", "/v1/schemas", "/v1/schemas", expect=200)
    check("GET", "/v1/schemas/{id}/diff", "/v1/schemas/delivery/diff", expect=200)
    check("GET", "/v1/schemas/{id}/diff", "/v1/schemas/delivery/diff?from=1&to=3&mode=forward", expect=200)
    check("GET", "/v1/schemas/{id}/diff", "/v1/schemas/delivery/diff?from=1", expect=200)
    check("GET", "/v1/schemas/{id}/diff", "/v1/schemas/delivery/diff?from=1&to=9", expect=404)
    check("GET", "/v1/schemas/{id}/diff", "/v1/schemas/nope/diff", expect=404)
    check("GET", "/v1/schemas/{id}/json-schema", "/v1/schemas/delivery/json-schema", expect=200)
    check("GET", "/v1/schemas/{id}/json-schema", "/v1/schemas/delivery/json-schema?version=2", expect=200)
    check("GET", "/v1/schemas/{id}/json-schema", "/v1/schemas/delivery/json-schema?version=9", expect=404)
    check("GET", "/v1/schemas/{id}/json-schema", "/v1/schemas/delivery/json-schema?version=0", expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?version=3", update, expect=200)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate", b"{not json", expect=200)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?version=all&max-drop=1%25", update, expect=200)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?version=99", update, expect=404)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?nope=1", update, expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/nope/validate", update, expect=404)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate", b" " * 70000, expect=413)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate", update, content_type="text/xml", expect=415)
    check("POST", "/v1/schemas/{id}/validate-batch", "/v1/schemas/delivery/validate-batch?version=3",
          update.replace(b"\n", b"") + b"\n{bad\n" + update.replace(b"\n", b""), content_type="application/x-ndjson", expect=200)
    check("POST", "/v1/schemas/{id}/validate-batch", "/v1/schemas/delivery/validate-batch", b"{}\n" * 10001, expect=413)
    check("POST", "/v1/schemas/{id}/validate-batch", "/v1/schemas/delivery/validate-batch", b"{}", content_type="text/csv", expect=415)
    check("POST", "/v1/schemas/{id}/encode", "/v1/schemas/delivery/encode?version=3", state, expect=200)
    check("POST", "/v1/schemas/{id}/encode", "/v1/schemas/delivery/encode?version=3&content-state=true&fit=true", state, expect=200)
    check("POST", "/v1/schemas/{id}/encode", "/v1/schemas/delivery/encode?event=start", state, expect=400)
    check("POST", "/v1/schemas/{id}/encode", "/v1/schemas/delivery/encode", b"[1]", expect=None)
    check("POST", "/v1/schemas/{id}/encode-content-state", "/v1/schemas/delivery/encode-content-state?fit=1", state, expect=200)
    check("POST", "/v1/schemas/{id}/encode-content-state", "/v1/schemas/delivery/encode-content-state?event=end", state, expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/pizza/validate?version=all&max-drop=1", update, expect=409)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?version=3&max-drop=1", update, expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/pizza/validate?version=all&max-drop=abc", update, expect=400)
    token = "5e" * 32
    check("POST", "/v1/schemas/{id}/validate", f"/v1/schemas/delivery/validate?token={token}", update, expect=200)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?broadcast=true&channel-id=YWJj", update, expect=200)
    check("POST", "/v1/schemas/{id}/validate", f"/v1/schemas/delivery/validate?token={token}&broadcast=true", update, expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?channel-id=YWJj", update, expect=400)
    check("POST", "/v1/schemas/{id}/validate", "/v1/schemas/delivery/validate?token=a%20b", update, expect=400)
    check("GET", None, "/nothing", expect=404)
    check("GET", None, "/v1/schemas/delivery/validate", expect=405)
    status, headers, data = call("HEAD", "/health")
    if status != 200 or data:
        failures.append(f"HEAD /health -> {status} with {len(data)} bytes of body")
    metrics = call("GET", "/metrics")
    if metrics[0] != 200 or b"livestate_http_requests_total" not in metrics[2]:
        failures.append("GET /metrics has no request counts")
    if not failures:
        environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks",
                           PYTHONPATH=str(root / "scripts") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "run", f"{base}/openapi.json", "--mode", "all", "--checks", "all",
             "--max-examples", os.environ.get("LIVESTATE_CONTRACT_EXAMPLES", "100"),
             "--seed", os.environ.get("LIVESTATE_CONTRACT_SEED", "1"), "--no-color"],
            env=environment, cwd=root, capture_output=True, text=True, timeout=900)
        summary = [line for line in run.stdout.splitlines() if "generated" in line or "issues found" in line or "passed" in line]
        print("contract: schemathesis: " + " / ".join(line.strip() for line in summary[-3:]))
        if run.returncode != 0:
            print(run.stdout[-6000:], file=sys.stderr)
            failures.append(f"schemathesis found problems (exit {run.returncode}); its report is above")
finally:
    server.terminate()
    code = server.wait(timeout=20)
    if code != 0:
        failures.append(f"the server exited {code} after SIGTERM")

for failure in failures:
    print("contract: " + failure, file=sys.stderr)
print(f"contract: {'FAILED' if failures else 'ok'}: every answer checked against the OpenAPI document")
sys.exit(1 if failures else 0)
