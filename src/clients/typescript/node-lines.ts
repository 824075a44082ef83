/** The Node versions the TypeScript client claims: its `engines`, its page, its README and its tests read them here. */

/**
 * The Node lines the package claims and the tests run it on, the oldest release of each: the
 * long-term-support lines from the first with `fetch`, `AbortSignal.timeout` and `structuredClone`
 * unflagged (20) to the newest released. The odd lines between them are short-lived and not tested.
 */
export const typescriptClientNodeLines = [20, 22, 24, 26] as const;

/** `engines.node`: from the oldest line claimed on. */
export const typescriptClientNodeRange = `>=${typescriptClientNodeLines[0]}`;
