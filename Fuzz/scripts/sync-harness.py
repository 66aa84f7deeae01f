#!/usr/bin/env python3
"""Copies the HARNESS block of Sources/FuzzCommon/FuzzHarness.swift into the main package's
Tests/LiveStateYAMLTests/FuzzFailCasesTests.swift, which replays FailCases/ through it.
The test `harnessMatchesTheFuzzPackage` fails until this has been run after an edit."""
import pathlib

fuzz = pathlib.Path(__file__).resolve().parent.parent
BEGIN, END = "// BEGIN HARNESS\n", "// END HARNESS\n"


def block(text):
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)]


source = block((fuzz / "Sources" / "FuzzCommon" / "FuzzHarness.swift").read_text(encoding="utf-8"))
test = fuzz.parent / "Tests" / "LiveStateYAMLTests" / "FuzzFailCasesTests.swift"
text = test.read_text(encoding="utf-8")
new = text[:text.index(BEGIN) + len(BEGIN)] + source + text[text.index(END):]
if new != text:
    test.write_text(new, encoding="utf-8")
    print(f"updated {test.relative_to(fuzz.parent)}")
