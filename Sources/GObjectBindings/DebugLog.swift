import CGLib

/// GLib's debug log, for whoever runs the app with `G_MESSAGES_DEBUG=gallery-viewer` (or `all`): written to
/// standard output then (GLib's default writer), dropped otherwise. What a slow start or a stuck load can be looked into with.
public enum DebugLog {
    public static let domain = "gallery-viewer"

    /// Whether a message would be shown: build nothing costly for it otherwise.
    public static var isEnabled: Bool { g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, domain) == 0 }

    public static func write(_ message: @autoclosure () -> String) {
        guard isEnabled else { return }
        let text = message()
        domain.withCString { domainText in
            text.withCString { messageText in
                "7".withCString { priority in
                    "GLIB_DOMAIN".withCString { domainKey in
                        "MESSAGE".withCString { messageKey in
                            "PRIORITY".withCString { priorityKey in
                                var fields = [GLogField(key: domainKey, value: domainText, length: -1),
                                              GLogField(key: messageKey, value: messageText, length: -1),
                                              GLogField(key: priorityKey, value: priority, length: -1)]
                                g_log_structured_array(G_LOG_LEVEL_DEBUG, &fields, gsize(fields.count))
                            }
                        }
                    }
                }
            }
        }
    }
}
