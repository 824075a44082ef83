import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withClassicScriptsMinified, withScriptsOnFirstInteraction } from '../../src/lib/site/first-interaction-scripts.ts';
import { withPrintStylesheetInlined } from '../../src/lib/site/print-stylesheet.ts';

const themeScript = '\n\tStarlightThemeProvider.updatePickers();\n';
const tabsModule = 'customElements.define(`starlight-tabs`,class extends HTMLElement{})';
const pickerModule = 'customElements.define(`starlight-theme-select`,class extends HTMLElement{})';

function page(body: string): string {
  return `<!doctype html><html><head><script>${themeScript}</script></head><body>${body}</body></html>`;
}

function inlineScripts(html: string): { attributes: string; body: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes = '', body = '']) => ({ attributes, body }));
}

describe('module scripts on the first interaction', () => {
  const html = page(
    `<p>a</p><script type="module" src="/_astro/ec.1.js"></script><script type="module">${tabsModule}</script>` +
      `<p>b</p><script type="module">${pickerModule}</script><script type="module" src="/_astro/ec.1.js"></script>`,
  );
  const rewritten = withScriptsOnFirstInteraction(html);

  it('leaves no module script in the page, and one loader where the first stood', () => {
    const scripts = inlineScripts(rewritten.html);
    assert.equal(scripts.filter(({ attributes }) => attributes.includes('module')).length, 0);
    assert.equal(scripts.length, 2);
    assert.equal(scripts[0]?.body, themeScript, 'the classic script before the first paint stays as it was');
    assert.ok(rewritten.html.indexOf('<p>a</p><script>') !== -1, 'the loader takes the first module script’s place');
    assert.ok(rewritten.html.includes('<p>b</p></body>'));
  });

  it('imports one file, named by its content, that imports each script file once and runs each inline module in a scope of its own', () => {
    assert.equal(rewritten.modules.length, 1);
    const [entry] = rewritten.modules;
    assert.match(entry?.file ?? '', /^_astro\/deferred\.[0-9a-f]{10}\.js$/);
    assert.equal(entry?.source, `import "/_astro/ec.1.js";\n(() => {\n${tabsModule}\n})();\n(() => {\n${pickerModule}\n})();`);
    const loader = inlineScripts(rewritten.html)[1]?.body ?? '';
    assert.ok(loader.includes(`"/${entry?.file ?? ''}"`), 'the loader imports the file');
    assert.equal(withScriptsOnFirstInteraction(html).modules[0]?.file, entry?.file, 'the same scripts make the same file');
  });

  it('gives a module that imports a file to itself, imported by the page’s file', () => {
    const importing = "import { a } from './a.js';\na();";
    const modules = withScriptsOnFirstInteraction(page(`<script type="module">${importing}</script><script type="module">${tabsModule}</script>`)).modules;
    assert.equal(modules[0]?.source, importing);
    assert.equal(modules[1]?.source, `import "/${modules[0]?.file ?? ''}";\n(() => {\n${tabsModule}\n})();`);
  });

  it('writes the moved files under the site’s base', () => {
    const based = withScriptsOnFirstInteraction(page(`<script type="module">${tabsModule}</script>`), '/docs');
    assert.match(based.html, /"\/docs\/_astro\/deferred\.[0-9a-f]{10}\.js"/);
    assert.ok(based.modules.every(({ file }) => file.startsWith('_astro/')));
  });

  it('is a loader that parses as a script', () => {
    const loader = inlineScripts(rewritten.html)[1]?.body ?? '';
    assert.doesNotThrow(() => new Function(loader));
  });

  it('returns a page without module scripts as it is', () => {
    const plain = page('<p>only text</p>');
    assert.deepEqual(withScriptsOnFirstInteraction(plain), { html: plain, modules: [] });
  });
});

describe('the scripts that run before the first paint', () => {
  it('are minified, and a module, a data block, a script with a source or one that does not parse are left alone', () => {
    const classic = "\n\t(() => {\n\t\tconst stored = localStorage.getItem('starlight-theme');\n\t\tdocument.documentElement.dataset.theme = stored;\n\t})();\n";
    const untouched = [
      `<script type="module">${classic}</script>`,
      `<script type="application/ld+json">{ "a": 1 }</script>`,
      '<script src="/a.js"></script>',
      '<script>this is not JavaScript (</script>',
    ].join('');
    const minified = withClassicScriptsMinified(`<script aria-hidden="true">${classic}</script>${untouched}`);
    assert.ok(minified.endsWith(untouched));
    const body = inlineScripts(minified)[0]?.body ?? '';
    assert.ok(body.length < classic.length);
    assert.match(inlineScripts(minified)[0]?.attributes ?? '', /aria-hidden="true"/);
    assert.match(body, /localStorage\.getItem\("starlight-theme"\)/);
  });
});

describe('the print stylesheet', () => {
  const css = '@media print{.a{display:none}}';
  const read = (href: string): string | undefined => (href === '/_astro/print.css' ? css : undefined);

  it('is written into the page, its media kept', () => {
    assert.equal(withPrintStylesheetInlined('<link rel="stylesheet" href="/_astro/print.css" media="print">', read), `<style media="print">${css}</style>`);
  });

  it('stays a link when it is not for print, or there is no such file', () => {
    for (const link of ['<link rel="stylesheet" href="/_astro/print.css">', '<link rel="stylesheet" href="/_astro/gone.css" media="print">']) {
      assert.equal(withPrintStylesheetInlined(link, read), link);
    }
  });
});
