/**
 * The physical limit of a documentation page: the same HTML with its stylesheets inlined and
 * every script removed, so one request brings everything a reader sees. The bench loads it
 * beside our page to say how much our page costs above the content itself.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `href="..."` of a tag, or undefined. */
function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/**
 * Writes `<directory>/index.html`: the page at `pagePath` of `distDirectory`, with each
 * stylesheet inlined (a print stylesheet keeps its media), no script, no module preload and no
 * meta policy (its hashes would refuse the inlined styles). The `<noscript>` styles become
 * plain styles, so the page looks as it does without JavaScript. Files the page still links,
 * such as the icon, are copied beside it.
 */
export function writeStrippedPage(distDirectory: string, pagePath: string, directory: string): void {
  const html = readFileSync(path.join(distDirectory, pagePath, 'index.html'), 'utf8');
  const copied = new Set<string>();
  const copyLinked = (href: string): void => {
    if (!href.startsWith('/') || copied.has(href)) return;
    const source = path.join(distDirectory, href);
    if (!existsSync(source)) return;
    mkdirSync(path.dirname(path.join(directory, href)), { recursive: true });
    copyFileSync(source, path.join(directory, href));
    copied.add(href);
  };
  const stripped = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/g, '')
    .replace(/<meta\b[^>]*http-equiv="content-security-policy"[^>]*>/gi, '')
    .replace(/<noscript>([\s\S]*?)<\/noscript>/g, '$1')
    .replace(/<link\b[^>]*\brel="stylesheet"[^>]*>/g, (tag) => {
      const href = attribute(tag, 'href');
      if (href === undefined) return tag;
      const css = readFileSync(path.join(distDirectory, href), 'utf8');
      const media = attribute(tag, 'media');
      return media === undefined ? `<style>${css}</style>` : `<style media="${media}">${css}</style>`;
    })
    .replace(/<link\b[^>]*\brel="(?:shortcut )?icon"[^>]*>/g, (tag) => {
      const href = attribute(tag, 'href');
      if (href !== undefined) copyLinked(href);
      return tag;
    });
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'index.html'), stripped);
}
