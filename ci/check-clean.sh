#!/usr/bin/env bash
# After the test stages: a test writes nothing into the checkout. `git status --porcelain --ignored`
# may show only the environments, caches and build outputs named here (README, "Running the tests").
set -euo pipefail
cd "$(dirname "$0")/.."
allowed='^!! (\.venv(-oldest|-newest)?/|\.cache/|\.hypothesis/|\.mypy_cache/|\.pytest_cache/|\.ruff_cache/|artifacts/|ppdm_edu\.egg-info/|site/_build/|site/_generated/|site/_static/mathjax/|site/_static/twins/|site/generated/|site/notebooks/|(.*/)?__pycache__/)$'
unexpected=$(git status --porcelain --ignored | grep -Ev "$allowed" || true)
if [ -n "$unexpected" ]; then
  echo "the tests left these in the checkout (a test must write to a temporary folder or artifacts/):"
  echo "$unexpected"
  exit 1
fi
echo "the checkout holds nothing new but the named environments, caches and build outputs"
