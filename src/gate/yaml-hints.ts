import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import type { GateProblem } from './gate.ts';

/** The rule a YAML syntax error is reported under (src/gate/redocly-lint.ts). */
export const yamlSyntaxRule = 'YAML syntax';

/**
 * The line before `line` when it opens a quote it does not close: YAML then reads on into the
 * next line and reports the error there (`version: "1.1.0` gives "deficient indentation" one
 * line below), so the place to fix is the line before.
 */
function unclosedQuoteBefore(lines: readonly string[], line: number): number | undefined {
  for (let candidate = line - 1; candidate >= Math.max(1, line - 2); candidate -= 1) {
    const text = (lines[candidate - 1] ?? '').replace(/\s+#.*$/, '');
    const value = /^\s*(?:-\s+)?(?:[^\s:'"][^:]*:\s+)?(["'])/.exec(text);
    const quote = value?.[1];
    if (quote === undefined) continue;
    const rest = text.slice((value?.index ?? 0) + (value?.[0].length ?? 0));
    const closed = quote === '"' ? /(^|[^\\])"/.test(rest) : /'(?!')/.test(rest.replaceAll("''", ''));
    if (!closed) return candidate;
  }
  return undefined;
}

/** The first duplicated key of a mapping in the text: its name, and the lines of its first and second writing. */
function duplicatedKey(text: string): { key: string; first: number; again: number } | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { uniqueKeys: false, lineCounter });
  let found: { key: string; first: number; again: number } | undefined;
  visit(document, {
    Map(_, map) {
      if (!isMap(map) || found !== undefined) return undefined;
      const seen = new Map<string, number>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const line = lineCounter.linePos(pair.key.range?.[0] ?? 0).line;
        const first = seen.get(key);
        if (first !== undefined) {
          found = { key, first, again: line };
          return visit.BREAK;
        }
        seen.set(key, line);
      }
      return undefined;
    },
  });
  return found;
}

/**
 * A YAML syntax error as the parser words it names the symptom, not always the cause: each is
 * given what a maintainer needs to fix it (the duplicated key and both its lines; the quote left
 * open on the line before).
 */
export function withYamlHints(problems: readonly GateProblem[], projectDirectory: string): GateProblem[] {
  return problems.map((problem) => {
    if (problem.rule !== yamlSyntaxRule) return problem;
    let text: string;
    try {
      text = readFileSync(path.join(projectDirectory, problem.file), 'utf8');
    } catch {
      return problem;
    }
    const message = problem.message.replace(/\.$/, '');
    if (/duplicated mapping key/.test(message)) {
      const duplicate = duplicatedKey(text);
      if (duplicate === undefined) return problem;
      const named = message
        .replace('duplicated mapping key', `duplicated mapping key \`${duplicate.key}\``)
        .replace(/(at line \d+, column \d+)/, `$1, first written at line ${duplicate.first}`);
      return { ...problem, line: duplicate.again, message: `${named}. Keep one of the two.` };
    }
    const quoted = problem.line === undefined ? undefined : unclosedQuoteBefore(text.split('\n'), problem.line);
    if (quoted === undefined) return problem;
    return { ...problem, message: `${message}. Line ${quoted} opens a quote it does not close (\`${text.split('\n')[quoted - 1]?.trim()}\`): close it there.` };
  });
}
