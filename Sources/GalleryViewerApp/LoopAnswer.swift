import GObjectBindings

/// Runs the main loop until a job started by `start` called back, and returns its answer: for the commands
/// without a window, whose store jobs and parses run on a worker and answer on this loop.
@MainActor
func waitForAnswer<Value>(_ start: (@escaping @MainActor (Value) -> Void) -> Void) -> Value {
    var value: Value?
    let loop = MainLoop()
    start {
        value = $0
        loop.quit()
    }
    if value == nil { loop.run() }
    return value!
}
