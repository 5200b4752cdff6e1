import { ComingSoon } from '../../components/ComingSoon.js';

export default function ApiPoliciesScreen() {
  return (
    <ComingSoon
      title="API policies"
      description="Runtime access to exposed endpoints is controlled by API policies, for Passthrough APIs as for other APIs."
      planned={[
        'Create, change and delete API policies and assign them to APIs.',
        'Manage API keys (their secret is shown once).',
      ]}
    />
  );
}
