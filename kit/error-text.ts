/**
 * Error messages as the kit's reports show them. Playwright's errors carry a
 * "Call log" of several lines, coloured with terminal escape codes whatever
 * FORCE_COLOR says; a report line wants plain text, and a reason one line.
 */

// eslint-disable-next-line no-control-regex -- terminal colour codes start with the ESC control character
const COLOUR_CODE = /\u001b\[[0-9;]*m/g

/** `text` without terminal colour codes. */
export const plainText = (text: string): string => text.replace(COLOUR_CODE, '')

/** The first line of a message: a reason that fits on one report line. */
export const firstLine = (text: string): string => plainText(text).split('\n', 1)[0]!.trim()

/** An error's message, plain, in at most `lines` lines (Playwright's first lines say what failed and where). */
export function messageOf(error: unknown, lines = 6): string {
  const text = error instanceof Error ? error.message : String(error)
  return plainText(text).split('\n').slice(0, lines).join('\n').trimEnd()
}
