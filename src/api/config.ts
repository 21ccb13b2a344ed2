import { runtimeConfigSchema, type RuntimeConfig } from '../../contract/config';
import { getJson } from './client';

export const fetchRuntimeConfig = (): Promise<RuntimeConfig> => getJson('/api/config', runtimeConfigSchema);
