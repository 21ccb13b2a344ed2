// Builds the browser app once, before any end-to-end file starts the product, so the files never
// race to build dist/ (`npm start` runs the same script before starting the server).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { CHROMIUM_MISSING_MESSAGE, E2E_REQUIRED, ROOT, SKIP_E2E, CHROMIUM_AVAILABLE } from './harness';

export default function setup() {
  if (!CHROMIUM_AVAILABLE && E2E_REQUIRED) throw new Error(CHROMIUM_MISSING_MESSAGE);
  if (SKIP_E2E) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
