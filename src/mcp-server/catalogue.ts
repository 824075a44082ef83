/**
 * The tools of the product-information server, in the order it lists them. Each is whole in its
 * own file under `tools/` (name, title, description, annotations, schemas and answer); the server
 * registers them from this list and the product-information page lists them from it, so the
 * page always names the tools the server has.
 */
import { actionDetailsTool } from './tools/action-details.ts';
import { apiOverviewTool } from './tools/api-overview.ts';
import { checkRequestTool } from './tools/check-request.ts';
import { codeSampleTool } from './tools/code-sample.ts';
import { lifecycleTool } from './tools/lifecycle.ts';
import { productInformationTool } from './tools/product-information.ts';
import { readPageTool } from './tools/read-page.ts';
import { searchDocsTool } from './tools/search-docs.ts';
import { subscriptionDataTool } from './tools/subscription-data.ts';

export const tools = [
  apiOverviewTool,
  actionDetailsTool,
  lifecycleTool,
  codeSampleTool,
  checkRequestTool,
  searchDocsTool,
  readPageTool,
  productInformationTool,
  subscriptionDataTool,
] as const;

export type ToolName = (typeof tools)[number]['name'];

/** Each tool's name with the words it is picked by, for the pages and the tests that list them. */
export const toolCatalogue = Object.fromEntries(tools.map(({ name, title, description }) => [name, { title, description }])) as Record<ToolName, { title: string; description: string }>;
