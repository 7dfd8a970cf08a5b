/**
 * zod, configured for the SDK. Import z from here, never from 'zod' directly, so the
 * configuration below is in place before any schema is built.
 *
 * zod 4 compiles each object schema into a parser with `new Function` on its first
 * use (and probes `new Function` once when the first object schema is built). We turn
 * that off, before any schema is built (zod reads the flag at construction):
 * - CSP: widget and host pages with a strict Content-Security-Policy (no
 *   'unsafe-eval') refuse the probe, and browsers send a CSP violation report for it
 *   even though zod catches the error. A calling widget must not cause those.
 * - handshake latency: the compile costs ~1.5 ms per message type on first use, and
 *   the handshake is the first use of SYNC and SYNC_ACK on both sides. Interpreted
 *   parsing is slower per message (a few µs) but has no first-use cost.
 * `z.config` is page-global and merges: pages that already set jitless (the harness,
 * the OAuth consent page) agree with it. Code that builds zod schemas before this
 * module is evaluated should set it itself first.
 */
import { z } from 'zod'

z.config({ jitless: true })

export { z }
export type { ZodType } from 'zod'
