import { createHash } from 'node:crypto';
import { transformSync } from 'esbuild';

/**
 * A page's module scripts (Starlight's theme picker, menu, sidebar memory, table-of-contents
 * highlighter and tabs, Expressive Code's copy buttons, our search and request builder) only
 * answer what a reader does, so none of them is downloaded with the page: one small inline
 * script imports them all on the reader's first interaction, and replays the interaction that
 * came before they were ready (a click on a button or a tab, a change of a field, a key). The
 * classic inline scripts that set the page up before its first paint (the colour scheme, the
 * sidebar's scroll position, the sample language a reader picked) still run at once.
 */

/** A file of the page's scripts, imported on the first interaction. */
export interface DeferredModule {
  /** The file's path under the built site, such as `_astro/deferred.1a2b3c4d5e.js`. */
  file: string;
  source: string;
}

export interface FirstInteractionPage {
  html: string;
  /** Files to write beside the page, the same for every page that holds the same script. */
  modules: DeferredModule[];
}

// Events that mean a reader is about to use the page: pointing at it, touching it, scrolling it,
// focusing a control or pressing a key. Loading starts on the first of them.
const startEvents = ['pointerover', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown', 'focusin'];

/**
 * The loader, a classic inline script, written here to be read and minified by esbuild for the
 * page. Until the modules are ready it holds back a click on a button or a tab (a tab is a link
 * to its panel, which would jump there) and clicks it again once they are; a field's `change`
 * and `input` and a key press are dispatched again the same way. Ctrl+K and Cmd+K open the
 * search, so the browser's own shortcut is refused at once.
 */
function loaderSource(url: string): string {
  const readable = `(() => {
  const url = ${JSON.stringify(url)};
  const starts = ${JSON.stringify(startEvents)};
  let ready = false;
  let loading;
  const load = () =>
    (loading ??= import(url)
      .catch((error) => console.warn(error))
      .then(() => {
        ready = true;
      }));
  const start = () => {
    for (const type of starts) removeEventListener(type, start, true);
    load();
  };
  for (const type of starts) addEventListener(type, start, { capture: true, passive: true });
  const held = (type, listener) => addEventListener(type, (event) => ready || listener(event, event.target), true);
  held('click', (event, target) => {
    const control = target instanceof Element ? target.closest('button, [role="tab"]') : null;
    if (control === null) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    load().then(() => control.click());
  });
  for (const type of ['change', 'input']) {
    held(type, (event, target) => load().then(() => target.dispatchEvent(new Event(type, { bubbles: true }))));
  }
  held('keydown', (event, target) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') event.preventDefault();
    const { key, code, ctrlKey, metaKey, shiftKey, altKey } = event;
    const replayed = { key, code, ctrlKey, metaKey, shiftKey, altKey, bubbles: true, cancelable: true };
    load().then(() => target.dispatchEvent(new KeyboardEvent('keydown', replayed)));
  });
})();`;
  return transformSync(readable, { minify: true, target: 'es2022' }).code.trim();
}

const moduleScript = /<script\b([^>]*\btype="module"[^>]*)>([\s\S]*?)<\/script>/g;

function deferredFile(source: string): string {
  return `_astro/deferred.${createHash('sha256').update(source, 'utf8').digest('hex').slice(0, 10)}.js`;
}

/**
 * Replaces every module script of a built page by one loader where the first of them stood.
 * `base` is the site's base path (`/`), before which the new files' paths are written. A page
 * without module scripts is returned as it is.
 */
export function withScriptsOnFirstInteraction(html: string, base = '/'): FirstInteractionPage {
  const sources: string[] = [];
  const inline: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(moduleScript)) {
    const source = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
    if (source !== undefined) sources.push(source);
    else if (body.trim() !== '') inline.push(body);
  }
  if (sources.length === 0 && inline.length === 0) return { html, modules: [] };
  const folder = base.replace(/\/?$/, '/');
  // The page imports one file, named by its content: it imports the page's script files in
  // turn, then runs the modules that were inline, each in a function of its own so that their
  // top-level names stay apart. Astro writes a module inline only when it imports nothing; one
  // that does (`import` or `export` at the start of a line) gets a file to itself.
  const alone = [...new Set(inline.filter((body) => /^\s*(?:import|export)\b/m.test(body)))];
  const together = [...new Set(inline.filter((body) => !alone.includes(body)))];
  const modules = alone.map((source) => ({ file: deferredFile(source), source }));
  const entry = [
    ...[...new Set(sources), ...modules.map(({ file }) => `${folder}${file}`)].map((url) => `import ${JSON.stringify(url)};`),
    ...together.map((body) => `(() => {\n${body}\n})();`),
  ].join('\n');
  const entryFile = deferredFile(entry);
  modules.push({ file: entryFile, source: entry });
  let placed = false;
  const rewritten = html.replace(moduleScript, () => {
    if (placed) return '';
    placed = true;
    return `<script>${loaderSource(`${folder}${entryFile}`)}</script>`;
  });
  return { html: rewritten, modules };
}

const classicScript = /(<script\b)([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * Minifies the classic inline scripts that still run before the first paint (Starlight writes
 * its theme, sidebar and tabs scripts indented and commented, as they are in its source): a
 * reader downloads them with every page. A script with a `src`, a module or a data block (any
 * `type` but JavaScript's) is left as it is, and so is one esbuild cannot parse.
 */
export function withClassicScriptsMinified(html: string): string {
  return html.replace(classicScript, (whole, opening: string, attributes: string, body: string) => {
    const type = /\btype="([^"]*)"/.exec(attributes)?.[1];
    if (/\bsrc=/.test(attributes) || (type !== undefined && type !== 'text/javascript') || body.trim() === '') return whole;
    try {
      const code = transformSync(body, { minify: true, target: 'es2022' }).code.trim();
      return code.length < body.length ? `${opening}${attributes}>${code}</script>` : whole;
    } catch {
      return whole;
    }
  });
}
