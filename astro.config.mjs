// @ts-check
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import starlightLinksValidator from 'starlight-links-validator';
import starlightLlmsTxt from 'starlight-llms-txt';
import { bundleContract } from './src/lib/bundle.ts';
import { asOpenApiDocument } from './src/lib/document.ts';
import { referenceSidebarItems } from './src/lib/navigation.ts';
import { siteConfig } from './src/site-config.ts';

// Bundling first means a broken contract stops the build before a single page is written.
const contract = bundleContract();
const document = asOpenApiDocument(contract.document, contract.jsonPath);

export default defineConfig({
  site: siteConfig.docsUrl,
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: 'Subscription Lifecycle Action Service',
      description:
        'Specification and guides for the one endpoint that cancels, pauses, resumes and otherwise moves subscriptions through their lifecycle.',
      plugins: [starlightLinksValidator(), starlightLlmsTxt()],
      // Read in the order a newcomer needs: what it is, first call, key, then the reference.
      sidebar: [
        {
          label: 'Start here',
          items: [
            { label: 'Overview', link: '/' },
            { label: 'Quickstart', link: '/quickstart/' },
            { label: 'Authentication', link: '/authentication/' },
          ],
        },
        { label: 'API reference', items: referenceSidebarItems(document) },
        {
          label: 'Guides',
          items: [
            { label: 'Errors and rate limits', link: '/errors-and-rate-limits/' },
            { label: 'States and transitions', link: '/states-and-transitions/' },
            { label: 'Versioning', link: '/versioning/' },
            { label: 'Changelog', link: '/changelog/' },
          ],
        },
        { label: 'Product-information server', link: '/product-information-server/' },
      ],
    }),
  ],
});
