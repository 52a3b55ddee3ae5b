internal import CGLib
internal import CGtk
import GObjectBindings

/// The cairo context a `DrawingArea`'s draw handler paints with, already clipped to the widget. GTK owns it
/// and it is valid during the handler only: paint on it there (`ImageSurface.paintUnscaled`,
/// `DrawingArea.renderBackground`), never keep it.
public struct DrawingContext {
    let cairo: OpaquePointer
}
