import { z } from 'zod';

/** §3 Analytics event: the location fields, when an IP-location provider is configured. */
export const analyticsLocationSchema = z.object({
  country: z.string().optional(),
  country_code: z.string().optional(),
  region: z.string().optional(),
  city: z.string().optional(),
  timezone: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  ip_address: z.string().optional(),
});
export type AnalyticsLocation = z.infer<typeof analyticsLocationSchema>;
