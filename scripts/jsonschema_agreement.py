#!/usr/bin/env python3
"""Holds `livestate codegen json-schema` to `livestate decode`: the JSON Schema a server in
another language validates with must say what the app does.

For each version of the fixture schemas in scripts/agreement/ and of the bundled schemas, the
content-states below are judged twice: by the generated document (jsonschema's 2020-12
validator, formats not asserted, as most validators leave them) and by `livestate decode
--content-state` for that version. They agree when a state the document calls valid is applied
as sent, and a state it calls invalid is dropped, read with a default or a fallback, or (a
strict version, which applies a value that breaks only a constraint) refused by the schema.

What JSON Schema cannot say is listed in GAPS, each with why; a listed case must still
disagree, so that the list shrinks when a gap closes.

    python3 scripts/jsonschema_agreement.py      # exits 1 on a disagreement, naming it
"""
import json
import pathlib
import subprocess
import sys

from pyrequire import require

jsonschema = require("jsonschema", "jsonschema==4.26.0")

root = pathlib.Path(__file__).resolve().parent.parent
binary = subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=root, text=True).strip() + "/livestate"
fixtures = root / "scripts" / "agreement"

# A valid value for every field of scripts/agreement/allfields.yaml, as JSON text.
BASE = {
    "s": '"xx"', "e": '"a"', "ie": "1", "u": '"00000000-0000-0000-0000-000000000000"', "b64": '""',
    "link": '"https://a.b/"', "i": "0", "iu8": "0", "iu64": "0", "i8": "0", "ibig": "0", "d": "0",
    "dfree": "0", "f": "0", "dec": "0", "flag": "false", "when": "0", "span": "[0,1]", "arr": '["a"]',
    "obj": '{"name":"n","n":0}', "m": '{"k":1}', "mi": '{"1":1}', "opt": '"ab"', "optd": "1", "onnull": '"x"', "al": '""',
}
# Values to put in one field at a time, or MISSING to leave its key out.
ANY = ["MISSING", "null", "true", "0", '"x"', "[]", "{}"]
VALUES = {
    "s": ['""', '"a"', '"abcdefgh"', '"abcdefghi"', '"😀"', '"a\\u0000"'],
    "e": ['"b"', '"c"', '"café"', '"A"', "1"],
    "ie": ["2", "1.0", "4", '"1"', "2.5", "-0"],
    "u": ['"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"', '"e621e1f8-c36c-495a-93fc-0c247a3e6e5f"',
          '"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\\n"', '"E621E1F8C36C495A93FC0C247A3E6E5F"', '"+621E1F8-C36C-495A-93FC-0C247A3E6E5F"'],
    "b64": ['"QQ=="', '"aGk="', '"aGk=="', '"===="', '"QQ"', '"QQ==\\n"', '"QUJDQUJDQUJDQUJD"', '"QUJDQUJDQUJDQUJDQUJD"'],
    "link": ['""', '"a b"', '"/orders/1"', '"%zz"', '"é"', '"mailto:x"', '"#frag"', '"a#b#c"', '"http://a.b/%20"',
             '"https://a.b/' + "x" * 52 + '"', '"https://a.b/' + "x" * 53 + '"', '"http://a.b/{x}"', '" "'],
    "i": ["100", "101", "-1", "1.0", "1.5", "1e2", "9223372036854775808", "1e400"],
    "iu8": ["255", "256", "-1", "255.0", "255.5"],
    "iu64": ["18446744073709551615", "18446744073709551616", "-1", "1e19"],
    "i8": ["127", "128", "-128", "-129"],
    "ibig": ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e19", "1e400"],
    "d": ["-1", "1", "1.1", "-0", "1e400"],
    "dfree": ["1e308", "1e400", "-1e400", "1.7976931348623157e308", "1.7976931348623159e308", "5e-324"],
    "f": ["3.4028235e38", "3.4028235677973362e38", "3.4028235677973366e38", "3.4028235677973367e38", "3.5e38", "-3.5e38", "1e39"],
    "dec": ["1e127", "1e128", "3.4e165", "1e166", "-1e128", "0.1"],
    "flag": ["true", "0", '"true"'],
    "when": ["-1", "1e400", "816692800", "1.7976931348623157e308"],
    "span": ["[0,0]", "[0]", "[0,1,2]", '["0",1]', "[null,1]", "[1e400,1]", "[0,1e400]", "[-1,0]"],
    "arr": ["[]", '["a","b","c","d"]', '["abcde"]', "[null]", "[1]"],
    "obj": ['{"name":"n"}', '{"name":"n","n":10}', '{"name":"abcde"}', '{"name":"n","n":1.5}', '{"n":0}'],
    "m": ['{"a":1,"b":2,"c":3}', '{"abcde":1}', '{"k":10}', '{"k":null}', '{"k":1.0}', '{"":1}'],
    "mi": ['{"k":1}', '{"+1":1,"-02":2}', '{"1.0":1}', '{"1e2":1}', '{" 1":1}', '{"":1}', '{"-":1}', '{"12345":1}', '{"\\u0031":1}', '{"٣":1}'],
    "opt": ['"abcd"', '"abcde"', "1"],
    "optd": ["9", "10", '"x"'],
    "onnull": ['"abcd"', '"abcde"', "1"],
    "al": ['"abcd"', '"abcde"'],
}
# Whole states: the alias `oldAl` given for `al`, and an unknown key.
ALIASED = [
    ({"al": "MISSING"}, ['"oldAl":"x"']),
    ({"al": "MISSING"}, ['"oldAl":5']),
    ({"al": "MISSING"}, ['"oldAl":"abcdefg"']),
    ({}, ['"oldAl":5']),
    ({}, ['"zzz":1']),
]
# Where the document and the app cannot agree, and why. Keyed by (fixture, field, value).
GAPS = {
    # A date range's lower bound after its upper one: JSON Schema cannot compare two items.
    ("allfields", "span", "[1,0]"): "the order of a date range's bounds",
    # JSON Schema counts characters, the app UTF-8 bytes: maxLength is a looser bound.
    ("allfields", "arr", '["ééé"]'): "max-length counts UTF-8 bytes",
    ("allfields", "s", '"ééééé"'): "max-length counts UTF-8 bytes",
    # minLength is at least a quarter of min-length's bytes, a character being at most 4 bytes.
    ("allfields", "s", '"x"'): "min-length counts UTF-8 bytes",
    ("allfields", "s", '"a"'): "min-length counts UTF-8 bytes",
    # The text just below the midpoint past Float's greatest value reads as it, the text just
    # above as infinity; a validator reads both as one Double, so the bound refuses both.
    ("allfields", "f", "3.4028235677973366e38"): "Float's edge, which a Double cannot place",
    # A non-zero number that rounds to zero (JSONDecoder refuses it) lies inside any range.
    ("allfields", "dfree", "1e-400"): "a number that rounds to zero",
    ("allfields", "f", "1e-50"): "a number that rounds to zero",
    # An integer spelled with a fraction at the edge of Int: JSONDecoder reads it through a
    # Decimal of at most 64 bits, and refuses it.
    ("allfields", "ibig", "-9223372036854775808.0"): "an integer written with a fraction at Int's edge",
    # Swift compares strings by canonical equivalence, JSON Schema by code points.
    ("allfields", "e", '"cafe\\u0301"'): "canonically equivalent strings",
}
GAP_VALUES = {}
for (fixture, field, value) in GAPS:
    GAP_VALUES.setdefault(field, []).append(value)


def document(schema, version):
    text = subprocess.run([binary, "codegen", "json-schema", "--schema", str(schema), "--version", str(version)],
                          capture_output=True, text=True, check=True).stdout
    return jsonschema.Draft202012Validator(json.loads(text))


def schema_says(validator, text):
    """'valid' or 'invalid', or None when Python's json reads the text otherwise than JSONDecoder
    (a repeated key: Python keeps the last value)."""
    try:
        instance = json.loads(text)
    except ValueError:
        return None
    return "valid" if validator.is_valid(instance) else "invalid"


def app_does(schema, version, text):
    """APPLY (as sent), or why not: DROP, ALTERED (a default or a fallback taken), or
    STRICT-CONSTRAINT (a strict version applies a value the schema refuses)."""
    run = subprocess.run([binary, "decode", "--schema", str(schema), "--version", str(version), "--content-state",
                          "--format", "json", "-"], input=text.encode(), capture_output=True)
    result = json.loads(run.stdout)
    codes = {finding["code"] for finding in result["diagnostics"]}
    if not result["decodes"]:
        return "DROP"
    if result["state"] is None:
        return "STRICT-CONSTRAINT"
    if codes & {"invalid-defaulted", "unknown-enum-value"}:
        return "ALTERED"
    return "APPLY"


def state(overrides, extra=()):
    members = [f'"{key}":{overrides.get(key, value)}' for key, value in BASE.items() if overrides.get(key, value) != "MISSING"]
    return "{" + ",".join(members + list(extra)) + "}"


def cases():
    """(schema file, version, label, content-state text, gap or None)."""
    allfields = fixtures / "allfields.yaml"
    for version in (1, 2, 3):
        for field in BASE:
            for value in dict.fromkeys(ANY + VALUES.get(field, []) + GAP_VALUES.get(field, [])):
                gap = GAPS.get(("allfields", field, value))
                yield allfields, version, f"{field}={value}", state({field: value}), gap
        for overrides, extra in ALIASED:
            yield allfields, version, ",".join(extra), state(overrides, extra), None
    urls = fixtures / "urls-ios17.yaml"
    for value in VALUES["link"]:
        yield urls, 1, f"link={value}", "{" + f'"link":{value}' + "}", None
    # Every bundled example's content-state, for every version of its schema.
    for schema in sorted((root / "schemas").glob("*.yaml")):
        checked = json.loads(subprocess.run([binary, "check", "--format", "json", str(schema)], capture_output=True,
                                            text=True).stdout)
        numbers = checked["schemas"][0]["versions"]
        for example in sorted((root / "schemas" / "examples" / schema.stem).glob("*.json")):
            body = json.loads(example.read_text(encoding="utf-8"))
            content = body.get("aps", {}).get("content-state")
            if not isinstance(content, dict):
                continue
            for version in numbers:
                yield schema, version, example.name, json.dumps(content, ensure_ascii=False), None


failures = []
validators = {}
counted = 0
for schema, version, label, text, gap in cases():
    key = (schema, version)
    if key not in validators:
        validators[key] = document(schema, version)
    says = schema_says(validators[key], text)
    if says is None:
        continue
    does = app_does(schema, version, text)
    counted += 1
    agrees = (says == "valid") == (does == "APPLY")
    where = f"{schema.name} v{version} {label}: the schema says {says}, the app does {does}"
    if gap and agrees:
        failures.append(f"{where}; listed as a gap ({gap}), but they agree now: take it off the list")
    elif not gap and not agrees:
        failures.append(where)

for failure in failures:
    print("jsonschema-agreement:", failure)
print(f"jsonschema-agreement: {counted} content-states, {len(failures)} disagreements")
sys.exit(1 if failures else 0)
