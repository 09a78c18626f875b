#!/bin/sh
# The image's command, run by tini (the entrypoint: PID 1, it forwards SIGTERM to the app so the
# drain runs, and reaps). `serve` (the default) is `npm start`; `migrate` applies the migrations
# and exits, the one-shot job compose and Kubernetes run before the app; `cli` is the operator CLI
# (`npm run cli`); `health` is the image's HEALTHCHECK. Every setting comes from the environment.
set -e
cd /app
command=${1:-serve}
[ $# -gt 0 ] && shift
case "$command" in
  # The line below is package.json's "start" script, written in when the image is built.
  serve) exec @START@ "$@" ;;
  migrate) exec node dist/migrate.mjs "$@" ;;
  cli) exec node dist/cli.mjs "$@" ;;
  # GET /api/health on this instance: 200 while it serves and its database answers, 503 while it drains.
  health)
    exec node -e '
      const host = ["", "0.0.0.0", "::"].includes(process.env.HOST ?? "") ? "127.0.0.1" : process.env.HOST;
      fetch(`http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT || 3000}/api/health`, { signal: AbortSignal.timeout(4000) })
        .then((answer) => process.exit(answer.status === 200 ? 0 : 1), () => process.exit(1));' ;;
  *)
    echo "usage: gateway [serve | migrate | cli <command> [arguments] | health]" >&2
    exit 64 ;;
esac
