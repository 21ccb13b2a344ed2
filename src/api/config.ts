import type { RuntimeConfig } from '../../contract/config';
import { getJson } from './client';

/**
 * The runtime config, when the page did not carry it (the Vite dev server's index.html): the
 * server writes it into every page it serves (decision 009).
 */
export const fetchRuntimeConfig = (): Promise<RuntimeConfig> => getJson<RuntimeConfig>('/api/config');
