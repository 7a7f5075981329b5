/*
 * CMalloc — the two glibc malloc controls the server uses, as plain C functions (Swift does not import
 * <malloc.h>'s mallopt and malloc_trim).
 */
#ifndef CMALLOC_H
#define CMALLOC_H

#include <stddef.h>

/**
 * Serves every allocation of at least `threshold` bytes with its own mmap, returned to the system when
 * freed. Setting it also turns off glibc's dynamic threshold, which otherwise rises to the size of the
 * largest block freed (up to 32 MiB) and then keeps such blocks in the heap. Returns 1 on success.
 */
int CMalloc_setMmapThreshold(size_t threshold);

/** Returns free memory at the top and in the middle of the heaps to the system; 1 if any was released. */
int CMalloc_trim(void);

#endif
