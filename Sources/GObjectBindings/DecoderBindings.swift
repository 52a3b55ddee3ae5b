// GObjectBindings is DecoderBindings (references, GError, translations, bytes, pixbufs, the decoder protocol)
// plus everything the helper must not link: libsoup, files, the main loop, workers. Its users see both.
@_exported import DecoderBindings
