# snapdiff container image.
#
#   docker build -t snapdiff .
#   docker run --rm -p 8080:8080 snapdiff
#
# Two stages: the Swift 6.3 toolchain on Debian bookworm builds a release binary with the Swift standard
# library (and Foundation) linked statically; a slim bookworm image runs it with only the C/C++ libraries
# it links (`ldd` on the binary: libmicrohttpd.so.12, libsimdjson.so.14, libstdc++.so.6, libgcc_s.so.1,
# libm/libc).
#
# scripts/runtime-proof rebuilds the runtime stage without a Docker engine: it reads the stage's FROM,
# RUN, COPY --from=build, ENV, USER, HEALTHCHECK, ENTRYPOINT and CMD lines from this file, replays them
# in a debootstrap root and runs the service there. Keep those instructions in the runtime stage.
#
# Debian package versions are pinned to bookworm's (hadolint DL3008); when a bookworm point release
# replaces one, the build fails and the pin is bumped here (scripts/runtime-proof fails the same way).

FROM swift:6.3-bookworm AS build

RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libmicrohttpd-dev=0.9.75-6 \
        libsimdjson-dev=3.0.1-1 \
        pkg-config=1.8.1-1 \
        zlib1g-dev=1:1.2.13.dfsg-1 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# The dependencies in their own layer: only a change of the manifest fetches them again.
COPY Package.swift ./
RUN swift package resolve

# The manifest names benchmark and test targets by path, so their folders must exist for it to load;
# only the snapdiff product is compiled. openapi.yaml is embedded in the binary (Sources/DiffService/
# Resources/openapi.yaml links to it).
COPY openapi.yaml ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
COPY Tests ./Tests
RUN swift build -c release --product snapdiff --static-swift-stdlib \
    && install -D -m 0755 .build/release/snapdiff /out/snapdiff

FROM debian:bookworm-slim AS runtime

# Only what the binary links beyond libc (libgcc-s1 is already in the base image).
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libmicrohttpd12=0.9.75-6 \
        libsimdjson14=3.0.1-1 \
        libstdc++6=12.2.0-14+deb12u1 \
        zlib1g=1:1.2.13.dfsg-1 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 snapdiff \
    && useradd --system --uid 10001 --gid snapdiff --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin snapdiff

COPY --from=build /out/snapdiff /usr/local/bin/snapdiff

# Every setting of `snapdiff serve` has a variable (see `snapdiff serve --help`). SNAPDIFF_THREADS is left
# unset: it defaults to the cores the process sees; set it to the CPU limit when there is one. The memory
# budget and the body limit are left unset: they derive from the container's memory limit (`docker run -m`). The
# shutdown grace is 8 s (the service's default is 10 s) so that a graceful stop fits in `docker stop`'s
# default 10 s before SIGKILL.
ENV SNAPDIFF_HOST=0.0.0.0 \
    SNAPDIFF_PORT=8080 \
    SNAPDIFF_PROBE_PORT=8081 \
    SNAPDIFF_CONNECTION_LIMIT=1000 \
    SNAPDIFF_CONNECTION_TIMEOUT=30 \
    SNAPDIFF_SHUTDOWN_GRACE=8 \
    SNAPDIFF_LOG_LEVEL=info

# Numeric, so that Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
# 8080 serves the API; 8081 serves only GET /healthz and /readyz, for health checks and probes that clients
# holding every connection of 8080 cannot starve.
EXPOSE 8080 8081

# The binary probes itself (plain socket, GET /healthz on SNAPDIFF_PROBE_PORT): the image needs no curl and no
# shell.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["snapdiff", "healthcheck"]

# SIGTERM stops accepting, lets in-flight requests finish (at most SNAPDIFF_SHUTDOWN_GRACE seconds) and
# exits 0. Raising the grace? Raise `docker stop -t` (or Kubernetes' terminationGracePeriodSeconds) with it.
STOPSIGNAL SIGTERM
ENTRYPOINT ["snapdiff"]
CMD ["serve"]
