#!/usr/bin/env bash
# The main job: the skillgraph chat agent over the example skills (needs an OpenAI-compatible endpoint),
# or, with no endpoint configured, a tour of the CLI over examples/skills and the message saying what to set.
set -uo pipefail
cd "$(dirname "$0")/.."
sg() { node packages/cli/dist/bin.js "$@"; }
# Headings are decoration: stderr, so stdout carries only what the commands print.
say() { echo "$@" >&2; }
if [ -n "${OPENAI_BASE_URL:-}" ] || [ -n "${OPENAI_API_KEY:-}" ]; then
  exec node packages/cli/dist/bin.js chat --skills examples/skills "$@"
fi
say "== skillgraph list --skills examples/skills"
sg list --skills examples/skills
say
say "== skillgraph validate --all examples/skills"
sg validate --all examples/skills
say
say "== skillgraph search 'check my database migration before I merge it' --skills examples/skills"
sg search "check my database migration before I merge it" --skills examples/skills
say
say "== skillgraph chat --skills examples/skills"
sg chat --skills examples/skills "$@"
