#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx assay` works in a fresh clone without a build step.
import { register } from 'tsx/esm/api'

register()
await import('../src/main/cli/main.ts')
