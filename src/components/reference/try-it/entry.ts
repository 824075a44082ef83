/**
 * The script the request builder adds to the page on the reader's first click on "Try it"
 * (published as /try-it-panel.js): it defines `<try-it-panel>`, which opens the panel inside the
 * builder it is placed in. A script element rather than a dynamic import, so the builder's own
 * script needs no module loader and stays inline in the page.
 */
import { openTryPanel } from './panel.ts';

class TryItPanel extends HTMLElement {
  connectedCallback(): void {
    const builder = this.closest<HTMLElement>('request-builder');
    openTryPanel(this, {
      action: builder?.dataset.action ?? '',
      inputs: [...(builder?.querySelectorAll<HTMLInputElement>('input[data-example]') ?? [])],
      workerUrl: this.dataset.worker ?? '/sandbox-worker.js',
    });
  }
}

if (customElements.get('try-it-panel') === undefined) customElements.define('try-it-panel', TryItPanel);
