/**
 * Every refusal the reference model and the consumers that derive more from the contract can
 * make, read from their code: each place in src/lib/contract/, src/lib/samples/ and src/sandbox/
 * that raises a `ContractError` or reports a problem, with the words of its message. A check added to the model is a new place here, so the test of refusals covers it
 * without anyone listing it by hand.
 */
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
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

/** A message as written: its text with each `${…}` hole in its source form, and the words between the holes. */
interface WrittenMessage {
  template: string;
  words: string[];
}

/** The message a string literal or template writes, or undefined when the expression is anything else. */
function writtenMessage(expression: ts.Expression | undefined, sourceFile: ts.SourceFile): WrittenMessage | undefined {
  if (expression === undefined) return undefined;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return { template: expression.text, words: [expression.text] };
  if (!ts.isTemplateExpression(expression)) return undefined;
  const template = expression.templateSpans.reduce((written, span) => `${written}\${${span.expression.getText(sourceFile)}}${span.literal.text}`, expression.head.text);
  return { template, words: [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)] };
}

/** What a problem of this check says: the words between the holes as written, any words in each hole. */
function messagePattern(words: string[]): RegExp {
  return new RegExp(words.map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('.*?'), 's');
}

/** The name a call is made by: `report` for both `report(…)` and `problems.report(…)`. */
function calleeName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** The `message` property of an object literal, when it is written `message: …`. */
function messageProperty(argument: ts.ObjectLiteralExpression): ts.Expression | undefined {
  const member = argument.properties.find((property) => ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === 'message');
  return member !== undefined && ts.isPropertyAssignment(member) ? member.initializer : undefined;
}

/** One call that raises or reports a problem: where it is named, and the expression its message is. */
interface RefusalCall {
  kind: 'error' | 'report';
  /** Where the call is named: its callee, or the `new` of a construction. */
  start: number;
  argumentsText: string;
  message: ts.Expression | undefined;
}

/** The arguments of a call as written, for telling the one relay call apart. */
function argumentsText(args: ts.NodeArray<ts.Expression> | undefined, sourceFile: ts.SourceFile): string {
  return (args ?? []).map((argument) => argument.getText(sourceFile)).join(', ');
}

/** The calls of a file that raise a `ContractError` or report a problem: the errors first, then the reports, each in the order written. */
function refusalCalls(sourceFile: ts.SourceFile): RefusalCall[] {
  const calls: RefusalCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const nameStart = (ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression).getStart(sourceFile);
      const [firstArgument, secondArgument] = node.arguments;
      // contractError(pointer, message)
      if (name === 'contractError') calls.push({ kind: 'error', start: nameStart, argumentsText: argumentsText(node.arguments, sourceFile), message: secondArgument });
      // report({ location, message }), and a reporter named otherwise
      if ((name === 'report' || name === 'tell') && firstArgument !== undefined && ts.isObjectLiteralExpression(firstArgument)) {
        calls.push({ kind: 'report', start: nameStart, argumentsText: argumentsText(node.arguments, sourceFile), message: messageProperty(firstArgument) });
      }
    }
    // new ContractError(location, message)
    if (ts.isNewExpression(node) && calleeName(node.expression) === 'ContractError') {
      calls.push({ kind: 'error', start: node.getStart(sourceFile), argumentsText: argumentsText(node.arguments, sourceFile), message: node.arguments?.[1] });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  // The order numbers a message written twice (`#2`), so it stays the one the ids have always had.
  return [...calls.filter((call) => call.kind === 'error'), ...calls.filter((call) => call.kind === 'report')];
}

/**
 * Where a contract is refused: the model, and every consumer that derives more from it (the
 * sandbox's route arguments and guide, the samples' statuses). The gate must refuse first
 * whatever any of them refuses.
 */
const refusingFolders = ['src/lib/contract/*.ts', 'src/lib/samples/**/*.ts', 'src/sandbox/**/*.ts'];

/** The files whose throws only pass another check's problem on, and so are no check of their own. */
const relays = new Set(['src/lib/contract/problems.ts']);
/** The one call that builds every `contractError`: it passes its caller's message on. */
const relayCalls = new Set(['src/lib/contract/schemas.ts: describeLocation(pointer), problem, pointer']);

export function modelRefusalSites(): RefusalSite[] {
  const files = globSync(refusingFolders, { cwd: projectDirectory }).sort();
  const sites: RefusalSite[] = [];
  for (const file of files) {
    if (relays.has(file)) continue;
    const sourceFile = ts.createSourceFile(file, readFileSync(path.join(projectDirectory, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const call of refusalCalls(sourceFile)) {
      if (relayCalls.has(`${file}: ${call.argumentsText}`)) continue;
      const line = sourceFile.getLineAndCharacterOfPosition(call.start).line + 1;
      const message = writtenMessage(call.message, sourceFile);
      if (message === undefined) throw new Error(`${file}:${line}: a refusal whose message is not written at the call; write it there so the test of refusals can read it`);
      const { template, words } = message;
      const id = `${file}: ${template}`;
      const again = sites.filter((site) => site.id === id || site.id.startsWith(`${id} #`)).length;
      sites.push({ id: again === 0 ? id : `${id} #${again + 1}`, file, line, template, pattern: messagePattern(words) });
    }
  }
  return sites;
}
