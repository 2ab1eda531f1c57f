#!/usr/bin/env bash
# The main job: the skillgraph chat agent over the example skills (needs an OpenAI-compatible endpoint),
# or, with no endpoint configured, a tour of the CLI over examples/skills and the message saying what to set.
set -uo pipefail
cd "$(dirname "$0")/.."
# Each tour step is announced and timed on stderr (scripts/progress.mjs), so stdout carries only what the commands print.
sg() { node scripts/progress.mjs --inherit "skillgraph $*" node packages/cli/dist/bin.js "$@"; }
say() { echo "$@" >&2; }
if [ -n "${OPENAI_BASE_URL:-}" ] || [ -n "${OPENAI_API_KEY:-}" ]; then
  say "skillgraph: starting skillgraph chat --skills examples/skills (endpoint ${OPENAI_BASE_URL:-OpenAI})"
  exec node packages/cli/dist/bin.js chat --skills examples/skills "$@"
fi
sg list --skills examples/skills
say
sg validate --all examples/skills
say
sg search "check my database migration before I merge it" --skills examples/skills
say
say "skillgraph: skillgraph chat --skills examples/skills"
# Not through progress.mjs: chat reads the terminal directly (interactive when stdin and stdout are a terminal).
node packages/cli/dist/bin.js chat --skills examples/skills "$@"
