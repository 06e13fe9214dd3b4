import Synchronization

extension Mutex where Value == Bool {
    /// Sets the flag and says whether this call was the one that set it: a stop that is safe to
    /// call twice, from any thread.
    func setForTheFirstTime() -> Bool {
        withLock { flag in
            defer { flag = true }
            return !flag
        }
    }
}
