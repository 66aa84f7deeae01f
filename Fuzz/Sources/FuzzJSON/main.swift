import FuzzCommon

/// libFuzzer entry point: the JSON scanner, differential against Foundation (`FuzzHarness.json`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.run(start, count) { FuzzHarness.json($0) }
}
