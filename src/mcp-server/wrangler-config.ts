import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the project's wrangler.jsonc tells Cloudflare about the deployed product-information server. */
export interface WranglerConfig {
  name: string;
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  workers_dev: boolean;
  routes: { pattern: string; custom_domain: boolean }[];
}

/** The project's wrangler.jsonc, whose comments are whole lines; the tests and the worker's bench run workerd as it deploys. */
export function readWranglerConfig(projectDirectory: string): WranglerConfig {
  return JSON.parse(
    readFileSync(path.join(projectDirectory, 'wrangler.jsonc'), 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n'),
  ) as WranglerConfig;
}
