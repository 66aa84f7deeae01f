import FuzzImport

/// libFuzzer entry point: any bytes through `livestate import swift`'s importer
/// (`FuzzImportHarness.swiftImport`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzImportHarness.run(start, count)
}
