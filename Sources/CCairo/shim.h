// cairo, for the demo server's pictures (drawn without a display). Its own module, not part of CGLib: every
// program that imports CGLib would otherwise link libcairo, and with it X11, xcb, fontconfig and freetype, the
// sandboxed decoder helper among them, which never draws. GDK and GTK bring cairo themselves (CGtk).
#ifndef GALLERY_CCAIRO_SHIM_H
#define GALLERY_CCAIRO_SHIM_H

// By its directory: cairo's own headers include each other relatively, so no include path is needed.
#include <cairo/cairo.h>

#endif
