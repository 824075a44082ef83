import { longIdentifierClass, wholeIdentifierClass } from '../../src/lib/site/identifier-breaks.ts';

/**
 * A built page without the marks that only say where an identifier may wrap (`<wbr>`, and the
 * classes that keep one whole on a wide screen), so a test reads its text and structure.
 */
export function withoutBreakMarks(html: string): string {
  return html
    .replaceAll('<wbr>', '')
    .replaceAll(` ${longIdentifierClass}`, '')
    .replaceAll(` class="${wholeIdentifierClass}"`, '')
    .replaceAll(` ${wholeIdentifierClass}"`, '"');
}
