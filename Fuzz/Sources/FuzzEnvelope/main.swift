import FuzzCommon

/// libFuzzer entry point: selector byte + APNs body through PayloadValidator (`FuzzHarness.envelope`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.run(start, count) { FuzzHarness.envelope($0, targets: FuzzEntry.targets) }
}
