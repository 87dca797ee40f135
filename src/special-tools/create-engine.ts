// The `create` engine (spec: "Special tools", the example `create_decision`; issue 15): creates
// one note of one type, its input the type's frontmatter fields plus `body`.
import { z } from 'zod';
import { placeFields } from '../notes/places.ts';
import { defineEngine, type JsonSchemaObject, type Resolved } from './engine.ts';

/** The parameters of a create tool: the type, its listed fields and the place its path comes from. */
export interface CreateParams {
  type: string;
  /** The type's first place: the path is built from it. */
  place: string;
  /** Each frontmatter property of the type (but the type field) as the type's schema gives it. */
  properties: Record<string, JsonSchemaObject>;
  /** The properties the type's schema requires. */
  required: string[];
  /** Placeholders of the place that are no property: input fields that only build the path. */
  pathFields: string[];
}

const BODY = 'The note text below the frontmatter, put into the type template where it says {body}.';

/**
 * `create`: settings `type` (a type of the repository, with at least one place). Its input:
 * each property of the type's frontmatter schema, with its schema and description, required
 * as the schema says; each placeholder of the first place that is no property (such as
 * `{project:slug}`), required, used for the path only; and `body`. A create tool without a
 * type would be create_note itself, so it is left out (spec: "Not twice").
 */
export const createEngine = defineEngine({
  name: 'create',
  about: 'Creates one note of one type: its fields are the input, its path comes from the type, and an existing note is never overwritten.',
  defaultTitle: 'Create a note',
  settings: z.strictObject({
    type: z.string({ error: 'type must name a note type of the repository, e.g. "type: decision"' }).optional(),
  }),
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  resolve(settings, config): Resolved<CreateParams> {
    if (settings.type === undefined)
      return { problem: 'names no type, so it would do what create_note already does; give "type: <a type of .vault/types/>"' };
    const type = config.types.get(settings.type);
    if (type === undefined) return { problem: `type "${settings.type}" names no type: there is no .vault/types/${settings.type}.md` };
    const place = type.places[0];
    if (place === undefined) return { problem: `the type "${type.name}" has no places, so a note's path cannot be built; give it places` };
    const schema = type.frontmatter as { properties?: Record<string, JsonSchemaObject>; required?: unknown };
    const properties: Record<string, JsonSchemaObject> = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name === config.settings.typeField || name === 'body') continue;
      properties[name] = typeof property === 'object' && property !== null ? property : {};
    }
    const required = Array.isArray(schema.required)
      ? schema.required.filter((name): name is string => typeof name === 'string' && name in properties)
      : [];
    const pathFields = placeFields(place).filter((name) => !(name in properties) && name !== 'body');
    return { params: { type: type.name, place, properties, required, pathFields } };
  },
  input(params) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, property] of Object.entries(params.properties)) {
      const field = fieldSchema(property);
      shape[name] = params.required.includes(name) ? field : field.optional();
    }
    for (const name of params.pathFields) shape[name] = z.string().describe(pathFieldDescription(name, params.place));
    shape['body'] = z.string().describe(BODY);
    return z.object(shape);
  },
  inputJson(params) {
    const properties: Record<string, JsonSchemaObject> = { ...params.properties };
    for (const name of params.pathFields) properties[name] = { type: 'string', description: pathFieldDescription(name, params.place) };
    properties['body'] = { type: 'string', description: BODY };
    return {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties,
      required: [...params.required, ...params.pathFields, 'body'],
    };
  },
  output: () =>
    z.object({
      path: z.string().describe('Where the note was created, relative to the repository root.'),
      commit: z.string().describe('Hash of the commit that holds the new note, as Git recorded it.'),
    }),
});

/** A property's JSON Schema as a zod schema that validates the call (the type's schema checks it again, with Ajv). */
function fieldSchema(property: JsonSchemaObject): z.ZodType {
  try {
    return z.fromJSONSchema(property as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A keyword zod cannot read ($ref to elsewhere): the type's own check decides.
    return z.unknown();
  }
}

function pathFieldDescription(name: string, place: string): string {
  return `Fills {${name}} in the note's path, ${place}. Not written into the note.`;
}
