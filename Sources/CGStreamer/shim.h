// Umbrella header for GStreamer core, appsrc and pbutils (the missing-plugin descriptions). Only the bindings
// in GStreamerBindings import it, internally: no GStreamer type shows above them.
// Only what Swift cannot import directly lives here: macros and variadic functions.
#ifndef GALLERY_CGSTREAMER_SHIM_H
#define GALLERY_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/pbutils/pbutils.h>

static inline GstMessageType gv_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *gv_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
static inline GType gv_type_object(void) { return G_TYPE_OBJECT; }
static inline GType gv_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType gv_type_app_src(void) { return GST_TYPE_APP_SRC; }
static inline GType gv_type_element(void) { return GST_TYPE_ELEMENT; }
static inline GstClockTime gv_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
static inline GQuark gv_core_error_quark(void) { return GST_CORE_ERROR; }
static inline GQuark gv_stream_error_quark(void) { return GST_STREAM_ERROR; }
static inline GQuark gv_resource_error_quark(void) { return GST_RESOURCE_ERROR; }
static inline GstMessage *gv_message_ref(GstMessage *message) { return gst_message_ref(message); }
static inline void gv_message_unref(GstMessage *message) { gst_message_unref(message); }
static inline void gv_object_unref(gpointer object) { gst_object_unref(object); }
static inline GstClockTime gv_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
static inline void gv_buffer_set_offset(GstBuffer *buffer, guint64 offset) { GST_BUFFER_OFFSET(buffer) = offset; }
static inline const char *gv_feature_name(gpointer feature) {
    return gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(feature));
}
static inline guint gv_feature_rank(gpointer feature) { return gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(feature)); }
static inline void gv_feature_set_rank(gpointer feature, guint rank) {
    gst_plugin_feature_set_rank(GST_PLUGIN_FEATURE(feature), rank);
}
static inline gboolean gv_element_factory_is_decoder_or_demuxer(gpointer factory) {
    return gst_element_factory_list_is_type(GST_ELEMENT_FACTORY(factory), GST_ELEMENT_FACTORY_TYPE_DECODER
                                                     | GST_ELEMENT_FACTORY_TYPE_DEMUXER
                                                     | GST_ELEMENT_FACTORY_TYPE_PARSER
                                                     | GST_ELEMENT_FACTORY_TYPE_DEPAYLOADER
                                                     | GST_ELEMENT_FACTORY_TYPE_DECRYPTOR);
}
static inline gboolean gv_element_factory_is_audio_sink(gpointer factory) {
    return gst_element_factory_list_is_type(GST_ELEMENT_FACTORY(factory),
                                            GST_ELEMENT_FACTORY_TYPE_SINK | GST_ELEMENT_FACTORY_TYPE_MEDIA_AUDIO);
}
// GST_PLAY_FLAG_* of playbin are private to the plugin; these are its documented values.
enum { GV_PLAY_FLAG_VIDEO = 1 << 0, GV_PLAY_FLAG_AUDIO = 1 << 1, GV_PLAY_FLAG_TEXT = 1 << 2,
       GV_PLAY_FLAG_SOFT_VOLUME = 1 << 4 };

// playbin's get-video-tags / get-audio-tags action signals are emitted through g_signal_emit_by_name (variadic).
static inline void gv_emit_tags(GObject *playbin, const char *signal, gint stream, GstTagList **result) {
    *result = NULL;
    g_signal_emit_by_name(playbin, signal, stream, result);
}

#endif
