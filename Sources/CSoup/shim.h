// Umbrella header for libsoup 2.4. Only macros and variadic functions get a wrapper here.
#ifndef GALLERY_CSOUP_SHIM_H
#define GALLERY_CSOUP_SHIM_H

#include <libsoup/soup.h>

// soup_server_new() is variadic; the demo server needs no construct properties
// beyond the server header, which is set through a GValue from Swift.
static inline SoupServer *gv_soup_server_new(void) { return soup_server_new(NULL, NULL); }

// The TLS certificate is a construct-only property.
static inline SoupServer *gv_soup_server_new_with_tls(GTlsCertificate *certificate) {
    return soup_server_new(SOUP_SERVER_TLS_CERTIFICATE, certificate, NULL);
}

static inline const char *gv_soup_method_get(void) { return SOUP_METHOD_GET; }
static inline const char *gv_soup_method_head(void) { return SOUP_METHOD_HEAD; }

#endif
