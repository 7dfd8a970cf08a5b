#!/usr/bin/env node
// The one judge of an install log: what `npm ci` printed on a supported Node must hold no warning. npm prints its
// warnings as "npm warn <code> …" (npm 11; "npm WARN" before it) and its errors as "npm error …" ("npm ERR!"); Node
// itself prints "(node:<pid>) [DEP0123] DeprecationWarning: …" and "(node:<pid>) Warning: …". Any of those lines fails.
//
//   node tools/test/install-log.mjs <log file> [--report <reports/name.json>]
// prints each warning line (or "clean"), writes {"passed":1,"failed":0} or the reverse to the report (one check in
// the totals of tools/test/summary.mjs), and exits 1 when the log has a warning or cannot be read.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'

const WARNING_LINE = /^(?:npm (?:warn|WARN|error|ERR!)(?=\s|$)|\(node:\d+\) (?:\[\w+\] )?\w*Warning\b)/

/** The lines of `log` that are a warning or an error of npm or of Node. */
export function installWarnings(log) {
  return log.split(/\r?\n/).filter((line) => WARNING_LINE.test(line))
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { report: { type: 'string' } } })
  if (positionals.length !== 1) {
    console.error('usage: node tools/test/install-log.mjs <log file> [--report <reports/name.json>]')
    process.exit(2)
  }
  let warnings
  try {
    warnings = installWarnings(readFileSync(positionals[0], 'utf8'))
  } catch (error) {
    warnings = [`the install log ${positionals[0]} cannot be read: ${error.message}`]
  }
  if (values.report) {
    mkdirSync(dirname(values.report), { recursive: true })
    writeFileSync(values.report, JSON.stringify(warnings.length === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }) + '\n')
  }
  if (warnings.length === 0) {
    console.log(`install log ${positionals[0]}: clean (no warning from npm or Node)`)
    return
  }
  console.log(`install log ${positionals[0]}: ${warnings.length} warning line(s):`)
  for (const line of warnings) console.log(`  ${line}`)
  process.exitCode = 1
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
