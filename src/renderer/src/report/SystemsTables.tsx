import { BRADLEY_TERRY_NOTE, judgeBenchWhy, NONE, strengthInterval, PUBLISHED_AGREEMENT_NOTE, publishedChanceWords, undefinedResamplesWords, WIN_RATES_NOTE, type Report } from '../../../shared/report'
import { Stat, Table, Who } from './TableParts'

/** Bradley–Terry strengths of ideation systems, then their win rates against human proposals, as the HTML report has them. */
export function SystemsTable({ report }: { report: Report }) {
  const systems = report.pairwise?.systems ?? []
  const strengths = systems.flatMap((s) => s.bradley_terry.map((b) => ({ source: s.source, b, reason: s.reasons[`bradley_terry.${b.player}`] })))
  const winRates = systems.flatMap((s) => s.win_rates.map((w) => ({ source: s.source, w, reason: s.reasons[`win_rate.${w.system}`] })))
  if (strengths.length === 0 && winRates.length === 0) return null
  const { level, bootstrap } = report.settings
  return (
    <>
      {strengths.length > 0 && (
        <>
          <p className="muted small">{BRADLEY_TERRY_NOTE}.</p>
          <Table head={['Source', 'System', 'Bradley–Terry log-strength', 'Undefined resamples']} numericFrom={2} label="Bradley–Terry strengths of ideation systems">
            {strengths.map(({ source, b, reason }) => (
              <tr key={`${source}|${b.player}`}>
                <Who report={report} id={source} />
                <td>{b.player}</td>
                <Stat name="bradley_terry" value={b.strength} ci={strengthInterval(b, level)} reason={reason} />
                <td className="num">{undefinedResamplesWords(b.undefined_resamples, bootstrap.resamples)}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
      {winRates.length > 0 && (
        <>
          <p className="muted small">{WIN_RATES_NOTE}.</p>
          <Table head={['Source', 'System', 'm', 'Wins', 'Ties', 'Losses', 'Missing', 'Win rate (of m)', 'Of judged', 'Cohorts']} numericFrom={2} label="Win rates against human proposals">
            {winRates.map(({ source, w, reason }) => (
              <tr key={`${source}|${w.system}`}>
                <Who report={report} id={source} />
                <td>{w.system}</td>
                <td className="num">{w.m}</td>
                <td className="num">{w.wins}</td>
                <td className="num">{w.ties}</td>
                <td className="num">{w.losses}</td>
                <td className="num">{w.missing}</td>
                <Stat name="win_rate" value={w.win_rate} reason={reason} />
                <Stat name="win_rate_of_judged" value={w.win_rate_of_judged} reason={w.m === w.missing ? 'every pair missing' : undefined} />
                <td className="num">{w.cohorts}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </>
  )
}

/** Agreement as the published benchmarks count it (MT-Bench S1/S2, AlpacaEval, JudgeBench), each beside its chance level. */
export function PublishedTable({ report, name }: { report: Report; name: (id: string) => string }) {
  const pairwise = report.pairwise
  if (!pairwise || pairwise.published_agreement.length === 0) return null
  const cell = (value: number | null | undefined, n: number | undefined, reason: string | undefined) => (
    <>
      <Stat name="accuracy" value={value} reason={reason} />
      <td className="num">{n ?? NONE}</td>
    </>
  )
  return (
    <>
      <p className="muted small">
        {publishedChanceWords(pairwise.published_chance)}. {PUBLISHED_AGREEMENT_NOTE}.
      </p>
      <Table head={['Source', 'MT-Bench S1', 'n', 'MT-Bench S2', 'n', 'AlpacaEval', 'n', 'JudgeBench', 'n']} numericFrom={1} label="Agreement in published forms">
        {pairwise.published_agreement.map((p) => (
          <tr key={p.source}>
            {p.source === 'human-human' ? <td>human–human</td> : <Who report={report} id={p.source} fallback={name(p.source)} />}
            {cell(p.mt_bench_s1, p.n_mt_bench_s1, p.reasons.mt_bench_s1)}
            {cell(p.mt_bench_s2, p.n_mt_bench_s2, p.reasons.mt_bench_s2)}
            {cell(p.alpaca_eval_agreement, p.n_alpaca_eval, p.reasons.alpaca_eval_agreement)}
            {cell(p.judgebench_accuracy, p.n_judgebench, judgeBenchWhy(p))}
          </tr>
        ))}
      </Table>
    </>
  )
}
