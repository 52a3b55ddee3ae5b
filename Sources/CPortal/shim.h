// libportal 0.6 and its GTK 3 part: the desktop portals (xdg-desktop-portal) for Set as Background.
#ifndef GALLERY_CPORTAL_SHIM_H
#define GALLERY_CPORTAL_SHIM_H

#include <libportal/portal.h>
#include <libportal-gtk3/portal-gtk3.h>

#endif
