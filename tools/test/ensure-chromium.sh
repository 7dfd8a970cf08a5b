# Sourced by tools/test/test.sh. Finds a Chromium for Playwright and exports
# CHROMIUM_PATH, or explains how to get one. Playwright cannot download its
# own browsers on this network, so we use Debian's chromium package.
find_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then return 0; fi
  if [ -x /usr/bin/chromium ]; then CHROMIUM_PATH=/usr/bin/chromium; return 0; fi
  return 1
}
if ! find_chromium; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== Chromium not found; installing Debian's chromium with apt-get (about 40 s)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "!! No Chromium found at \$CHROMIUM_PATH or /usr/bin/chromium."
    echo "!! Install it with:  sudo apt-get update && sudo apt-get install -y chromium"
    echo "!! or set CHROMIUM_PATH to a Chromium binary. Browser tests will be reported as failed."
  fi
  find_chromium || true
fi
export CHROMIUM_PATH="${CHROMIUM_PATH:-}"
