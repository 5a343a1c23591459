// Re-runnable evidence for the flaw in proposals/demo-formula_b.md.
// The objective there is linear in n_k, so each audit in stratum k lowers it by
// exactly lambda_k / N; a proportional split cannot be optimal once the floor is met.

const lambda = [6, 3, 1]; // error mass per stratum, as in the proposal's table
const N = 20;             // pool size per stratum
const nMin = 2;           // floor per stratum
const B = 16;             // audit budget

function undetected(n) {
  return lambda.reduce((sum, l, k) => sum + l * (1 - n[k] / N), 0);
}

function feasible(n) {
  const total = n.reduce((a, b) => a + b, 0);
  return total <= B && n.every((x) => x >= nMin && x <= N);
}

// The proposal's "optimal" rule: n_k = n_min + lambda_k / sum(lambda) * (B - K n_min).
const lambdaSum = lambda.reduce((a, b) => a + b, 0);
const proportional = lambda.map((l) => nMin + (l / lambdaSum) * (B - lambda.length * nMin));

// Greedy: floor everywhere, then every remaining audit to the stratum with the largest lambda_k.
const greedy = lambda.map(() => nMin);
let left = B - lambda.length * nMin;
const order = lambda.map((l, k) => k).sort((i, j) => lambda[j] - lambda[i]);
for (const k of order) {
  const add = Math.min(left, N - greedy[k]);
  greedy[k] += add;
  left -= add;
}

// Exhaustive search over integer allocations confirms the greedy optimum.
let best = null;
for (let a = nMin; a <= N; a++) {
  for (let b = nMin; b <= N; b++) {
    for (let c = nMin; c <= N; c++) {
      const n = [a, b, c];
      if (!feasible(n)) continue;
      const value = undetected(n);
      if (best === null || value < best.value - 1e-12) best = { n, value };
    }
  }
}

const show = (name, n) =>
  console.log(`${name}: n = (${n.join(', ')}), feasible = ${feasible(n)}, undetected errors = ${undetected(n).toFixed(2)}`);

show('proportional rule (claimed optimal)', proportional);
show('greedy by error mass', greedy);
show('exhaustive optimum', best.n);
console.log(
  undetected(greedy) < undetected(proportional)
    ? `counterexample holds: ${undetected(greedy).toFixed(2)} < ${undetected(proportional).toFixed(2)}`
    : 'counterexample fails',
);
