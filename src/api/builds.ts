import type { PublicRelease, PublicReleases, SageBuild } from '../../contract/builds';
import { letGo, request } from './client';

/** Query key of the current build: the download page reads it, a release from the admin console replaces it. */
export const CURRENT_BUILD_QUERY_KEY = ['current-sage-build'] as const;

/** Query key of the offered builds (issue 41): the download page's notes and "Earlier builds". */
export const RELEASES_QUERY_KEY = ['plugin-releases'] as const;

/** The current build; 404 means none released, so the configured default is offered (§7). */
export async function fetchCurrentBuild(defaultBuild: SageBuild): Promise<SageBuild> {
  let res: Response;
  try {
    res = await request('/api/current-sage-build');
  } catch {
    throw new Error('Failed to fetch current build');
  }
  if (!res.ok) await letGo(res);
  if (res.status === 404) return defaultBuild;
  if (!res.ok) throw new Error('Failed to fetch current build');
  // The download page's one read: typed by the contract, not parsed, so its first load carries no zod (decision 009).
  const build = (await res.json().catch(() => null)) as SageBuild | null;
  if (!build?.version) throw new Error('Failed to fetch current build');
  return build;
}

/** Every released build not withdrawn, newest first (`GET /api/plugin/releases`). */
export async function fetchReleases(): Promise<PublicRelease[]> {
  const res = await request('/api/plugin/releases');
  if (!res.ok) {
    await letGo(res);
    throw new Error('Failed to fetch the releases');
  }
  // Typed by the contract, not parsed, for the same reason as the current build (decision 009).
  const answer = (await res.json().catch(() => null)) as PublicReleases | null;
  if (!Array.isArray(answer?.releases)) throw new Error('Failed to fetch the releases');
  return answer.releases;
}
