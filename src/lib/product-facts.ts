import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';

/** Where the publisher keeps the product facts, relative to the project. */
export const productFactsFile = 'product/product-facts.yaml';

/** The value a fact has until the publisher publishes it. */
export const notYetPublished = 'not yet published';

const unpublished = z.literal(notYetPublished);
const nonEmptyText = z.string().trim().min(1);

const edition = z.object({
  name: nonEmptyText,
  includes: z.union([unpublished, z.array(nonEmptyText).min(1)]),
});

/**
 * The one schema of the product facts, shared by the site's product page and the
 * product-information server. Every topic is either published (its real shape) or explicitly
 * `not yet published`; nothing is left to a default that could pass for a fact.
 */
export const productFactsSchema = z
  .object({
    editions: z.object({ free: edition, paid: edition }).strict(),
    pricing: z.union([
      unpublished,
      z.array(z.object({ edition: z.enum(['free', 'paid']), price: nonEmptyText, period: nonEmptyText.optional() }).strict()).min(1),
    ]),
    paymentGateways: z.union([unpublished, z.array(nonEmptyText).min(1)]),
    features: z.union([unpublished, z.array(nonEmptyText).min(1)]),
  })
  .strict();

export type ProductFacts = z.infer<typeof productFactsSchema>;

export class ProductFactsError extends Error {}

/** Reads and validates the product facts; a problem names the file and, where it can, the line. */
export function readProductFacts(projectDirectory = process.cwd(), file = productFactsFile): ProductFacts {
  const text = readFileSync(path.resolve(projectDirectory, file), 'utf8');
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  if (document.errors.length > 0) {
    const [error] = document.errors;
    const line = error?.linePos?.[0]?.line;
    throw new ProductFactsError(`${file}: ${line === undefined ? '' : `line ${line}: `}${error?.message ?? 'not valid YAML'}`);
  }
  const parsed = productFactsSchema.safeParse(document.toJS());
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const node = document.getIn(issue.path, true) as { range?: [number, number] } | undefined;
      const line = node?.range === undefined ? undefined : lineCounter.linePos(node.range[0]).line;
      const where = issue.path.length === 0 ? 'the file' : issue.path.join('.');
      return `${file}: ${line === undefined ? '' : `line ${line}: `}${where}: ${issue.message}`;
    });
    throw new ProductFactsError(problems.join('\n'));
  }
  return parsed.data;
}

/** The facts still marked not yet published, by their path in the file (`pricing`, `editions.free.includes`). */
export function unpublishedFacts(facts: ProductFacts): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(facts.editions)) if (value.includes === notYetPublished) paths.push(`editions.${key}.includes`);
  if (facts.pricing === notYetPublished) paths.push('pricing');
  if (facts.paymentGateways === notYetPublished) paths.push('paymentGateways');
  if (facts.features === notYetPublished) paths.push('features');
  return paths;
}
