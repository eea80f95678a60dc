# Shared by scripts/run and scripts/test: make .venv (if missing) and install slidelab into it.
# Usage: . scripts/_venv.sh EXTRAS   (EXTRAS is "" or "[test]")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    if ! "$python" -m venv .venv 2>/dev/null; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            apt-get update -qq && apt-get install -y -qq python3-venv python3-pip >/dev/null
            rm -rf .venv && "$python" -m venv .venv
        else
            echo "scripts: cannot create .venv; install python3-venv (Debian/Ubuntu) and retry" >&2
            exit 1
        fi
    fi
    .venv/bin/python -m pip install -q --upgrade pip
fi
.venv/bin/python -m pip install -q -e ".${1:-}"
