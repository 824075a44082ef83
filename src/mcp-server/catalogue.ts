/**
 * The tools of the product-information server, in the order it lists them: what each is called and
 * says of itself. The server registers them from here and the product-information page lists them
 * from here, so the page always names the tools the server has. An agent picks a tool by these
 * words alone, so each says which question it answers.
 */
export const toolCatalogue = {
  api_overview: {
    title: 'API overview',
    description:
      'The one endpoint and its method, where the API key travels (no OAuth), every action in one line, the errors, what to do on a 429 (Retry-After, timeouts, attempts: the retry policy with its numbers), the courtesy pace and versioning.',
  },
  action_details: {
    title: 'One action in detail',
    description:
      "One action's fields (type, constraints, allowed values, example), the statuses it accepts and where it takes each (change_status's moves per status), where it answers unchanged and where it is refused, its request and success examples, its own errors (errors: true for every error with its bodies), and its reference page.",
  },
  lifecycle: {
    title: 'What a status allows',
    description:
      'From a subscription status (for example a cancelled or paused subscription): which actions change it and to which statuses, which answer "unchanged", and which the shop refuses. Leave the status out for every status.',
  },
  code_sample: {
    title: 'Code sample for an action',
    description:
      "The site's own tested sample for an action in any language the site shows (curl among them), with timeouts and no redirects followed, plus the request and the success body; the error bodies too with errors: true.",
  },
  check_request: {
    title: 'Check a request body',
    description:
      'What a shop would answer to this JSON body before you send it: the 400 with the fields at fault, the 401, the 409 with the allowed actions, or the 200 with the new status. Computed by the sandbox; nothing is sent.',
  },
  search_docs: {
    title: 'Search the documentation',
    description:
      'Finds the passages of the documentation (guides, reference, product) that answer a question, best first across pages: each a whole section or part of one, with its headings and a URL to its anchor; filter by kind and page on with offset.',
  },
  read_page: {
    title: 'Read a documentation page',
    description:
      'One documentation page as Markdown, exactly as llms-full.txt has it (tables, code, numbers), by its URL or path (for example /errors-and-rate-limits/), or only one section of it by anchor or heading; long pages come in parts, cut at sections, with a cursor.',
  },
  product_information: {
    title: 'Product information',
    description:
      'Editions (free versus paid), pricing, supported payment gateways and features. Unpublished values say so and where they will appear.',
  },
  subscription_data: {
    title: 'Where subscription data lives',
    description:
      'Call this for any question about a particular subscription, order or customer (its status, its history): this server holds no such data, the API has no read, list or webhook, and the answer says what to do instead.',
  },
} as const;

export type ToolName = keyof typeof toolCatalogue;
