import { shortIdentifierClass } from '../../src/lib/site/identifier-breaks.ts';

/**
 * A built page without the marks that only say where an identifier may wrap (`<wbr>`, and the
 * class that keeps a short one whole on a wide screen), so a test reads its text and structure.
 */
export function withoutBreakMarks(html: string): string {
  return html.replaceAll('<wbr>', '').replaceAll(` class="${shortIdentifierClass}"`, '').replaceAll(` ${shortIdentifierClass}"`, '"');
}
