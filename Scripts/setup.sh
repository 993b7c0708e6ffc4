#!/usr/bin/env bash
# Installs the system packages the build, the tests and the benchmarks need, and only the
# missing ones: silent when everything is there. Non-interactive (works with CI=true and
# no terminal). Debian/Ubuntu only; elsewhere it says what to install. Swift itself is
# not installed here, only looked for.
#
#   libpq-dev, libproj-dev, proj-data, libgeos-dev, zlib1g-dev, pkg-config  build (CLibPQ, CProj, CGEOS, zlib)
#   librsvg2-bin (rsvg-convert)                                 tests render the coverage SVG to PNG
#   postgresql (server, only if no /usr/lib/postgresql/*/bin/initdb)  Scripts/postgres.sh
#   unzip, time, bc                                             benchmarks (bench-import.sh)
#   zip                                                         tests zip an unpacked feed back (FixtureTests)
#   protobuf-compiler (protoc)                                  Scripts/generate-protobuf.sh (GTFS-Realtime code)
#   osm2pgsql, postgresql-N-postgis-3, postgresql-N-pgrouting   `transit import-osm` (streets into PostGIS) and the
#                                                               tests' independent check of walk lengths (pgr_dijkstra);
#                                                               N is the installed server's major version
#   libjs-leaflet                                               the trip planner page's map (served by `transit serve`)
#   chromium, chromium-driver, fonts-noto-cjk                   the page's browser tests (headless; Chinese text in screenshots)
#   python3-pip's selenium, axe-selenium-python (PyPI)          drive that Chromium; axe-core's accessibility check
#   haproxy                                                     the balancer of Scripts/fleet.sh (replicas behind it)
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
    echo "setup.sh: swift is not on PATH; install a Swift 6.1+ toolchain (here: /opt/swift/usr/bin)" >&2
    exit 1
fi

packages=(libpq-dev libproj-dev proj-data libgeos-dev zlib1g-dev pkg-config unzip zip time bc librsvg2-bin protobuf-compiler
          libjs-leaflet chromium chromium-driver fonts-noto-cjk haproxy)

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup.sh: not a Debian system; install yourself: libpq, PROJ, zlib, pkg-config, a PostgreSQL server, unzip, zip" >&2
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    # The same Status line `dpkg -s` prints.
    if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$package")
    fi
done
# Any installed server version will do; --no-upgrade below keeps an installed one as it is.
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    missing+=(postgresql)
fi
# PostGIS and pgRouting are built for one server version: the newest installed one (or,
# when none is, the one the `postgresql` package brings: 15 on Debian 12).
major=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
major=${major:-15}
for package in osm2pgsql "postgresql-$major-postgis-3" "postgresql-$major-pgrouting"; do
    if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$package")
    fi
done

# The browser tests' Python packages (PyPI), pinned: only when missing.
python_packages() {
    if ! python3 -c 'import selenium, axe_selenium_python' >/dev/null 2>&1; then
        echo "setup.sh: installing selenium and axe-selenium-python (PyPI)" >&2
        python3 -m pip install --quiet --disable-pip-version-check selenium==4.51.0 axe-selenium-python==2.1.6 >&2 \
            || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages selenium==4.51.0 axe-selenium-python==2.1.6 >&2
    fi
}

if [ ${#missing[@]} -eq 0 ]; then
    python_packages
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "setup.sh: missing packages: ${missing[*]}" >&2
    echo "setup.sh: not root and no sudo; as root run: apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
fi

echo "setup.sh: installing ${missing[*]}" >&2
apt_get=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=120)
"${apt_get[@]}" update >&2
"${apt_get[@]}" install -y --no-install-recommends --no-upgrade "${missing[@]}" </dev/null >&2
python_packages
