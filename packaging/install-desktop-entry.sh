#!/bin/sh
# Adds Desktop KB to the application menu (Linux, per user; no root needed).
# Run from the unpacked bundle folder:  ./install-desktop-entry.sh
# Undo with:                             ./install-desktop-entry.sh --remove
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
apps="$data/applications"
icons="$data/icons/hicolor"

if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/desktop-kb.desktop"
    for f in "$icons"/*/apps/desktop-kb.png "$icons"/scalable/apps/desktop-kb.svg; do
        rm -f "$f"
    done
    echo "removed the menu entry and icons (your notes are untouched)"
    exit 0
fi

for dir in "$here"/icons/hicolor/*/apps; do
    size=$(basename "$(dirname "$dir")")
    mkdir -p "$icons/$size/apps"
    cp "$dir"/desktop-kb.* "$icons/$size/apps/"
done
mkdir -p "$apps"
# The bundle can live anywhere: point Exec at this copy.
sed "s|^Exec=.*|Exec=\"$here/desktop-kb\"|" "$here/desktop-kb.desktop" > "$apps/desktop-kb.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" || true
echo "added Desktop KB to the application menu ($apps/desktop-kb.desktop)"
