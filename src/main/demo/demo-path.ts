import { join } from 'node:path'

/**
 * Where `npm run web` keeps the demo project: in the user's own data folder (XDG_DATA_HOME or ~/.local/share on
 * Linux, Application Support on macOS, APPDATA on Windows), so two people on one machine never share it and nobody
 * else can put a file in its place, as they could under a fixed name in the shared temporary folder.
 */
export function demoProjectPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const base =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/')
          ? env.XDG_DATA_HOME
          : join(home, '.local', 'share')
  return join(base, 'assay', 'demo.assay')
}
