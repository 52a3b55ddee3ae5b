import GtkBindings

/// The window's content under the header bar: the bars that come and go at the top (offline, sandbox note,
/// a save's progress), then the stack of pages — the status page, the gallery (find bar over the list or grid),
/// the large view — with the in-app notification floating over it.
@MainActor
enum WindowContent {
    static func build(stack: Stack, status: Widget, findBar: Widget, gallery: Widget, viewer: Widget, bars: [Widget],
                      notification: Widget) -> Box {
        stack.add(status, name: "status")
        let galleryPage = Box(.vertical, spacing: 0)
        galleryPage.append(findBar)
        galleryPage.append(gallery, expand: true)
        stack.add(galleryPage, name: "gallery")
        stack.add(viewer, name: "viewer")
        let content = Box(.vertical, spacing: 0)
        for bar in bars { content.append(bar) }
        let overlay = Overlay()
        overlay.setChild(stack)
        overlay.addOverlay(notification)
        content.append(overlay, expand: true)
        overlay.show()
        content.show()
        stack.showAll()
        return content
    }
}
