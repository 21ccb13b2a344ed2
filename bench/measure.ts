// Shared by the benchmarks: runs one case against a listening server and summarises its latencies.

export interface Case {
  name: string;
  requests: number;
  concurrency: number;
  /** The status a correct answer has. */
  expect: number;
  send: (base: string) => Promise<Response>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function run(base: string, c: Case) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < c.requests) {
      next += 1;
      const t = performance.now();
      const res = await c.send(base);
      await res.arrayBuffer();
      if (res.status !== c.expect) failures += 1;
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    case: c.name,
    requests: c.requests,
    concurrency: c.concurrency,
    'req/s': Math.round(c.requests / seconds),
    'p50 ms': percentile(latencies, 50).toFixed(2),
    'p95 ms': percentile(latencies, 95).toFixed(2),
    'p99 ms': percentile(latencies, 99).toFixed(2),
    failures,
  };
}
