import type { ClientPackage } from './client-package.ts';
import { phpClientPackage } from './php/package.ts';
import { pythonClientPackage } from './python/package.ts';
import { typescriptClientPackage } from './typescript/package.ts';

/** Every client library `npm run build:clients` packs and the site publishes in `downloads/`. */
export const clientPackages: readonly ClientPackage[] = [phpClientPackage, typescriptClientPackage, pythonClientPackage];
