import { afterAll, beforeAll } from 'vitest'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { prepareDemoScene, SCENE_ANNOTATORS } from '../../scripts/screenshots-scene'
import { dispatch } from '../../src/main/api/dispatch'
import { insertItems, type NewItem } from '../../src/main/store/items'
import { Project } from '../../src/main/store/project'
import { hasChromium, launchChromium } from './browser'
import { contextFor } from './project'
import { ANNOTATOR_SCREENS, CURATOR_SCREENS, type ScreenVisit } from './screens'
import { serveProject, type ServedProject } from './serve'
import { repoRoot, tempDir } from './tmp'

/** What one browser suite starts: a temporary folder, served projects and one Chromium. */
export interface BrowserSuite {
  /** A path in the suite's temporary folder (made on first use, so a suite that is skipped leaves none behind). */
  file(name: string): string
  /** Serves the project at `path` (as `assay serve`), stopped after the suite. */
  serve(path: string, extraArgs?: string[]): Promise<ServedProject>
  /** A new page in the suite's Chromium (started on the first call), at `url` when one is given. */
  page(options?: BrowserContextOptions, url?: string): Promise<Page>
}

/** Registers the suite's clean-up: Chromium closed, every served project stopped, the temporary folder removed. */
export function browserSuite(prefix?: string): BrowserSuite {
  let tmp: ReturnType<typeof tempDir> | undefined
  const servers: ServedProject[] = []
  let browser: Promise<Browser> | undefined
  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close()
    for (const served of servers) await served.stop()
    tmp?.cleanup()
  })
  return {
    file: (name) => (tmp ??= tempDir(prefix)).file(name),
    async serve(path, extraArgs) {
      const served = await serveProject(path, extraArgs)
      servers.push(served)
      return served
    },
    async page(options, url) {
      browser ??= launchChromium()
      const page = await (await browser).newPage(options)
      if (url !== undefined) await page.goto(url)
      return page
    }
  }
}

/**
 * Writes a project of `items` at `path`, assigns each instrument's items once to `annotator`, serves it to them and
 * opens their workbench in a 1024×700 window whose actions wait at most 8 s (`beforeOpen` sees the page first).
 */
export async function annotatorWorkbench(
  suite: BrowserSuite,
  path: string,
  items: NewItem[],
  instruments: string[],
  annotator = 'Ada',
  beforeOpen?: (page: Page) => void
): Promise<Page> {
  const project = await Project.create(path)
  project.write((db) => insertItems(db, items))
  const ctx = contextFor(project)
  for (const instrument of instruments) {
    const res = await dispatch(ctx, 'assignments.create', { instrument, annotators: [annotator], overlap: 1 })
    if (!res.ok) throw new Error(res.error.message)
  }
  project.close()
  const served = await suite.serve(path, ['--annotator', annotator])
  const page = await suite.page({ viewport: { width: 1024, height: 700 } })
  page.setDefaultTimeout(8000)
  beforeOpen?.(page)
  await page.goto(served.url)
  return page
}

export type SceneRole = 'curator' | 'annotator'

/** Each role of the demo scene with the screens it walks. */
export const SCENE_WALKS: ReadonlyArray<readonly [SceneRole, ScreenVisit[]]> = [
  ['curator', CURATOR_SCREENS],
  ['annotator', ANNOTATOR_SCREENS]
]

/** The demo scene served twice, to a curator and to its first annotator, for the walks over every screen. */
export interface DemoSceneSuite extends BrowserSuite {
  url(who: SceneRole): string
  /** A page on `who`'s workbench, once its top bar shows. */
  workbench(who: SceneRole, options?: BrowserContextOptions): Promise<Page>
}

export function demoSceneSuite(): DemoSceneSuite {
  const suite = browserSuite()
  const served: Partial<Record<SceneRole, ServedProject>> = {}
  beforeAll(async () => {
    if (!hasChromium) return
    const path = suite.file('scene.assay')
    await prepareDemoScene(path, repoRoot)
    served.curator = await suite.serve(path)
    served.annotator = await suite.serve(path, ['--annotator', SCENE_ANNOTATORS[0]])
  }, 120_000)
  const url = (who: SceneRole): string => {
    const project = served[who]
    if (!project) throw new Error(`the demo scene is not served to the ${who}`)
    return project.url
  }
  return {
    ...suite,
    url,
    async workbench(who, options) {
      const page = await suite.page(options, url(who))
      await page.locator('.topbar').waitFor({ timeout: 60_000 })
      return page
    }
  }
}
