#!/usr/bin/env python3
"""Writes the seed corpora Corpus/<Target>/ from schemas/, the example payloads and the main
package's test fixtures. Deterministic; the result is committed, run.sh never rewrites it.

FuzzDecode and FuzzEnvelope inputs start with a selector byte: the index of (schema, version) in
the bundled schemas sorted by file name, versions oldest first (FuzzHarness.targets); FuzzEnvelope
also sets bit 7 for a broadcast. Examples name their version (v2-update.json); failing examples
and test fixtures use the newest version.
"""
import json
import pathlib
import re
import shutil

fuzz = pathlib.Path(__file__).resolve().parent.parent
root = fuzz.parent
corpus = fuzz / "Corpus"
MAX = 16384

# In BundledSchemas' order (bundle-schemas.py): schemas/, then the fuzzers' own.
schemas = sorted((root / "schemas").glob("*.yaml")) + sorted((fuzz / "Schemas").glob("*.yaml"))
targets = []  # (activity, version)
for path in schemas:
    for match in re.finditer(r"^  - version: (\d+)", path.read_text(encoding="utf-8"), re.M):
        targets.append((path.stem, int(match.group(1))))


def selector(activity, version=None):
    versions = [v for a, v in targets if a == activity]
    version = version if version in versions else versions[-1]
    return targets.index((activity, version))


def content_state(raw):
    """The content-state object of a body, compact, or None when the body is not valid JSON."""
    try:
        body = json.loads(raw, object_pairs_hook=lambda pairs: dict(pairs))
        state = body["aps"]["content-state"]
    except (ValueError, KeyError, TypeError):
        return None
    return json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode()


seeds = {name: {} for name in ("FuzzJSON", "FuzzDecode", "FuzzEnvelope", "FuzzSchemaYAML")}

for path in sorted((root / "schemas" / "examples").rglob("*.json")):
    activity = path.relative_to(root / "schemas" / "examples").parts[0]
    failing = path.parent.name == "failing"
    stem = f"{activity}-{'failing-' if failing else ''}{path.stem}"
    raw = path.read_bytes()
    match = re.match(r"v(\d+)-", path.name)
    index = selector(activity, int(match.group(1)) if match and not failing else None)
    seeds["FuzzJSON"][f"example-{stem}.json"] = raw
    seeds["FuzzEnvelope"][f"{stem}"] = bytes([index]) + raw
    if not failing and "update" in path.name:
        seeds["FuzzEnvelope"][f"{stem}-broadcast"] = bytes([index | 0x80]) + raw
    state = content_state(raw)
    seeds["FuzzDecode"][f"{stem}-body"] = bytes([index]) + raw
    if state is not None:
        seeds["FuzzDecode"][f"{stem}"] = bytes([index]) + state

# The fuzzers' rules schema: a value that keeps every rule, and values that break one each.
RULES = [
    '{"title":"t","eta":5,"small":-3,"count":7,"ratio":0.25,"scale":2.5,"when":100,"window":[1,2],"name":"ab","link":"https://a.b/c",'
    '"image":null,"mode":"b","level":2,"size":2,"state":"off","note":"n","kept":"k","code":"c","flag":true,'
    '"courier":{"name":"li","stars":4.5,"phone":"555"},"tags":["x","y"],"levels":[1,9],"stops":[{"n":1,"at":"here"},{}]}',
    '{"title":"","eta":121,"small":128,"count":70000,"ratio":-1,"scale":1e39,"when":2000000001,"name":"toolong",'
    '"link":"https://x.com/a b","mode":"c","level":7,"size":3,"state":"dim","note":null,"kept":"toolong"}',
    '{"title":"t","minutes":121,"label":"","status":"dim","courier":{"nick":"toolong","stars":6},"tags":["abc"],"levels":[10],"stops":[{"n":100}]}',
    '{"title":"t","eta":null,"name":null,"mode":null,"state":null,"code":"toolong","tags":["a","b","c","d"],"window":[2,1]}',
]
for number, state in enumerate(RULES):
    for version in (1, 2):
        seeds["FuzzDecode"][f"rules-v{version}-{number}"] = bytes([selector("rules", version)]) + state.encode()
        body = '{"aps":{"timestamp":1,"event":"update","content-state":' + state + '}}'
        seeds["FuzzEnvelope"][f"rules-v{version}-{number}"] = bytes([selector("rules", version)]) + body.encode()
# Version 1 only, for rules added later: arrays of enums and dates, non-ASCII enums, UNIX-looking
# dates (FuzzDecode 4 to 6, FuzzEnvelope 4 and 5), nulls that take the default (7).
RULES_V1_DECODE = {
    4: r'{"title":"t","drink":"caf\u00e9","marks":["x","z","\u00fc"],"ranks":[1,2],"stamps":[754000000,5]}',
    5: r'{"title":"t","drink":"cafe\u0301","marks":["q","x","y","z"],"ranks":[3],"stamps":[1732800000],"when":1732800000,"window":[1732800000,1732803600]}',
    6: r'{"title":"t","drink":"d\u00e9j\u00e0","mode":"\u00e9","state":"o\u006e","marks":[1,"x"],"ranks":null,"stamps":["x"]}',
    7: r'{"title":"t","home":null,"period":null,"courier":{"rank":null},"score":null,"home":2}',
}
RULES_V1_ENVELOPE = {
    4: r'{"title":"t","drink":"caf\u00e9","marks":["x","z"],"stamps":[754000000,1732800000],"when":1732800000,"window":[754000000,1732803600]}',
    5: r'{"title":"t","when":2000000001,"window":[1732800000,1732803600],"courier":{"nick":"x"},"marks":["q"]}',
    7: r'{"title":"t","score":null,"period":"2nd","courier":{"rank":null,"name":null}}',
}
for number, state in RULES_V1_DECODE.items():
    seeds["FuzzDecode"][f"rules-v1-{number}"] = bytes([selector("rules", 1)]) + state.encode()
for number, state in RULES_V1_ENVELOPE.items():
    body = '{"aps":{"timestamp":1,"event":"update","content-state":' + state + '}}'
    seeds["FuzzEnvelope"][f"rules-v1-{number}"] = bytes([selector("rules", 1)]) + body.encode()

for path in sorted((root / "Tests" / "LiveStateTests" / "Fixtures" / "json").glob("*.json")):
    seeds["FuzzJSON"][f"conformance-{path.stem}.json"] = path.read_bytes()

for path in sorted((root / "Tests" / "LiveStateTests" / "Fixtures" / "payloads").glob("*.json")):
    raw = path.read_bytes()
    index = selector("match-score")
    seeds["FuzzJSON"][f"payload-{path.stem}.json"] = raw
    seeds["FuzzEnvelope"][f"fixture-{path.stem}"] = bytes([index | (0x80 if "broadcast" in path.name else 0)]) + raw

for path in schemas:
    seeds["FuzzSchemaYAML"][f"schema-{path.name}"] = path.read_bytes()
for path in sorted((root / "Tests" / "LiveStateYAMLTests" / "Fixtures").rglob("*.y*ml")):
    seeds["FuzzSchemaYAML"][f"{path.parent.name}-{path.name}"] = path.read_bytes()

for target, files in seeds.items():
    folder = corpus / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    kept = 0
    for name, data in sorted(files.items()):
        if len(data) <= MAX:
            (folder / name).write_bytes(data)
            kept += 1
    print(f"{target}: {kept} seeds")
