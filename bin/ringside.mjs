#!/usr/bin/env node
// The `ringside` command of the npm package (package/cli.ts, built to lib/ by `npm run build`).
const { main } = await import('../lib/cli.js')
await main(process.argv)
