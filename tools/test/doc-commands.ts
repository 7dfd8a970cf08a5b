/**
 * The shell commands the docs show: every line of a ```sh/```bash/```shell/```console block in README.md and
 * docs/*.md, split into simple commands (at `&&`, `||`, `;`, `|`, `&`) and words (quotes and backslashes as a POSIX
 * shell reads them), with leading `VAR=value` assignments and comments removed. Whatever the blocks hold: the
 * README is a front door that changes often, so nothing here knows its sections.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../..')

const SHELL_FENCE = /^([ \t]*)(`{3,}|~{3,})(sh|bash|shell|console|zsh)\b[^\n]*\n([\s\S]*?)^\1\2[ \t]*$/gm

export interface DocCommand {
  /** The file, relative to the repository, and the line the command starts on. */
  where: string
  /** The command's words, assignments removed. */
  words: string[]
  /** The line(s) as written. */
  text: string
}

/** README.md and every docs/*.md, relative to the repository. */
export function docFiles(root = REPO): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)]
}

/** A command line's simple commands, each as words; null when the line does not parse (an unclosed quote). */
export function splitCommands(line: string): string[][] | null {
  const commands: string[][] = []
  let words: string[] = []
  let word = ''
  let inWord = false
  const endWord = () => {
    if (inWord) words.push(word)
    word = ''
    inWord = false
  }
  const endCommand = () => {
    endWord()
    if (words.length > 0) commands.push(words)
    words = []
  }
  // One pass over the characters of one line: the loop ends at its length.
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) return null
      word += line.slice(i + 1, end)
      inWord = true
      i = end
    } else if (c === '"') {
      let j = i + 1
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++
        word += line[j]
      }
      if (j >= line.length) return null
      inWord = true
      i = j
    } else if (c === '\\') {
      word += line[i + 1] ?? ''
      inWord = true
      i++
    } else if (c === '#' && !inWord) {
      break
    } else if (/\s/.test(c)) {
      endWord()
    } else if ('&|;'.includes(c)) {
      endCommand()
      if (line[i + 1] === c) i++
    } else {
      word += c
      inWord = true
    }
  }
  endCommand()
  return commands.map((command) => {
    let first = 0
    while (first < command.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(command[first] as string)) first++
    return command.slice(first)
  })
}

/** Every simple command in the shell blocks of `files` (a trailing backslash continues a line; `$ ` prompts are dropped). */
export function docCommands(files = docFiles(), root = REPO): DocCommand[] {
  const found: DocCommand[] = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const block of text.matchAll(SHELL_FENCE)) {
      const startLine = text.slice(0, block.index).split('\n').length + 1
      const lines = (block[4] as string).split('\n')
      for (let i = 0; i < lines.length; i++) {
        const first = i
        let line = (lines[i] as string).replace(/^\s*\$ /, '')
        while (/\\$/.test(line) && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]}`
        const commands = splitCommands(line)
        if (commands === null) {
          found.push({ where: `${file}:${startLine + first}`, words: [], text: line })
          continue
        }
        for (const words of commands) if (words.length > 0) found.push({ where: `${file}:${startLine + first}`, words, text: line.trim() })
      }
    }
  }
  return found
}

/**
 * The `ringside` arguments of a command, for the CLI's parser: `ringside …`, `npx ringside …`, `npm exec ringside …`;
 * null for any other command. `npm start -- …` and `npm run check-widget -- …` come back as `start`/`check-widget`
 * with `source: true` (run from the sources: `npm start` has --dist where the package has --open).
 */
export function ringsideArgs(words: readonly string[]): { args: string[]; source: boolean } | null {
  let rest = [...words]
  if (rest[0] === 'npx' || (rest[0] === 'npm' && rest[1] === 'exec')) rest = rest.slice(rest[0] === 'npx' ? 1 : 2).filter((w, i) => i > 0 || !w.startsWith('-'))
  if (rest[0] === 'ringside' || rest[0]?.endsWith('/ringside.mjs')) return { args: rest.slice(1), source: false }
  if (words[0] !== 'npm') return null
  const script = words[1] === 'start' ? 'start' : words[1] === 'run' && (words[2] === 'check-widget' || words[2] === 'dev') ? words[2] : null
  if (script === null) return null
  const dashes = words.indexOf('--')
  const extra = dashes < 0 ? [] : words.slice(dashes + 1)
  return { args: [script === 'dev' ? 'start' : script, ...extra], source: true }
}
