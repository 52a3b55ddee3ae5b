// Declarations only (include/CLibFuzzer.h); the definitions come from libclang_rt.fuzzer, linked by -sanitize=fuzzer.
#include "CLibFuzzer.h"
