/**
 * Every refusal the reference model can make, read from its code: each place in
 * src/lib/contract/ that raises a `ContractError` or reports a problem, with the words of its
 * message. A check added to the model is a new place here, so the test of refusals covers it
 * without anyone listing it by hand.
 */
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectDirectory } from './contract-copy.ts';

export interface RefusalSite {
  /** `file: template`: the file and the message as written. */
  id: string;
  file: string;
  line: number;
  /** The message as written, `${…}` and all. */
  template: string;
  /** What a problem of this check says: the template, any words where it has `${…}`. */
  pattern: RegExp;
}

/** Where a call's arguments end: the index of its closing parenthesis, strings and templates skipped. */
function argumentsOf(text: string, open: number): string {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const character = text[index];
    if (character === "'" || character === '"' || character === '`') {
      index = stringEnd(text, index);
      continue;
    }
    if (character === '(' || character === '{' || character === '[') depth += 1;
    if (character === ')' || character === '}' || character === ']') depth -= 1;
    if (depth === 0) return text.slice(open + 1, index);
  }
  throw new Error(`unbalanced call at ${open}`);
}

function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (quote === '`' && text.startsWith('${', index)) index = argumentsOf(text, index + 1).length + index + 2;
    else if (text[index] === quote) return index;
  }
  throw new Error(`unterminated string at ${start}`);
}

/** The arguments of a call, split at its top-level commas. */
function splitArguments(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < args.length; index += 1) {
    const character = args[index];
    if (character === "'" || character === '"' || character === '`') index = stringEnd(args, index);
    else if (character === '(' || character === '{' || character === '[') depth += 1;
    else if (character === ')' || character === '}' || character === ']') depth -= 1;
    else if (character === ',' && depth === 0) {
      parts.push(args.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(args.slice(start).trim());
  return parts;
}

/** The string literal `text` is, or undefined when the message is not written there. */
function literal(text: string | undefined): string | undefined {
  if (text === undefined || !/^['"`]/.test(text) || stringEnd(text, 0) !== text.length - 1) return undefined;
  return text.slice(1, -1).replaceAll('\\`', '`').replaceAll("\\'", "'");
}

/** A message template as a pattern: each `${…}` stands for any words. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/);
  return new RegExp(parts.map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('.*?'), 's');
}

/** The message argument of one kind of call, from the text of its arguments. */
const callKinds: { pattern: RegExp; message(args: string): string | undefined }[] = [
  // contractError(pointer, message) and new ContractError(location, message)
  { pattern: /(?<!function )\b(?:contractError|new ContractError)\(/g, message: (args) => literal(splitArguments(args)[1]) },
  // report({ location, message }), and a reporter named otherwise
  {
    pattern: /\b(?:report|tell)\(\{/g,
    message: (args) => {
      const member = splitArguments(args.slice(1, -1)).find((part) => part.startsWith('message:'));
      return literal(member?.slice('message:'.length).trim());
    },
  },
];

/** The files whose throws only pass another check's problem on, and so are no check of their own. */
const relays = new Set(['src/lib/contract/problems.ts']);
/** The one call that builds every `contractError`: it passes its caller's message on. */
const relayCalls = new Set(['src/lib/contract/schemas.ts: describeLocation(pointer), problem, pointer']);

export function modelRefusalSites(): RefusalSite[] {
  const files = globSync('src/lib/contract/*.ts', { cwd: projectDirectory }).sort();
  const sites: RefusalSite[] = [];
  for (const file of files) {
    if (relays.has(file)) continue;
    const text = readFileSync(path.join(projectDirectory, file), 'utf8');
    for (const kind of callKinds) {
      for (const match of text.matchAll(kind.pattern)) {
        const open = match.index + match[0].lastIndexOf('(');
        const line = text.slice(0, match.index).split('\n').length;
        const args = argumentsOf(text, open);
        if (relayCalls.has(`${file}: ${args}`)) continue;
        const template = kind.message(args);
        if (template === undefined) throw new Error(`${file}:${line}: a refusal whose message is not written at the call; write it there so the test of refusals can read it`);
        const id = `${file}: ${template}`;
        const again = sites.filter((site) => site.id === id || site.id.startsWith(`${id} #`)).length;
        sites.push({ id: again === 0 ? id : `${id} #${again + 1}`, file, line, template, pattern: templatePattern(template) });
      }
    }
  }
  return sites;
}
