#include "CMalloc.h"

#include <limits.h>
#include <malloc.h>

int CMalloc_setMmapThreshold(size_t threshold) {
    if (threshold > INT_MAX) { return 0; }
    return mallopt(M_MMAP_THRESHOLD, (int)threshold);
}

int CMalloc_trim(void) { return malloc_trim(0); }
