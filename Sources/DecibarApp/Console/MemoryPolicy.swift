import Glibc

/// How a long-running process asks glibc's allocator to behave.
///
/// Each track starts threads of its own (decoder, sound-server client, picture, libavcodec's),
/// and by default glibc gives each new thread an arena of its own, up to 8 per core, and raises
/// its mmap threshold to the largest block freed so far. A video's frame buffers then settle in
/// whichever arena a short-lived thread made and stay there, fragmented: the soak saw the daemon
/// grow by about 10 MiB each time a video played, with no leak behind it. Two arenas, and blocks
/// of 128 KiB or more mapped on their own (returned to the system when freed), keep it flat.
enum MemoryPolicy {
    /// glibc's `mallopt` parameters (malloc.h, which the Glibc module does not bring in).
    static let arenaMax: Int32 = -8, mmapThreshold: Int32 = -3, perturb: Int32 = -6

    /// Call before any thread starts.
    static func applyForLongRuns() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(arenaMax, 2)
        _ = mallopt(mmapThreshold, 128 * 1024)
    }

    /// Fills every block the allocator hands out (and takes back) with one byte, as the
    /// `MALLOC_PERTURB_` variable does: for a render that must come out the same every time while
    /// a library in it reads memory it never wrote. libprojectM 3.1 does, after a preset loads:
    /// without this, 1 render in 5 of the same preset change under load differed from the next
    /// frame on (the memory's old contents follow the threads' timing); with it, 0 in 10.
    static func fillAllocations(with byte: UInt8) {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(perturb, Int32(byte))
    }

    /// Gives the free pages inside the allocator's heaps back to the system (`malloc_trim`), after
    /// work that freed a lot in many small blocks, such as a video's decoding. It walks the heaps
    /// under their locks (a millisecond or so); never call it from the audio path.
    static func returnFreedMemory() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}
