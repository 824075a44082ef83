import { globSync } from 'node:fs';
import path from 'node:path';
import { markdownToMdast, type MdastNode } from 'satteri';
import { isRecord } from '../../lib/contract/document.ts';
import { childPointer } from '../../lib/contract/json-pointer.ts';
import { generatedPaths } from '../../lib/site/navigation.ts';
import type { ContractRule } from './contract-rule.ts';

/** The site this gate belongs to: its pages are the routes a description may link to. */
const siteSource = path.resolve(import.meta.dirname, '../../');

/** Members whose strings are data the contract shows, never prose it renders. */
const dataMembers = new Set(['example', 'examples', 'value', 'const', 'enum', 'default', 'x-transitions']);

/** Every `description` of the document (its Markdown), with its pointer. */
function descriptionsOf(node: unknown, pointer: string, found: { pointer: string; text: string }[] = []): { pointer: string; text: string }[] {
  if (Array.isArray(node)) node.forEach((item, index) => descriptionsOf(item, childPointer(pointer, index), found));
  else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (dataMembers.has(key)) continue;
      if (key === 'description' && typeof value === 'string') found.push({ pointer: childPointer(pointer, key), text: value });
      else descriptionsOf(value, childPointer(pointer, key), found);
    }
  }
  return found;
}

/** A file under `src/pages/` as the route Astro serves it: `llms.txt.ts` is `/llms.txt`, `reference/endpoint.astro` is `/reference/endpoint/`. */
function pageRoute(file: string): string | undefined {
  if (file.includes('[')) return undefined; // a dynamic route: its paths are the generated ones
  const withoutExtension = file.replace(/\.(astro|ts|js|md|mdx)$/, '');
  if (/\.[a-z0-9]+$/.test(withoutExtension)) return `/${withoutExtension}`; // an endpoint that names its file, such as llms.txt
  const route = withoutExtension.replace(/(^|\/)index$/, '');
  return route === '' ? '/' : `/${route}/`;
}

/**
 * The paths the site serves, read from where the site defines them: its content pages
 * (`src/content/docs/`, as Starlight serves them), its pages (`src/pages/`), and the pages it
 * generates from the document (src/lib/site/navigation.ts).
 */
export function siteRoutes(document: Parameters<typeof generatedPaths>[0]): Set<string> {
  const content = globSync('**/*.{md,mdx}', { cwd: path.join(siteSource, 'content/docs') }).map((file) => {
    const route = file.split(path.sep).join('/').replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '');
    return route === '' ? '/' : `/${route}/`;
  });
  const pages = globSync('**/*.{astro,ts,js,md,mdx}', { cwd: path.join(siteSource, 'pages') }).flatMap((file) => pageRoute(file.split(path.sep).join('/')) ?? []);
  return new Set([...content, ...pages, ...generatedPaths(document)]);
}

function visit(node: MdastNode, each: (node: MdastNode) => void): void {
  each(node);
  if ('children' in node && Array.isArray(node.children)) for (const child of node.children as MdastNode[]) visit(child, each);
}

/**
 * Descriptions are published as they are written: rendered on the pages (CommonMark with raw HTML
 * passed through), in `llms-full.txt` and in the MCP server's answers. Raw HTML would vanish
 * (`<your-site>`) or be written into the page (`<iframe>`, `<style>`), so it is refused; and a link
 * to a path of the site must be a page the site serves.
 */
export const descriptionsRule: ContractRule = {
  name: 'descriptions',
  rule: 'Descriptions are Markdown without raw HTML, and their links to the site name pages it serves.',
  // Rule 1.4: the publisher's domain carries the documentation, which these descriptions are.
  rules: ['1.4'],
  check({ document }, report) {
    let routes: Set<string> | undefined;
    for (const { pointer, text } of descriptionsOf(document, '#')) {
      visit(markdownToMdast(text) as MdastNode, (node) => {
        if (node.type === 'html' && 'value' in node && typeof node.value === 'string' && !/^<!--[\s\S]*-->$/.test(node.value.trim())) {
          report({
            location: pointer,
            message: `The description holds raw HTML \`${node.value.trim()}\`, which a page would drop or run as markup; write it as code between backticks, or escape its < as &lt;.`,
          });
        }
        if (node.type === 'link' && 'url' in node && typeof node.url === 'string' && node.url.startsWith('/') && !node.url.startsWith('//')) {
          routes ??= siteRoutes(document);
          const target = node.url.replace(/[?#].*$/, '');
          const candidates = [target, target.endsWith('/') ? target : `${target}/`];
          if (!candidates.some((candidate) => routes?.has(candidate))) {
            report({ location: pointer, message: `The description links to ${node.url}, which is not a page of the site; link to one of its pages (${[...routes].filter((route) => !route.includes('.')).sort().slice(0, 6).join(', ')}, …).` });
          }
        }
      });
    }
  },
};
