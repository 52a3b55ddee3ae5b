// Debian's libsqlite3 (3.40.1). Only SQLiteBindings imports this module, as an internal import, so no SQLite
// type reaches the layers above it (LayerTests).
#ifndef GALLERY_CSQLITE_SHIM_H
#define GALLERY_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import: text bound with
// it is copied by SQLite before the call returns, so Swift's temporary C string may go away after.
static inline sqlite3_destructor_type gv_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
