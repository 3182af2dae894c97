#!/usr/bin/env bash
# The OpenTelemetry JS 3.x compatibility run: the core and instrumentation
# suites on Node 24 (from the npm package node@24) against api 1.10, sdk 3.1
# and instrumentation 0.301. The 2.x line (Node 20) is what `npm test` runs.
#
# The two lines cannot share one install (sdk-metrics 2.12 wants api < 1.10,
# 3.x wants 1.10), so this works on a copy of the working tree in
# .cache/otel3 with its own node_modules. See docs/decisions/0002-otel-lines.md.
#
# The copy is also the Node 24 tree: the packages whose engines ask for Node 22
# (scripts/node22-dev-dependencies.json: the AI SDK, Mastra, the OpenAI Agents
# SDK) are installed here and nowhere else, and the files that import them are
# type-checked (tsconfig.node22.json), linted and run here. The CLI's sources
# are type-checked against the 3.x line its dependency ranges accept. See
# docs/decisions/0030-demo-dependencies-and-node22-packages.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.cache"
copy="$cache/otel3"

# 1. Node 24, installed as an npm package (its install script fetches the binary).
node_prefix="$cache/node24"
node24_bin="$node_prefix/node_modules/node/bin"
if ! "$node24_bin/node" --version 2>/dev/null | grep -q '^v24\.'; then
  npm install --prefix "$node_prefix" --no-audit --no-fund --no-save node@24 >/dev/null
fi
"$node24_bin/node" --version | grep -q '^v24\.' || {
  echo "compat-otel3: node@24 did not install a Node 24 binary in $node24_bin" >&2
  exit 1
}
export PATH="$node24_bin:$PATH"
echo "compat-otel3: node $(node --version), npm $(npm --version)"

# 2. A copy of the working tree (tracked and untracked, not ignored files).
rm -rf "$copy"
mkdir -p "$copy"
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$root" && xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _) |
  (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$copy"
rm -f "$copy/package-lock.json"

# 3. The 3.x line in place of the 2.x one. There is no api-logs on 3.x: the
#    logs API is part of @opentelemetry/api 1.10. Then the packages that need
#    Node 22.
node - "$copy/package.json" "$copy/scripts/node22-dev-dependencies.json" <<'JS'
const { readFileSync, writeFileSync } = require('node:fs');
const [file, node22File] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const line3 = {
  '@opentelemetry/api': '~1.10.0',
  '@opentelemetry/api-logs': null,
  '@opentelemetry/exporter-logs-otlp-http': '~0.301.0',
  '@opentelemetry/exporter-metrics-otlp-http': '~0.301.0',
  '@opentelemetry/instrumentation': '~0.301.1',
  '@opentelemetry/resources': '~3.1.1',
  '@opentelemetry/sdk-logs': '~3.1.1',
  '@opentelemetry/sdk-metrics': '~3.1.1',
  '@opentelemetry/sdk-node': '~0.301.0',
};
const deps = manifest.devDependencies;
for (const name of Object.keys(deps).filter((n) => n.startsWith('@opentelemetry/'))) {
  if (!(name in line3)) throw new Error(`compat-otel3: no 3.x version known for ${name}; add it`);
  if (line3[name] === null) delete deps[name];
  else deps[name] = line3[name];
}
for (const [name, range] of Object.entries(JSON.parse(readFileSync(node22File, 'utf8')).devDependencies)) {
  if (name in deps) throw new Error(`compat-otel3: ${name} is a root devDependency and needs Node 22`);
  deps[name] = range;
}
writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
JS

cd "$copy"
npm install --no-audit --no-fund >/dev/null
for p in api sdk-metrics sdk-logs instrumentation sdk-node; do
  # Read from disk: 3.x packages do not export ./package.json.
  node -p "'compat-otel3: @opentelemetry/$p ' + JSON.parse(require('fs').readFileSync('node_modules/@opentelemetry/$p/package.json', 'utf8')).version"
done

# 4. Build (the files that need Node 22 included, the CLI's sources on 3.x),
#    lint what only this tree can type-check, and test the two packages under Node 24.
npx tsc --build packages/instrumentation/tsconfig.node22.json bench/tsconfig.node22.json \
  packages/cli/tsconfig.src.json
npm run build:cjs --workspace packages/core --workspace packages/instrumentation
mapfile -t node22_files < <(node scripts/node22-files.mjs)
npx eslint "${node22_files[@]}"
echo "compat-otel3: eslint passed on the files that need Node 22 (${node22_files[*]})"
npm test --workspace packages/core --workspace packages/instrumentation
