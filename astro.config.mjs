// @ts-check
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import starlightLlmsTxt from 'starlight-llms-txt';
import { bundleContract } from './src/lib/bundle.ts';
import { siteConfig } from './src/site-config.ts';

// Bundling first means a broken contract stops the build before a single page is written.
bundleContract();

export default defineConfig({
  site: siteConfig.docsUrl,
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: 'Subscription Lifecycle Action Service',
      description:
        'Specification and guides for the one endpoint that cancels, pauses, resumes and otherwise moves subscriptions through their lifecycle.',
      plugins: [starlightLlmsTxt()],
      sidebar: [
        { label: 'Start here', items: [{ label: 'Overview', link: '/' }] },
      ],
    }),
  ],
});
