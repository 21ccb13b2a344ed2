// Part 2 of the resilience suite: mixed load through nginx for a minute (10 s with --short), as
// browsers ask (compressed, a signed-in user among strangers). Criterion: no errors, timeouts or
// non-2xx answers, and no instance's resident memory grows more than 20 % from the start of the
// run to its end. The load aims at 1,000 requests a second or more; what the machine gave is reported.
//
// The warm-up lasts until every instance has been through a full garbage collection (its heap
// in use falls by a third from its peak; 90 s at most, 30 s in --short): until then V8 grows the
// old generation under load whether anything leaks or not (+30–40 % RSS in the first minute here,
// back to about +10 % after the collection), and a shorter warm-up would measure that growth, not
// a leak. The short form's 10 s soak after 30 s of warm-up grew 5–7.5 %, against its 20 % limit.
import autocannon from 'autocannon';
import type { Cluster } from '../../scripts/localCluster';
import { count, rssMiB, sleep, type PartResult } from './common';

const CONNECTIONS = 16;
const TARGET_RPS = 1000;
const MAX_RSS_GROWTH = 0.2;

export interface SoakOptions {
  cluster: Cluster;
  seconds: number;
  /** The longest warm-up, in seconds, if no full collection has ended it first. */
  warmUpAtMost: number;
  /** A signed-in user's session cookie (`sage_session=…`; `__Host-sage_session=…` on https). */
  cookie: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** RSS in MiB, or NaN when the process is gone (reported as a failure). */
function memoryOf(pid: number): number {
  try {
    return rssMiB(pid);
  } catch {
    return Number.NaN;
  }
}

/** The instance's V8 heap in use (its /metrics, readable from loopback), in MiB. */
async function heapUsedMiB(url: string): Promise<number> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
    return Number(/^sage_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]) / 2 ** 20;
  } catch {
    return Number.NaN;
  }
}

export async function soak({ cluster, seconds, warmUpAtMost, cookie }: SoakOptions): Promise<PartResult> {
  const browser = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br, zstd' };
  const requests: autocannon.Request[] = [
    { method: 'GET', path: '/download', headers: { ...browser, accept: 'text/html' } },
    { method: 'GET', path: '/api/config', headers: browser },
    { method: 'GET', path: '/api/user', headers: { ...browser, cookie } },
    { method: 'GET', path: '/api/stripe/products', headers: browser },
    { method: 'GET', path: '/api/license/public-key', headers: browser },
  ];
  const load = (duration: number) => {
    let instance: autocannon.Instance | undefined;
    const done = new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon(
        { url: cluster.url, connections: CONNECTIONS, duration, requests, tlsOptions: { ca: cluster.certificate }, timeout: 10 },
        (err: unknown, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
      );
    });
    return { done, stop: () => instance?.stop() };
  };

  const pids = cluster.instances.map((i) => {
    const pid = i.pid();
    if (pid === undefined) throw new Error(`soak: instance ${i.index} is not running`);
    return pid;
  });

  const warming = load(warmUpAtMost);
  const warmStarted = performance.now();
  const peaks = cluster.instances.map(() => 0);
  const firsts: number[] = [];
  const collected = cluster.instances.map(() => false);
  while (!collected.every(Boolean) && performance.now() - warmStarted < warmUpAtMost * 1000 - 1000) {
    await sleep(1000);
    const heaps = await Promise.all(cluster.instances.map((i) => heapUsedMiB(i.url)));
    heaps.forEach((heap, i) => {
      firsts[i] ??= heap;
      peaks[i] = Math.max(peaks[i] ?? 0, heap);
      // A scavenge of the young generation frees a few MiB; a full collection, after the heap has
      // grown by half, a third of it or more.
      const peak = peaks[i] ?? 0;
      if (peak > (firsts[i] ?? 0) * 1.5 && heap < peak * (2 / 3)) collected[i] = true;
    });
  }
  warming.stop();
  const warmUp = await warming.done;

  // Sampled every second; the start and the end are medians of a tenth of the run (at least three
  // samples), so a collection that happens to fall on one reading does not decide.
  const samples: number[][] = pids.map(() => []);
  const sampler = setInterval(() => pids.forEach((pid, i) => samples[i]?.push(memoryOf(pid))), 1000);
  let result: autocannon.Result;
  try {
    result = await load(seconds).done;
  } finally {
    clearInterval(sampler);
  }
  const span = (list: number[]) => Math.max(3, Math.round(list.length / 10));
  const before = samples.map((list) => median(list.slice(0, span(list))));
  const after = samples.map((list) => median(list.slice(-span(list))));

  const growth = before.map((b, i) => ((after[i] ?? 0) - b) / b);
  const failures = result.errors + result.timeouts + result.non2xx + warmUp.errors + warmUp.timeouts + warmUp.non2xx;
  const rps = Math.round(result.requests.average);
  const problems: string[] = [];
  if (failures > 0) {
    const codes = (r: autocannon.Result) =>
      Object.entries(r.statusCodeStats ?? {})
        .map(([code, s]) => `${code}: ${(s as { count: number }).count}`)
        .join(', ');
    problems.push(`errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx} (status codes ${codes(result)})`);
    problems.push(
      `warm-up: errors ${warmUp.errors}, timeouts ${warmUp.timeouts}, non-2xx ${warmUp.non2xx} (status codes ${codes(warmUp)})`,
    );
  }
  for (const instance of cluster.instances.filter((i) => !i.running())) {
    problems.push(`instance ${instance.index} exited during the soak:\n${instance.output().split('\n').slice(-15).join('\n')}`);
  }
  growth.forEach((g, i) => {
    if (!(g <= MAX_RSS_GROWTH))
      problems.push(`instance ${i}: RSS ${before[i]?.toFixed(0)} -> ${after[i]?.toFixed(0)} MiB (+${(g * 100).toFixed(0)} %)`);
  });
  const warmNote = collected.every(Boolean)
    ? 'until each instance had a full GC'
    : `no full GC seen on ${collected.filter((c) => !c).length} instance(s)`;
  return {
    part: 'soak',
    criterion: 'no errors, timeouts or non-2xx; RSS of each instance +20 % at most from start to end (after the warm-up)',
    ok: problems.length === 0,
    figures: [
      { part: 'soak', figure: 'warm-up', value: `${warmUp.duration.toFixed(0)} s, ${count(warmUp.requests.total)} requests (${warmNote})` },
      { part: 'soak', figure: 'duration, connections', value: `${seconds} s, ${CONNECTIONS} connections` },
      {
        part: 'soak',
        figure: `req/s (target ≥ ${count(TARGET_RPS)})`,
        value: `${count(rps)}${rps < TARGET_RPS ? ' (below the target)' : ''}`,
      },
      { part: 'soak', figure: 'requests', value: count(result.requests.total) },
      { part: 'soak', figure: 'latency p50 / p99', value: `${result.latency.p50} / ${result.latency.p99} ms` },
      { part: 'soak', figure: 'errors / timeouts / non-2xx', value: `${result.errors} / ${result.timeouts} / ${result.non2xx}` },
      ...cluster.instances.map((instance, i) => ({
        part: 'soak',
        figure: `instance ${instance.index} RSS start → end (medians)`,
        value: `${before[i]?.toFixed(0)} → ${after[i]?.toFixed(0)} MiB (${(growth[i] ?? 0) >= 0 ? '+' : ''}${((growth[i] ?? 0) * 100).toFixed(1)} %)`,
      })),
    ],
    failures: problems,
  };
}
