# Errata's container image: `errata serve` (JSON API, MCP over HTTP, web pages) on port 8080.
#   docker build -t errata . && docker run -p 8080:8080 errata
# Arguments after the image name are added to errata serve's (e.g. --allow-host errata.example.org);
# docs/packaging.md has the rest. tests/pkg/test_dockerfile.sh checks this file statically.

# Build stage: the build dependencies, the build, and its install into /out. The index is
# compiled from kb/ by the build (-Dbuild_index, the default).
FROM debian:12 AS build
COPY scripts/install-deps /src/scripts/install-deps
RUN /src/scripts/install-deps && rm -rf /var/lib/apt/lists/*
COPY . /src
WORKDIR /src
RUN meson setup /build --prefix=/usr/local -Dbuildtype=release && \
    meson compile -C /build && \
    meson install -C /build --destdir /out --no-rebuild

# Final stage: the runtime libraries (Hyperscan on amd64, Vectorscan elsewhere), the two
# programs, the knowledge base and its index; no compiler, no headers, no static libraries.
FROM debian:12-slim
RUN if [ "$(dpkg --print-architecture)" = amd64 ]; then hs=libhyperscan5; else hs=libvectorscan5; fi && \
    apt-get update && \
    apt-get install -y --no-install-recommends "$hs" libpcre2-8-0 libsqlite3-0 libjansson4 libmicrohttpd12 zlib1g libzstd1 && \
    rm -rf /var/lib/apt/lists/* && \
    useradd --system --no-create-home --shell /usr/sbin/nologin errata
COPY --from=build /out/usr/local/bin/errata /out/usr/local/bin/errata-serve /usr/local/bin/
COPY --from=build /out/usr/local/share/errata /usr/local/share/errata
USER errata
EXPOSE 8080
# Bound to every address of the container so that -p can reach it. Host names other than the
# loopback ones must be allowed with --allow-host (DNS rebinding, docs/limits.md).
ENTRYPOINT ["errata", "serve", "--listen", "0.0.0.0:8080"]
