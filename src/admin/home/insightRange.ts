import { useCallback, useSyncExternalStore } from 'react';
import { DEFAULT_INSIGHT_RANGE, INSIGHT_RANGES, type InsightRange } from '../../../contract/insights';

/** Where this browser keeps the Home's range: the key react-admin's store gave it before (decision 035), so a choice made then stays. */
const RANGE_KEY = 'RaStoreSageAdmin.home.insights.days';

const listeners = new Set<() => void>();

function readRange(): InsightRange {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(RANGE_KEY) ?? 'null');
    return (INSIGHT_RANGES as readonly unknown[]).includes(value) ? (value as InsightRange) : DEFAULT_INSIGHT_RANGE;
  } catch {
    return DEFAULT_INSIGHT_RANGE;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === RANGE_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The range of days the Home's figures cover, kept per browser like the console's list settings.
 * The server's page is the default range's; the browser's kept range follows once it has attached.
 */
export function useInsightRange(): [InsightRange, (range: InsightRange) => void] {
  const range = useSyncExternalStore(subscribe, readRange, () => DEFAULT_INSIGHT_RANGE);
  const setRange = useCallback((next: InsightRange) => {
    localStorage.setItem(RANGE_KEY, JSON.stringify(next));
    listeners.forEach((listener) => listener());
  }, []);
  return [range, setRange];
}
