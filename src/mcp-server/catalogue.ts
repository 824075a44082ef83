/**
 * The tools of the product-information server, in the order it lists them: what each is called and
 * says of itself. The server registers them from here and the product-information page lists them
 * from here, so the page always names the tools the server has.
 */
export const toolCatalogue = {
  api_overview: {
    title: 'API overview',
    description:
      'The one endpoint and its method, where the API key travels, every action in one line, the errors, the 429 and Retry-After rule, the courtesy pace and versioning.',
  },
  action_details: {
    title: 'One action in detail',
    description:
      'The fields of one action, the statuses it accepts and leads to, its errors, its request example and the link to its reference page.',
  },
  search_docs: {
    title: 'Search the documentation',
    description:
      'Finds documentation pages (guides and reference) by their words: titles, absolute URLs and short snippets.',
  },
  read_page: {
    title: 'Read a documentation page',
    description:
      'One documentation page as Markdown, by its URL or path (for example /quickstart/).',
  },
  product_information: {
    title: 'Product information',
    description:
      'Editions (free versus paid), pricing, supported payment gateways and features. Unpublished values say so and where they will appear.',
  },
  subscription_data: {
    title: 'Where subscription data lives',
    description:
      'Call this for any question about a particular subscription, order or customer: this server holds no such data, and the answer says where it is reached instead.',
  },
} as const;

export type ToolName = keyof typeof toolCatalogue;
