#!/usr/bin/env bash
# Regenerates Sources/GTFSRealtime/Generated/gtfs-realtime.pb.swift from
# Sources/GTFSRealtime/gtfs-realtime.proto (the GTFS reference's, see its header). Run once
# after the .proto or the swift-protobuf version changes; the generated file is committed,
# so a build needs neither protoc nor the plugin.
#
#   protoc                 Debian's protobuf-compiler, installed here when missing
#   protoc-gen-swift       built from the swift-protobuf this package resolved
#                          (.build/checkouts/swift-protobuf, the same version as the
#                          SwiftProtobuf runtime it links), into .build-protoc/
#
# The generated types are internal (`Visibility=Internal`): only RealtimeDecoding.swift
# reads them; the rest of the project sees RealtimeMessage.
#
# Usage: Scripts/generate-protobuf.sh     (the plugin's first build takes ~10 minutes)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! command -v protoc >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then as_root=(); elif command -v sudo >/dev/null 2>&1; then as_root=(sudo); else
        echo "generate-protobuf.sh: protoc is missing; as root run: apt-get install --no-install-recommends protobuf-compiler" >&2
        exit 1
    fi
    echo "generate-protobuf.sh: installing protobuf-compiler" >&2
    apt_get=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=120)
    "${apt_get[@]}" update >&2
    "${apt_get[@]}" install -y --no-install-recommends --no-upgrade protobuf-compiler </dev/null >&2
fi

# The plugin comes from the checkout SwiftPM resolved for this package (local mirror,
# no network beyond it), so generated code and runtime are the same version.
if [ ! -d .build/checkouts/swift-protobuf ]; then
    swift package resolve >&2
fi
swift build -c release --product protoc-gen-swift \
    --package-path .build/checkouts/swift-protobuf --scratch-path .build-protoc >&2
plugin="$(swift build -c release --product protoc-gen-swift \
    --package-path .build/checkouts/swift-protobuf --scratch-path .build-protoc --show-bin-path)/protoc-gen-swift"

out=Sources/GTFSRealtime/Generated
mkdir -p "$out"
protoc --plugin=protoc-gen-swift="$plugin" \
    --proto_path=Sources/GTFSRealtime \
    --swift_opt=Visibility=Internal \
    --swift_out="$out" \
    gtfs-realtime.proto
echo "generate-protobuf.sh: wrote $out/gtfs-realtime.pb.swift ($(wc -l <"$out/gtfs-realtime.pb.swift") lines)" >&2
