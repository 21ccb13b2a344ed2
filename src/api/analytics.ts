import { request } from './client';

/**
 * `GET /api/analytics/location`: the browser's location from the server's IP-location provider,
 * or null when none is configured or the lookup fails (analytics go on without it).
 */
export async function fetchAnalyticsLocation<T>(): Promise<T | null> {
  try {
    const response = await request('/api/analytics/location');
    return response.ok ? ((await response.json()) as T) : null;
  } catch {
    return null;
  }
}
