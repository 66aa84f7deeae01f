import FuzzCommon

/// libFuzzer entry point: any bytes through the YAML schema loader (`FuzzHarness.schemaYAML`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.run(start, count) { FuzzHarness.schemaYAML($0) }
}
