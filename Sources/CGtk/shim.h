// Umbrella header for GTK 3, GDK, gdk-pixbuf, GIO and GLib.
// Only what Swift cannot import directly lives here: macros and variadic functions.
#ifndef GALLERY_CGTK_SHIM_H
#define GALLERY_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <gio/gio.h>
// gettext's bindtextdomain/textdomain and setlocale (GLib's g_dgettext is in glib.h); Swift's Glibc module
// leaves libintl.h out.
#include <libintl.h>
#include <locale.h>

// Fundamental GTypes are macros over G_TYPE_MAKE_FUNDAMENTAL and do not import.
static inline GType gv_type_string(void) { return G_TYPE_STRING; }
static inline GType gv_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType gv_type_int(void) { return G_TYPE_INT; }
static inline GType gv_type_uint(void) { return G_TYPE_UINT; }
static inline GType gv_type_object(void) { return G_TYPE_OBJECT; }
static inline GType gv_type_pointer(void) { return G_TYPE_POINTER; }

static inline GQuark gv_io_error_quark(void) { return G_IO_ERROR; }

// GdkAtom constants are macros over a cast.
static inline GdkAtom gv_selection_clipboard(void) { return GDK_SELECTION_CLIPBOARD; }

// GtkDialog-free message helpers are variadic in C.
static inline GtkWidget *gv_message_dialog_new(GtkWindow *parent, GtkMessageType type,
                                               GtkButtonsType buttons, const char *text) {
    return gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                  type, buttons, "%s", text);
}

// g_application_command_line_printerr is printf-like; the text is passed through "%s", never as a format.
static inline void gv_command_line_printerr(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_printerr(command_line, "%s", text);
}

#endif
