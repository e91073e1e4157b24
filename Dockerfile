# syntax=docker/dockerfile:1
# The image of the Kubernetes recipes (examples/kubernetes): Node.js 20 and the single-file
# qprep, for linux/arm64 (the Kunpeng hosts of Atlas 800 A2/A3) and linux/amd64. From the
# repository's root:
#
#   docker buildx build --platform linux/arm64,linux/amd64 -t registry.example.com/qprep:0.1.0 --push .
#
# No NPU software is in it: npu-smi, hccn_tool, the DCMI library, the driver's lib64,
# /usr/local/Ascend, /etc/ascend_install.info and the NPU device nodes come from the host, as
# mounts (examples/kubernetes/qprep-daemonset.yaml lists each and says why), because they
# must match the host's driver. How this file is checked: docs/kubernetes.md#the-image.

ARG NODE_IMAGE=node:20-bookworm-slim

# The single file is JavaScript, the same for every architecture: built once, on the builder's
# own platform (no emulation), and copied into the image of each target platform.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# the dependencies as locked; the build runs below, once the sources are in
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/ scripts/
COPY src/ src/
COPY checks/ checks/
# the knowledge tables (releases, hardware, models, rules) the code imports
COPY knowledge/ knowledge/
RUN npm run build && node dist/qprep.mjs --version

FROM ${NODE_IMAGE}
COPY --from=build /src/dist/qprep.mjs /usr/local/lib/qprep/qprep.mjs
COPY LICENSE NOTICE /usr/local/lib/qprep/
RUN ln -s /usr/local/lib/qprep/qprep.mjs /usr/local/bin/qprep
# V8 sized for an agent with a 20 MiB heap (docs/serve.md#memory)
ENV NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=192"
# Non-root by default (the node image's user, uid 1000): enough for qprep check --snapshot,
# aggregate, schema and a serve that replays a snapshot. On an NPU node the device nodes belong
# to root and the driver's group: the DaemonSet runs it as root (runAsUser: 0), privileged.
USER node
EXPOSE 9105
ENTRYPOINT ["/usr/local/bin/qprep"]
CMD ["--help"]
