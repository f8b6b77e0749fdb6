#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` on this build makes one .deb whose fields declare its
# Debian dependencies, and which, unpacked into a scratch root, holds the command, the
# scenarios, the docs and the Python package, and nothing else: its murmur prints this build's
# version and its module imports from the root (not the build tree) and loads the installed
# scenarios (CMakeLists.txt, "install and the Debian package").
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools package cpack dpkg-deb dpkg-shlibdeps readelf /usr/bin/python3

build_dir=$(cd "$(dirname "$murmur")" && pwd)
if ! compgen -G "$build_dir/python/murmur/_murmur*.so" >/dev/null; then
  echo "package: no Python module in $build_dir/python/murmur (MURMUR_PYTHON=ON builds it)" >&2
  exit 1
fi
run_murmur --version
expect_rc 0
build_version=$out
version=${build_version#murmur }

# --- the package and its fields ---------------------------------------------------------------
# -B keeps cpack's staging tree and the .deb in the scratch folder, out of the build tree.
if ! cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work/pack" >"$work/cpack.log" 2>&1
then
  cat "$work/cpack.log" >&2
  echo "package: cpack -G DEB failed" >&2
  exit 1
fi
debs=("$work"/pack/murmur_*.deb)
if ((${#debs[@]} != 1)) || [[ ! -f ${debs[0]} ]]; then
  echo "package: expected one murmur_*.deb in $work/pack, found: $(ls "$work/pack")" >&2
  exit 1
fi
deb=${debs[0]}

field() { dpkg-deb -f "$deb" "$1"; }
[[ $(field Package) == murmur ]] || fail "Package is '$(field Package)', expected murmur"
[[ $(field Version) == "$version" ]] ||
  fail "Version is '$(field Version)', expected '$version' (murmur --version)"
[[ $(field Section) == science ]] || fail "Section is '$(field Section)', expected science"
[[ -n $(field Maintainer) ]] || fail "no Maintainer field"
python_minor=$(/usr/bin/python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
depends=$(field Depends)
# libc6 and libstdc++6 come from dpkg-shlibdeps; the others are loaded at run time.
for package in libc6 libstdc++6 libegl1 libgl1 libglfw3 python3-numpy python3-pandas \
  "python3 (>= $python_minor)"; do
  [[ ", $depends," == *", $package"[\ ,]* ]] || fail "Depends lacks $package: $depends"
done
[[ $(field Recommends) == *ffmpeg* ]] || fail "Recommends lacks ffmpeg: $(field Recommends)"
[[ $(field Suggests) == *python3-distributed* ]] ||
  fail "Suggests lacks python3-distributed: $(field Suggests)"

# --- the unpacked tree ------------------------------------------------------------------------
root=$work/root
dpkg -x "$deb" "$root"
doc=$root/usr/share/doc/murmur
site=$root/usr/lib/python3/dist-packages
# Every file under one of the package's own folders: no paramgen, test or library.
while IFS= read -r file; do
  case ${file#"$root"} in
    /usr/bin/murmur | /usr/share/murmur/scenarios/* | /usr/share/doc/murmur/*) ;;
    /usr/lib/python3/dist-packages/murmur/*) ;;
    *) fail "unexpected file in the package: ${file#"$root"}" ;;
  esac
done < <(find "$root" -type f -o -type l)
diff -r "$source_dir/scenarios" "$root/usr/share/murmur/scenarios" >&2 ||
  fail "the installed scenarios differ from scenarios/"
for file in README.md docs/python.md docs/images/starlings.png; do
  expect_same_file "$source_dir/$file" "$doc/$file" "installed $file"
done
for file in "$source_dir"/src/python/murmur/*.py; do
  expect_same_file "$file" "$site/murmur/$(basename "$file")" "installed murmur/$(basename "$file")"
done
if ! compgen -G "$site/murmur/_murmur*.so" >/dev/null; then
  fail "no extension _murmur*.so in $site/murmur"
fi
for file in "$root/usr/bin/murmur" "$site"/murmur/_murmur*.so; do
  [[ -f $file ]] || continue
  if readelf -d "$file" | grep -E 'RPATH|RUNPATH' >&2; then fail "$file keeps a run path"; fi
done

# --- the installed command and module ---------------------------------------------------------
installed_version=$("$root/usr/bin/murmur" --version) || fail "installed murmur --version failed"
[[ $installed_version == "$build_version" ]] ||
  fail "installed murmur --version printed '$installed_version', the build '$build_version'"

scenario=$root/usr/share/murmur/scenarios/starlings.toml
write_tiny_scenario "$work/tiny.toml"
# From the scratch folder, with only the root's dist-packages added (-s: no user site, -P: not
# the current folder), so that nothing of the build tree can be what is imported.
if ! (cd "$work" && env -u PYTHONHOME PYTHONPATH="$site" /usr/bin/python3 -s -P - \
  "$root" "$scenario" "$work/tiny.toml" "$version" <<'PY'); then
import os
import sys

import murmur

root, scenario_path, tiny_path, version = sys.argv[1:]
for module in (murmur, murmur._murmur):
    path = os.path.realpath(module.__file__)
    assert path.startswith(os.path.realpath(root) + os.sep), f"{module.__name__} from {path}"
assert murmur.__version__ == version, f"murmur.__version__ {murmur.__version__} != {version}"
scenario = murmur.Scenario.load(scenario_path)
assert scenario.kind == "flock", scenario.kind
assert scenario.source == scenario_path, scenario.source
with murmur.Flock(murmur.Scenario.load(tiny_path), backend="cpu") as flock:
    flock.step(3)
    assert flock.step_index == 3 and len(flock.state) == 48, (flock.step_index, flock.state)
PY
  fail "the installed module did not import from $root or load the installed scenario"
fi

finish
