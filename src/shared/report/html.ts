import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { instrumentVersionsWords, NONE } from './format'
import { section, sourceNamer } from './html-parts'
import { ceilingSection, fieldSection, judgeVsJudgeSection, pairwiseSection, sourcesSection } from './html-sections'
import { SUMMARY_CSS, SUMMARY_SORT_KEYS, summaryCardsHtml } from './html-summary'
import { calibrationSectionHtml, estimatesSectionHtml } from './html-calibration'
import { ideaOriginalityHtml } from './html-idea-originality'
import { flawMatchingHtml } from './html-flaw-matching'
import { probesHtml } from './html-probes'
import { escapeXml as esc } from './plots/svg'
import { reportPlots } from './plots'
import { methodsItems } from './methods'
import type { Report } from './schema'

/**
 * The self-contained HTML report: inline CSS, inline SVG plots, the report JSON embedded for provenance, and a
 * content security policy that forbids every request, so the file opens offline and leaks nothing when shared.
 * It reads top down: the summary cards, then a table of contents and collapsible sections for the detail.
 * The one script (sorting the cards, opening sections) is allowed by its hash; without it every section still opens
 * by a click.
 */
export function renderReportHtml(report: Report): string {
  const plots = reportPlots(report)
  const { name, who } = sourceNamer(report)
  const drill = [
    warnings(report),
    sourcesSection(report, who),
    report.pairwise ? pairwiseSection(report.pairwise, plots, name, who, report.settings) : '',
    ...report.fields.map((f) => fieldSection(f, plots, name, who)),
    ceilingSection(report, who),
    judgeVsJudgeSection(report, name, who),
    calibrationSectionHtml(report, name, who),
    estimatesSectionHtml(report, name, who),
    ideaOriginalityHtml(report, who),
    flawMatchingHtml(report, who),
    probesHtml(report, who),
    methods(report)
  ].filter(Boolean)
  const title = `Audit: ${report.instrument.title} — ${report.project.name}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '${PAGE_SCRIPT_HASH}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Assay ${esc(report.schema)}">
<title>${esc(title)}</title>
<style>${CSS}${SUMMARY_CSS}</style>
</head>
<body>
<main>
${header(report)}
${summary(report)}
${contents(drill)}
${drill.join('\n')}
</main>
<script type="application/json" id="assay-report">${jsonForScript(report)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`
}

/** JSON inside a script element: `<` escaped so no text in the data can close the element. */
function jsonForScript(report: Report): string {
  return JSON.stringify(report).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

/**
 * The page's one script: reorders the cards by the chosen key from their data-sort-* attributes (higher first,
 * names A–Z, missing last); opens the section a link points to; opens every section before printing.
 */
const PAGE_SCRIPT = `(function () {
  var openSection = function (id) {
    var el = document.getElementById(id);
    if (el && el.tagName === 'DETAILS') el.open = true;
  };
  document.addEventListener('click', function (e) {
    var link = e.target && e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (link) openSection(link.getAttribute('href').slice(1));
  });
  if (location.hash) openSection(decodeURIComponent(location.hash.slice(1)));
  window.addEventListener('beforeprint', function () {
    Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
  });
  var select = document.getElementById('summary-sort');
  var box = document.getElementById('summary-cards');
  if (!select || !box) return;
  select.disabled = false;
  select.addEventListener('change', function () {
    var key = select.value;
    var cards = Array.prototype.slice.call(box.children);
    var value = function (card) {
      var v = card.getAttribute('data-sort-' + key);
      return v === null ? null : key === 'name' ? v : Number(v);
    };
    cards.sort(function (a, b) {
      var x = value(a), y = value(b);
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
      return key === 'name' ? String(x).localeCompare(String(y)) : y - x;
    });
    cards.forEach(function (card) { box.appendChild(card); });
  });
})();`

function base64(bytes: Uint8Array): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    out += chars[(n >> 18) & 63]! + chars[(n >> 12) & 63]! + (i + 1 < bytes.length ? chars[(n >> 6) & 63]! : '=') + (i + 2 < bytes.length ? chars[n & 63]! : '=')
  }
  return out
}

const PAGE_SCRIPT_HASH = `sha256-${base64(sha256(utf8ToBytes(PAGE_SCRIPT)))}`

const CSS = `
:root { --ink: #1d1f21; --muted: #6b6f73; --line: #dedcd5; --accent: #0072B2; --warn: #a4452c; --soft: #f7f7f4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 0; display: inline; }
details.section { border-top: 1px solid var(--line); margin-top: 22px; padding-top: 6px; }
details.section > summary { cursor: pointer; padding: 4px 0 8px; }
details.section > summary::marker { color: var(--muted); }
h3 { font-size: 15px; margin: 22px 0 6px; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
nav.contents { font-size: 13px; margin: 18px 0 4px; }
nav.contents ol { margin: 4px 0; padding-left: 20px; columns: 2; }
.summary-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 16px; margin-top: 18px; }
.summary-head h2 { font-size: 18px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--soft); position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td .ci { display: block; color: var(--muted); font-size: 11px; }
td.undefined { color: var(--muted); cursor: help; }
/* Source names wrap past a width (a fit's name is long), and so do the lines under a figure, so the figures stay in view. */
td[data-source] { white-space: normal; min-width: 20ch; max-width: 32ch; }
td.num .ci { white-space: normal; }
td.detail { min-width: 300px; }
td.below { color: var(--warn); font-weight: 600; }
.table-wrap { overflow-x: auto; }
.warnings { border: 1px solid #efc9bd; background: #fbeae5; padding: 8px 16px 8px 28px; border-radius: 4px; margin: 0; }
.warnings li { margin: 4px 0; }
.warnings ul { margin: 2px 0; padding-left: 18px; font-size: 13px; }
.plots { display: flex; flex-wrap: wrap; gap: 16px; margin: 8px 0 16px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 4px; padding: 8px; background: #fff; max-width: 100%; overflow-x: auto; }
figcaption { font-size: 12px; color: var(--muted); margin-top: 4px; }
.reasons { font-size: 12px; color: var(--muted); }
.reasons li { margin: 2px 0; }
code { font-size: 12px; }
@media print { th { position: static; } figure { break-inside: avoid; } select { display: none; } nav.contents { display: none; } }
`

function header(report: Report): string {
  const b = report.settings.bootstrap
  const settings = report.settings as Report['settings'] & { ties_policy?: string }
  return `<header>
<h1>${esc(report.instrument.title)}</h1>
<p class="muted">Audit report of <strong>${esc(report.project.name)}</strong> · instrument <code>${esc(report.instrument.id)}</code>${report.instrument.versions.length ? ` (${esc(instrumentVersionsWords(report.instrument.versions))})` : ''} · ${esc(report.instrument.item_kind)}</p>
<dl class="meta">
<dt>Scope</dt><dd>split ${esc(report.scope.split)} · ${report.scope.n_items} items · sets ${esc(report.scope.sets.join(', ') || NONE)}</dd>
<dt>Criteria</dt><dd>${esc(report.criteria.map((c) => report.sources.find((s) => s.id === c)?.name ?? c).join(', ') || 'none')}</dd>
${settings.ties_policy ? `<dt>Ties</dt><dd>${esc(settings.ties_policy)}</dd>` : ''}
<dt>Intervals</dt><dd>${Math.round(report.settings.level * 100)}% · Wilson for proportions · ${esc(b.method)}, ${b.resamples} resamples, seed ${b.seed} (${esc(b.generator)})</dd>
<dt>Generated</dt><dd>${esc(report.generated_at)} · ${esc(report.schema)}</dd>
</dl>
</header>`
}

function summary(report: Report): string {
  const options = SUMMARY_SORT_KEYS.map(({ key, label }) => `<option value="${key}">${esc(label)}</option>`).join('')
  return `<section id="summary">
<div class="summary-head"><h2>Summary</h2><label class="small muted">Sort judges by <select id="summary-sort" disabled>${options}</select></label></div>
<p class="muted small">One card per judge, on its main field against the first criterion: accuracy with its interval beside the majority-label and random baselines (bar, solid and dashed ticks), chance-corrected agreement with the human majority beside the human ceiling${report.pairwise ? ', position bias from runs asked in both orders, and fatal-flaw recall' : ''}. Every figure is repeated from the sections below.</p>
${summaryCardsHtml(report)}
</section>`
}

/** The table of contents: one link per section that follows. */
function contents(sections: readonly string[]): string {
  const entries = sections.map((s) => /<details class="section" id="([^"]+)"[^>]*><summary><h2>([^<]+)/.exec(s)).filter((m): m is RegExpExecArray => m !== null)
  return `<nav class="contents" aria-label="Contents"><strong>Contents</strong><ol><li><a href="#summary">Summary</a></li>${entries.map((m) => `<li><a href="#${m[1]}">${m[2]}</a></li>`).join('')}</ol></nav>`
}

/** Warnings grouped by kind: one line per kind, its instances beneath, so a repeated warning reads once. */
function warnings(report: Report): string {
  if (report.warnings.length === 0) return section('warnings', 'Warnings', '<p class="muted">None.</p>', '', true)
  const byCode = new Map<string, string[]>()
  for (const w of report.warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w.message])
  const items = [...byCode.entries()].map(([code, messages]) =>
    messages.length === 1
      ? `<li data-code="${esc(code)}"><strong>${esc(code.replace(/_/g, ' '))}</strong>: ${esc(messages[0] as string)}</li>`
      : `<li data-code="${esc(code)}"><strong>${esc(code.replace(/_/g, ' '))}</strong> (${messages.length})<ul>${messages.map((m) => `<li>${esc(m)}</li>`).join('')}</ul></li>`
  )
  return section('warnings', 'Warnings', `<ul class="warnings">${items.join('')}</ul>`, `${report.warnings.length}`, true)
}

function methods(report: Report): string {
  const items = methodsItems(report).map((m) => `<li><strong>${esc(m.topic)}</strong>: ${esc(m.text)}.</li>`)
  return section('methods', 'Methods', `<ul class="small">\n${items.join('\n')}\n</ul>`)
}
