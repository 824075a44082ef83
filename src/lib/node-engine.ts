import projectPackage from '../../package.json' with { type: 'json' };

/** The Node versions the project supports: `engines.node` of its package.json, the one place that says it. */
export const nodeEngineRange: string = projectPackage.engines.node;

/**
 * The oldest supported Node as a reader writes it, `24.18` for `>=24.18.0`. Only a lower bound
 * can be said this way, so another form of range stops the build instead of being misquoted.
 */
export function oldestSupportedNode(range: string = nodeEngineRange): string {
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (match === null) throw new Error(`engines.node in package.json is "${range}"; expected a lower bound such as ">=24.18.0".`);
  const [, major, minor, patch] = match;
  return patch === '0' ? `${major}.${minor}` : `${major}.${minor}.${patch}`;
}
