import type { Action, ReferenceModel } from '../contract/model.ts';
import type { CodeSample } from '../samples/code-samples.ts';
import { codeSamples } from '../samples/code-samples.ts';
import { sampleStatuses } from '../samples/sample-statuses.ts';
import { actionPagePath, endpointPagePath } from './navigation.ts';

/** A heading of a generated page, in the shape Starlight's table of contents takes. */
export interface PageHeading {
  depth: number;
  slug: string;
  text: string;
}

/** The sections of the endpoint page; their slugs are the anchors other pages link to. */
export const endpointSections = {
  url: { depth: 2, slug: 'method-and-url', text: 'Method and URL' },
  body: { depth: 2, slug: 'request-body', text: 'Request body' },
  actions: { depth: 2, slug: 'actions', text: 'Actions' },
  responses: { depth: 2, slug: 'responses', text: 'Responses' },
  responseBodies: { depth: 2, slug: 'response-bodies', text: 'Response bodies' },
  notInThisApi: { depth: 2, slug: 'not-in-this-api', text: 'What this API does not have' },
  downloads: { depth: 2, slug: 'downloads', text: 'The OpenAPI document' },
} as const satisfies Record<string, PageHeading>;

/** The sections of the reference index, `/reference/`. */
export const referenceIndexSections = {
  endpoint: { depth: 2, slug: 'endpoint', text: 'The endpoint' },
  actions: { depth: 2, slug: 'actions', text: 'The actions' },
  downloads: { depth: 2, slug: 'downloads', text: 'The OpenAPI document' },
} as const satisfies Record<string, PageHeading>;

/** The sections of an action page. Browser tests find them by these slugs. */
export const actionSections = {
  transitions: { depth: 2, slug: 'transitions', text: 'Statuses' },
  fields: { depth: 2, slug: 'fields', text: 'Fields' },
  requestExample: { depth: 2, slug: 'request-example', text: 'Request example' },
  successResponse: { depth: 2, slug: 'success-response', text: 'Success response' },
  resultFields: { depth: 3, slug: 'response-fields', text: 'Fields of the response' },
  errors: { depth: 2, slug: 'errors', text: 'Errors' },
  errorBodies: { depth: 3, slug: 'error-bodies', text: 'Error bodies' },
  codeSamples: { depth: 2, slug: 'code-samples', text: 'Code samples' },
} as const satisfies Record<string, PageHeading>;

interface PageBase {
  /** Where the page lives under `/reference/`: `endpoint`, or `actions/<identifier>`. */
  slug: string;
  title: string;
  description: string;
  headings: PageHeading[];
  model: ReferenceModel;
}

export interface EndpointPage extends PageBase {
  type: 'endpoint';
}

export interface ActionPage extends PageBase {
  type: 'action';
  action: Action;
  samples: CodeSample[];
}

export type ReferencePage = EndpointPage | ActionPage;

/** The heading of one response's body on the endpoint page, which action pages link to. */
export function responseBodyHeading(status: string): PageHeading {
  return { depth: 3, slug: `body-${status}`, text: `${status} body` };
}

/** The endpoint page's headings: its sections, with one heading per response that has a body. */
function endpointHeadings(model: ReferenceModel): PageHeading[] {
  const withBodies = model.responses.filter((response) => response.bodyFields.length > 0);
  return Object.values(endpointSections).flatMap((section) =>
    section === endpointSections.responseBodies ? [section, ...withBodies.map((response) => responseBodyHeading(response.status))] : [section],
  );
}

/** `/reference/actions/x/` becomes `actions/x`, the rest parameter of the route. */
function slugOf(path: string): string {
  return path.replace(/^\/reference\//, '').replace(/\/$/, '');
}

/** The endpoint's reference page. */
export function endpointReferencePage(model: ReferenceModel): EndpointPage {
  return {
    type: 'endpoint',
    slug: slugOf(endpointPagePath),
    title: 'The endpoint',
    description: model.endpoint.summary,
    headings: endpointHeadings(model),
    model,
  };
}

/** One reference page per action, in the order of the request body's actions. */
export function actionReferencePages(model: ReferenceModel): ActionPage[] {
  const statuses = sampleStatuses(model.responses);
  return model.actions.map(
    (action): ActionPage => ({
      type: 'action',
      slug: slugOf(actionPagePath(action.identifier)),
      title: action.identifier,
      description: action.title,
      headings: Object.values(actionSections),
      model,
      action,
      samples: codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields }),
    }),
  );
}

/** Every generated reference page: the endpoint, then one page per action. */
export function referencePages(model: ReferenceModel): ReferencePage[] {
  return [endpointReferencePage(model), ...actionReferencePages(model)];
}

/**
 * Starlight's tabs hide every panel but the first until their script runs. Without JavaScript
 * the tab list cannot switch panels, so it is hidden and every sample is shown, one under the
 * other, each with its language in its frame title. Every page carries it (astro.config.mjs):
 * the errors guide's retrying clients are tabs of the same kind.
 */
export const samplesWithoutScript = {
  tag: 'noscript',
  attrs: {},
  content:
    '<style>.code-samples [role="tablist"]{display:none}.code-samples [role="tabpanel"][hidden]{display:block}.code-samples [role="tabpanel"]+[role="tabpanel"]{margin-top:1.5rem}</style>',
} as const;
