// The `transition` engine (issue 15): moves one frontmatter field of notes of one type along
// allowed steps (status: draft → review → decided), optionally requiring fields on arrival;
// with `guard: true`, edit_note may not change that field by hand.
import { z } from 'zod';
import { splitFrontmatter } from '../notes/frontmatter.ts';
import { defineEngine, type Guard, type JsonSchemaObject, type Resolved } from './engine.ts';

/** The parameters of a transition tool. */
export interface TransitionParams {
  type: string;
  typeField: string;
  field: string;
  /** Each value and the values it may move to, in the order written. */
  steps: Record<string, string[]>;
  /** Fields that must hold a value once the note arrives at a value. */
  require: Record<string, string[]>;
  /** Each required field's schema as the type gives it (its description), for the input. */
  requiredFields: Record<string, JsonSchemaObject>;
  guard: boolean;
}

const valueList = z.array(z.string());

/**
 * `transition`: settings `type` (the notes' type), `field` (the frontmatter field that moves,
 * e.g. `status`), `steps` (a list `[draft, review, decided]`, each value moving to the next, or
 * a map `{draft: [review], review: [decided, draft]}`), `require` (a map from a value to the
 * fields that must hold a value on arrival, e.g. `{decided: [decided_by]}`), `guard` (default
 * false). Input: `path` (a note of the type), `to` (a value some step reaches) and, optional,
 * each field of `require`, set on arrival.
 */
export const transitionEngine = defineEngine({
  name: 'transition',
  about: 'Moves one frontmatter field of a note along the allowed steps, setting the fields the new value requires.',
  defaultTitle: 'Move a note to its next step',
  settings: z.strictObject({
    type: z.string({ error: 'type must name a note type of the repository, e.g. "type: decision"' }),
    field: z.string({ error: 'field must name the frontmatter field that moves, e.g. "field: status"' }),
    steps: z.union([valueList.min(2), z.record(z.string(), z.union([z.string(), valueList]))], {
      error:
        'steps must be a list of values in order, e.g. [draft, review, decided], or a map such as {draft: [review], review: [decided]}',
    }),
    require: z
      .record(z.string(), z.union([z.string(), valueList]), {
        error: 'require must map a value to the fields it requires, e.g. {decided: [decided_by]}',
      })
      .optional(),
    guard: z.boolean({ error: 'guard must be true or false' }).optional(),
  }),
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  resolve(settings, config): Resolved<TransitionParams> {
    const type = config.types.get(settings.type);
    if (type === undefined) return { problem: `type "${settings.type}" names no type: there is no .vault/types/${settings.type}.md` };
    if (settings.field === config.settings.typeField) return { problem: `field may not be the type field "${settings.field}"` };
    const steps: Record<string, string[]> = {};
    if (Array.isArray(settings.steps)) {
      const list: string[] = settings.steps;
      list.forEach((value, i) => {
        const next = list[i + 1];
        steps[value] = next === undefined ? (steps[value] ?? []) : [...(steps[value] ?? []), next];
      });
    } else {
      for (const [from, to] of Object.entries(settings.steps)) steps[from] = typeof to === 'string' ? [to] : [...to];
    }
    const reached = new Set(Object.values(steps).flat());
    if (reached.size === 0) return { problem: 'steps lead nowhere: give at least one step from one value to another' };
    const require: Record<string, string[]> = {};
    for (const [value, fields] of Object.entries(settings.require ?? {})) {
      if (!reached.has(value))
        return { problem: `require names "${value}", which no step reaches (the steps reach ${[...reached].join(', ')})` };
      require[value] = typeof fields === 'string' ? [fields] : [...fields];
    }
    const properties = ((type.frontmatter as { properties?: Record<string, JsonSchemaObject> }).properties ?? {}) as Record<
      string,
      JsonSchemaObject
    >;
    // The values the steps name must be values the type allows there, or no call could succeed.
    const own = properties[settings.field];
    const allowed = typeof own === 'object' && own !== null && Array.isArray(own['enum']) ? (own['enum'] as unknown[]) : null;
    const named = [...new Set([...Object.keys(steps), ...reached])];
    if (allowed !== null) {
      const foreign = named.filter((value) => !allowed.includes(value));
      if (foreign.length > 0)
        return {
          problem: `steps name ${foreign.map((value) => `"${value}"`).join(', ')}, which type "${type.name}" does not allow for ${settings.field} (its values: ${allowed.map(String).join(', ')})`,
        };
    }
    const typeRequires = (type.frontmatter as { required?: unknown }).required;
    if (allowed === null && Array.isArray(typeRequires) && typeRequires.includes(settings.field))
      return {
        problem: `type "${type.name}" requires ${settings.field} and lets it hold any text, so a new note could not start at "${Object.keys(steps)[0]}": a transition moves a field of a few values, e.g. status with an enum in the type`,
      };
    const requiredFields: Record<string, JsonSchemaObject> = {};
    for (const name of new Set(Object.values(require).flat())) {
      if (name === settings.field || name === config.settings.typeField) return { problem: `require may not name "${name}"` };
      const property = properties[name];
      requiredFields[name] = typeof property === 'object' && property !== null ? property : {};
    }
    return {
      params: {
        type: type.name,
        typeField: config.settings.typeField,
        field: settings.field,
        steps,
        require,
        requiredFields,
        guard: settings.guard ?? false,
      },
    };
  },
  input(params) {
    const targets = [...new Set(Object.values(params.steps).flat())] as [string, ...string[]];
    const shape: Record<string, z.ZodType> = {
      path: z.string().describe(`The note of type "${params.type}" to move, relative to the repository root.`),
      to: z.enum(targets).describe(`The value ${params.field} moves to. ${stepsText(params)}.`),
    };
    for (const [name, property] of Object.entries(params.requiredFields)) {
      const arrivals = Object.entries(params.require)
        .filter(([, fields]) => fields.includes(name))
        .map(([value]) => `"${value}"`);
      const own = typeof property['description'] === 'string' ? `${property['description']} ` : '';
      shape[name] = z
        .string()
        .optional()
        .describe(`${own}Required when ${params.field} becomes ${arrivals.join(' or ')}, unless the note already has it.`);
    }
    return z.object(shape);
  },
  output: () =>
    z.object({
      path: z.string().describe('The note that moved.'),
      from: z.string().describe('The value the field had.'),
      to: z.string().describe('The value it has now.'),
      commit: z.string().describe('Hash of the commit that holds the change, as Git recorded it.'),
    }),
  guards(params, tool) {
    return params.guard ? [transitionGuard(params, tool)] : [];
  },
});

/** The steps as a sentence: `Steps: draft → review; review → decided, draft`. */
export function stepsText(params: TransitionParams): string {
  return `Steps: ${Object.entries(params.steps)
    .filter(([, to]) => to.length > 0)
    .map(([from, to]) => `${from} → ${to.join(', ')}`)
    .join('; ')}`;
}

/**
 * The guard: a note's `field` moves only with the tool, along the steps. edit_note may not set,
 * change or remove it in a note of the type, nor the fields the steps set on arrival (`require`), nor change the type of such a note (which would
 * take the field out of the steps, to be changed by hand and the type set back); a note that
 * becomes one of the type (created by create_note or a `create` tool, or its type set by
 * edit_note) starts where the tool starts a note: without the field or at its first value.
 */
function transitionGuard(params: TransitionParams, tool: string): Guard {
  const first = Object.keys(params.steps)[0]!;
  return {
    tool,
    tools: ['edit_note', 'create_note'],
    check(change, writer) {
      if (change.after === null) return null;
      const before = change.before === null ? null : splitFrontmatter(change.before.text).data;
      const after = splitFrontmatter(change.after.text).data;
      const path = change.after.path;
      const wasOfType = before?.[params.typeField] === params.type;
      const isOfType = after?.[params.typeField] === params.type;
      if (wasOfType && before !== null) {
        if (!isOfType)
          return `${params.field} of a ${params.type} note moves only with ${tool}, so ${writer} may not change the type of "${path}" (which would let ${params.field} be changed by hand). Leave ${params.typeField}: ${params.type} as it is and change the rest of the note with edit_note; to move ${params.field}, call ${tool} with path "${path}".`;
        // The fields a step sets on arrival (who decided) are the step's record: the tool's too.
        for (const name of Object.keys(params.requiredFields)) {
          if (JSON.stringify(before[name]) === JSON.stringify(after?.[name])) continue;
          const arrivals = Object.entries(params.require)
            .filter(([, fields]) => fields.includes(name))
            .map(([value]) => value);
          return `${name} of a ${params.type} note is set by ${tool} when ${params.field} becomes ${arrivals.join(' or ')}, so ${writer} may not set, change or remove it by hand. Call ${tool} with path "${path}" to move the note (giving ${name} there); change the rest of the note with edit_note, leaving ${name} as it is.`;
        }
        if (JSON.stringify(before[params.field]) === JSON.stringify(after?.[params.field])) return null;
        return `${params.field} of a ${params.type} note moves only with ${tool} (${stepsText(params)}), so ${writer} may not change it by hand. Call ${tool} with path "${path}" and the value it should move to; change the rest of the note with edit_note, leaving ${params.field} as it is.`;
      }
      if (!isOfType) return null;
      const preset = Object.keys(params.requiredFields).find((name) => after?.[name] !== undefined && after?.[name] !== null);
      if (preset !== undefined) {
        const becomes = change.before === null ? `A new ${params.type} note` : `A note that becomes a ${params.type} note`;
        return `${becomes} starts without ${preset}: ${tool} sets it when the note arrives where it is required, so ${writer} may not write "${path}" with it. Leave ${preset} out, then call ${tool} with path "${path}" to move the note along the steps.`;
      }
      const value = after?.[params.field];
      if (value === undefined || value === null || String(value) === first) return null;
      const becomes = change.before === null ? `A new ${params.type} note` : `A note that becomes a ${params.type} note`;
      return `${becomes} starts at ${params.field}: ${first} (or without ${params.field}), and only ${tool} moves it on (${stepsText(params)}), so ${writer} may not write "${path}" with ${params.field}: ${JSON.stringify(value)}. Write it with ${params.field}: ${first} or without it, then call ${tool} with path "${path}" to move it along the steps.`;
    },
  };
}
