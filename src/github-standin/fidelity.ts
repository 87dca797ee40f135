// Checks answers against GitHub's own descriptions: REST bodies against `@octokit/openapi`, webhook payloads against `@octokit/openapi-webhooks`.
// For tests (of the stand-in and of the code that talks to it); loads the large descriptions lazily, once.
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Octokit } from '@octokit/rest';

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The description in use: api.github.com (the stand-in answers as GitHub does, at a GitHub Enterprise Server URL layout). */
const REST_DESCRIPTION = '@octokit/openapi/generated/api.github.com.json';
const WEBHOOK_DESCRIPTION = '@octokit/openapi-webhooks/generated/api.github.com.json';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }> }>>;
  components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }>; schemas: Record<string, unknown> };
}

let rest: { ajv: Ajv; doc: OpenApiDocument; templates: { template: string; pattern: RegExp; literal: number }[] } | undefined;
let hooks: { ajv: Ajv; doc: OpenApiDocument } | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Ajv set up for OpenAPI 3.0 schemas: unknown keywords ignored, formats checked. */
function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
  addFormats(ajv);
  // GitHub's own bot addresses (`41898282+github-actions[bot]@users.noreply.github.com`) break
  // RFC 5322's unquoted local part that ajv-formats checks; GitHub's `email` means "has an @".
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  return ajv;
}

/**
 * Rewrites OpenAPI 3.0's `nullable: true` into JSON Schema (`type: [t, 'null']`, or `anyOf` with
 * `{type: 'null'}` when the schema has no `type`), in place: Ajv refuses `nullable` without `type`.
 */
function denullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) denullable(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  for (const value of Object.values(schema)) denullable(value);
  // A defect of the description: some operations inline an installation's `account` as
  // `allOf: [Simple User, Enterprise]`, which nothing satisfies; the `installation` component
  // (and GitHub's answers) mean `anyOf`.
  const allOf = schema.allOf as { title?: string }[] | undefined;
  if (allOf?.length === 2 && allOf[0]?.title === 'Simple User' && allOf[1]?.title === 'Enterprise') {
    schema.anyOf = allOf;
    delete schema.allOf;
  }
  // GitHub's description uses `oneOf` for alternatives that overlap (e.g. `basic-error` or
  // `repository-rule-violation-error`, both open objects): an answer matching both is valid.
  if (Array.isArray(schema.oneOf)) {
    schema.anyOf = schema.oneOf;
    delete schema.oneOf;
  }
  if (schema.nullable !== true) return;
  delete schema.nullable;
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
    return;
  }
  const copy = { ...schema };
  for (const key of Object.keys(schema)) delete schema[key];
  schema.anyOf = [copy, { type: 'null' }];
}

/** Escapes a JSON pointer token. */
function pointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function restDocs(): NonNullable<typeof rest> {
  if (!rest) {
    const doc = require(REST_DESCRIPTION) as OpenApiDocument;
    denullable(doc.components);
    denullable(doc.paths);
    const ajv = makeAjv();
    ajv.addSchema(doc as unknown as object, 'rest');
    const templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{[^}]+\}$/, '(.+)')
          .replace(/\{[^}]+\}/g, '([^/]+)')}$`,
      ),
      literal: template.replace(/\{[^}]+\}/g, '').length,
    }));
    templates.sort((a, b) => b.literal - a.literal);
    rest = { ajv, doc, templates };
  }
  return rest;
}

/** The OpenAPI path template that a concrete REST path (without `/api/v3`) matches best, or undefined. */
export function restTemplate(method: string, path: string): string | undefined {
  const docs = restDocs();
  const lower = method.toLowerCase();
  return docs.templates.find((entry) => entry.pattern.test(path) && docs.doc.paths[entry.template]?.[lower])?.template;
}

/** What a check found: `ok`, or the problems (and which schema was used). */
export interface FidelityVerdict {
  ok: boolean;
  schema: string;
  errors: string[];
}

/**
 * Validates a REST answer body against the response schema GitHub's OpenAPI description gives
 * for `method` + `path` (concrete, without `/api/v3`) + `status`. An undocumented error status
 * is checked against `basic-error`; an undocumented operation is a failure.
 */
export function validateRestResponse(method: string, path: string, status: number, body: unknown): FidelityVerdict {
  const docs = restDocs();
  const template = restTemplate(method, path.split('?')[0] ?? path);
  if (!template) return { ok: false, schema: '(none)', errors: [`GitHub's description has no operation ${method} ${path}`] };
  const lower = method.toLowerCase();
  const responses = docs.doc.paths[template]?.[lower]?.responses ?? {};
  let response = responses[String(status)];
  let ref: string;
  if (!response && status >= 400) {
    ref = 'rest#/components/schemas/basic-error';
  } else if (!response) {
    return { ok: false, schema: `${method} ${template}`, errors: [`GitHub documents no ${status} answer for ${method} ${template}`] };
  } else {
    let base = `rest#/paths/${pointer(template)}/${lower}/responses/${status}`;
    if (response.$ref) {
      const name = response.$ref.split('/').pop() ?? '';
      base = `rest#/components/responses/${pointer(name)}`;
      response = docs.doc.components.responses[name] ?? {};
    }
    const media = Object.keys(response.content ?? {}).find((type) => type.includes('json'));
    if (!media) {
      const empty = body === undefined || body === null || body === '';
      return { ok: empty, schema: `${method} ${template} ${status}`, errors: empty ? [] : ['GitHub documents no body for this answer'] };
    }
    ref = `${base}/content/${pointer(media)}/schema`;
  }
  let validate = compiled.get(ref);
  if (!validate) {
    validate = docs.ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  const ok = validate(body);
  return {
    ok,
    schema: `${method} ${template} ${status}`,
    errors: (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`),
  };
}

/**
 * Validates a webhook payload against `@octokit/openapi-webhooks`' schema of the event and
 * action (`webhook-<event>-<action>`, or `webhook-<event>` when it has no actions).
 */
export function validateWebhookPayload(event: string, payload: Record<string, unknown>): FidelityVerdict {
  if (!hooks) {
    const doc = require(WEBHOOK_DESCRIPTION) as OpenApiDocument;
    denullable(doc.components);
    const ajv = makeAjv();
    ajv.addSchema(doc as unknown as object, 'hooks');
    hooks = { ajv, doc };
  }
  const base = `webhook-${event.replace(/_/g, '-')}`;
  const action = typeof payload.action === 'string' ? `${base}-${payload.action.replace(/_/g, '-')}` : base;
  const name = hooks.doc.components.schemas[action] ? action : base;
  if (!hooks.doc.components.schemas[name]) return { ok: false, schema: name, errors: [`No webhook schema named ${action} or ${base}`] };
  const ref = `hooks#/components/schemas/${name}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = hooks.ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  const ok = validate(payload);
  return {
    ok,
    schema: name,
    errors: (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`),
  };
}

/** Throws with the problems when a verdict is not ok. */
export function assertFaithful(verdict: FidelityVerdict, what: string): void {
  if (!verdict.ok)
    throw new Error(`${what} does not match GitHub's description (${verdict.schema}):\n  ${verdict.errors.slice(0, 12).join('\n  ')}`);
}

/** What {@link checkOctokitAnswers} records: every REST answer seen and its verdict. */
export interface FidelityLog {
  checked: { method: string; path: string; status: number; verdict: FidelityVerdict }[];
  /** The answers that did not match GitHub's description. */
  failures(): FidelityLog['checked'];
}

/**
 * Hooks an Octokit REST client so every REST answer (under `apiUrl`) it receives (successes and errors) is validated
 * against GitHub's OpenAPI description; returns the log (assert `failures()` is empty).
 */
export function checkOctokitAnswers(octokit: Octokit, apiUrl: string): FidelityLog {
  const log: FidelityLog = { checked: [], failures: () => log.checked.filter((entry) => !entry.verdict.ok) };
  const record = (method: string, url: string, status: number, body: unknown) => {
    // GraphQL (`<origin>/api/graphql`) has no OpenAPI description; its answers are checked by its schema.
    if (!url.startsWith(apiUrl)) return;
    const path = url.slice(apiUrl.length);
    const clean = path.split('?')[0] ?? path;
    log.checked.push({ method, path: clean, status, verdict: validateRestResponse(method, clean, status, body) });
  };
  octokit.hook.after('request', (response, options) => {
    record(options.method, response.url, response.status, response.data);
  });
  octokit.hook.error('request', (error, options) => {
    const failure = error as { status?: number; response?: { url: string; status: number; data: unknown } };
    if (failure.response) record(options.method, failure.response.url, failure.response.status, failure.response.data);
    throw error;
  });
  return log;
}
