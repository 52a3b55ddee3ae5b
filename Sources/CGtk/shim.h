// Umbrella header for GTK 3 and GDK (and cairo, which GDK draws with). GLib, GIO and gdk-pixbuf have their
// own module, CGLib: import both where both are needed.
// Only what Swift cannot import directly lives here: macros and variadic functions.
#ifndef GALLERY_CGTK_SHIM_H
#define GALLERY_CGTK_SHIM_H

#include <gtk/gtk.h>

// GdkAtom constants are macros over a cast.
static inline GdkAtom gv_selection_clipboard(void) { return GDK_SELECTION_CLIPBOARD; }

// GtkDialog-free message helpers are variadic in C.
static inline GtkWidget *gv_message_dialog_new(GtkWindow *parent, GtkMessageType type,
                                               GtkButtonsType buttons, const char *text) {
    return gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                  type, buttons, "%s", text);
}

#endif
