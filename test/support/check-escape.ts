// Source shared by the worked-check sandbox tests: helpers a snippet uses to look for the host realm and, should it
// hold any object of it, to act through it (write a marker file, read /etc/passwd, start a detached process with a
// token in its command line, connect to a loopback port). `${PORT}` in the text is replaced by the caller.

/**
 * Defines `foreign(o)` (an object of another realm), `found` (objects gathered), `collect(sites)`, `harvest(err)`
 * (prepareStackTrace set up the error's constructor chain, then its stack read) and `report()` (acts through any host
 * global found, then prints `foreign N, host reached|not reached`).
 */
export function escapeHelpers(marker: string, sleep: string): string {
  return `
  const use = (host) => {
    const proc = host.process
    const mod = (name) => (proc.getBuiltinModule ? proc.getBuiltinModule(name) : proc.mainModule.require(name))
    try { mod('fs').writeFileSync(${JSON.stringify(marker)}, 'escaped') } catch (e) {}
    try { console.log('PASSWD ' + mod('fs').readFileSync('/etc/passwd', 'utf8').slice(0, 40)) } catch (e) {}
    try { mod('child_process').spawn('/bin/sh', ['-c', ${JSON.stringify(sleep)}], { detached: true, stdio: 'ignore' }).unref() } catch (e) {}
    try { mod('net').connect(${'${PORT}'}, '127.0.0.1').on('error', () => {}) } catch (e) {}
    console.log('ESCAPED ' + typeof proc.pid)
  }
  const foreign = (o) => o !== null && (typeof o === 'object' || typeof o === 'function') && !(o instanceof Object)
  const found = []
  const collect = (sites) => {
    if (!sites || typeof sites.length !== 'number') return
    for (let i = 0; i < sites.length; i++) {
      const s = sites[i]
      try { const t = s.getThis(); if (t) found.push(t) } catch (e) {}
      try { const f = s.getFunction(); if (f) found.push(f) } catch (e) {}
    }
  }
  // Sets prepareStackTrace on every constructor up the error's chain (whatever realm it is from), then reads the stack.
  const harvest = (err) => {
    let c
    try { c = err.constructor } catch (e) {}
    for (let i = 0; i < 5 && c; i++) {
      try { c.prepareStackTrace = (e, sites) => { collect(sites); return 'x' } } catch (e) {}
      try { c = Object.getPrototypeOf(c) } catch (e) { c = null }
    }
    try { void err.stack } catch (e) {}
  }
  const report = () => {
    globalThis.reported = true
    let host = null
    for (const o of found) { try { if (o && o.process && typeof o.process.pid === 'number') host = o } catch (e) {} }
    if (host) use(host)
    console.log('foreign ' + found.filter(foreign).length + ', host ' + (host ? 'reached' : 'not reached'))
  }
`
}

/** The console escape's first trigger: String() replaced by one yielding a length and no slice, twice. */
export const MISSING_SLICE = `
  const RealString = String
  const evil = function () { return { length: 1e9, slice: undefined } }
  for (let round = 0; round < 2; round++) {
    globalThis.String = evil
    try { console.log('x', { a: 1 }) } catch (e) { harvest(e) }
    globalThis.String = RealString
  }
  report()`
