import { describe, expect, it } from 'vitest'
import { demoProjectPath } from '../../../src/main/demo/demo-path'

describe('the demo project’s place', () => {
  it('is in the user’s own data folder on each platform, never a fixed name in the shared temporary folder', () => {
    expect(demoProjectPath({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share/assay/demo.assay')
    expect(demoProjectPath({ XDG_DATA_HOME: '/data/ada' }, 'linux', '/home/ada')).toBe('/data/ada/assay/demo.assay')
    // A relative XDG_DATA_HOME is ignored, as the specification says.
    expect(demoProjectPath({ XDG_DATA_HOME: 'rel' }, 'linux', '/home/ada')).toBe('/home/ada/.local/share/assay/demo.assay')
    expect(demoProjectPath({}, 'darwin', '/Users/ada')).toBe('/Users/ada/Library/Application Support/assay/demo.assay')
    expect(demoProjectPath({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ada')).toMatch(/assay[\\/]demo\.assay$/)
  })
})
