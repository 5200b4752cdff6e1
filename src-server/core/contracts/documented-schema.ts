import * as z from 'zod';

/** Documented schemas whose JSON Schema is not converted yet (see `completeDocumentedSchemas`). */
const pending: (() => void)[] = [];

/**
 * A body schema that the framework accepts as is (any JSON) but that documents `schema` in the OpenAPI
 * document. For bodies the handler validates itself, so that its error keys can follow the editor's paths
 * (`operations["GET /orders/{id}"].target.section3`) instead of the framework's dotted names.
 *
 * The conversion to JSON Schema waits for the first OpenAPI document (`completeDocumentedSchemas`): done here, at
 * module load, it cost every start ~10 ms for a document most starts never build. Until then the schema carries
 * only its id and description.
 */
export function documentedAs(id: string, description: string, schema: z.ZodType): z.ZodType {
  const documented = z.unknown().meta({ id, description });
  pending.push(() => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    z.globalRegistry.add(documented, { ...json, id, description });
  });
  return documented;
}

/** Gives every documented schema its full JSON Schema; called before an OpenAPI document is generated. */
export function completeDocumentedSchemas(): void {
  for (const complete of pending.splice(0)) complete();
}
