#!/usr/bin/env bash
# The main job: the skillgraph chat agent over the example skills (needs an OpenAI-compatible endpoint),
# or, with no endpoint configured, a tour of the CLI over examples/skills and the message saying what to set.
set -uo pipefail
cd "$(dirname "$0")/.."
sg() { node packages/cli/dist/bin.js "$@"; }
if [ -n "${OPENAI_BASE_URL:-}" ] || [ -n "${OPENAI_API_KEY:-}" ]; then
  exec node packages/cli/dist/bin.js chat --skills examples/skills "$@"
fi
echo "== skillgraph list --source examples/skills"
sg list --source examples/skills
echo
echo "== skillgraph validate --all examples/skills"
sg validate --all examples/skills
echo
echo "== skillgraph search 'check my database migration before I merge it' --source examples/skills"
sg search "check my database migration before I merge it" --source examples/skills
echo
echo "== skillgraph chat --skills examples/skills"
sg chat --skills examples/skills "$@"
