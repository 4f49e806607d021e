#!/usr/bin/env bash
# Installs what the tutorial needs and is missing, and nothing else:
#   - Catch2, CLI11 and Doxygen from Debian packages (Google Benchmark too, if absent), and for the
#     pictures libxml2-utils (xmllint), chromium (the page's browser test) and python3-matplotlib;
#   - the CuTe/CUTLASS 4.2 headers from the PyPI wheel nvidia-cutlass==4.2.0.0, into .deps/cutlass
#     (skipped when CUTLASS_DIR or CUTLASS_PATH points at a CUTLASS of your own);
#   - cuobjdump and nvdisasm, where the CUDA Toolkit lacks them, from NVIDIA's PyPI wheels into
#     .deps/cuda-tools (--sass and the SASS tests; they need no GPU).
# The CUDA Toolkit (nvcc, cuBLAS) must already be installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf 'setup: %s\n' "$*"; }

command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] ||
  { say "nvcc not found: install the CUDA Toolkit (12.x or 13.x) first"; exit 1; }

# ---- Debian packages --------------------------------------------------------------------------------
pkgs=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
{ [ -f /usr/include/catch2/catch.hpp ] || [ -f /usr/include/catch2/catch_test_macros.hpp ] ||
  [ -f /usr/local/include/catch2/catch_test_macros.hpp ]; } || pkgs+=(catch2)
{ [ -f /usr/include/CLI/CLI.hpp ] || [ -f /usr/local/include/CLI/CLI.hpp ]; } || pkgs+=(libcli11-dev)
command -v doxygen >/dev/null 2>&1 || pkgs+=(doxygen)
{ [ -f /usr/include/benchmark/benchmark.h ] || [ -f /usr/local/include/benchmark/benchmark.h ]; } ||
  pkgs+=(libbenchmark-dev)
# The pictures: xmllint checks the SVGs, Chromium runs the --html page's test, matplotlib draws the plot
# (Debian's, for /usr/bin/python3).
command -v xmllint >/dev/null 2>&1 || pkgs+=(libxml2-utils)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || pkgs+=(chromium)
/usr/bin/python3 -c "import matplotlib" >/dev/null 2>&1 || pkgs+=(python3-matplotlib)
if [ ${#pkgs[@]} -gt 0 ]; then
  say "installing Debian packages: ${pkgs[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
else
  say "Debian packages: all present"
fi

# ---- CuTe / CUTLASS headers -------------------------------------------------------------------------
if [ -n "${CUTLASS_DIR:-}${CUTLASS_PATH:-}" ]; then
  say "using your CUTLASS at ${CUTLASS_DIR:-$CUTLASS_PATH}"
elif [ -f "$root/.deps/cutlass/cutlass_library/source/include/cute/tensor.hpp" ]; then
  say "CuTe headers: present in .deps/cutlass"
else
  say "installing nvidia-cutlass==4.2.0.0 (headers only, --no-deps) into .deps/cutlass"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile \
    --target "$root/.deps/cutlass" nvidia-cutlass==4.2.0.0
  [ -f "$root/.deps/cutlass/cutlass_library/source/include/cute/tensor.hpp" ] ||
    { say "the wheel did not carry cutlass_library/source/include/cute"; exit 1; }
fi
# ---- cuobjdump and nvdisasm (--sass and the SASS tests read each step's machine code) ------------------
# Some CUDA Toolkit installs leave them out; NVIDIA's PyPI wheels carry both, into .deps/cuda-tools.
cuda_bin="$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")"
tools="$root/.deps/cuda-tools/nvidia/cu13/bin"
if [ -x "$cuda_bin/cuobjdump" ] && [ -x "$cuda_bin/nvdisasm" ]; then
  say "cuobjdump and nvdisasm: in $cuda_bin"
elif [ -x "$tools/cuobjdump" ] && [ -x "$tools/nvdisasm" ]; then
  say "cuobjdump and nvdisasm: present in .deps/cuda-tools"
else
  say "installing cuobjdump and nvdisasm (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm 13.5.37) into .deps/cuda-tools"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile \
    --target "$root/.deps/cuda-tools" nvidia-cuda-cuobjdump==13.5.37 nvidia-cuda-nvdisasm==13.5.37
  [ -x "$tools/cuobjdump" ] && [ -x "$tools/nvdisasm" ] ||
    { say "the wheels did not carry nvidia/cu13/bin/cuobjdump and nvdisasm"; exit 1; }
fi
say "done"
