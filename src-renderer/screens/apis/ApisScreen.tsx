import { ComingSoon } from '../../components/ComingSoon.js';

export default function ApisScreen() {
  return (
    <ComingSoon
      title="APIs"
      description="APIs defined by an OpenAPI document, and the Passthrough configuration that forwards their requests to a target URL in another system."
      planned={[
        'Import an API from an OpenAPI document (JSON or YAML) and see its base path and operations.',
        'Create or modify a Passthrough API: all operations or one operation, the four target URL sections with a live preview, CORS and allowed origins, and header rules (Add, Overwrite, Remove).',
        'Choose the cross-platform agent groups that expose the API.',
      ]}
    />
  );
}
