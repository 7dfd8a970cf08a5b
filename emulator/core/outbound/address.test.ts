import { describe, expect, test } from 'vitest'
import { addressProblem, isLoopback, parseIp, vendorUrlProblem } from './address.ts'

describe('"this machine" is judged on parsed addresses, never on a name\'s text', () => {
  test.each([
    // [URL, accepted]
    ['http://127.0.0.1:3000/rec/%s', true],
    ['http://127.255.0.9/x', true],
    ['http://localhost:3000/x', true],
    ['http://api.localhost/x', true],
    ['http://[::1]:3000/x', true],
    ['http://[::ffff:127.0.0.1]/x', true],
    ['http://[0:0:0:0:0:ffff:7f00:1]/x', true],
    // WHATWG URL reads these as 127.0.0.1 (so does the connect): this machine.
    ['http://2130706433/x', true],
    ['http://0x7f.1/x', true],
    ['http://127.1/x', true],
    ['http://127.attacker.example/x', false],
    ['http://127.0.0.1.nip.io/x', false],
    ['http://localhost.attacker.example/x', false],
    ['http://[::ffff:10.0.0.1]/x', false],
    ['http://[::ffff:a00:1]/x', false],
    ['http://[::127.0.0.1]/x', false],
    ['http://[64:ff9b::7f00:1]/x', false],
    ['http://0.0.0.0/x', false],
    ['http://[::]/x', false],
    ['http://10.0.0.1/x', false],
    ['http://vendor.example/x', false],
    ['https://vendor.example/x', true],
    ['https://127.attacker.example/x', true],
    ['ftp://127.0.0.1/x', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
  ])('%s → accepted: %s', (url, accepted) => {
    expect(vendorUrlProblem(url) === null).toBe(accepted)
  })

  test('a resolved address passes for http only when it is loopback; https takes any', () => {
    const http = new URL('http://localhost:3000/')
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(addressProblem(http, address), address).toBeNull()
    for (const address of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', '::', '0.0.0.0', 'fe80::1', '::127.0.0.1', 'not an ip']) {
      expect(addressProblem(http, address), address).toMatch(/not this machine/)
    }
    expect(addressProblem(new URL('https://vendor.example/'), '10.0.0.1')).toBeNull()
  })

  test('parseIp reads every IPv4 and IPv6 form, and nothing else', () => {
    expect(parseIp('1.2.3.4')).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4))
    expect(parseIp('[::ffff:1.2.3.4]')).toEqual(parseIp('1.2.3.4'))
    expect(parseIp('::ffff:102:304')).toEqual(parseIp('1.2.3.4'))
    expect(parseIp('1::')).toEqual(Uint8Array.of(0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    for (const bad of ['1.2.3', '1.2.3.256', '01.2.3.4', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', 'localhost', '', '::g']) expect(parseIp(bad), bad).toBeNull()
  })

  test("the server's own listening host is judged the same way", () => {
    expect(['127.0.0.1', '::1', 'localhost', '[::1]'].map(isLoopback)).toEqual([true, true, true, true])
    expect(['0.0.0.0', '::', '192.168.1.2', '127.attacker.example'].map(isLoopback)).toEqual([false, false, false, false])
  })
})
