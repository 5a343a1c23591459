/**
 * Writers put display math on one line (`$$ x^2 $$`), which remark-math reads as inline math. A line that is
 * nothing but `$$…$$` is rewritten as a fenced math block so it renders as display math. Code fences are left alone.
 */
export function normalizeDisplayMath(markdown: string): string {
  let inCode = false
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inCode = !inCode
      if (inCode) return line
      const m = /^(\s*)\$\$(?!\$)(.+?)\$\$\s*$/.exec(line)
      return m && m[2]!.trim() ? `${m[1]}$$\n${m[1]}${m[2]!.trim()}\n${m[1]}$$` : line
    })
    .join('\n')
}
