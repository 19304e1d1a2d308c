#!/usr/bin/env bash
# Install the Debian tile artwork and CJK fonts that the synthetic data generator (datasets/mjsynth) reads.
#
# Why a script: the machines are handed out fresh, so whatever the generator needs must be installable by the
# project itself. Idempotent: packages already present are not fetched again, and apt-get update runs at most
# once per call (and only when something is missing).
#
#   kdegames-mahjongg-data-kf5  six SVG tilesets (incl. western index letters, flowers and seasons)
#   gnome-mahjongg              one SVG/PNG tileset (+ an alternative theme)
#   xmahjongg                   GIF tilesets, one scanned from a real Chinese set
#   fonts-noto-cjk              CJK glyphs for the procedural renderer (萬, 東, 中, 發, 梅 ...)
#   fonts-dejavu-core           Latin index letters/numerals for the procedural renderer
#   lomiri-wallpapers-16.04     real photographs (CC BY 4.0 / CC BY-SA 4.0 / CC0, per file): clutter backgrounds
#   mate-backgrounds            real photographs in nature/ (GPL-2+): clutter backgrounds, a pale wood desk
#   gimp-data                   photographed seamless patterns (wood, burlap, leather, paper, stone; GPL-3+):
#                               table surfaces (only its data files: GIMP itself is not installed)
#
# The photo packages are optional for the generator (datasets/mjsynth/photos.py): without them it uses its
# procedural surfaces only. Sources and licences are listed in datasets/README.md.
#
# SVG rasterising uses the pip package resvg-py (self-contained Rust wheel, in the `synth` extra), so no
# system SVG library is needed here.
set -euo pipefail

PACKAGES=(kdegames-mahjongg-data-kf5 gnome-mahjongg xmahjongg fonts-noto-cjk fonts-dejavu-core
          lomiri-wallpapers-16.04 mate-backgrounds gimp-data)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install_artwork: all artwork packages already installed"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install_artwork: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
    fi
fi

echo "install_artwork: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# --no-install-recommends keeps the games' GUI dependencies to what the packages strictly need.
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install_artwork: done"
