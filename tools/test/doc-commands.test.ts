/**
 * The docs and the CLI agree: every `ringside …` (`npx ringside …`, `npm start -- …`, `npm run check-widget -- …`)
 * in a shell block of README.md or docs/*.md parses with the CLI's own parser (commander), without running; and
 * docs/cli.md lists each command's options, with the defaults `--help` prints, and no option the CLI lacks.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Command, CommanderError, type Option } from 'commander'
import { describe, expect, test } from 'vitest'
import { buildPackageCommand } from '../../package/cli.ts'
import { buildCommand } from '../../emulator/node/start-command.ts'
import { docCommands, ringsideArgs, REPO, splitCommands } from './doc-commands.ts'

/** `command` and its subcommands, made to parse only: no action runs, errors throw, output is kept. */
function parseOnly(command: Command, output: string[]): Command {
  command.exitOverride().configureOutput({ writeOut: (text) => void output.push(text), writeErr: (text) => void output.push(text) })
  if (command.commands.length === 0) command.action(() => {})
  for (const sub of command.commands) parseOnly(sub, output)
  return command
}

/** The error commander gives for `args` (null: they parse; help and version count as parsing). */
function parseError(args: string[], source: boolean): string | null {
  const output: string[] = []
  const fromSources = source && args[0] === 'start'
  const program = parseOnly(fromSources ? buildCommand() : buildPackageCommand(), output)
  try {
    program.parse(fromSources ? args.slice(1) : args, { from: 'user' })
    return null
  } catch (error) {
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) && error.exitCode === 0) return null
    return error instanceof Error ? `${error.message}\n${output.join('')}` : String(error)
  }
}

describe('splitCommands', () => {
  test.each([
    ['npx ringside start --port 9300   # a comment', [['npx', 'ringside', 'start', '--port', '9300']]],
    ["a 'b c' \"d \\\"e\\\"\" f\\ g", [['a', 'b c', 'd "e"', 'f g']]],
    ['npx ringside export b.json && npx ringside reset || true; x | y &', [['npx', 'ringside', 'export', 'b.json'], ['npx', 'ringside', 'reset'], ['true'], ['x'], ['y']]],
    ['RINGSIDE_WAITS=a=1 FOO=2 ringside check-widget http://x/#/y', [['ringside', 'check-widget', 'http://x/#/y']]],
    ['echo a#b', [['echo', 'a#b']]],
  ])('%s', (line, commands) => {
    expect(splitCommands(line)).toEqual(commands)
  })

  test('an unclosed quote is no command line', () => {
    expect(splitCommands("ringside start --widget 'http://x")).toBeNull()
  })

  test('ringside commands, from the package and from the sources', () => {
    expect(ringsideArgs(['npx', 'ringside', 'open', '/contacts/1'])).toEqual({ args: ['open', '/contacts/1'], source: false })
    expect(ringsideArgs(['npx', '--yes', 'ringside', 'reset'])).toEqual({ args: ['reset'], source: false })
    expect(ringsideArgs(['npm', 'start', '--', '--port', '9300'])).toEqual({ args: ['start', '--port', '9300'], source: true })
    expect(ringsideArgs(['npm', 'run', 'check-widget', '--', 'http://x/'])).toEqual({ args: ['check-widget', 'http://x/'], source: true })
    expect(ringsideArgs(['npm', 'test'])).toBeNull()
    expect(ringsideArgs(['curl', 'http://127.0.0.1:7464/'])).toBeNull()
  })
})

describe('the commands in the docs', () => {
  const commands = docCommands().flatMap((command) => {
    const parsed = ringsideArgs(command.words)
    return parsed ? [{ ...command, ...parsed }] : []
  })

  test('the docs show the CLI at work (this test reads their shell blocks, whatever they hold)', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10)
    expect(docCommands().filter((command) => command.words.length === 0)).toEqual([])
  })

  test.each(commands.map((command) => [`${command.where}: ${command.text}`, command] as const))('%s', (_name, command) => {
    expect(parseError(command.args, command.source)).toBeNull()
  })

  test('a wrong example would be caught: an unknown option, command or a bad port', () => {
    expect(parseError(['start', '--prot', '9300'], false)).toMatch(/unknown option '--prot'/)
    expect(parseError(['strat'], false)).toMatch(/unknown command 'strat'/)
    expect(parseError(['start', '--port', '70000'], true)).toMatch(/a port number/)
    expect(parseError(['start', '--dist'], false)).toMatch(/unknown option '--dist'/)
  })
})

describe('docs/cli.md and --help', () => {
  const page = readFileSync(join(REPO, 'docs', 'cli.md'), 'utf8')
  /** The section of `## ringside <name>`, up to the next `## `. */
  const section = (name: string) => {
    const start = page.indexOf(`\n## ringside ${name}\n`)
    expect(start, `docs/cli.md has no "## ringside ${name}" section`).toBeGreaterThanOrEqual(0)
    const end = page.indexOf('\n## ', start + 1)
    return page.slice(start, end < 0 ? undefined : end)
  }
  /** The table rows of a section: option flag → its row's cells. */
  const rows = (text: string) => new Map([...text.matchAll(/^\| `(--[a-z-]+)[^`]*` \|(.*)\|\s*$/gm)].map((m) => [m[1] as string, (m[2] as string).split(/(?<!\\)\|/).map((cell) => cell.trim())]))
  const shown = (option: Option) => (option.defaultValue === undefined || typeof option.defaultValue === 'boolean' ? null : String(option.defaultValue))
  const program = buildPackageCommand()

  test.each(program.commands.map((command) => [command.name(), command] as const))('ringside %s: each option once, with its default, and none the CLI lacks', (name, command) => {
    const documented = rows(section(name))
    const options = new Map(command.options.map((option) => [option.long as string, option]))
    // `npm start` is `ringside start` from the sources: its options are documented with it.
    if (name === 'start') for (const option of buildCommand().options) if (!options.has(option.long as string)) options.set(option.long as string, option)
    expect([...documented.keys()].sort()).toEqual([...options.keys()].sort())
    for (const [flag, cells] of documented) {
      const option = options.get(flag) as Option
      expect(cells[0], `${flag}: a description`).not.toBe('')
      const fallback = shown(command.options.find((o) => o.long === flag) ?? option)
      if (fallback !== null) expect(cells[1], `${flag}'s default`).toBe(`\`${fallback}\``)
    }
  })
})
