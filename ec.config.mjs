// @ts-check
import { defineEcConfig } from '@astrojs/starlight/expressive-code';
import { copyRenderedCode } from './src/lib/site/copy-rendered-code.ts';

// Expressive Code's plugins live here rather than in astro.config.mjs: its `<Code>` component
// reads this file at render time, and a plugin (functions) cannot be passed through the Astro config.
export default defineEcConfig({ plugins: [copyRenderedCode()] });
