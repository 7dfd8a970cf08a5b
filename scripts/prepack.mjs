#!/usr/bin/env node
// `npm pack` (prepack): refuse to pack without the build the package ships
// (lib/ from tsup and tsc, dist/ from Vite with the SDK under dist/sdk/).
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const needed = ['lib/cli.js', 'lib/types/package/sdk.d.ts', 'dist/index.html', 'dist/widget/index.html', 'dist/sdk/calling-extensions.js', 'dist/sdk/calling-extensions.umd.js']
const missing = needed.filter((file) => !existsSync(resolve(root, file)))
if (missing.length > 0) {
  console.error(`npm pack: the build is missing (${missing.join(', ')}): run \`npm run build\` first.`)
  process.exit(1)
}
