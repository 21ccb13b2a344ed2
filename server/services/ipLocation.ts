import type { AnalyticsLocation } from '../../contract/analytics';

/** How long one IP's location is remembered. */
export const LOCATION_CACHE_MS = 60 * 60_000;
const LOCATION_CACHE_MAX = 10_000;
/** How long the IP-location provider may take. */
const LOOKUP_TIMEOUT_MS = 10_000;

/** §3's location fields, from the common shapes of IP-location answers (ipapi.co, ip-api.com, ipinfo-like). */
export type LocationAnswer = AnalyticsLocation;

function str(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim();
  return undefined;
}
function num(...values: unknown[]): number | undefined {
  for (const v of values) {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  return undefined;
}

export function normalizeLocation(raw: unknown, ip: string): LocationAnswer {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const [locLat, locLon] = typeof r.loc === 'string' ? r.loc.split(',') : [];
  const fields: LocationAnswer = {
    country: str(r.country_name, r.countryName, typeof r.country === 'string' && r.country.length > 2 ? r.country : undefined),
    country_code: str(r.country_code, r.countryCode, typeof r.country === 'string' && r.country.length === 2 ? r.country : undefined),
    region: str(r.region, r.regionName, r.region_name),
    city: str(r.city),
    timezone: str(r.timezone, r.time_zone),
    latitude: num(r.latitude, r.lat, locLat),
    longitude: num(r.longitude, r.lon, r.lng, locLon),
    ip_address: str(r.ip, r.query) ?? ip,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as LocationAnswer;
}

/**
 * The caller's location (§3 Analytics event) from the IP_LOCATION_URL provider, remembered per IP
 * for an hour (at most LOCATION_CACHE_MAX addresses). Null when no provider is configured.
 */
export function createIpLocationService(template: string | null) {
  const cache = new Map<string, { at: number; fields: LocationAnswer }>();
  return {
    configured: template !== null,

    /** Throws when the provider fails; the caller decides what that means. */
    async lookup(ip: string): Promise<LocationAnswer> {
      if (!template) throw new Error('No IP-location provider is configured');
      const now = Date.now();
      const hit = cache.get(ip);
      if (hit && now - hit.at < LOCATION_CACHE_MS) return hit.fields;
      const response = await fetch(template.replaceAll('{ip}', encodeURIComponent(ip)), {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`IP-location provider answered ${response.status}`);
      const fields = normalizeLocation(await response.json(), ip);
      if (cache.size >= LOCATION_CACHE_MAX) {
        for (const [key, entry] of cache) if (now - entry.at >= LOCATION_CACHE_MS) cache.delete(key);
        if (cache.size >= LOCATION_CACHE_MAX) cache.delete(cache.keys().next().value as string);
      }
      cache.set(ip, { at: now, fields });
      return fields;
    },
  };
}

export type IpLocationService = ReturnType<typeof createIpLocationService>;
