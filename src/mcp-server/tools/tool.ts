import { z } from 'zod';
import { siteConfig } from '../../site-config.ts';
import { anyJsonValueKey } from '../json-schema-once.ts';
import type { ProductKnowledge } from '../knowledge.ts';

/** What a tool answers, over the knowledge: its input and output schemas and the answer. */
export interface ToolAnswer<Input extends z.ZodObject, Output extends z.ZodObject> {
  inputSchema: Input;
  outputSchema: Output;
  run(input: z.output<Input>): z.output<Output>;
}

export function defineAnswer<Input extends z.ZodObject, Output extends z.ZodObject>(answer: ToolAnswer<Input, Output>): ToolAnswer<Input, Output> {
  return answer;
}

/** The MCP tool annotations: hints a client shows or acts on, never trusted for safety. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool that reads the knowledge the server was built with and reaches nothing outside it. */
export const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * One tool whole, in its own file under `tools/`: the name an agent calls it by, the words it
 * picks it by (an agent chooses a tool from its title and description alone, so they say which
 * question it answers), its annotations, and its answer over the knowledge. The server
 * (src/mcp-server/server.ts) registers each tool of `catalogue.ts` as it stands; the
 * product-information page lists them from there.
 */
export interface ToolDefinition<Name extends string = string> {
  name: Name;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The schemas and the answer over the knowledge; undefined where this runtime cannot answer, and the tool is not listed. */
  answer(knowledge: ProductKnowledge): ToolAnswer<z.ZodObject, z.ZodObject> | undefined;
}

export function defineTool<Name extends string>(tool: ToolDefinition<Name>): ToolDefinition<Name> {
  return tool;
}

/** A refusal a tool answers with: the message an agent reads, never a stack trace. */
export class ToolRefusal extends Error {}

export function oneLine(markdown: string): string {
  return markdown.replace(/\s+/g, ' ').trim();
}

/** A path of the documentation site as its absolute address. */
export function docsAddress(pagePath: string): string {
  return new URL(pagePath, siteConfig.docsUrl).href;
}

/** The tuple `z.enum` wants, from a list the contract gives; an empty list is a broken contract. */
export function nonEmpty<T extends string>(values: readonly T[], what: string): [T, ...T[]] {
  const [first, ...rest] = values;
  if (first === undefined) throw new Error(`The contract defines no ${what}`);
  return [first, ...rest];
}

/**
 * Any JSON value, and below a JSON object of them. What a tool reads or writes is JSON already (its
 * arguments are parsed JSON, its answers' bodies come from the contract's JSON), so nothing is
 * checked of the value itself: zod's recursive `z.json()` checked every member of every example
 * body on each call, which cost more than the rest of an `action_details` call. tools/list still
 * says what it is: one definition, `anyOf` branches of one type each, so that tool schemas stay
 * portable to clients that map them onto a single-`type` dialect (`withJsonSchemaOnce`).
 */
export const jsonValue = z.unknown().meta({ [anyJsonValueKey]: true });

/**
 * Zod builds a record by assigning each member, so a member named `__proto__` would set the
 * prototype and vanish from the body a tool checks, where PHP's json_decode keeps it as a member
 * like any other and the endpoint refuses it. Such a body is refused here, before it is lost.
 */
export const prototypeMemberMessage =
  'A member named "__proto__" cannot be carried here (it would be lost, not checked). The endpoint refuses it as a field the action does not take: remove it.';

export const jsonObject = z.preprocess((value, context) => {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
    context.addIssue({ code: 'custom', message: prototypeMemberMessage, input: value });
    return z.NEVER;
  }
  return value;
}, z.record(z.string(), jsonValue));
