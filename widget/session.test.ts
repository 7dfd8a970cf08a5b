import { isValidPhoneNumber } from 'libphonenumber-js/max'
import { expect, test } from 'vitest'
import { DEFAULT_MY_NUMBER, readSession, rememberSession, SESSION_KEYS } from './session.ts'
import { parseWidgetParams } from './widget-params.ts'

function memoryStorage() {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  }
}

test('the default from-number is a valid E.164 number, and the URL default is the same one', () => {
  expect(DEFAULT_MY_NUMBER).toMatch(/^\+[1-9]\d{7,14}$/)
  expect(isValidPhoneNumber(DEFAULT_MY_NUMBER)).toBe(true)
  expect(parseWidgetParams('', false).myNumber).toBe(DEFAULT_MY_NUMBER)
})

test('a login is kept until logout, which clears it; settings are kept beside it', () => {
  const storage = memoryStorage()
  expect(readSession(storage)).toEqual({ loggedIn: false, confirmDial: false })
  rememberSession(storage, { loggedIn: true })
  rememberSession(storage, { confirmDial: true })
  expect(readSession(storage)).toEqual({ loggedIn: true, confirmDial: true })
  rememberSession(storage, { loggedIn: false })
  expect(storage.map.has(SESSION_KEYS.loggedIn)).toBe(false)
  expect(readSession(storage)).toEqual({ loggedIn: false, confirmDial: true })
})

test('no storage, or one that throws, leaves the session to the page and never throws', () => {
  const refusing = {
    getItem: () => {
      throw new DOMException('denied', 'SecurityError')
    },
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError')
    },
    removeItem: () => undefined,
  }
  expect(readSession(null)).toEqual({ loggedIn: false, confirmDial: false })
  expect(readSession(refusing)).toEqual({ loggedIn: false, confirmDial: false })
  expect(() => rememberSession(refusing, { loggedIn: true })).not.toThrow()
  expect(() => rememberSession(null, { loggedIn: true })).not.toThrow()
})

test('confirmDial in the URL overrides the kept setting; absent, the setting applies', () => {
  expect(parseWidgetParams('?confirmDial=1', false).confirmDial).toBe(true)
  expect(parseWidgetParams('?confirmDial=0', false).confirmDial).toBe(false)
  expect(parseWidgetParams('', false).confirmDial).toBeNull()
})
