#!/usr/bin/env bash
# The unit tests, doctests and every notebook (nbval) in two more environments on this machine's
# Python (issue 28 §7):
#   oldest  every dependency at its lowest allowed version (ci/constraints-oldest.txt; pyproject's
#           lower bounds are set from what passes here)
#   newest  the newest releases the registry serves (pip --upgrade --upgrade-strategy eager), with
#           matplotlib lifted past the [lab] extra's <3.11 speed cap: the library allows it, so
#           it must pass on it too.
# Each lives in its own venv (.venv-oldest, .venv-newest), rebuilt when pyproject.toml or the
# constraints change. Usage: ci/test-deps.sh [--install-only] [oldest|newest]...  (default: both);
# .ci/run installs both with --install-only while `make test` runs, then runs the suites.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export PYTHONWARNINGS="ignore:Editable installation"
install_only=0
if [ "${1:-}" = --install-only ]; then install_only=1; shift; fi
workers=${PYTEST_WORKERS:-auto}
xdist=(-n "$workers" --dist loadfile)
[ "$workers" = 0 ] && xdist=()
status=0
for flavour in "${@:-oldest newest}"; do
  for f in $flavour; do
    venv=".venv-$f"
    stamp="$venv/.installed"
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ ci/constraints-oldest.txt -nt "$stamp" ]; then
      rm -rf "$venv"
      "$PYTHON" -m venv "$venv"
      "$venv/bin/python" -m pip install --quiet --upgrade pip
      if [ "$f" = oldest ]; then
        "$venv/bin/python" -m pip install --quiet -c ci/constraints-oldest.txt -e ".[test]"
      else
        "$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[test]"
        "$venv/bin/python" -m pip install --quiet --upgrade "matplotlib>=3.11"
      fi
      touch "$stamp"
    fi
    [ "$install_only" = 1 ] && continue
    echo "== $f dependencies: $("$venv/bin/python" -c 'import importlib.metadata as m; print(", ".join(f"{p} {m.version(p)}" for p in ("numpy","scipy","pandas","matplotlib","seaborn","scikit-learn","joblib","ipywidgets")))')"
    ci/stage "$f" "$venv/bin/python" -m pytest -m "not browser" -q -p no:cacheprovider "${xdist[@]}" \
      --junitxml="artifacts/junit-$f.xml" tests notebooks ppdm_edu || status=1
  done
done
exit $status
