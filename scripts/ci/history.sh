#!/usr/bin/env bash
# The product speaks of itself: no tracked file (CHANGELOG.md and this script
# excepted) may refer to the project's development history or to files
# outside the repository. Papers are cited by authors, year and title,
# never by an internal number; history belongs in CHANGELOG.md and in
# commit messages. Exits 1 and lists the lines that break the rule.
set -euo pipefail
cd "$(dirname "$0")/../.."

pattern='\bstops? [0-9]+\b|\bsessions?\b|\bseeds? ?(papers?|[0-9]{3})\b|\bseed[0-9]{3}|\bthe seeds\b|\bissues? #?[0-9]+\b|\bDESIGN\.md\b|\.\./shared/|\bcommit [0-9a-f]{7,40}\b'
# Allowed: pytest's fixture scope is called "session".
allowed='scope="session"'

hits="$(git ls-files -z -- . ':!CHANGELOG.md' ':!scripts/ci/history.sh' \
    | xargs -0 grep -nIiE "$pattern" -- 2>/dev/null | grep -vF "$allowed" || true)"
if [ -n "$hits" ]; then
    printf '%s\n' "$hits"
    echo "history.sh: $(printf '%s\n' "$hits" | wc -l) line(s) speak of the project's history or of files outside it" >&2
    exit 1
fi
echo "history.sh: no tracked file speaks of the project's history"
