// Umbrella header for GLib, GObject, GIO and gdk-pixbuf: everything below the widgets. GalleryCore and the
// demo server see only this module, so the compiler keeps GTK out of them.
// Only what Swift cannot import directly lives here: macros and variadic functions.
#ifndef GALLERY_CGLIB_SHIM_H
#define GALLERY_CGLIB_SHIM_H

#include <glib.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
// gettext's bindtextdomain/textdomain and setlocale (GLib's g_dgettext is in glib.h); Swift's Glibc module
// leaves libintl.h out.
#include <libintl.h>
#include <locale.h>
// mallopt (WorkerTask.returnLargeBlocksWhenFreed); Swift's Glibc module leaves malloc.h out too.
#include <malloc.h>

// gio-unix's header is not on gdk-pixbuf's include path; the functions are in libgio (FileOutputStream's resume;
// a pipe's end as a pollable stream in the tests).
GOutputStream *g_unix_output_stream_new(gint fd, gboolean close_fd);
GInputStream *g_unix_input_stream_new(gint fd, gboolean close_fd);

// Fundamental GTypes are macros over G_TYPE_MAKE_FUNDAMENTAL and do not import.
static inline GType gv_type_string(void) { return G_TYPE_STRING; }
static inline GType gv_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType gv_type_int(void) { return G_TYPE_INT; }
static inline GType gv_type_uint(void) { return G_TYPE_UINT; }
static inline GType gv_type_object(void) { return G_TYPE_OBJECT; }
static inline GType gv_type_pointer(void) { return G_TYPE_POINTER; }

static inline GQuark gv_io_error_quark(void) { return G_IO_ERROR; }

// g_application_command_line_printerr is printf-like; the text is passed through "%s", never as a format.
static inline void gv_command_line_printerr(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_printerr(command_line, "%s", text);
}

// gdk-pixbuf's animation iterators take a GTimeVal, deprecated since GLib 2.62 with no replacement in gdk-pixbuf
// 2.42: times go in here as milliseconds on the animation's own clock (which starts at 0), and the deprecation
// stays inside these two functions.
static inline GdkPixbufAnimationIter *gv_pixbuf_animation_get_iter_at_start(GdkPixbufAnimation *animation) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GTimeVal start = { 0, 0 };
    return gdk_pixbuf_animation_get_iter(animation, &start);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

static inline gboolean gv_pixbuf_animation_iter_advance_to(GdkPixbufAnimationIter *iter, gint64 milliseconds) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GTimeVal time = { (glong)(milliseconds / 1000), (glong)(milliseconds % 1000) * 1000 };
    return gdk_pixbuf_animation_iter_advance(iter, &time);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

#endif
