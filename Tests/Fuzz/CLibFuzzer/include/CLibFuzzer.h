// libFuzzer's entry point for programs that keep their own main (llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
// SwiftPM gives every executable a main of its own, so the fuzz targets call this instead of defining
// LLVMFuzzerTestOneInput for libFuzzer's main.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
