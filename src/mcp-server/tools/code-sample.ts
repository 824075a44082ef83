import { z } from 'zod';
import { codeSamples, sampleLanguage, sampleLanguageNames } from '../../lib/samples/code-samples.ts';
import { sampleStatuses } from '../../lib/samples/sample-statuses.ts';
import { thingsToFillIn } from '../../lib/samples/sample-parts.ts';
import { libraryThingsToFillIn } from '../../lib/samples/action-sample/library-call.ts';
import { retryingClientLanguages } from '../../lib/samples/retrying-client-sample.ts';
import { listInWords } from '../../lib/prose.ts';
import { actionErrorAnswers } from '../../lib/contract/error-bodies.ts';
import { actionPagePath, guidePaths } from '../../lib/site/navigation.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, jsonObject, jsonValue, nonEmpty, readOnly } from './tool.ts';

export const codeSampleTool = defineTool({
  name: 'code_sample',
  title: 'Code sample for an action',
  description:
    "The site's own tested sample for an action in any language the site shows (curl among them), with timeouts and no redirects followed, plus the request and the success body; the error bodies too with errors: true.",
  annotations: readOnly,
  answer: codeSampleAnswer,
});

/**
 * The site's own code sample for an action, in one of the languages the site shows: the same
 * function writes the reference page's tab, and the tests run every one against the sandbox.
 */
function codeSampleAnswer({ model }: ProductKnowledge) {
  const statuses = sampleStatuses(model.responses);
  const retryingLanguages = listInWords(retryingClientLanguages.map((language) => sampleLanguage(language).label), 'and');
  return defineAnswer({
    inputSchema: z.object({
      action: z.enum(nonEmpty(model.actions.map((action) => action.identifier), 'action')).describe('The action identifier'),
      language: z.enum(sampleLanguageNames).describe('The language of the sample'),
      errors: z.boolean().default(false).describe('Add the error bodies the action can answer with'),
    }),
    outputSchema: z.object({
      action: z.string(),
      language: z.string(),
      label: z.string(),
      code: z.string(),
      fillIn: z.string().describe('What to replace before running it'),
      request: jsonObject,
      success: z.object({ status: z.number().int(), body: jsonValue }),
      errors: z.array(z.object({ status: z.number().int(), summary: z.string(), body: jsonValue })).optional().describe('Only when asked for with errors: true'),
      retrying: z.string().describe('Where the retrying client and the retry policy are'),
      page: z.string(),
    }),
    run: ({ action: identifier, language, errors }) => {
      const action = model.actions.find((candidate) => candidate.identifier === identifier);
      if (action === undefined) throw new Error(`No action ${identifier}`);
      const sample = codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields }).find((candidate) => candidate.language === language);
      if (sample === undefined) throw new Error(`No ${language} sample`);
      return {
        action: identifier,
        language,
        label: sample.label,
        code: sample.code,
        // A library's sample takes the key as an argument, not in a body it writes.
        fillIn: listInWords((sampleLanguage(sample.language).library ? libraryThingsToFillIn : thingsToFillIn)(model.endpoint, action.requestExample.value), 'and'),
        request: action.requestExample.value as Record<string, z.core.util.JSONType>,
        success: { status: Number(statuses.success), body: action.successExample.value as z.core.util.JSONType },
        ...(errors
          ? { errors: actionErrorAnswers(model, action).bodies.map((body) => ({ status: Number(body.status), summary: body.summary, body: body.value as z.core.util.JSONType })) }
          : {}),
        retrying: `This sample sends once. The retrying client (${retryingLanguages}) and the retry policy are in the errors guide: ${docsAddress(guidePaths.errors)}`,
        page: docsAddress(actionPagePath(identifier)),
      };
    },
  });
}
