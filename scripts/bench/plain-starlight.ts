/**
 * A plain Starlight site with the same text as ours, for `npm run bench:mobile` to load beside our
 * pages: Starlight as it comes (its defaults, its highlighting, no component of ours), the same
 * version from this project's node_modules, and each page's text as our site publishes it in
 * llms-full.txt. What our pages cost above it is what our own work costs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'astro';
import { llmsFullSections } from '../../src/lib/site/llms-txt.ts';
import { siteConfig } from '../../src/site-config.ts';

/** The page's own heading, address and summary lead its llms-full.txt section; Starlight writes those itself. */
function bodyOf(markdown: string): string {
  return markdown.replace(/^# .+\n\n\S+\n\n(?:> .+\n\n)?/, '');
}

const yamlString = (text: string): string => JSON.stringify(text);

/** The content file of a page path: `/` is `index.md`, `/a/b/` is `a/b.md`. */
function contentFile(pagePath: string): string {
  const trimmed = pagePath.replace(/^\/|\/$/g, '');
  return `${trimmed === '' ? 'index' : trimmed}.md`;
}

/**
 * Builds the plain site in `directory` (inside the project, so Node finds its packages) and returns
 * its `dist/` and the page paths it has.
 */
export async function buildPlainStarlight(projectRoot: string, directory: string): Promise<{ distDirectory: string; pagePaths: Set<string> }> {
  rmSync(directory, { recursive: true, force: true });
  const docs = path.join(directory, 'src/content/docs');
  mkdirSync(docs, { recursive: true });
  const sections = llmsFullSections(readFileSync(path.join(projectRoot, 'dist/llms-full.txt'), 'utf8'));
  const pagePaths = new Set<string>();
  for (const section of sections) {
    const pagePath = new URL(section.url).pathname;
    const file = path.join(docs, contentFile(pagePath));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `---\ntitle: ${yamlString(section.title)}\ndescription: ${yamlString(section.description)}\n---\n\n${bodyOf(section.markdown)}\n`);
    pagePaths.add(pagePath);
  }
  writeFileSync(
    path.join(directory, 'src/content.config.ts'),
    "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\nimport { docsSchema } from '@astrojs/starlight/schema';\n\nexport const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n",
  );
  writeFileSync(
    path.join(directory, 'astro.config.mjs'),
    `import starlight from '@astrojs/starlight';\nimport { defineConfig } from 'astro/config';\n\nexport default defineConfig({ site: ${yamlString(siteConfig.docsUrl)}, integrations: [starlight({ title: ${yamlString(siteConfig.title)} })] });\n`,
  );
  await build({ root: directory, logLevel: 'warn' });
  return { distDirectory: path.join(directory, 'dist'), pagePaths };
}
