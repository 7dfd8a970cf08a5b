/**
 * Whether a URL is served from this machine, judged on its parsed host: a
 * loopback IP literal (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104) or the name
 * localhost / *.localhost (RFC 6761 §6.3), never on the text of a name
 * (`127.attacker.example` is not). The WHATWG URL parser has already turned
 * forms such as `0x7f.1` or `2130706433` into dotted IPv4.
 */
import { isLoopback } from '../../emulator/core/outbound/address.ts'

export function isOnThisMachine(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname)
  } catch {
    return false
  }
}
