/**
 * Starlight links its print stylesheet (`media="print"`) as a file of its own, which
 * `build.inlineStylesheets` leaves alone; a browser fetches it with every page all the same. Written
 * into the page it costs less than the response that carried it, and the page stays one response.
 * `readStylesheet` gives the text of a stylesheet by its path in the built site, or undefined
 * when there is no such file, in which case the link stays.
 */
export function withPrintStylesheetInlined(html: string, readStylesheet: (href: string) => string | undefined): string {
  return html.replace(/<link\b[^>]*\brel="stylesheet"[^>]*>/g, (tag) => {
    const href = /\shref="([^"]+)"/.exec(tag)?.[1];
    if (href === undefined || !/\smedia="print"/.test(tag)) return tag;
    const css = readStylesheet(href);
    return css === undefined || css.includes('</style') ? tag : `<style media="print">${css}</style>`;
  });
}
