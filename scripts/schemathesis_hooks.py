"""schemathesis hooks for the sidecar's contract run (scripts/contract.py).

`validate-batch` takes NDJSON (`application/x-ndjson`), which schemathesis has no serializer
for. Any bytes are a valid body (a line that is not JSON gets its own `json-syntax` result), so
the document gives the body no schema: a generated string is sent as it is, any other value as
one line of JSON.
"""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value).encode("utf-8") + b"\n"
