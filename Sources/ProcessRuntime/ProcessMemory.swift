internal import CMalloc

/// Keeps the server's resident memory proportional to the requests in flight.
///
/// A large request allocates buffers of tens of megabytes (its body, the parser's index, the decoded
/// snapshots). glibc serves blocks above its mmap threshold with their own mappings, returned to the system
/// when freed, but by default it then raises the threshold to the largest block freed (up to 32 MiB), so
/// the next large request's buffers come from the heap and stay resident after it: measured here, five
/// 28 MB requests in a row grew the peak from 126 MiB to 222 MiB. Fixing the threshold, and trimming the
/// heaps after a large request, keeps the peak at that of one request.
public enum ProcessMemory {
    /// Bodies of at least this many bytes trigger ``releaseFreeMemory()`` once answered.
    public static let largeRequestBytes = 4 << 20

    /// Serves allocations of 4 MiB and more with their own mappings, for the life of the process. A server
    /// calls it once before it starts.
    public static func useOwnMappingsForLargeBlocks() {
        _ = CMalloc_setMmapThreshold(4 << 20)
    }

    /// Returns the heaps' free memory to the system (glibc `malloc_trim`).
    public static func releaseFreeMemory() {
        _ = CMalloc_trim()
    }
}
