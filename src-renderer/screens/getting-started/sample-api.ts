// The sample the first run starts from: bundled with the console, imported through the API like any document.
import inventoryApiDocument from '../../../resources/samples/inventory-api.openapi.json';

export const SAMPLE_API = {
  name: 'Inventory API',
  basePath: '/inventory/v2',
  document: inventoryApiDocument as unknown,
  /** The request the third step sends through the gateway (an operation of the sample). */
  request: { method: 'GET', path: '/items/ABC-123?warehouse=berlin' },
  policyName: 'Inventory API (getting started, public)',
} as const;

/** All operations to the echo target: the rest of the path and the query go along. */
export function echoPassthroughTarget(echoTargetUrl: string) {
  return {
    section1: echoTargetUrl,
    section2: '',
    section3: '{{#api.OperationPath}}',
    section4: '{{#api.QueryParameters}}',
  };
}
