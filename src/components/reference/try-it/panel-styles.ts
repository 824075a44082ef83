/**
 * The panel's styles, adopted as a constructed style sheet when the panel first opens, so that
 * an action page that is only read carries none of them.
 */
export const panelStyles = `
.try-panel { margin-block: 1rem; padding: 0.75rem 1rem; border: 1px solid var(--sl-color-gray-5); border-radius: 0.5rem; font-size: var(--sl-text-sm); }
.try-panel h3 { margin: 0 0 0.5rem; font-size: var(--sl-text-base); }
.try-panel h4 { margin: 0.75rem 0 0.25rem; font-size: var(--sl-text-sm); }
.try-panel p { margin: 0.25rem 0; }
.try-panel label { display: inline-block; margin: 0.25rem 0.25rem 0.25rem 0; }
.try-body, .try-exchange { display: block; width: 100%; box-sizing: border-box; font-family: var(--sl-font-mono, var(--sl-font-system-mono)); font-size: var(--sl-text-xs); }
.try-body { padding: 0.5rem; border: 1px solid var(--sl-color-gray-4); border-radius: 0.25rem; background-color: var(--sl-color-black); color: var(--sl-color-white); resize: vertical; }
.try-exchange { margin: 0; padding: 0.5rem; max-height: 20rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; background-color: var(--sl-color-gray-6); color: var(--sl-color-white); border-radius: 0.25rem; }
.try-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; margin-block: 0.25rem; }
.try-panel fieldset { margin: 0.75rem 0 0; padding: 0.25rem 0.75rem 0.5rem; border: 1px solid var(--sl-color-gray-5); border-radius: 0.25rem; }
.try-panel button, .try-panel select, .try-number { padding: 0.25rem 0.75rem; border: 1px solid var(--sl-color-gray-3); border-radius: 0.25rem; background-color: var(--sl-color-gray-6); color: var(--sl-color-white); font-size: var(--sl-text-sm); }
.try-number { width: 5rem; padding-inline: 0.5rem; }
.try-panel .try-send { background-color: var(--sl-color-accent-high); color: var(--sl-color-black); border-color: var(--sl-color-accent-high); font-weight: 600; }
.try-panel button:disabled { opacity: 0.6; }
.try-panel :focus-visible { outline: 2px solid var(--sl-color-text-accent); outline-offset: 2px; }
.try-check, .try-hint { color: var(--sl-color-gray-2); }
.try-status { font-weight: 600; }
.try-send-row { scroll-margin-top: calc(var(--sl-nav-height, 4rem) + 0.5rem); }
.try-panel summary { margin-block: 0.25rem; cursor: pointer; }
.try-subscriptions { font-size: var(--sl-text-xs); }
.try-subscriptions th, .try-subscriptions td { padding: 0.125rem 0.75rem 0.125rem 0; }
`;
