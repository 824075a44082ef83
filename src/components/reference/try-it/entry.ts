/**
 * The script the request builder adds to the page on the reader's first click on "Try it"
 * (published as /try-it-panel.js): it defines `<try-it-panel>`, which opens the panel inside the
 * builder it is placed in, or with what its own attributes give (the sandbox guide: the action,
 * the base URL and the guide's requests). A script element rather than a dynamic import, so the
 * builder's own script needs no module loader and stays inline in the page.
 */
import { openTryPanel, type PanelPreset } from './panel.ts';

class TryItPanel extends HTMLElement {
  connectedCallback(): void {
    const builder = this.closest<HTMLElement>('request-builder');
    const presets = this.dataset.presets === undefined ? [] : (JSON.parse(this.dataset.presets) as PanelPreset[]);
    openTryPanel(this, {
      action: builder?.dataset.action ?? this.dataset.action ?? '',
      ...(this.dataset.baseUrl === undefined ? {} : { baseUrl: this.dataset.baseUrl }),
      presets,
      inputs: [...(builder?.querySelectorAll<HTMLInputElement>('input[data-example]') ?? [])],
      workerUrl: this.dataset.worker ?? '/sandbox-worker.js',
    });
  }
}

if (customElements.get('try-it-panel') === undefined) customElements.define('try-it-panel', TryItPanel);
