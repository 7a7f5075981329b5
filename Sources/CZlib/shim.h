#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros (they pass the library's version and the stream's size), which
   Swift does not import: these wrappers are what Swift calls. windowBits 15 + 16 selects the gzip wrapper
   (RFC 1952) with the largest window; memLevel 8 is zlib's default (deflate then holds 256 KiB). */

static inline int CZlib_deflateInitGzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/* A gzip stream only (not zlib's own format): windowBits 15 + 16. */
static inline int CZlib_inflateInitGzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
