import * as z from 'zod';

/**
 * A body schema that the framework accepts as is (any JSON) but that documents `schema` in the OpenAPI
 * document. For bodies the handler validates itself, so that its error keys can follow the editor's paths
 * (`operations["GET /orders/{id}"].target.section3`) instead of the framework's dotted names.
 */
export function documentedAs(id: string, description: string, schema: z.ZodType): z.ZodType {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return z.unknown().meta({ ...json, id, description });
}
