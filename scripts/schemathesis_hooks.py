"""schemathesis hooks for the sidecar's contract run (scripts/contract.py).

`validate-batch` takes NDJSON (`application/x-ndjson`), which schemathesis has no serializer
for. Any bytes are a valid body (a line that is not JSON gets its own `json-syntax` result), so
the document gives the body no schema: a generated string is sent as it is, any other value as
one line of JSON. `max-drop` without `version=all`, `token` with `broadcast`, and `channel-id`
without it are not generated (`filter_query`).
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


@schemathesis.hook
def filter_query(ctx, query):
    """`max-drop` weighs every version's verdict, so it goes with `version=all`: with one version,
    or none, the server answers 400 `bad-query`, as the document says in words (the `MaxDrop`
    parameter). Likewise `token` goes without `broadcast` and `channel-id` with it. OpenAPI
    cannot state that one parameter needs another's value, so such queries are not generated;
    scripts/contract.py checks the 400s itself."""
    if not isinstance(query, dict):
        return True
    # `token` names a device and `channel-id` a broadcast's channel: one of them, the one
    # `broadcast` says (the `Token` and `ChannelID` parameters).
    broadcast = str(query.get("broadcast", "false")) in ("true", "1", "")
    if "token" in query and ("channel-id" in query or broadcast):
        return False
    if "channel-id" in query and not broadcast:
        return False
    if "max-drop" not in query:
        return True
    return query.get("version") == "all"
