import { plainOutputEnv } from './plain-output.ts'

test('a Playwright child gets FORCE_COLOR=0 and never NO_COLOR beside it; a FORCE_COLOR the user set stays', () => {
  expect(plainOutputEnv({ NO_COLOR: '1', PATH: '/bin' })).toEqual({ FORCE_COLOR: '0', PATH: '/bin' })
  expect(plainOutputEnv({ FORCE_COLOR: '1', NO_COLOR: '1' })).toEqual({ FORCE_COLOR: '1' })
  expect(plainOutputEnv({})).toEqual({ FORCE_COLOR: '0' })
})
