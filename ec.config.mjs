// @ts-check
import { defineEcConfig } from '@astrojs/starlight/expressive-code';
import { copyRenderedCode } from './src/lib/site/copy-rendered-code.ts';
import { singleTextBlocks } from './src/lib/site/single-text-blocks.ts';

// Expressive Code's plugins live here rather than in astro.config.mjs: its `<Code>` component
// reads this file at render time, and a plugin (functions) cannot be passed through the Astro config.
// The copy plugin compares the data to the lines, so it runs before a block is made one text.
export default defineEcConfig({ plugins: [copyRenderedCode(), singleTextBlocks()] });
