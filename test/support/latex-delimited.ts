// A small olympiad-track problem written as FrontierScience writes maths: `\(…\)` and `\[…\]`, some of it wrapped in
// backticks and some Markdown-escaped (doubled backslashes, commands and all), a SMILES string whose brackets are
// escaped, a wide display formula, and a response to grade.

export const DELIMITED_PROBLEM = {
  track: 'olympiad' as const,
  subject: 'physics',
  problem: [
    'Consider a dielectric block with polarization `\\(P\\) and internal energy \\(U\\) which obeys`',
    '',
    '`\\[ U(T, P) = CT + f(P)\\,,\\]`where \\(f(P)\\) is the polarization-dependent part.',
    '',
    'Let `\\(p\\)` be the total dipole moment, so that \\\\(p=PV\\\\), and take \\(\\frac{a}{b}\\) as given.',
    '',
    // As the public gold set writes some rows: Markdown-escaped maths beside a SMILES string's escaped brackets.
    'The Magnus force is \\\\( \\\\vec{F}=S(\\\\vec{v}\\\\times\\\\vec{\\\\omega}) \\\\), where \\\\( S=2\\\\pi R^2L\\\\rho \\\\), on &lt;SMILES&gt;n1c2ccccc2\\[nH\\]n1&lt;/SMILES&gt;.',
    '',
    '\\[',
    '\\sum_{k=1}^{N} \\frac{\\alpha_k E_k^2}{2 \\epsilon_0 (1 + \\chi_k(T))} + \\int_0^{\\infty} \\frac{e^{-\\beta \\varepsilon} g(\\varepsilon)\\, d\\varepsilon}{1 + e^{-\\beta(\\varepsilon - \\mu)}} + \\prod_{j=1}^{M} \\left(1 + \\frac{x_j}{y_j}\\right) + \\sum_{m=1}^{K} \\frac{\\hbar^2 k_m^2}{2 m_e} \\left(1 - \\frac{\\omega_m^2}{\\omega_p^2 + \\gamma_m^2}\\right) = W_{\\text{total}}',
    '\\]',
    '',
    'Code stays code: `f(\\(x\\)y)` is plain text is not, but ``a \\( b`` with no closer is code.'
  ].join('\n'),
  answer: '`\\(U = CT + \\frac{P^2}{2\\chi \\epsilon_0}\\)`',
  response: 'The energy is \\(U = CT + \\frac{P^2}{2\\chi\\epsilon_0}\\).'
}
