// Shared by the benchmarks: runs one case against a listening server and summarises its latencies,
// or loads one URL with autocannon.
import autocannon from 'autocannon';

export interface Case {
  name: string;
  requests: number;
  concurrency: number;
  /** The status a correct answer has. */
  expect: number;
  send: (base: string) => Promise<Response>;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A case's latencies (ms, in any order) as the benchmarks print them. */
export function summarise(name: string, latencies: number[], seconds: number, failures: number, concurrency = 1) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    case: name,
    requests: sorted.length,
    concurrency,
    'req/s': Math.round(sorted.length / seconds),
    'p50 ms': percentile(sorted, 50).toFixed(2),
    'p95 ms': percentile(sorted, 95).toFixed(2),
    'p99 ms': percentile(sorted, 99).toFixed(2),
    failures,
  };
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
  return summarise(c.name, latencies, (performance.now() - started) / 1000, failures, c.concurrency);
}

export interface Load {
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  /** Answers other than 2xx, and connection errors: a correct run has none. */
  failures: number;
  '2xx': number;
}

/** autocannon at `connections` for `seconds`; `body`, when given, makes each request's JSON body. */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  body?: () => unknown,
): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      body
        ? {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }),
          }
        : { method: 'GET', headers },
    ],
  });
  return {
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    '2xx': result['2xx'],
  };
}
