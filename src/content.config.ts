import { defineCollection } from 'astro:content';
import { docsLoader, i18nLoader } from '@astrojs/starlight/loaders';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }),
  // Starlight reads this collection on every build, and Astro warns when it is missing or empty.
  // `i18n/en.json` is an empty entry: the site keeps Starlight's own English UI strings.
  i18n: defineCollection({ loader: i18nLoader(), schema: i18nSchema() }),
};
